// libgvc calls, and a memo of their results.
#include "layout/dot_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <mutex>
#include <string>

extern "C" {
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
}

namespace flowscope {
namespace {

std::mutex gGraphvizMutex;

GVC_t* context() {
  static lt_symlist_t preloaded[] = {{"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library},
                                     {nullptr, nullptr}};
  static GVC_t* gvc = gvContextPlugins(preloaded, 0);
  return gvc;
}

char* mutableText(std::string& s) { return s.data(); }

}  // namespace

Point dotLayout(std::vector<LayoutBox>& boxes, std::vector<LayoutEdge>& edges) {
  std::lock_guard lock(gGraphvizMutex);
  std::string name = "g", rankdir = "rankdir", tb = "TB", nodesep = "nodesep", ranksep = "ranksep", shape = "shape",
              box = "box", fixed = "fixedsize", yes = "true", width = "width", height = "height", label = "label",
              empty = "", one = "1", nodeSep = "0.3", rankSep = "0.45";
  Agraph_t* g = agopen(mutableText(name), Agdirected, nullptr);
  agsafeset(g, mutableText(rankdir), mutableText(tb), mutableText(empty));
  agsafeset(g, mutableText(nodesep), mutableText(nodeSep), mutableText(empty));
  agsafeset(g, mutableText(ranksep), mutableText(rankSep), mutableText(empty));
  // Bound network simplex (x coordinates and ranking) to 4 iterations per node: unbounded, a node feeding 100
  // consumers down a chain (a traced Python loop) took 48 s for 104 nodes; bounded, 1.2 s, and ordinary graphs
  // (cpm_model, the synthetic 10k) lay out exactly as before.
  std::string nslimit = "nslimit", nslimit1 = "nslimit1", four = "4";
  agsafeset(g, mutableText(nslimit), mutableText(four), mutableText(empty));
  agsafeset(g, mutableText(nslimit1), mutableText(four), mutableText(empty));
  agattr(g, AGNODE, mutableText(shape), mutableText(box));
  agattr(g, AGNODE, mutableText(fixed), mutableText(yes));
  agattr(g, AGNODE, mutableText(label), mutableText(empty));
  Agsym_t* w = agattr(g, AGNODE, mutableText(width), mutableText(one));
  Agsym_t* h = agattr(g, AGNODE, mutableText(height), mutableText(one));
  std::vector<Agnode_t*> nodes;
  for (size_t i = 0; i < boxes.size(); ++i) {
    std::string id = "n" + std::to_string(i);
    Agnode_t* n = agnode(g, mutableText(id), 1);
    std::string ws = std::to_string(boxes[i].w / 72.0), hs = std::to_string(boxes[i].h / 72.0);
    agxset(n, w, mutableText(ws));
    agxset(n, h, mutableText(hs));
    nodes.push_back(n);
  }
  std::vector<Agedge_t*> created;
  for (const auto& e : edges)
    created.push_back(agedge(g, nodes[static_cast<size_t>(e.from)], nodes[static_cast<size_t>(e.to)], nullptr, 1));
  gvLayout(context(), g, "dot");
  const boxf bb = GD_bb(g);
  const double top = bb.UR.y;
  for (size_t i = 0; i < boxes.size(); ++i) {
    const pointf c = ND_coord(nodes[i]);
    boxes[i].x = c.x - bb.LL.x - boxes[i].w / 2;
    boxes[i].y = top - c.y - boxes[i].h / 2;
  }
  for (size_t k = 0; k < edges.size(); ++k) {
    edges[k].points.clear();
    splines* spl = ED_spl(created[k]);
    if (!spl || spl->size == 0) continue;
    const bezier& bz = spl->list[0];
    for (int p = 0; p < bz.size; ++p) edges[k].points.push_back(Point{bz.list[p].x - bb.LL.x, top - bz.list[p].y});
    if (bz.eflag) edges[k].points.push_back(Point{bz.ep.x - bb.LL.x, top - bz.ep.y});  // the arrow's tip
  }
  Point size{bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y};
  gvFreeLayout(context(), g);
  agclose(g);
  return size;
}

Point DotMemo::layout(std::vector<LayoutBox>& boxes, std::vector<LayoutEdge>& edges) {
  if (boxes.size() > kMaxBoxes) return dotLayout(boxes, edges);
  std::string key;
  key.reserve(boxes.size() * 2 * sizeof(double) + edges.size() * 2 * sizeof(int));
  auto append = [&key](const auto& value) { key.append(reinterpret_cast<const char*>(&value), sizeof(value)); };
  for (const auto& b : boxes) append(b.w), append(b.h);
  for (const auto& e : edges) append(e.from), append(e.to);
  {
    std::lock_guard lock(m_mutex);
    if (auto it = m_entries.find(key); it != m_entries.end()) {
      boxes = it->second.boxes;
      edges = it->second.edges;
      return it->second.size;
    }
  }
  const Point size = dotLayout(boxes, edges);
  std::lock_guard lock(m_mutex);
  m_entries.emplace(std::move(key), Entry{size, boxes, edges});
  return size;
}

size_t DotMemo::size() const {
  std::lock_guard lock(m_mutex);
  return m_entries.size();
}

}  // namespace flowscope
