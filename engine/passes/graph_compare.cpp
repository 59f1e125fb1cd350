// Matching two graphs' nodes: by name, then by structure.
#include "passes/graph_compare.h"

#include <algorithm>
#include <unordered_map>

#include "ir/graph_algorithms.h"
#include "passes/graph_compare_nodes.h"
#include "passes/graph_diff.h"

namespace flowscope {
namespace {

constexpr int kMaxRounds = 16;

struct Matching {
  const Graph& a;
  const Graph& b;
  std::vector<int64_t> aOfB;  ///< b node -> a node, or -1
  std::vector<int64_t> bOfA;
  size_t byName = 0, byStructure = 0;

  void pair(size_t ia, size_t ib, bool structural) {
    aOfB[ib] = static_cast<int64_t>(ia);
    bOfA[ia] = static_cast<int64_t>(ib);
    ++(structural ? byStructure : byName);
  }
};

void matchByName(Matching* m) {
  for (size_t ib = 0; ib < m->b.size(); ++ib) {
    int64_t ia = m->a.find(m->b.node(ib).name);
    if (ia >= 0 && m->bOfA[static_cast<size_t>(ia)] < 0) m->pair(static_cast<size_t>(ia), ib, false);
  }
}

// "Op|producer:index|..." in a's names; empty when an input of a b node has no match yet.
std::string structureKey(const Node& n, const Matching* m, bool inB) {
  if (n.inputs.empty()) return "";
  std::string key = n.op;
  for (const TensorRef& in : n.inputs) {
    std::string producer = in.node;
    if (inB) {
      int64_t ib = m->b.find(in.node);
      if (ib < 0 || m->aOfB[static_cast<size_t>(ib)] < 0) return "";
      producer = m->a.node(static_cast<size_t>(m->aOfB[static_cast<size_t>(ib)])).name;
    }
    key += "|" + producer + ":" + std::to_string(in.index);
  }
  return key;
}

// Unmatched nodes whose inputs all match: the same op on the same (matched) producers.
bool matchForward(Matching* m) {
  std::unordered_multimap<std::string, size_t> candidates;
  for (size_t ia = 0; ia < m->a.size(); ++ia)
    if (m->bOfA[ia] < 0) {
      std::string key = structureKey(m->a.node(ia), m, false);
      if (!key.empty()) candidates.emplace(key, ia);
    }
  bool changed = false;
  for (size_t ib : topologicalOrder(m->b)) {
    if (m->aOfB[ib] >= 0) continue;
    const Node& n = m->b.node(ib);
    std::string key = structureKey(n, m, true);
    auto [lo, hi] = candidates.equal_range(key);
    int64_t best = -1;
    for (auto it = lo; it != hi && !key.empty(); ++it) {
      if (m->bOfA[it->second] >= 0) continue;
      if (best < 0 || m->a.node(it->second).attrs == n.attrs) best = static_cast<int64_t>(it->second);
      if (m->a.node(it->second).attrs == n.attrs) break;
    }
    if (best >= 0) {
      m->pair(static_cast<size_t>(best), ib, true);
      changed = true;
    }
  }
  return changed;
}

// Unmatched producers (Consts, Placeholders, ...) through their consumers' matches: b's node feeding slot s of a
// matched consumer pairs with what feeds slot s of the consumer's match, when the ops agree.
bool matchBackward(Matching* m) {
  bool changed = false;
  for (size_t ib = 0; ib < m->b.size(); ++ib) {
    if (m->aOfB[ib] < 0) continue;
    const Node& nb = m->b.node(ib);
    const Node& na = m->a.node(static_cast<size_t>(m->aOfB[ib]));
    for (size_t s = 0; s < nb.inputs.size() && s < na.inputs.size(); ++s) {
      int64_t pb = m->b.find(nb.inputs[s].node), pa = m->a.find(na.inputs[s].node);
      if (pb < 0 || pa < 0 || m->aOfB[static_cast<size_t>(pb)] >= 0 || m->bOfA[static_cast<size_t>(pa)] >= 0) continue;
      if (m->a.node(static_cast<size_t>(pa)).op != m->b.node(static_cast<size_t>(pb)).op) continue;
      if (nb.inputs[s].index != na.inputs[s].index) continue;
      m->pair(static_cast<size_t>(pa), static_cast<size_t>(pb), true);
      changed = true;
    }
  }
  return changed;
}

// What is left: an op with exactly one unmatched node on each side pairs them.
void matchLoneOps(Matching* m) {
  std::map<std::string, std::vector<size_t>> as, bs;
  for (size_t i = 0; i < m->a.size(); ++i)
    if (m->bOfA[i] < 0) as[m->a.node(i).op].push_back(i);
  for (size_t i = 0; i < m->b.size(); ++i)
    if (m->aOfB[i] < 0) bs[m->b.node(i).op].push_back(i);
  for (const auto& [op, list] : bs) {
    auto it = as.find(op);
    if (list.size() == 1 && it != as.end() && it->second.size() == 1) m->pair(it->second.front(), list.front(), true);
  }
}

}  // namespace

std::map<std::string, size_t> GraphComparison::counts() const {
  std::map<std::string, size_t> c = {{"added", added.size()},
                                     {"removed", removed.size()},
                                     {"fused", fusedInto.size()},
                                     {"changed", 0},
                                     {"renamed", 0},
                                     {"op", 0},
                                     {"inputs", 0},
                                     {"attrs", 0},
                                     {"shapes", 0},
                                     {"value", 0}};
  for (const NodeChange& change : changed) {
    for (const std::string& k : change.kinds) ++c[k];
    if (std::any_of(change.kinds.begin(), change.kinds.end(), [](const std::string& k) { return k != "renamed"; }))
      ++c["changed"];
  }
  c["unchanged"] = matches.size() - c["changed"];
  return c;
}

GraphComparison compareGraphs(const Graph& before, const Graph& after) {
  Matching m{before, after, std::vector<int64_t>(after.size(), -1), std::vector<int64_t>(before.size(), -1)};
  matchByName(&m);
  for (int round = 0; round < kMaxRounds; ++round) {
    bool forward = matchForward(&m), backward = matchBackward(&m);
    if (!forward && !backward) {
      size_t matched = m.byStructure;
      matchLoneOps(&m);
      if (m.byStructure == matched) break;
    }
  }
  GraphComparison out;
  out.matchedByName = m.byName;
  out.matchedByStructure = m.byStructure;
  for (size_t ib = 0; ib < after.size(); ++ib) {
    if (m.aOfB[ib] < 0)
      out.added.push_back(after.node(ib).name);
    else
      out.matches[before.node(static_cast<size_t>(m.aOfB[ib])).name] = after.node(ib).name;
  }
  for (size_t ia = 0; ia < before.size(); ++ia)
    if (m.bOfA[ia] < 0) out.removed.push_back(before.node(ia).name);
  out.fusedInto = fusedInto(after, out.removed);
  out.changed = compareMatchedNodes(before, after, m.aOfB);
  return out;
}

}  // namespace flowscope
