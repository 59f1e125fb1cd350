// Arithmetic rewrites (tf-compat.md §3, ArithmeticOptimizer and the simplifications of ConstantFolding).
#include "passes/arithmetic_rules.h"

#include <cmath>
#include <numeric>

#include "ir/graph_algorithms.h"
#include "passes/graph_rewrite.h"

namespace flowscope {
namespace {

const Node& nodeAt(const RewriteSite& s) { return s.graph.node(s.node); }
const Node* producerOf(const RewriteSite& s, const TensorRef& ref) { return s.graph.findNode(ref.node); }

// A node that may be rewritten in place (fetched nodes too: the name and value stay), output type known.
bool rewritable(const RewriteSite& s) {
  return !s.context.hasSideEffects(nodeAt(s)) && typeAttr(nodeAt(s)) != DType::kInvalid;
}

const TensorInfo* infoOf(const RewriteSite& s, const TensorRef& ref) {
  int64_t p = s.graph.find(ref.node);
  return p < 0 ? nullptr : s.shapes.get().find(static_cast<size_t>(p), ref.index);
}

// Every element of a constant input equals v.
bool allEqual(const RewriteSite& s, const TensorRef& ref, double v) {
  const Tensor* t = constantInput(s.graph, ref);
  if (!t || t->isStringLike() || t->numElements() == 0 || t->dtype() == DType::kComplex64 ||
      t->dtype() == DType::kComplex128)
    return false;
  for (int64_t i = 0; i < t->numElements(); ++i)
    if (t->elementAsDouble(i) != v) return false;
  return true;
}

// Broadcasting `c` against `x` leaves x's shape: c has one element and no more dims than x, or c's shape is x's.
bool keepsShapeOf(const RewriteSite& s, const TensorRef& x, const TensorRef& c) {
  const Tensor* t = constantInput(s.graph, c);
  const TensorInfo* info = infoOf(s, x);
  if (!t || !info || info->shape.hasUnknownRank()) return false;
  if (t->numElements() == 1 && t->shape().rank() <= info->shape.rank()) return true;
  return info->shape.isFullyDefined() && info->shape == t->shape();
}

// The node becomes `op(inputs)` with attr T kept; dropped constant inputs leave their control inputs behind.
void replaceWith(RewriteSite& s, const std::string& op, std::vector<TensorRef> inputs,
                 const std::vector<TensorRef>& dropped = {}) {
  Node& n = s.graph.mutableNode(s.node);
  for (const auto& d : dropped)
    if (const Node* p = s.graph.findNode(d.node))
      for (const auto& c : p->controlInputs) n.controlInputs.push_back(c);
  DType t = typeAttr(n);
  n.op = op;
  n.inputs = std::move(inputs);
  n.attrs.clear();
  n.attrs["T"] = AttrValue::fromType(t);
}

// A helper node next to the rewritten one, named "ArithmeticOptimizer/<what>_<node>".
TensorRef addHelper(RewriteSite& s, const std::string& what, const std::string& op, std::vector<TensorRef> inputs) {
  const Node& n = nodeAt(s);
  Node helper{uniqueNodeName(s.graph, "ArithmeticOptimizer/" + what + "_" + n.name),
              op,
              n.device,
              std::move(inputs),
              {},
              {},
              {}};
  helper.attrs["T"] = AttrValue::fromType(typeAttr(n));
  std::string name = helper.name;
  s.graph.addNode(std::move(helper));
  return TensorRef{name, 0, ""};
}

bool isAdd(const std::string& op) { return op == "Add" || op == "AddV2"; }
bool isDiv(const std::string& op) { return op == "Div" || op == "RealDiv"; }

bool neutralElement(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || n.inputs.size() != 2) return false;
  const TensorRef a = n.inputs[0], b = n.inputs[1];
  auto identityOf = [&](const TensorRef& x, const TensorRef& c) {
    replaceWith(s, "Identity", {x}, {c});
    return true;
  };
  if ((isAdd(n.op) || n.op == "Sub") && allEqual(s, b, 0) && keepsShapeOf(s, a, b)) return identityOf(a, b);
  if (isAdd(n.op) && allEqual(s, a, 0) && keepsShapeOf(s, b, a)) return identityOf(b, a);
  if ((n.op == "Mul" || isDiv(n.op)) && allEqual(s, b, 1) && keepsShapeOf(s, a, b)) return identityOf(a, b);
  if (n.op == "Mul" && allEqual(s, a, 1) && keepsShapeOf(s, b, a)) return identityOf(b, a);
  return false;
}

bool multiplyByZero(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || n.op != "Mul" || n.inputs.size() != 2 || isFloating(typeAttr(n))) return false;  // NaN*0 is NaN
  int zero = allEqual(s, n.inputs[0], 0) ? 0 : allEqual(s, n.inputs[1], 0) ? 1 : -1;
  if (zero < 0) return false;
  const TensorInfo* out = s.shapes.get().find(s.node, 0);
  if (!out || !out->shape.isFullyDefined()) return false;
  std::vector<std::string> controls = n.controlInputs;
  controls.push_back(n.inputs[static_cast<size_t>(1 - zero)].node);  // still waits for x
  s.graph.mutableNode(s.node) = makeConst(n.name, Tensor(typeAttr(n), out->shape), n.device, controls);
  return true;
}

