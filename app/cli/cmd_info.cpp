// `flowscope info FILE [--json]`: what a graph file holds.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "cli/command.h"
#include "io/loader.h"
#include "io/model_summary.h"
#include "ops/onnx_op_set.h"

namespace flowscope::cli {
namespace {

using nlohmann::json;

std::string typeAndShape(DType dtype, const Shape& shape) {
  return std::string(dtype == DType::kInvalid ? "?" : dtypeName(dtype)) + " " + shape.toString();
}

// The same for a graph value; an ONNX sequence, map or optional says its type ("seq(tensor(float))") instead.
std::string valueType(const Model& model, const std::string& tensor, DType dtype, const Shape& shape) {
  if (dtype == DType::kVariant)
    if (const Node* node = model.graph.findNode(tensor.substr(0, tensor.rfind(':'))))
      if (const AttrValue* type = node->attr(kOnnxTypeAttr)) return type->s();
  return typeAndShape(dtype, shape);
}

json endpointJson(const GraphEndpoint& e) {
  return {{"name", e.name}, {"op", e.op}, {"dtype", std::string(dtypeName(e.dtype))}, {"shape", e.shape.toString()}};
}

json specJson(const TensorSpecInfo& s) {
  return {{"key", s.key},
          {"name", s.tensorName},
          {"dtype", std::string(dtypeName(s.dtype))},
          {"shape", s.shape.toString()}};
}

json infoJson(const Model& model, const ModelSummary& s) {
  json j;
  j["path"] = model.path;
  j["format"] = model.format;
  if (!model.metadata.empty()) {
    json metadata = json::object();
    for (const auto& [key, value] : model.metadata) metadata[key] = value;
    j["metadata"] = metadata;
  }
  j["producer"] = model.graph.versions.present ? json(model.graph.versions.producer) : json(nullptr);
  j["min_consumer"] = model.graph.versions.minConsumer;
  j["node_count"] = s.nodeCount;
  j["op_histogram"] = s.opHistogram;
  j["inputs"] = json::array();
  for (const auto& e : s.inputs) j["inputs"].push_back(endpointJson(e));
  j["outputs"] = json::array();
  for (const auto& e : s.outputs) j["outputs"].push_back(endpointJson(e));
  j["signatures"] = json::array();
  for (const auto& sig : model.signatures) {
    json js = {{"key", sig.key}, {"method", sig.methodName}, {"inputs", json::array()}, {"outputs", json::array()}};
    for (const auto& in : sig.inputs) js["inputs"].push_back(specJson(in));
    for (const auto& out : sig.outputs) js["outputs"].push_back(specJson(out));
    j["signatures"].push_back(js);
  }
  j["function_count"] = s.functions.size();
  j["functions"] = json::array();
  for (const auto& f : s.functions) j["functions"].push_back({{"name", f.name}, {"node_count", f.nodeCount}});
  j["variables"] = json::array();
  for (const auto& v : model.variables)
    j["variables"].push_back({{"key", v.checkpointKey},
                              {"node", v.node},
                              {"dtype", std::string(dtypeName(v.dtype))},
                              {"shape", v.shape.toString()},
                              {"has_value", v.value.isValid()}});
  j["tags"] = model.tags;
  j["tensorflow_version"] = model.tensorflowVersion;
  j["unknown_ops"] = s.unknownOps;
  j["warnings"] = model.warnings;
  j["problems"] = model.problems;
  return j;
}

void printText(const Model& model, const ModelSummary& s) {
  std::printf("File:       %s\n", model.path.c_str());
  std::printf("Format:     %s", model.format.c_str());
  if (!model.tags.empty()) {
    std::string tags;
    for (const auto& t : model.tags) tags += (tags.empty() ? "" : ",") + t;
    std::printf(" (tags: %s)", tags.c_str());
  }
  if (!model.tensorflowVersion.empty()) std::printf(", made by %s", model.tensorflowVersion.c_str());
  std::printf("\n");
  if (model.graph.versions.present)
    std::printf("Producer:   %d (min consumer %d)\n", model.graph.versions.producer, model.graph.versions.minConsumer);
  else if (model.metadata.empty())
    std::printf("Producer:   (no versions field)\n");
  for (const auto& [key, value] : model.metadata)  // what an ONNX file says about itself: producer, opsets, ...
    std::printf("  %-14s %s\n", (key + ":").c_str(), value.substr(0, 100).c_str());
  std::printf("Nodes:      %zu", s.nodeCount);
  if (!s.functions.empty()) std::printf(", plus %zu in %zu functions", s.functionNodeCount, s.functions.size());
  std::printf("\nOps:        %zu types\n", s.opHistogram.size());
  for (const auto& [op, count] : s.opHistogram) std::printf("  %6zu  %s\n", count, op.c_str());
  std::printf("Inputs:     %zu\n", s.inputs.size());
  for (const auto& e : s.inputs)
    std::printf("  %s: %s\n", e.name.c_str(), valueType(model, e.name, e.dtype, e.shape).c_str());
  std::printf("Outputs:    %zu (tensors nothing consumes)\n", s.outputs.size());
  for (size_t i = 0; i < s.outputs.size() && i < 20; ++i)
    std::printf("  %s (%s): %s\n", s.outputs[i].name.c_str(), s.outputs[i].op.c_str(),
                valueType(model, s.outputs[i].name, s.outputs[i].dtype, s.outputs[i].shape).c_str());
  if (s.outputs.size() > 20) std::printf("  ... and %zu more\n", s.outputs.size() - 20);
  std::printf("Signatures: %zu\n", model.signatures.size());
  for (const auto& sig : model.signatures) {
    std::printf("  %s%s%s\n", sig.key.c_str(), sig.methodName.empty() ? "" : "  ", sig.methodName.c_str());
    for (const auto& in : sig.inputs)
      std::printf("    in  %s: %s <- %s\n", in.key.c_str(), valueType(model, in.tensorName, in.dtype, in.shape).c_str(),
                  in.tensorName.c_str());
    for (const auto& out : sig.outputs)
      std::printf("    out %s: %s <- %s\n", out.key.c_str(),
                  valueType(model, out.tensorName, out.dtype, out.shape).c_str(), out.tensorName.c_str());
  }
  std::printf("Functions:  %zu\n", s.functions.size());
  for (const auto& f : s.functions)
    std::printf("  %s: %s\n", f.name.c_str(), counted(f.nodeCount, "node", "nodes").c_str());
  std::printf("Variables:  %zu\n", model.variables.size());
  for (const auto& v : model.variables)
    std::printf("  %s: %s%s%s = %s\n", v.checkpointKey.c_str(), typeAndShape(v.dtype, v.shape).c_str(),
                v.node.empty() ? "" : " -> node ", v.node.c_str(),
                v.value.isValid() ? v.value.preview(4).c_str() : "(no value)");
  for (const auto& w : model.warnings) std::printf("Warning:    %s\n", w.c_str());
  for (size_t i = 0; i < model.problems.size() && i < 10; ++i)
    std::printf("Problem:    %s\n", model.problems[i].c_str());
  if (model.problems.size() > 10) std::printf("Problem:    ... and %zu more\n", model.problems.size() - 10);
}

}  // namespace

int runInfo(const Args& args) {
  LoadOptions options;
  if (auto tag = args.value("--tag")) options.tag = *tag;
  auto model = loadModel(args.positional()[0], options);
  if (!model) {
    std::fprintf(stderr, "flowscope info: %s\n", model.status().message().c_str());
    return kExitBadInput;
  }
  ModelSummary summary = summarizeModel(*model);
  if (args.flag("--json"))
    std::printf("%s\n", infoJson(*model, summary).dump(2).c_str());
  else
    printText(*model, summary);
  return kExitOk;
}

}  // namespace flowscope::cli
