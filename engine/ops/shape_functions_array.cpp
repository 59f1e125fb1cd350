// Shape functions for array manipulation, reductions and index ops.
#include <algorithm>
#include <optional>

#include "ops/shape_functions.h"
#include "ops/strided_slice.h"

namespace flowscope {
namespace {

int64_t normalizeAxis(int64_t axis, int rank) { return axis < 0 ? axis + rank : axis; }

std::optional<int64_t> constScalar(const ShapeContext& ctx, size_t input) {
  auto v = ctx.constInts(input);
  if (!v || v->size() != 1) return std::nullopt;
  return (*v)[0];
}

// An int32 or int64 vector (or, with scalar, the one value) of shape arithmetic; nullopt for other dtypes or a
// scalar of several values.
std::optional<Tensor> shapeTensor(DType dtype, const std::vector<int64_t>& values, bool scalar) {
  if ((dtype != DType::kInt32 && dtype != DType::kInt64) || (scalar && values.size() != 1)) return std::nullopt;
  Tensor t(dtype, scalar ? Shape{} : Shape{static_cast<int64_t>(values.size())});
  for (size_t k = 0; k < values.size(); ++k) {
    if (dtype == DType::kInt64)
      t.data<int64_t>()[k] = values[k];
    else
      t.data<int32_t>()[k] = static_cast<int32_t>(values[k]);
  }
  return t;
}

}  // namespace

void shapeReshape(ShapeContext& ctx) {
  auto target = ctx.constInts(1);
  if (!target) {
    if (ctx.in(1).rank() == 1 && ctx.in(1).dim(0) >= 0)
      ctx.set(0, Shape(std::vector<int64_t>(static_cast<size_t>(ctx.in(1).dim(0)), -1)));
    return;
  }
  std::vector<int64_t> dims = *target;
  int64_t known = 1;
  int unknownAt = -1;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (dims[k] == -1)
      unknownAt = static_cast<int>(k);
    else
      known *= dims[k];
  }
  int64_t total = ctx.in(0).numElements();
  if (unknownAt >= 0 && total >= 0 && known > 0) dims[static_cast<size_t>(unknownAt)] = total / known;
  ctx.set(0, Shape(dims));
}

void shapeSqueeze(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  if (x.hasUnknownRank()) return;
  auto axes = ctx.intsAttr("squeeze_dims");
  std::vector<int64_t> out;
  for (int k = 0; k < x.rank(); ++k) {
    bool listed = std::any_of(axes.begin(), axes.end(), [&](int64_t a) { return normalizeAxis(a, x.rank()) == k; });
    if ((axes.empty() && x.dim(k) == 1) || listed) continue;
    if (axes.empty() && x.dim(k) < 0) return;  // might be 1: unknown rank after squeeze
    out.push_back(x.dim(k));
  }
  ctx.set(0, Shape(out));
}

void shapeExpandDims(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  auto axis = constScalar(ctx, 1);
  if (x.hasUnknownRank() || !axis) return;
  std::vector<int64_t> out = x.dims();
  int64_t a = *axis < 0 ? *axis + x.rank() + 1 : *axis;
  if (a < 0 || a > x.rank()) return;
  out.insert(out.begin() + a, 1);
  ctx.set(0, Shape(out));
  // A known integer scalar made a vector (ExpandDims(batch, 0), the first part of a shape being built) is a constant.
  auto value = ctx.constInts(0);
  if (!value || out.size() != 1) return;
  if (auto t = shapeTensor(ctx.constants[0]->dtype(), *value, false)) ctx.constantOutputs = {*t};
}

void shapeShape(ShapeContext& ctx) {
  for (size_t k = 0; k < ctx.outputs.size() && k < ctx.inputs.size(); ++k) {
    const Shape& x = ctx.in(k);
    ctx.set(k, x.hasUnknownRank() ? Shape{-1} : Shape{x.rank()});
    if (k == 0 && x.isFullyDefined()) {  // materialize: Reshape(y, Shape(x)) then has a known target
      const DType t = ctx.outputs[0].dtype == DType::kInt64 ? DType::kInt64 : DType::kInt32;
      if (auto value = shapeTensor(t, x.dims(), false)) ctx.constantOutputs = {*value};
    }
  }
}

