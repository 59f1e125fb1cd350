// `flowscope synth --nodes N [--depth D] --out FILE`: a synthetic TensorFlow-like graph for scale tests.
#include <cstdio>
#include <filesystem>

#include "base/strings.h"
#include "cli/command.h"
#include "io/graph_writer.h"
#include "ir/synthetic_graph.h"

namespace flowscope::cli {

int runSynth(const Args& args) {
  SyntheticGraphOptions options;
  int64_t nodes = 0, depth = options.depth;
  if (!parseInt64(args.value("--nodes").value_or(""), &nodes) || nodes < 20 || nodes > 10'000'000) {
    std::fprintf(stderr, "flowscope synth: --nodes needs a number from 20 to 10000000\n");
    return kExitUsage;
  }
  if (auto d = args.value("--depth"); d && (!parseInt64(*d, &depth) || depth < 1 || depth > 6)) {
    std::fprintf(stderr, "flowscope synth: --depth needs a number from 1 to 6\n");
    return kExitUsage;
  }
  const std::string out = args.value("--out").value_or("");
  if (out.empty()) {
    std::fprintf(stderr, "flowscope synth: --out FILE is required\n");
    return kExitUsage;
  }
  if (std::filesystem::exists(out) && !args.flag("--force")) {
    std::fprintf(stderr, "flowscope synth: %s exists; pass --force to replace it\n", out.c_str());
    return kExitUsage;
  }
  options.nodes = static_cast<size_t>(nodes);
  options.depth = static_cast<int>(depth);
  Graph graph = makeSyntheticGraph(options);
  Status s = writeGraph(graph, out);
  if (!s) {
    std::fprintf(stderr, "flowscope synth: %s\n", s.message().c_str());
    return kExitBadInput;
  }
  std::printf("%s: %zu nodes, %d scope levels\n", out.c_str(), graph.size(), options.depth);
  return kExitOk;
}

}  // namespace flowscope::cli