bool removeInvolution(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || n.inputs.size() != 1 ||
      (n.op != "Neg" && n.op != "Reciprocal" && n.op != "LogicalNot" && n.op != "Conj"))
    return false;
  const Node* inner = producerOf(s, n.inputs[0]);
  if (!inner || inner->op != n.op || inner->inputs.size() != 1) return false;
  TensorRef x = inner->inputs[0];
  DType t = typeAttr(n) == DType::kInvalid ? DType::kBool : typeAttr(n);
  replaceWith(s, "Identity", {x});
  s.graph.mutableNode(s.node).attrs["T"] = AttrValue::fromType(t);
  return true;
}

bool removeIdempotent(RewriteSite& s) {
  static const std::set<std::string> ops = {"Floor", "Ceil", "Round", "Rint", "Relu", "Relu6", "Abs", "Sign"};
  const Node& n = nodeAt(s);
  if (!rewritable(s) || !ops.count(n.op) || n.inputs.size() != 1) return false;
  const Node* inner = producerOf(s, n.inputs[0]);
  if (!inner || inner->op != n.op) return false;
  replaceWith(s, "Identity", {n.inputs[0]});
  return true;
}

// True when every value the node makes is >= 0 (or NaN): a Relu of it changes nothing.
bool nonNegative(const Node& producer) {
  static const std::set<std::string> ops = {"Relu", "Relu6",  "Sigmoid", "Softmax", "Exp",
                                            "Abs",  "Square", "Sqrt",    "Softplus"};
  if (ops.count(producer.op)) return true;
  if (producer.op.rfind("_Fused", 0) != 0) return false;
  const AttrValue* fused = producer.attr("fused_ops");
  if (!fused || fused->kind() != AttrValue::Kind::kList || fused->list().s.empty()) return false;
  const std::string& last = fused->list().s.back();
  return last == "Relu" || last == "Relu6" || last == "Sigmoid";
}

bool removeReluOfNonNegative(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || n.op != "Relu" || n.inputs.size() != 1 || n.inputs[0].index != 0) return false;
  const Node* inner = producerOf(s, n.inputs[0]);
  if (!inner || inner->op == "Relu" || !nonNegative(*inner)) return false;  // Relu(Relu) is remove_idempotent's
  replaceWith(s, "Identity", {n.inputs[0]});
  return true;
}

bool removeNegation(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || !isAdd(n.op) || n.inputs.size() != 2) return false;
  for (int k = 0; k < 2; ++k) {
    const Node* neg = producerOf(s, n.inputs[static_cast<size_t>(k)]);
    if (neg && neg->op == "Neg" && neg->inputs.size() == 1) {
      TensorRef x = n.inputs[static_cast<size_t>(1 - k)], y = neg->inputs[0];
      replaceWith(s, "Sub", {x, y});
      return true;
    }
  }
  return false;
}

bool removeLogicalNot(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (n.op != "LogicalNot" || n.inputs.size() != 1) return false;
  const Node* cmp = producerOf(s, n.inputs[0]);
  if (!cmp || (cmp->op != "Equal" && cmp->op != "NotEqual")) return false;
  Node& m = s.graph.mutableNode(s.node);
  m.op = cmp->op == "Equal" ? "NotEqual" : "Equal";
  m.inputs = cmp->inputs;
  m.attrs = cmp->attrs;
  return true;
}

bool replaceMulWithSquare(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || n.op != "Mul" || n.inputs.size() != 2 || !(n.inputs[0] == n.inputs[1])) return false;
  replaceWith(s, "Square", {n.inputs[0]});
  return true;
}