void shapeTranspose(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  auto perm = ctx.constInts(1);
  if (x.hasUnknownRank() || !perm || static_cast<int>(perm->size()) != x.rank()) return;
  std::vector<int64_t> out;
  for (int64_t p : *perm) {
    if (p < 0 || p >= x.rank()) return;
    out.push_back(x.dim(static_cast<int>(p)));
  }
  ctx.set(0, Shape(out));
}

void shapeConcat(ShapeContext& ctx) {
  bool v2 = ctx.node.op == "ConcatV2";
  size_t axisInput = v2 ? ctx.inputs.size() - 1 : 0;
  size_t first = v2 ? 0 : 1, last = v2 ? ctx.inputs.size() - 1 : ctx.inputs.size();
  auto axis = constScalar(ctx, axisInput);
  if (!axis || first >= last || ctx.in(first).hasUnknownRank()) return;
  int rank = ctx.in(first).rank();
  int64_t a = normalizeAxis(*axis, rank);
  if (a < 0 || a >= rank) return;
  std::vector<int64_t> out = ctx.in(first).dims();
  out[static_cast<size_t>(a)] = 0;
  for (size_t i = first; i < last; ++i) {
    const Shape& s = ctx.in(i);
    if (s.rank() != rank) return ctx.set(0, Shape(std::vector<int64_t>(static_cast<size_t>(rank), -1)));
    int64_t d = s.dim(static_cast<int>(a));
    out[static_cast<size_t>(a)] = (d < 0 || out[static_cast<size_t>(a)] < 0) ? -1 : out[static_cast<size_t>(a)] + d;
    for (int k = 0; k < rank; ++k)
      if (k != a && out[static_cast<size_t>(k)] < 0) out[static_cast<size_t>(k)] = s.dim(k);
  }
  ctx.set(0, Shape(out));
  // Known integer vectors joined (a shape being built: concat([batch], [128])) are a constant.
  std::vector<int64_t> values;
  for (size_t i = first; i < last; ++i) {
    auto v = ctx.constInts(i);
    if (!v || rank != 1 || ctx.constants[i]->dtype() != ctx.constants[first]->dtype()) return;
    values.insert(values.end(), v->begin(), v->end());
  }
  if (auto t = shapeTensor(ctx.constants[first]->dtype(), values, false)) ctx.constantOutputs = {*t};
}

void shapePack(ShapeContext& ctx) {
  if (ctx.inputs.empty() || ctx.in(0).hasUnknownRank()) return;
  std::vector<int64_t> out = ctx.in(0).dims();
  int64_t axis = normalizeAxis(ctx.intAttr("axis", 0), ctx.in(0).rank() + 1);
  if (axis < 0 || axis > static_cast<int64_t>(out.size())) return;
  out.insert(out.begin() + axis, static_cast<int64_t>(ctx.inputs.size()));
  ctx.set(0, Shape(out));
  // Integer scalars packed into a vector (a shape being built: Reshape(x, Pack(batch, 48))) are a constant when
  // every one of them is.
  std::vector<int64_t> values;
  for (size_t k = 0; k < ctx.inputs.size(); ++k) {
    auto v = ctx.constInts(k);
    if (!v || v->size() != 1 || ctx.constants[k]->shape().rank() != 0) return;
    values.push_back((*v)[0]);
  }
  if (auto value = shapeTensor(ctx.constants[0]->dtype(), values, false)) ctx.constantOutputs = {*value};
}

void shapeUnpack(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  if (x.hasUnknownRank()) return;
  std::vector<int64_t> out = x.dims();
  int64_t axis = normalizeAxis(ctx.intAttr("axis", 0), x.rank());
  if (axis < 0 || axis >= x.rank()) return;
  out.erase(out.begin() + axis);
  ctx.setAll(Shape(out));
}

