// Summing events onto nodes.
#include "profile/node_times.h"

#include <algorithm>
#include <map>

namespace flowscope {

std::vector<size_t> eventNodes(const NodeEvent& e, const Graph& graph) {
  std::vector<size_t> nodes;
  const auto add = [&](int64_t node) {
    if (node >= 0 && std::find(nodes.begin(), nodes.end(), static_cast<size_t>(node)) == nodes.end())
      nodes.push_back(static_cast<size_t>(node));
  };
  const int64_t named = graph.find(e.name);
  if (e.fusedFrom.empty() || (named >= 0 && graph.node(static_cast<size_t>(named)).op == e.op)) add(named);
  for (const std::string& name : e.fusedFrom) add(graph.find(name));
  if (nodes.empty()) add(named);
  return nodes;
}

namespace {

// The node an event's time goes on (or -1), the others it computed marked as fused into it.
int64_t nodeOf(const NodeEvent& e, const Graph& graph, NodeTimes& times) {
  if (e.fusedFrom.empty()) return graph.find(e.name);  // most events: one lookup, no list
  const std::vector<size_t> nodes = eventNodes(e, graph);
  if (nodes.empty()) return -1;
  for (size_t k = 1; k < nodes.size(); ++k) times.fusedInto[nodes[k]] = static_cast<int64_t>(nodes[0]);
  return static_cast<int64_t>(nodes[0]);
}

// An event of a node the optimizer made for others (a layout transpose, which records the nodes that read it) on a
// graph without that node: its time is spread over the groups its readers ran in, not put on the first reader.
bool spreadOverReaders(const NodeEvent& e, const Graph& graph) {
  if (e.fusedFrom.empty() || computesItsOriginals(e.name, e.fusedFrom)) return false;
  const int64_t named = graph.find(e.name);
  return named < 0 || graph.node(static_cast<size_t>(named)).op != e.op;
}

// The distinct groups (their anchors, by fusedInto) of the nodes `e` was made for.
std::vector<size_t> readerGroups(const NodeEvent& e, const Graph& graph, const NodeTimes& times) {
  std::vector<size_t> groups;
  for (const std::string& name : e.fusedFrom) {
    int64_t node = graph.find(name);
    for (size_t hops = 0; node >= 0 && times.fusedInto[static_cast<size_t>(node)] >= 0 && hops < graph.size(); ++hops)
      node = times.fusedInto[static_cast<size_t>(node)];
    if (node >= 0 && std::find(groups.begin(), groups.end(), static_cast<size_t>(node)) == groups.end())
      groups.push_back(static_cast<size_t>(node));
  }
  return groups;
}

// Adds `share` of event `e` (seconds per run already worked out) to node i.
void addEvent(NodeTimes& times, size_t i, const NodeEvent& e, double seconds, double share) {
  times.seconds[i] += seconds * share;
  times.flops[i] += static_cast<double>(e.flops) * share / times.runs;
  times.bytes[i] += static_cast<double>(e.bytesIn + e.bytesOut) * share / times.runs;
  times.events[i] += share / times.runs;
}

}  // namespace

NodeTimes nodeTimes(const RunProfile& profile, const Graph& graph) {
  NodeTimes times;
  times.runs = profile.runCount();
  times.seconds.assign(graph.size(), 0.0);
  times.flops.assign(graph.size(), 0.0);
  times.bytes.assign(graph.size(), 0.0);
  times.events.assign(graph.size(), 0.0);
  times.fusedInto.assign(graph.size(), -1);
  const double perRun = 1e-9 / times.runs;
  std::vector<const NodeEvent*> spread;  // after the kernels' own events have marked their fusions
  const auto count = [&](const NodeEvent& e, const std::vector<size_t>& nodes) {
    const double seconds = static_cast<double>(e.durationNs()) * perRun;
    for (size_t i : nodes) addEvent(times, i, e, seconds, 1.0 / static_cast<double>(nodes.size()));
    (nodes.empty() ? times.unmatchedSeconds : times.matchedSeconds) += seconds;
    ++(nodes.empty() ? times.unmatchedEvents : times.matchedEvents);
  };
  for (const NodeEvent& e : profile.events()) {
    if (e.depth > 0) continue;  // a call node's body: inside that node's event, which counts it
    if (spreadOverReaders(e, graph)) {
      spread.push_back(&e);
      continue;
    }
    const int64_t node = nodeOf(e, graph, times);
    count(e, node >= 0 ? std::vector<size_t>{static_cast<size_t>(node)} : std::vector<size_t>{});
  }
  for (const NodeEvent* e : spread) count(*e, readerGroups(*e, graph, times));
  return times;
}

namespace {

// Union-find over node indices.
size_t rootOf(std::vector<size_t>& parent, size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

void joinFusions(std::vector<size_t>& parent, const NodeTimes& times) {
  for (size_t i = 0; i < times.fusedInto.size() && i < parent.size(); ++i)
    if (const int64_t anchor = times.fusedInto[i]; anchor >= 0 && static_cast<size_t>(anchor) < parent.size())
      parent[rootOf(parent, i)] = rootOf(parent, static_cast<size_t>(anchor));
}

}  // namespace

std::vector<NodeGroupTimes> compareNodeTimes(const NodeTimes& theirs, const NodeTimes& ours) {
  const size_t n = std::min(theirs.seconds.size(), ours.seconds.size());
  std::vector<size_t> parent(n);
  for (size_t i = 0; i < n; ++i) parent[i] = i;
  joinFusions(parent, theirs);
  joinFusions(parent, ours);
  std::map<size_t, NodeGroupTimes> groups;  // by root
  for (size_t i = 0; i < n; ++i) {
    auto [it, added] = groups.try_emplace(rootOf(parent, i), NodeGroupTimes{i, 0, 0, 0});
    NodeGroupTimes& g = it->second;
    ++g.nodes;
    g.theirs += theirs.seconds[i];
    g.ours += ours.seconds[i];
    if (theirs.seconds[i] > theirs.seconds[g.node]) g.node = i;
  }
  std::vector<NodeGroupTimes> rows;
  for (const auto& [root, g] : groups)
    if (g.theirs > 0) rows.push_back(g);
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.theirs > b.theirs; });
  return rows;
}

std::vector<double> rooflineShares(const NodeTimes& times, const Roofline& roofline) {
  std::vector<double> shares(times.seconds.size(), 0.0);
  for (size_t i = 0; i < shares.size(); ++i)
    if (times.seconds[i] > 0)
      shares[i] = efficiencyOf(times.flops[i], times.bytes[i], times.seconds[i] * 1e9, roofline, times.events[i]).share;
  return shares;
}

}  // namespace flowscope