bool sqrtDivToRsqrtMul(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || !isDiv(n.op) || n.inputs.size() != 2 || !isFloating(typeAttr(n))) return false;
  const Node* root = producerOf(s, n.inputs[1]);
  if (!root || root->op != "Sqrt" || root->inputs.size() != 1) return false;
  TensorRef x = n.inputs[0];
  TensorRef rsqrt = addHelper(s, "rsqrt", "Rsqrt", {root->inputs[0]});
  replaceWith(s, "Mul", {x, rsqrt});
  return true;
}

bool fuseSquaredDifference(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || n.op != "Square" || n.inputs.size() != 1) return false;
  const Node* sub = producerOf(s, n.inputs[0]);
  if (!sub || sub->op != "Sub" || sub->inputs.size() != 2) return false;
  replaceWith(s, "SquaredDifference", sub->inputs);
  return true;
}

bool convertLog1pExpm1LogSoftmax(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || n.inputs.size() < 1 || !isFloating(typeAttr(n))) return false;
  const Node* inner = producerOf(s, n.inputs[0]);
  if (!inner) return false;
  if (n.op == "Log" && inner->op == "Softmax" && inner->inputs.size() == 1) {
    replaceWith(s, "LogSoftmax", {inner->inputs[0]});
    return true;
  }
  if (n.op == "Log" && isAdd(inner->op) && inner->inputs.size() == 2) {
    for (int k = 0; k < 2; ++k) {
      const TensorRef one = inner->inputs[static_cast<size_t>(k)], x = inner->inputs[static_cast<size_t>(1 - k)];
      if (allEqual(s, one, 1) && keepsShapeOf(s, x, one)) {
        replaceWith(s, "Log1p", {x}, {one});
        return true;
      }
    }
  }
  if (n.op == "Sub" && n.inputs.size() == 2 && inner->op == "Exp" && allEqual(s, n.inputs[1], 1) &&
      keepsShapeOf(s, n.inputs[0], n.inputs[1])) {
    TensorRef one = n.inputs[1];
    replaceWith(s, "Expm1", {inner->inputs[0]}, {one});
    return true;
  }
  return false;
}

bool convertPow(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || n.op != "Pow" || n.inputs.size() != 2 || !keepsShapeOf(s, n.inputs[0], n.inputs[1]))
    return false;
  const TensorRef x = n.inputs[0], y = n.inputs[1];
  const bool floating = isFloating(typeAttr(n));
  if (allEqual(s, y, 2))
    replaceWith(s, "Square", {x}, {y});
  else if (allEqual(s, y, 1))
    replaceWith(s, "Identity", {x}, {y});
  else if (allEqual(s, y, 3))
    replaceWith(s, "Mul", {x, addHelper(s, "square", "Square", {x})}, {y});
  else if (floating && allEqual(s, y, 0.5))
    replaceWith(s, "Sqrt", {x}, {y});
  else if (floating && allEqual(s, y, -0.5))
    replaceWith(s, "Rsqrt", {x}, {y});
  else if (floating && allEqual(s, y, -1))
    replaceWith(s, "Reciprocal", {x}, {y});
  else if (allEqual(s, y, 0))
    replaceWith(s, "OnesLike", {x}, {y});
  else
    return false;
  return true;
}

// Constant permutation of a Transpose, or empty.
std::vector<int64_t> permutationOf(const RewriteSite& s, const Node& transpose) {
  if (transpose.op != "Transpose" || transpose.inputs.size() != 2) return {};
  const Tensor* perm = constantInput(s.graph, transpose.inputs[1]);
  if (!perm || perm->shape().rank() != 1) return {};
  std::vector<int64_t> p;
  for (int64_t i = 0; i < perm->numElements(); ++i) p.push_back(static_cast<int64_t>(perm->elementAsDouble(i)));
  return p;
}

bool isIdentityPermutation(const std::vector<int64_t>& p) {
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] != static_cast<int64_t>(i)) return false;
  return !p.empty();
}

bool removeIdentityTranspose(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || n.op != "Transpose") return false;
  std::vector<int64_t> outer = permutationOf(s, n);
  if (outer.empty()) return false;
  if (isIdentityPermutation(outer)) {
    TensorRef perm = n.inputs[1];
    replaceWith(s, "Identity", {n.inputs[0]}, {perm});
    return true;
  }
  const Node* inner = producerOf(s, n.inputs[0]);
  if (!inner) return false;
  std::vector<int64_t> first = permutationOf(s, *inner);
  if (first.size() != outer.size()) return false;
  std::vector<int64_t> composed;  // out[i] = in[first[outer[i]]]
  for (int64_t o : outer) {
    if (o < 0 || o >= static_cast<int64_t>(first.size())) return false;
    composed.push_back(first[static_cast<size_t>(o)]);
  }
  if (!isIdentityPermutation(composed)) return false;
  replaceWith(s, "Identity", {inner->inputs[0]});
  return true;
}

