// `flowscope optimize FILE`: run the pass pipeline, print what each pass did, dump per-pass graphs, write the result.
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "cli/command.h"
#include "io/graph_writer.h"
#include "io/loader.h"
#include "io/onnx_writer.h"
#include "workflow/optimize_model.h"

namespace flowscope::cli {
namespace {

using nlohmann::json;

std::string statsText(const PassStats& stats) {
  std::string text;
  for (const auto& [key, value] : stats) text += (text.empty() ? "" : ", ") + key + " " + std::to_string(value);
  return text;
}

json traceJson(const PassRecord& t) {
  json stats = json::object();
  for (const auto& [key, value] : t.stats) stats[key] = value;
  json j = {{"pass", t.pass},
            {"iteration", t.iteration + 1},
            {"changed", t.changed},
            {"nodes_before", t.nodesBefore},
            {"nodes_after", t.nodesAfter},
            {"edges_before", t.edgesBefore},
            {"edges_after", t.edgesAfter},
            {"seconds", t.seconds},
            {"stats", stats}};
  if (!t.error.empty()) j["error"] = t.error;
  return j;
}

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "flowscope optimize: %s\n", message.c_str());
  return code;
}

// One .pbtxt per pass that changed the graph: "03_constant_folding.pbtxt" (number = position in the pipeline).
Status dumpPasses(const PipelineResult& result, const std::string& dir) {
  std::error_code ec;
  if (std::filesystem::create_directories(dir, ec), ec)
    return invalidArgument(dir + ": cannot create the dump directory: " + ec.message());
  FS_RETURN_IF_ERROR(writeGraph(*result.input, (std::filesystem::path(dir) / "00_input.pbtxt").string()));
  for (size_t i = 0; i < result.records.size(); ++i) {
    const PassRecord& t = result.records[i];
    if (!t.changed || !t.snapshot) continue;
    std::string prefix = std::to_string(i + 1);
    prefix = std::string(prefix.size() < 2 ? 2 - prefix.size() : 0, '0') + prefix + "_";
    FS_RETURN_IF_ERROR(writeGraph(*t.snapshot, (std::filesystem::path(dir) / (prefix + t.pass + ".pbtxt")).string()));
  }
  return Status::ok();
}

}  // namespace

int runOptimize(const Args& args) {
  namespace fs = std::filesystem;
  const std::string& in = args.positional()[0];
  PipelineOptions options;
  if (auto passes = args.value("--passes")) {
    auto parsed = parsePassList(*passes);
    if (!parsed) return fail(parsed.status().message(), kExitUsage);
    options.passes = *parsed;
  }
  if (auto it = args.value("--iterations")) {
    int64_t n = 0;
    if (!parseInt64(*it, &n) || n < 1 || n > 10) return fail("--iterations needs a number from 1 to 10", kExitUsage);
    options.iterations = static_cast<int>(n);
  }
  options.verify = !args.flag("--no-verify");
  auto out = args.value("--out");
  if (out && fs::path(*out).extension() == ".onnx" && options.passes.empty()) {
    // An ONNX file holds only ONNX ops: the default pipeline without the pass whose rewrites are Flowscope's own.
    options.passes = parsePassList("-onnx_channels_last").value();
    std::fprintf(stderr,
                 "flowscope optimize: writing ONNX, so onnx_channels_last is left out (its NHWC fused convolutions "
                 "are Flowscope's own ops, which an ONNX file cannot hold)\n");
  }
  std::error_code ec;
  if (out && fs::exists(*out) && fs::equivalent(in, *out, ec))
    return fail("refusing to overwrite the input " + in, kExitUsage);
  if (out && fs::exists(*out) && !args.flag("--force"))
    return fail(*out + " exists; pass --force to replace it", kExitUsage);

  LoadOptions load;
  load.tag = args.value("--tag").value_or("");
  auto model = loadModel(in, load);
  if (!model) return fail(model.status().message(), kExitBadInput);
  auto shared = std::make_shared<const Model>(std::move(model).value());
  auto optimized = optimizeModel(shared, options);
  if (!optimized) return fail(optimized.status().message(), kExitBadInput);
  const PipelineResult& result = optimized->pipeline;

  if (auto dir = args.value("--dump-after")) {
    Status s = dumpPasses(result, *dir);
    if (!s) return fail(s.message(), kExitBadInput);
  }
  if (out) {  // .onnx keeps the ONNX op set (a node ONNX cannot hold is named); anything else is a GraphDef
    Status s =
        fs::path(*out).extension() == ".onnx" ? writeOnnx(*optimized->model, *out) : writeGraph(*result.output, *out);
    if (!s) return fail(s.message(), kExitBadInput);
  }
  if (args.flag("--json")) {
    json passes = json::array();
    for (const auto& t : result.records) passes.push_back(traceJson(t));
    json j = {{"file", in},
              {"nodes_before", result.input->size()},
              {"nodes_after", result.output->size()},
              {"seconds", result.seconds},
              {"passes", passes}};
    if (out) j["out"] = *out;
    std::printf("%s\n", j.dump(2).c_str());
    return kExitOk;
  }
  std::printf("%-3s %-28s %-4s %-7s %17s %17s %9s  %s\n", "#", "pass", "iter", "changed", "nodes", "edges", "ms",
              "what");
  for (size_t i = 0; i < result.records.size(); ++i) {
    const PassRecord& t = result.records[i];
    std::string nodes = std::to_string(t.nodesBefore) + " -> " + std::to_string(t.nodesAfter);
    std::string edges = std::to_string(t.edgesBefore) + " -> " + std::to_string(t.edgesAfter);
    std::printf("%-3zu %-28s %-4d %-7s %17s %17s %9.2f  %s\n", i + 1, t.pass.c_str(), t.iteration + 1,
                !t.error.empty() ? "FAILED"
                : t.changed      ? "yes"
                                 : "no",
                nodes.c_str(), edges.c_str(), t.seconds * 1e3,
                t.error.empty() ? statsText(t.stats).c_str() : t.error.c_str());
  }
  std::printf("%zu -> %zu nodes in %.1f ms", result.input->size(), result.output->size(), result.seconds * 1e3);
  if (out) std::printf("; wrote %s", out->c_str());
  std::printf("\n");
  return kExitOk;
}

}  // namespace flowscope::cli
