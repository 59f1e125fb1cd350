// Shared steps of the TensorFlow loaders.
#include "io/model_builder.h"

#include <algorithm>

#include "base/strings.h"
#include "io/tensor_proto.h"
#include "ir/verify.h"
#include "ops/op_registry.h"

namespace flowscope {
namespace {

TensorSpecInfo specFromTensorInfo(const std::string& key, const tensorflow::TensorInfo& info) {
  TensorSpecInfo spec;
  spec.key = key;
  spec.tensorName = info.has_coo_sparse()         ? info.coo_sparse().values_tensor_name()
                    : info.has_composite_tensor() ? "<composite>"
                                                  : info.name();
  spec.dtype = dtypeFromProto(info.dtype());
  if (info.has_tensor_shape()) {
    auto shape = shapeFromProto(info.tensor_shape());
    if (shape) spec.shape = *shape;
  }
  return spec;
}

std::vector<TensorSpecInfo> sortedSpecs(const google::protobuf::Map<std::string, tensorflow::TensorInfo>& map) {
  std::vector<TensorSpecInfo> specs;
  for (const auto& [key, info] : map) specs.push_back(specFromTensorInfo(key, info));
  std::sort(specs.begin(), specs.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
  return specs;
}

}  // namespace

DecodeLimits decodeLimitsFor(uint64_t fileBytes) {
  DecodeLimits limits;
  uint64_t justified = std::max<uint64_t>(fileBytes * 1024, 16u << 20);
  limits.maxTensorBytes = static_cast<size_t>(std::min<uint64_t>(justified, 1ull << 30));
  return limits;
}

Expected<Model> modelFromGraphDef(const tensorflow::GraphDef& proto, const std::string& path, std::string format,
                                  const DecodeLimits& limits) {
  auto graph = graphFromProto(proto, limits);
  if (!graph) return graph.status().withContext(path + ": ");
  Model model;
  model.path = path;
  model.format = std::move(format);
  model.graph = std::move(graph).value();
  noteUnknownOps(model);
  verifyModel(model);
  return model;
}

Expected<Model> modelFromMetaGraph(const tensorflow::MetaGraphDef& meta, const std::string& path, std::string format,
                                   const DecodeLimits& limits) {
  FS_ASSIGN_OR_RETURN(Model model, modelFromGraphDef(meta.graph_def(), path, std::move(format), limits));
  const auto& info = meta.meta_info_def();
  model.tags.assign(info.tags().begin(), info.tags().end());
  model.tensorflowVersion = info.tensorflow_version();
  std::vector<std::string> keys;
  for (const auto& [key, def] : meta.signature_def()) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  for (const auto& key : keys) {
    const auto& def = meta.signature_def().at(key);
    Signature signature;
    signature.key = key;
    signature.methodName = def.method_name();
    signature.inputs = sortedSpecs(def.inputs());
    signature.outputs = sortedSpecs(def.outputs());
    model.signatures.push_back(std::move(signature));
  }
  return model;
}

void noteUnknownOps(Model& model) {
  std::vector<std::string> unknown = OpRegistry::global().unknownOpsIn(model.graph);
  if (!unknown.empty()) model.warnings.push_back("unknown ops (shown, but cannot run): " + joinStrings(unknown, ", "));
}

void verifyModel(Model& model) {
  auto issues = verifyGraph(model.graph, OpRegistry::global().lookupWith(&model.graph.library));
  model.problems.clear();
  for (const auto& issue : issues) model.problems.push_back(issue.toString());
  if (issues.empty()) model.graph.markVerified();
}

}  // namespace flowscope