bool removeRedundantCastOrReshape(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (s.context.hasSideEffects(n) || n.inputs.empty()) return false;
  if (n.op == "Cast" && typeAttr(n, "SrcT") != DType::kInvalid && typeAttr(n, "SrcT") == typeAttr(n, "DstT")) {
    DType t = typeAttr(n, "SrcT");
    Node& m = s.graph.mutableNode(s.node);
    m.op = "Identity";
    m.attrs.clear();
    m.attrs["T"] = AttrValue::fromType(t);
    return true;
  }
  if (n.op == "Reshape" && n.inputs.size() == 2) {
    const TensorInfo* in = infoOf(s, n.inputs[0]);
    const TensorInfo* out = s.shapes.get().find(s.node, 0);
    if (!in || !out || !in->shape.isFullyDefined() || !(in->shape == out->shape)) return false;
    TensorRef shape = n.inputs[1];
    replaceWith(s, "Identity", {n.inputs[0]}, {shape});
    if (!constantInput(s.graph, shape)) s.graph.mutableNode(s.node).controlInputs.push_back(shape.node);
    return true;
  }
  return false;
}

bool foldTransposeIntoMatMul(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || n.op != "MatMul" || n.inputs.size() != 2) return false;
  for (int k = 0; k < 2; ++k) {
    const Node* t = producerOf(s, n.inputs[static_cast<size_t>(k)]);
    if (!t || permutationOf(s, *t) != std::vector<int64_t>{1, 0}) continue;
    const char* attr = k == 0 ? "transpose_a" : "transpose_b";
    TensorRef source = t->inputs[0];
    Node& m = s.graph.mutableNode(s.node);
    const AttrValue* old = m.attr(attr);
    m.attrs[attr] = AttrValue::fromBool(!(old && old->kind() == AttrValue::Kind::kBool && old->b()));
    m.inputs[static_cast<size_t>(k)] = source;
    return true;
  }
  return false;
}

bool simplifyAggregation(RewriteSite& s) {
  const Node& n = nodeAt(s);
  if (!rewritable(s) || n.op != "AddN" || n.inputs.size() < 2) return false;
  for (const auto& in : n.inputs)
    if (!(in == n.inputs[0])) return false;
  DType t = typeAttr(n);
  if (!isFloating(t) && t != DType::kInt32 && t != DType::kInt64) return false;
  Tensor count(t, Shape{});
  double k = static_cast<double>(n.inputs.size());
  if (t == DType::kFloat)
    *count.data<float>() = static_cast<float>(k);
  else if (t == DType::kDouble)
    *count.data<double>() = k;
  else if (t == DType::kInt32)
    *count.data<int32_t>() = static_cast<int32_t>(k);
  else if (t == DType::kInt64)
    *count.data<int64_t>() = static_cast<int64_t>(k);
  else
    return false;
  std::string name = uniqueNodeName(s.graph, "ArithmeticOptimizer/count_" + n.name);
  s.graph.addNode(makeConst(name, count, n.device));
  TensorRef x = nodeAt(s).inputs[0];
  replaceWith(s, "Mul", {x, TensorRef{name, 0, ""}});
  return true;
}

}  // namespace

const std::vector<ArithmeticRule>& arithmeticRules() {
  static const std::vector<ArithmeticRule> rules = {
      {"neutral_element", neutralElement},
      {"multiply_by_zero", multiplyByZero},
      {"remove_involution", removeInvolution},
      {"remove_idempotent", removeIdempotent},
      {"remove_relu_of_non_negative", removeReluOfNonNegative},
      {"remove_negation", removeNegation},
      {"remove_logical_not", removeLogicalNot},
      {"replace_mul_with_square", replaceMulWithSquare},
      {"convert_sqrt_div_to_rsqrt_mul", sqrtDivToRsqrtMul},
      {"fuse_squared_diff", fuseSquaredDifference},
      {"convert_log1p_expm1_log_softmax", convertLog1pExpm1LogSoftmax},
      {"convert_pow", convertPow},
      {"remove_identity_transpose", removeIdentityTranspose},
      {"remove_redundant_cast_or_reshape", removeRedundantCastOrReshape},
      {"fold_transpose_into_matmul", foldTransposeIntoMatMul},
      {"simplify_aggregation", simplifyAggregation},
  };
  return rules;
}

}  // namespace flowscope
