// Kernel helpers shared by every backend's kernels.
#include "exec/kernel_util.h"

#include <algorithm>

namespace flowscope {

int64_t attrInt(const Node& node, const char* name, int64_t fallback) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kInt ? v->i() : fallback;
}

float attrFloat(const Node& node, const char* name, float fallback) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kFloat ? v->f() : fallback;
}

bool attrBool(const Node& node, const char* name, bool fallback) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kBool ? v->b() : fallback;
}

std::string attrString(const Node& node, const char* name, const std::string& fallback) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kString ? v->s() : fallback;
}

std::vector<int64_t> attrInts(const Node& node, const char* name) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kList ? v->list().i : std::vector<int64_t>{};
}

DType attrType(const Node& node, const char* name, DType fallback) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kType ? v->type() : fallback;
}

std::vector<int64_t> intValues(const Tensor& t) {
  std::vector<int64_t> out(static_cast<size_t>(std::max<int64_t>(t.numElements(), 0)));
  if (t.dtype() == DType::kInt32)
    for (size_t i = 0; i < out.size(); ++i) out[i] = t.data<int32_t>()[i];
  else if (t.dtype() == DType::kInt64)
    for (size_t i = 0; i < out.size(); ++i) out[i] = t.data<int64_t>()[i];
  return out;
}

bool scalarInt(const Tensor& t, int64_t* out) {
  if (t.numElements() != 1) return false;
  if (t.dtype() == DType::kInt32)
    *out = t.data<int32_t>()[0];
  else if (t.dtype() == DType::kInt64)
    *out = t.data<int64_t>()[0];
  else
    return false;
  return true;
}

bool normalizeAxis(int64_t axis, int rank, int64_t* out) {
  if (axis < -rank || axis >= rank) return false;
  *out = axis < 0 ? axis + rank : axis;
  return true;
}

Status expectInputs(const KernelContext& ctx, size_t count) {
  if (ctx.inputs.size() != count)
    return ctx.error("expects " + std::to_string(count) + " inputs, got " + std::to_string(ctx.inputs.size()));
  return Status::ok();
}

std::vector<int64_t> stridesOf(const Shape& shape) {
  std::vector<int64_t> strides(shape.dims().size(), 1);
  for (size_t k = strides.size(); k-- > 1;) strides[k - 1] = strides[k] * shape.dims()[k];
  return strides;
}

}  // namespace flowscope
