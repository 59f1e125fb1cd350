// CommonSubgraphElimination: merges nodes with the same op, device, inputs and attrs and no side effects,
// visiting in dependency order so merges cascade (`Mul(x, c1)` and `Mul(c2, x)` become one once c1 == c2).
// Inputs of commutative ops and control inputs are compared as sets.
#include <algorithm>
#include <optional>
#include <string_view>

#include "ir/hash.h"
#include "passes/graph_rewrite.h"
#include "passes/pass_registry.h"

namespace flowscope {
namespace {

bool canDedup(const Node& node, const PassContext& context) {
  if (context.isPreserved(node) || isDataflowControlOp(node.op)) return false;
  if (node.op.rfind("Placeholder", 0) == 0 || node.op == "_Arg" || node.op == "_Retval") return false;
  const OpDef* def = context.lookup(node.op);
  if (!def) return false;
  for (const auto& arg : def->inputs)
    if (arg.isRef || arg.type == DType::kResource) return false;  // identity of the resource matters
  return true;
}

// A cheap narrowing of hashAttrs() for the bucket key: attr names and kinds, exact small values, and a tensor's
// type, size and first bytes (hashing every weight in full made this pass slow on big graphs). Candidates with the
// same key are compared for real, hashAttrs() included, so merges are the same as with the full hash as key.
uint64_t attrsKey(const AttrMap& attrs) {
  std::hash<std::string_view> hash;
  uint64_t key = attrs.size();
  for (const auto& [name, value] : attrs) {
    key = key * 1000003 + hash(name) * 31 + static_cast<uint64_t>(value.kind());
    if (value.kind() == AttrValue::Kind::kString) key = key * 1000003 + hash(value.s());
    if (value.kind() == AttrValue::Kind::kInt) key = key * 1000003 + static_cast<uint64_t>(value.i());
    if (value.kind() == AttrValue::Kind::kType) key = key * 1000003 + static_cast<uint64_t>(value.type());
    if (value.kind() != AttrValue::Kind::kTensor || !value.tensor().isValid()) continue;
    const Tensor& t = value.tensor();
    key = key * 1000003 + static_cast<uint64_t>(t.dtype()) * 31 + static_cast<uint64_t>(t.numElements());
    if (t.isStringLike()) continue;
    const auto bytes = t.bytes();
    key = key * 1000003 +
          hash(std::string_view(reinterpret_cast<const char*>(bytes.data()), std::min<size_t>(bytes.size(), 64)));
  }
  return key;
}

// Nodes filed by key with no allocation per key: an open-addressed table holds each key's latest node, and each
// node links to the one filed before it under the same key.
class KeyedNodes {
 public:
  explicit KeyedNodes(size_t nodes) : m_before(nodes, -1) {
    size_t capacity = 16;
    while (capacity < 2 * nodes) capacity *= 2;
    m_slots.assign(capacity, Slot{0, -1});
  }
  /// The latest node filed under `key`, or -1; before() walks back from there.
  int32_t latest(uint64_t key) const { return m_slots[slotOf(key)].node; }
  int32_t before(int32_t node) const { return m_before[static_cast<size_t>(node)]; }
  void file(uint64_t key, size_t node) {
    Slot& slot = m_slots[slotOf(key)];
    m_before[node] = slot.node;
    slot = Slot{key, static_cast<int32_t>(node)};
  }

 private:
  struct Slot {
    uint64_t key;
    int32_t node;
  };
  size_t slotOf(uint64_t key) const {
    const size_t mask = m_slots.size() - 1;
    size_t s = static_cast<size_t>((key ^ (key >> 31)) * 0x9e3779b97f4a7c15ull >> 20) & mask;
    while (m_slots[s].node >= 0 && m_slots[s].key != key) s = (s + 1) & mask;
    return s;
  }
  std::vector<Slot> m_slots;
  std::vector<int32_t> m_before;
};

// What a node computes, with its producers already merged: inputs as (kept producer, output), controls as a set.
struct Operands {
  std::vector<std::pair<int32_t, int>> inputs;
  std::vector<int32_t> controls;
  bool operator==(const Operands&) const = default;
};

class CommonSubgraphElimination : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    const auto edges = graph.edges();
    std::vector<int32_t> kept(graph.size());  // node -> the node it merged into (itself when kept)
    for (size_t i = 0; i < kept.size(); ++i) kept[i] = static_cast<int32_t>(i);
    KeyedNodes candidates(graph.size());
    std::hash<std::string> hashString;
    Rewirer rewirer;
    std::vector<bool> merged(graph.size());
    int64_t mergedCount = 0;
    for (size_t i : edges->dependencyOrder()) {
      if (context.isCancelled()) return cancelled("optimizing was cancelled");
      const Node& node = graph.node(i);
      if (!canDedup(node, context)) continue;
      const OpDef* def = context.lookup(node.op);
      std::optional<Operands> operands = operandsOf(graph, *edges, i, kept, def->isCommutative);
      if (!operands) continue;  // an input names no node: nothing to compare it with
      uint64_t key = hashString(node.op) * 31 + hashString(node.device);
      for (const auto& [producer, index] : operands->inputs)
        key = key * 1000003 + static_cast<uint64_t>(producer) * 31 + static_cast<uint64_t>(index);
      for (int32_t c : operands->controls) key = key * 1000003 + static_cast<uint64_t>(c);
      key = key * 1000003 + attrsKey(node.attrs);
      int32_t same = candidates.latest(key);
      for (; same >= 0; same = candidates.before(same)) {  // the key only narrows the search: compare for real
        const Node& o = graph.node(static_cast<size_t>(same));
        if (o.op == node.op && o.device == node.device && o.attrs == node.attrs &&
            operandsOf(graph, *edges, static_cast<size_t>(same), kept, def->isCommutative) == operands &&
            hashAttrs(o.attrs) == hashAttrs(node.attrs))
          break;
      }
      if (same < 0) {
        candidates.file(key, i);
        continue;
      }
      kept[i] = same;
      merged[i] = true;
      ++mergedCount;
      rewirer.replaceNode(node.name, graph.node(static_cast<size_t>(same)).name);
    }
    PassResult result;
    if (!mergedCount) return result;
    graph.removeNodes(merged);
    rewirer.apply(graph);
    result.changed = true;
    result.stats["nodes_merged"] = mergedCount;
    return result;
  }

 private:
  static std::optional<Operands> operandsOf(const Graph& graph, const EdgeIndex& edges, size_t i,
                                            const std::vector<int32_t>& kept, bool commutative) {
    Operands operands;
    const Node& node = graph.node(i);
    const auto data = edges.inputProducers(i), control = edges.controlProducers(i);
    for (size_t k = 0; k < data.size(); ++k) {
      if (data[k] < 0) return std::nullopt;
      operands.inputs.emplace_back(kept[static_cast<size_t>(data[k])], node.inputs[k].index);
    }
    if (commutative && operands.inputs.size() == 2) std::sort(operands.inputs.begin(), operands.inputs.end());
    for (int32_t c : control) {
      if (c < 0) return std::nullopt;
      operands.controls.push_back(kept[static_cast<size_t>(c)]);
    }
    std::sort(operands.controls.begin(), operands.controls.end());
    operands.controls.erase(std::unique(operands.controls.begin(), operands.controls.end()), operands.controls.end());
    return operands;
  }
};

}  // namespace

std::unique_ptr<Pass> createCommonSubgraphElimination() { return std::make_unique<CommonSubgraphElimination>(); }

}  // namespace flowscope
