// Matching imported events to graph nodes.
#include "profile/profile_match.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "ir/graph_algorithms.h"

namespace flowscope {
namespace {

constexpr int kMaxFusedChain = 4;

struct Context {
  const Graph& graph;
  Fanout fanout;
  std::vector<size_t> order;                               ///< topological
  std::unordered_map<std::string, std::string> producers;  ///< file tensor names -> producing node
};

// The node whose output tensor `tensor` names: "n:0", a name the file gave the output (ONNX: Graph::tensorNames),
// or "n_output_0" (PyTorch's ONNX exporter's spelling). -1 when none.
int64_t producerOfTensor(const Context& ctx, const std::string& tensor) {
  const Graph& graph = ctx.graph;
  std::string node;
  int index = 0;
  if (parseTensorName(tensor, &node, &index) && node != tensor && graph.find(node) >= 0) return graph.find(node);
  if (auto it = ctx.producers.find(tensor); it != ctx.producers.end()) return graph.find(it->second);
  size_t at = tensor.rfind("_output_");
  if (at != std::string::npos && at > 0 && graph.find(tensor.substr(0, at)) >= 0)
    return graph.find(tensor.substr(0, at));
  return -1;
}

// File tensor names -> the node that produces them.
std::unordered_map<std::string, std::string> producersOf(const Graph& graph) {
  std::unordered_map<std::string, std::string> out;
  for (const auto& [ref, name] : graph.tensorNames) {
    std::string node;
    int index = 0;
    if (!name.empty() && parseTensorName(ref, &node, &index)) out.emplace(name, node);
  }
  return out;
}

// From the node that produced the event's output back to the node of the event's op, over single-consumer data
// edges (Conv -> Clip timed as one "Conv"): the nodes the event covers, the op's node first.
std::vector<size_t> fusedChain(const Context& ctx, size_t last, const std::string& op) {
  std::vector<size_t> chain{last};
  size_t at = last;
  for (int step = 0; step < kMaxFusedChain && !opsCompatible(op, ctx.graph.node(at).op); ++step) {
    const Node& n = ctx.graph.node(at);
    if (n.inputs.empty()) return {last};
    int64_t producer = ctx.graph.find(n.inputs[0].node);
    if (producer < 0 || ctx.fanout.dataUses(static_cast<size_t>(producer)) != 1) return {last};
    at = static_cast<size_t>(producer);
    chain.push_back(at);
  }
  if (!opsCompatible(op, ctx.graph.node(at).op) && !op.empty()) return {last};
  std::reverse(chain.begin(), chain.end());
  return chain;
}

std::vector<std::string> namesOf(const Graph& graph, const std::vector<size_t>& nodes) {
  std::vector<std::string> out;
  for (size_t i : nodes) out.push_back(graph.node(i).name);
  return out;
}

void matchByName(const Context& ctx, ImportedEvent* e) {
  for (const std::string& c : e->candidates) {
    int64_t i = ctx.graph.find(c);
    if (i >= 0) {
      e->nodes = {c};
      e->matchedBy = "name";
      return;
    }
  }
  for (const std::string& c : e->candidates) {
    int64_t i = producerOfTensor(ctx, c);
    if (i < 0) continue;
    e->nodes = namesOf(ctx.graph, fusedChain(ctx, static_cast<size_t>(i), e->event.op));
    e->matchedBy = "output";
    return;
  }
}

// Output shapes recorded on a node (the "_output_shapes" attr), empty when none.
std::vector<int64_t> outputShape(const Node& node) {
  const AttrValue* shapes = node.attr("_output_shapes");
  if (!shapes || shapes->kind() != AttrValue::Kind::kList || shapes->list().shape.empty()) return {};
  const Shape& first = shapes->list().shape.front();
  return first.rank() < 0 ? std::vector<int64_t>{} : first.dims();
}

bool shapesAgree(const ImportedEvent& e, const Node& node) {
  if (e.outputShapes.empty() || e.outputShapes.front().empty()) return true;
  std::vector<int64_t> shape = outputShape(node);
  return shape.empty() || shape == e.outputShapes.front();
}

using RunEvents = std::map<int, std::vector<size_t>>;

// Events that count on their own (no launcher), by run, in start order.
RunEvents eventsByRun(const ImportedProfile& profile) {
  RunEvents runs;
  for (size_t i = 0; i < profile.events.size(); ++i)
    if (profile.events[i].nodeEvent && profile.events[i].parent < 0) runs[profile.events[i].event.run].push_back(i);
  for (auto& [run, list] : runs)
    std::stable_sort(list.begin(), list.end(), [&](size_t a, size_t b) {
      return profile.events[a].event.startNs < profile.events[b].event.startNs;
    });
  return runs;
}

// Ops exporters fold into the node before them (batch norm into the convolution, dropout away in inference):
// without a node of their own, their time lands on the previous event's node.
bool foldsIntoPrevious(const std::string& op) {
  return op == "aten::batch_norm" || op == "aten::dropout" || op == "aten::dropout_";
}

// Within one run: unmatched events take the next unclaimed node of a compatible op in dependency order.
void matchByOrder(const Context& ctx, const std::vector<size_t>& events, ImportedProfile* profile) {
  std::set<std::string> claimed;
  for (size_t i : events)
    for (const std::string& n : profile->events[i].nodes) claimed.insert(n);
  size_t cursor = 0;  // events run in dependency order: search from after the last order match first
  const ImportedEvent* previous = nullptr;
  for (size_t i : events) {
    ImportedEvent& e = profile->events[i];
    const ImportedEvent* before = previous;
    previous = &e;
    if (!e.nodes.empty() || e.event.op.empty()) continue;
    if (foldsIntoPrevious(e.event.op) && before && !before->nodes.empty()) {
      e.nodes = {before->nodes.front()};
      e.matchedBy = "folded";
      continue;
    }
    for (size_t pass = 0; pass < 2 && e.nodes.empty(); ++pass)
      for (size_t k = pass == 0 ? cursor : 0; k < (pass == 0 ? ctx.order.size() : cursor); ++k) {
        const Node& n = ctx.graph.node(ctx.order[k]);
        if (claimed.count(n.name) || !opsCompatible(e.event.op, n.op) || !shapesAgree(e, n)) continue;
        e.nodes = {n.name};
        e.matchedBy = "order";
        claimed.insert(n.name);
        cursor = k + 1;
        break;
      }
  }
}

bool fusible(const std::string& op) {
  static const std::set<std::string> ops = {"Add", "AddV2", "Sum", "Relu", "Relu6", "Clip", "BiasAdd", "Mul"};
  return ops.count(baseOpType(op)) > 0;
}

// Within one run: a fusible node with no event of its op, fed by a node an event covers, joins that event.
void coverFused(const Context& ctx, const std::vector<size_t>& events, ImportedProfile* profile) {
  std::map<std::string, size_t> coveredBy;  // node -> event
  std::set<std::string> timedOps;
  for (size_t i : events) {
    for (const std::string& n : profile->events[i].nodes) coveredBy.emplace(n, i);
    timedOps.insert(profile->events[i].event.op);
  }
  for (size_t k : ctx.order) {
    const Node& n = ctx.graph.node(k);
    if (coveredBy.count(n.name) || !fusible(n.op)) continue;
    if (std::any_of(timedOps.begin(), timedOps.end(), [&](const std::string& op) { return opsCompatible(op, n.op); }))
      continue;
    for (const TensorRef& in : n.inputs) {
      auto it = coveredBy.find(in.node);
      int64_t producer = ctx.graph.find(in.node);
      if (it == coveredBy.end() || producer < 0 || ctx.fanout.dataUses(static_cast<size_t>(producer)) != 1) continue;
      profile->events[it->second].nodes.push_back(n.name);
      coveredBy.emplace(n.name, it->second);
      break;
    }
  }
}

}  // namespace

MatchSummary matchProfileToGraph(const Graph& graph, ImportedProfile* profile) {
  Context ctx{graph, Fanout(graph), topologicalOrder(graph), producersOf(graph)};
  for (ImportedEvent& e : profile->events) {
    e.nodes.clear();
    e.matchedBy.clear();
    if (e.nodeEvent && e.parent < 0) matchByName(ctx, &e);
  }
  const RunEvents runs = eventsByRun(*profile);
  for (const auto& [run, events] : runs) matchByOrder(ctx, events, profile);
  for (const auto& [run, events] : runs) coverFused(ctx, events, profile);
  MatchSummary summary;
  std::set<std::string> covered;
  for (ImportedEvent& e : profile->events) {
    if (e.parent >= 0 && e.nodeEvent && static_cast<size_t>(e.parent) < profile->events.size() &&
        !profile->events[static_cast<size_t>(e.parent)].nodes.empty()) {
      e.nodes = profile->events[static_cast<size_t>(e.parent)].nodes;
      e.matchedBy = "parent";
    }
    if (!e.nodeEvent) continue;
    ++summary.nodeEvents;
    if (e.nodes.empty()) continue;
    ++summary.matched;
    ++summary.byMethod[e.matchedBy];
    e.event.name = e.nodes.front();
    covered.insert(e.nodes.begin(), e.nodes.end());
  }
  summary.nodesCovered = covered.size();
  return summary;
}

}  // namespace flowscope
