// `flowscope diff A B`: two graphs compared node by node (passes/graph_compare.h).
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "io/loader.h"
#include "passes/graph_compare.h"

namespace flowscope::cli {
namespace {

nlohmann::json diffJson(const std::string& a, const std::string& b, const Model& ma, const Model& mb,
                        const GraphComparison& c) {
  nlohmann::json changed = nlohmann::json::array();
  for (const NodeChange& n : c.changed)
    changed.push_back({{"before", n.before}, {"after", n.after}, {"kinds", n.kinds}, {"details", n.details}});
  return {{"before", {{"path", a}, {"format", ma.format}, {"nodes", ma.graph.size()}}},
          {"after", {{"path", b}, {"format", mb.format}, {"nodes", mb.graph.size()}}},
          {"counts", c.counts()},
          {"matched_by_name", c.matchedByName},
          {"matched_by_structure", c.matchedByStructure},
          {"added", c.added},
          {"removed", c.removed},
          {"fused_into", c.fusedInto},
          {"changed", changed}};
}

void printDiff(const std::string& a, const std::string& b, const Model& ma, const Model& mb, const GraphComparison& c) {
  const auto counts = c.counts();
  std::printf("%s (%s, %zu nodes) -> %s (%s, %zu nodes)\n", a.c_str(), ma.format.c_str(), ma.graph.size(), b.c_str(),
              mb.format.c_str(), mb.graph.size());
  std::printf("matched %zu nodes (%zu by name, %zu by structure)\n", c.matches.size(), c.matchedByName,
              c.matchedByStructure);
  std::printf("summary:");
  for (const char* k :
       {"added", "removed", "fused", "renamed", "changed", "op", "inputs", "attrs", "shapes", "value", "unchanged"})
    std::printf(" %s %zu%s", k, counts.at(k), std::string(k) == "unchanged" ? "\n" : ",");
  if (c.identical()) std::printf("the graphs are the same\n");
  for (const std::string& n : c.removed) {
    auto fused = c.fusedInto.find(n);
    std::printf("- %s (%s)%s\n", n.c_str(), ma.graph.findNode(n)->op.c_str(),
                fused == c.fusedInto.end() ? "" : (", fused into " + fused->second).c_str());
  }
  for (const std::string& n : c.added) std::printf("+ %s (%s)\n", n.c_str(), mb.graph.findNode(n)->op.c_str());
  for (const NodeChange& n : c.changed) {
    std::printf("~ %s%s\n", n.after.c_str(), n.before != n.after ? (" (was " + n.before + ")").c_str() : "");
    for (const std::string& d : n.details) std::printf("    %s\n", d.c_str());
  }
}

}  // namespace

int runDiff(const Args& args) {
  LoadOptions load;
  load.tag = args.value("--tag").value_or("");
  const std::string a = args.positional()[0], b = args.positional()[1];
  auto ma = loadModel(a, load);
  if (!ma) {
    std::fprintf(stderr, "flowscope diff: %s\n", ma.status().message().c_str());
    return kExitBadInput;
  }
  auto mb = loadModel(b, load);
  if (!mb) {
    std::fprintf(stderr, "flowscope diff: %s\n", mb.status().message().c_str());
    return kExitBadInput;
  }
  const GraphComparison c = compareGraphs(ma->graph, mb->graph);
  if (args.flag("--json"))
    std::printf("%s\n", diffJson(a, b, *ma, *mb, c).dump(2).c_str());
  else
    printDiff(a, b, *ma, *mb, c);
  return kExitOk;
}

}  // namespace flowscope::cli
