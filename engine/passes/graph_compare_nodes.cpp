// What differs between two matched nodes.
#include "passes/graph_compare_nodes.h"

#include <algorithm>
#include <set>

namespace flowscope {
namespace {

constexpr int64_t kSmallConst = 16;  ///< Const values up to this many elements are shown in the details

bool isShapeAttr(const std::string& key) { return key == "_output_shapes" || key == "shape" || key == "output_shapes"; }

// Attributes that name other nodes or only record where a node came from: not compared.
bool ignoredAttr(const std::string& key) { return key == "_class" || key == "_has_manual_control_dependencies"; }

std::string shortValue(const AttrValue* v) {
  if (!v) return "(none)";
  std::string s = v->toString();
  return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

void addKind(NodeChange* c, const std::string& kind, const std::string& detail) {
  if (std::find(c->kinds.begin(), c->kinds.end(), kind) == c->kinds.end()) c->kinds.push_back(kind);
  c->details.push_back(detail);
}

void compareAttrs(const Node& a, const Node& b, NodeChange* c) {
  std::set<std::string> keys;
  for (const auto& [k, v] : a.attrs) keys.insert(k);
  for (const auto& [k, v] : b.attrs) keys.insert(k);
  for (const std::string& k : keys) {
    const AttrValue *va = a.attr(k), *vb = b.attr(k);
    if (ignoredAttr(k) || (va && vb && *va == *vb)) continue;
    if (k == "value" && a.op == "Const" && b.op == "Const") {
      const bool small = va && vb && va->kind() == AttrValue::Kind::kTensor && vb->kind() == AttrValue::Kind::kTensor &&
                         va->tensor().numElements() <= kSmallConst && vb->tensor().numElements() <= kSmallConst;
      addKind(c, "value", small ? "value: " + shortValue(va) + " -> " + shortValue(vb) : "value: contents differ");
    } else {
      addKind(c, isShapeAttr(k) ? "shapes" : "attrs", "attr " + k + ": " + shortValue(va) + " -> " + shortValue(vb));
    }
  }
}

std::string inputsText(const std::vector<std::string>& inputs) {
  std::string s;
  for (const std::string& i : inputs) s += (s.empty() ? "" : ", ") + i;
  return "(" + s + ")";
}

// b's inputs spelled in a's names (through the matching), to compare with a's own.
void compareInputs(const Graph& before, const Graph& after, const std::vector<int64_t>& afterToBefore, const Node& a,
                   const Node& b, NodeChange* c) {
  std::vector<std::string> ai, bi;
  for (const TensorRef& in : a.inputs) ai.push_back(in.toString());
  for (const TensorRef& in : b.inputs) {
    int64_t ib = after.find(in.node);
    TensorRef mapped = in;
    if (ib >= 0 && afterToBefore[static_cast<size_t>(ib)] >= 0)
      mapped.node = before.node(static_cast<size_t>(afterToBefore[static_cast<size_t>(ib)])).name;
    else
      mapped.node = "+" + in.node;  // a node only `after` has
    bi.push_back(mapped.toString());
  }
  if (ai != bi) addKind(c, "inputs", "inputs: " + inputsText(ai) + " -> " + inputsText(bi));
}

}  // namespace

std::vector<NodeChange> compareMatchedNodes(const Graph& before, const Graph& after,
                                            const std::vector<int64_t>& afterToBefore) {
  std::vector<NodeChange> out;
  for (size_t ib = 0; ib < after.size(); ++ib) {
    if (afterToBefore[ib] < 0) continue;
    const Node& a = before.node(static_cast<size_t>(afterToBefore[ib]));
    const Node& b = after.node(ib);
    NodeChange c{a.name, b.name, {}, {}};
    if (a.name != b.name) addKind(&c, "renamed", "renamed: " + a.name + " -> " + b.name);
    if (a.op != b.op) addKind(&c, "op", "op: " + a.op + " -> " + b.op);
    compareInputs(before, after, afterToBefore, a, b, &c);
    compareAttrs(a, b, &c);
    if (!c.kinds.empty()) out.push_back(std::move(c));
  }
  return out;
}

}  // namespace flowscope
