// CommonSubgraphElimination: merges nodes with the same op, device, inputs and attrs and no side effects,
// visiting in dependency order so merges cascade (`Mul(x, c1)` and `Mul(c2, x)` become one once c1 == c2).
// Inputs of commutative ops and control inputs are compared as sets.
#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>

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

class CommonSubgraphElimination : public Pass {
 public:
  Expected<PassResult> run(Graph& graph, PassContext& context) override {
    std::unordered_map<std::string, std::string> merged;  // duplicate -> the node kept
    std::unordered_map<uint64_t, std::vector<size_t>> buckets;
    auto canonical = [&](const std::string& name) -> const std::string& {
      auto it = merged.find(name);
      return it == merged.end() ? name : it->second;
    };
    std::hash<std::string> hashString;
    auto canonicalInputs = [&](const Node& node, const OpDef* def) {
      std::vector<std::pair<std::string, int>> inputs;
      for (const auto& in : node.inputs) inputs.emplace_back(canonical(in.node), in.index);
      if (def->isCommutative && inputs.size() == 2) std::sort(inputs.begin(), inputs.end());
      return inputs;
    };
    auto canonicalControls = [&](const Node& node) {
      std::set<std::string> controls;
      for (const auto& c : node.controlInputs) controls.insert(canonical(c));
      return controls;
    };
    Rewirer rewirer;
    for (size_t i : topologicalOrder(graph)) {
      if (context.isCancelled()) return cancelled("optimizing was cancelled");
      const Node& node = graph.node(i);
      if (!canDedup(node, context)) continue;
      const OpDef* def = context.lookup(node.op);
      const auto inputs = canonicalInputs(node, def);
      const auto controls = canonicalControls(node);
      uint64_t key = hashString(node.op) * 31 + hashString(node.device);
      for (const auto& [name, index] : inputs)
        key = key * 1000003 + hashString(name) * 31 + static_cast<uint64_t>(index);
      for (const auto& c : controls) key = key * 1000003 + hashString(c);
      key = key * 1000003 + attrsKey(node.attrs);
      auto& bucket = buckets[key];
      const Node* same = nullptr;
      for (size_t other : bucket) {  // the hash only narrows the search: compare for real
        const Node& o = graph.node(other);
        if (o.op == node.op && o.device == node.device && o.attrs == node.attrs && canonicalInputs(o, def) == inputs &&
            canonicalControls(o) == controls && hashAttrs(o.attrs) == hashAttrs(node.attrs)) {
          same = &o;
          break;
        }
      }
      if (!same) {
        bucket.push_back(i);
        continue;
      }
      merged[node.name] = same->name;
      rewirer.replaceNode(node.name, same->name);
    }
    PassResult result;
    if (merged.empty()) return result;
    graph.removeNodes([&](const Node& n) { return merged.count(n.name) > 0; });
    rewirer.apply(graph);
    result.changed = true;
    result.stats["nodes_merged"] = static_cast<int64_t>(merged.size());
    return result;
  }
};

}  // namespace

std::unique_ptr<Pass> createCommonSubgraphElimination() { return std::make_unique<CommonSubgraphElimination>(); }

}  // namespace flowscope