void shapeSplit(ShapeContext& ctx) {
  bool v = ctx.node.op == "SplitV";
  const Shape& x = ctx.in(v ? 0 : 1);
  auto axis = constScalar(ctx, v ? 2 : 0);
  if (x.hasUnknownRank() || !axis) return;
  int64_t a = normalizeAxis(*axis, x.rank());
  if (a < 0 || a >= x.rank()) return;
  size_t parts = ctx.outputs.size();
  auto sizes = v ? ctx.constInts(1) : std::nullopt;
  for (size_t k = 0; k < parts; ++k) {
    std::vector<int64_t> out = x.dims();
    int64_t d = x.dim(static_cast<int>(a));
    if (v)
      out[static_cast<size_t>(a)] = sizes && k < sizes->size() ? (*sizes)[k] : -1;
    else
      out[static_cast<size_t>(a)] = d < 0 ? -1 : d / static_cast<int64_t>(parts);
    ctx.set(k, Shape(out));
  }
  if (v && sizes && x.dim(static_cast<int>(a)) >= 0) {  // one -1 takes the rest
    int64_t known = 0;
    int missing = -1;
    for (size_t k = 0; k < sizes->size(); ++k) {
      if ((*sizes)[k] < 0)
        missing = static_cast<int>(k);
      else
        known += (*sizes)[k];
    }
    if (missing >= 0) {
      std::vector<int64_t> out = x.dims();
      out[static_cast<size_t>(a)] = x.dim(static_cast<int>(a)) - known;
      ctx.set(static_cast<size_t>(missing), Shape(out));
    }
  }
}

void shapeSlice(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  auto begin = ctx.constInts(1);
  auto size = ctx.constInts(2);
  if (!size) return;
  std::vector<int64_t> out = *size;
  for (size_t k = 0; k < out.size(); ++k)
    if (out[k] == -1) {
      bool known = begin && !x.hasUnknownRank() && k < x.dims().size() && x.dims()[k] >= 0;
      out[k] = known ? x.dims()[k] - (*begin)[k] : -1;
    }
  ctx.set(0, Shape(out));
}

void shapeStridedSlice(ShapeContext& ctx) {
  auto begin = ctx.constInts(1), end = ctx.constInts(2), strides = ctx.constInts(3);
  if (!begin || !end || !strides) return;
  StridedSliceMasks masks{ctx.intAttr("begin_mask", 0), ctx.intAttr("end_mask", 0), ctx.intAttr("ellipsis_mask", 0),
                          ctx.intAttr("new_axis_mask", 0), ctx.intAttr("shrink_axis_mask", 0)};
  auto plan = planStridedSlice(ctx.in(0), *begin, *end, *strides, masks);
  if (!plan) return;
  ctx.set(0, Shape(plan->outputShape));
  // A slice of a known integer vector (a dim of Shape(x)) is a constant.
  auto x = ctx.constInts(0);
  if (!x || ctx.constants[0]->shape().rank() != 1 || plan->size.size() != 1 || plan->size[0] < 0) return;
  std::vector<int64_t> values;
  for (int64_t i = 0; i < plan->size[0]; ++i) {
    const int64_t at = plan->begin[0] + i * plan->stride[0];
    if (at < 0 || at >= static_cast<int64_t>(x->size())) return;
    values.push_back((*x)[static_cast<size_t>(at)]);
  }
  if (auto value = shapeTensor(ctx.constants[0]->dtype(), values, plan->outputShape.empty()))
    ctx.constantOutputs = {*value};
}

void shapeTile(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  auto multiples = ctx.constInts(1);
  if (x.hasUnknownRank() || !multiples || static_cast<int>(multiples->size()) != x.rank()) return;
  std::vector<int64_t> out = x.dims();
  for (size_t k = 0; k < out.size(); ++k) out[k] = out[k] < 0 ? -1 : out[k] * (*multiples)[k];
  ctx.set(0, Shape(out));
}

