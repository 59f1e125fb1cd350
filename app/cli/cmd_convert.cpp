// `flowscope convert IN OUT`: .pb <-> .pbtxt, SavedModel / TF.js -> frozen GraphDef, ONNX -> .onnx (or a GraphDef of
// the ONNX op set, for reading).
#include <cstdio>
#include <filesystem>

#include "cli/command.h"
#include "io/freeze.h"
#include "io/graph_writer.h"
#include "io/loader.h"
#include "io/onnx_writer.h"

namespace flowscope::cli {

int runConvert(const Args& args) {
  namespace fs = std::filesystem;
  const std::string& in = args.positional()[0];
  const std::string& out = args.positional()[1];
  std::error_code ec;
  if (fs::exists(out) && fs::equivalent(in, out, ec)) {
    std::fprintf(stderr, "flowscope convert: refusing to overwrite the input %s\n", in.c_str());
    return kExitUsage;
  }
  if (fs::exists(out) && !args.flag("--force")) {
    std::fprintf(stderr, "flowscope convert: %s exists; pass --force to replace it\n", out.c_str());
    return kExitUsage;
  }
  LoadOptions options;
  if (auto tag = args.value("--tag")) options.tag = *tag;
  auto model = loadModel(in, options);
  if (!model) {
    std::fprintf(stderr, "flowscope convert: %s\n", model.status().message().c_str());
    return kExitBadInput;
  }
  if (fs::path(out).extension() == ".onnx") {
    Status written = writeOnnx(*model, out);
    if (!written) {
      std::fprintf(stderr, "flowscope convert: %s\n", written.message().c_str());
      return kExitBadInput;
    }
    std::printf("%s (%s, %zu nodes) -> %s\n", in.c_str(), model->format.c_str(), model->graph.size(), out.c_str());
    return kExitOk;
  }
  auto frozen = freezeModel(*model);
  if (!frozen) {
    std::fprintf(stderr, "flowscope convert: %s\n", frozen.status().message().c_str());
    return kExitBadInput;
  }
  Status written = writeGraph(frozen->graph, out);
  if (!written) {
    std::fprintf(stderr, "flowscope convert: %s\n", written.message().c_str());
    return kExitBadInput;
  }
  std::printf("%s (%s, %zu nodes) -> %s (%zu nodes", in.c_str(), model->format.c_str(), model->graph.size(),
              out.c_str(), frozen->graph.size());
  if (frozen->frozenVariables) std::printf(", %zu variables frozen", frozen->frozenVariables);
  std::printf(")\n");
  return kExitOk;
}

}  // namespace flowscope::cli
