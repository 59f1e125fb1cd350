// Shared body of the profile importer fuzz targets: the input goes through a real file with the name the importer
// expects, is sniffed and loaded, and what loads is matched to a small graph and summed into tables.
#pragma once

#include "fuzz_common.h"
#include "profile/import/importer.h"
#include "profile/profile_match.h"

namespace flowscope::fuzz {

inline const Graph& smallGraph() {
  static const Graph graph = [] {
    Graph g;
    for (const char* name : {"x", "conv1", "/features/features.0/features.0.2/Clip", "relu1"}) {
      Node n;
      n.name = name;
      n.op = g.size() == 0 ? "Placeholder" : g.size() == 1 ? "Conv2D" : g.size() == 2 ? "Clip" : "Relu";
      if (g.size() > 0) n.inputs.push_back({g.node(g.size() - 1).name, 0, ""});
      g.addNode(n);
    }
    return g;
  }();
  return graph;
}

inline int importFromScratch(const ProfileImporter& importer, const std::string& fileName, const uint8_t* data,
                             size_t size) {
  std::string path = writeScratch(fileName, {reinterpret_cast<const char*>(data), size});
  auto source = Source::open(path);
  if (!source) return 0;
  importer.match(*source);
  auto profile = importer.load(*source);
  if (!profile) return 0;
  profile->normalizeTimes();
  matchProfileToGraph(profile->graph ? profile->graph->graph : smallGraph(), &*profile);
  RunProfile tables = profile->toRunProfile();
  (void)tables.byOp();
  (void)tables.slowestNodes(10);
  return 0;
}

}  // namespace flowscope::fuzz