void shapeFill(ShapeContext& ctx) {
  size_t shapeInput = ctx.node.op == "BroadcastTo" ? 1 : 0;
  if (auto dims = ctx.constInts(shapeInput))
    ctx.set(0, Shape(*dims));
  else if (ctx.in(shapeInput).rank() == 1 && ctx.in(shapeInput).dim(0) >= 0)
    ctx.set(0, Shape(std::vector<int64_t>(static_cast<size_t>(ctx.in(shapeInput).dim(0)), -1)));
}

void shapePad(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  auto pads = ctx.constInts(1);
  if (x.hasUnknownRank() || !pads || pads->size() != 2 * static_cast<size_t>(x.rank())) return;
  std::vector<int64_t> out = x.dims();
  for (size_t k = 0; k < out.size(); ++k) out[k] = out[k] < 0 ? -1 : out[k] + (*pads)[2 * k] + (*pads)[2 * k + 1];
  ctx.set(0, Shape(out));
}

void shapeReduction(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  auto axes = ctx.constInts(1);
  if (x.hasUnknownRank() || !axes) return;
  bool keep = ctx.boolAttr("keep_dims", false);
  std::vector<int64_t> out;
  for (int k = 0; k < x.rank(); ++k) {
    bool reduced = std::any_of(axes->begin(), axes->end(), [&](int64_t a) { return normalizeAxis(a, x.rank()) == k; });
    if (!reduced)
      out.push_back(x.dim(k));
    else if (keep)
      out.push_back(1);
  }
  ctx.set(0, Shape(out));
}

void shapeArgMax(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  auto axis = constScalar(ctx, 1);
  if (x.hasUnknownRank() || !axis) return;
  std::vector<int64_t> out = x.dims();
  int64_t a = normalizeAxis(*axis, x.rank());
  if (a < 0 || a >= x.rank()) return;
  out.erase(out.begin() + a);
  ctx.set(0, Shape(out));
}

void shapeGather(ShapeContext& ctx) {
  const Shape& params = ctx.in(0);
  const Shape& indices = ctx.in(1);
  auto axis = ctx.node.op == "Gather" ? std::optional<int64_t>(0) : constScalar(ctx, 2);
  if (params.hasUnknownRank() || indices.hasUnknownRank() || !axis) return;
  int64_t a = normalizeAxis(*axis, params.rank());
  int64_t batchDims = ctx.intAttr("batch_dims", 0);
  if (a < 0 || a >= params.rank() || batchDims != 0) return;
  std::vector<int64_t> out(params.dims().begin(), params.dims().begin() + a);
  out.insert(out.end(), indices.dims().begin(), indices.dims().end());
  out.insert(out.end(), params.dims().begin() + a + 1, params.dims().end());
  ctx.set(0, Shape(out));
}

void shapeRange(ShapeContext& ctx) {
  auto start = constScalar(ctx, 0), limit = constScalar(ctx, 1), delta = constScalar(ctx, 2);
  if (!start || !limit || !delta || *delta == 0) return ctx.set(0, Shape{-1});
  int64_t span = *limit - *start;
  ctx.set(0, Shape{std::max<int64_t>(0, (span + *delta + (*delta > 0 ? -1 : 1)) / *delta)});
}

void shapeTopK(ShapeContext& ctx) {
  const Shape& x = ctx.in(0);
  auto k = constScalar(ctx, 1);
  if (x.hasUnknownRank() || x.rank() < 1) return;
  std::vector<int64_t> out = x.dims();
  out.back() = k ? *k : -1;
  ctx.setAll(Shape(out));
}

void shapeOneHot(ShapeContext& ctx) {
  const Shape& indices = ctx.in(0);
  auto depth = constScalar(ctx, 1);
  if (indices.hasUnknownRank()) return;
  std::vector<int64_t> out = indices.dims();
  int64_t axis = ctx.intAttr("axis", -1);
  int64_t at = axis < 0 ? static_cast<int64_t>(out.size()) : axis;
  if (at > static_cast<int64_t>(out.size())) return;
  out.insert(out.begin() + at, depth ? *depth : -1);
  ctx.set(0, Shape(out));
}

}  // namespace flowscope
