// Array kernels that move or create data: identity family, Const, Placeholder, reshapes, Shape/Size/Rank,
// Transpose, Concat, Pack/Unpack, Split, Tile, Fill, BroadcastTo, Pad, Range, OneHot, Select, Where, Reverse.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "exec/cpu/broadcast.h"
#include "exec/cpu/cpu_kernels.h"
#include "ir/dtype_dispatch.h"
#include "exec/kernel_util.h"
#include "exec/cpu/strided_copy.h"

namespace flowscope {
namespace {

Status identity(KernelContext& ctx) {
  for (size_t i = 0; i < ctx.outputs.size() && i < ctx.inputs.size(); ++i) ctx.outputs[i] = ctx.inputs[i];
  return Status::ok();
}

Status checkNumerics(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  for (int64_t i = 0; isFloating(x.dtype()) && i < x.numElements(); ++i)
    if (!std::isfinite(x.elementAsDouble(i)))
      return ctx.error(attrString(ctx.node, "message", "") + " : Tensor had NaN or Inf values");
  ctx.outputs[0] = x;
  return Status::ok();
}

class ConstKernel : public OpKernel {
 public:
  explicit ConstKernel(Tensor value) : m_value(std::move(value)) {}
  Status compute(KernelContext& ctx) override {
    ctx.outputs[0] = m_value;
    return Status::ok();
  }

 private:
  Tensor m_value;
};

Expected<std::unique_ptr<OpKernel>> makeConst(const Node& node) {
  const AttrValue* value = node.attr("value");
  if (!value || value->kind() != AttrValue::Kind::kTensor || !value->tensor().isValid())
    return invalidArgument(nodeLabel(node) + "has no 'value' tensor");
  return std::unique_ptr<OpKernel>(std::make_unique<ConstKernel>(value->tensor()));
}

Status placeholder(KernelContext& ctx) {
  return ctx.error("You must feed a value for placeholder '" + ctx.node.name + "' (dtype " +
                   std::string(dtypeName(attrType(ctx.node, "dtype", DType::kInvalid))) + ")");
}

Status noOp(KernelContext&) { return Status::ok(); }

Tensor makeIntVector(const std::vector<int64_t>& values, DType dtype) {
  Tensor t = Tensor::uninitialized(dtype, Shape{static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DType::kInt64) t.data<int64_t>()[i] = values[i];
    else t.data<int32_t>()[i] = static_cast<int32_t>(values[i]);
  }
  return t;
}

Status reshape(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  std::vector<int64_t> dims = intValues(ctx.inputs[1]);
  int64_t known = 1;
  int unknown = -1;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (dims[k] == -1) {
      if (unknown >= 0) return ctx.error("only one dimension of the new shape may be -1");
      unknown = static_cast<int>(k);
    } else if (dims[k] < 0) {
      return ctx.error("new shape has a negative dimension " + std::to_string(dims[k]));
    } else {
      known *= dims[k];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || x.numElements() % known != 0)
      return ctx.error("cannot reshape a tensor of " + std::to_string(x.numElements()) + " elements to " +
                       Shape(dims).toString());
    dims[static_cast<size_t>(unknown)] = x.numElements() / known;
  }
  Shape shape(dims);
  if (shape.numElements() != x.numElements())
    return ctx.error("cannot reshape a tensor with " + std::to_string(x.numElements()) + " elements to shape " +
                     shape.toString() + " (" + std::to_string(shape.numElements()) + " elements)");
  ctx.outputs[0] = x.reshaped(shape);
  return Status::ok();
}

Status squeeze(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  auto axes = attrInts(ctx.node, "squeeze_dims");
  std::vector<int64_t> dims;
  for (int k = 0; k < x.shape().rank(); ++k) {
    bool listed = false;
    for (int64_t a : axes) {
      int64_t n;
      if (!normalizeAxis(a, x.shape().rank(), &n)) return ctx.error("squeeze dim " + std::to_string(a) + " out of range");
      listed |= n == k;
    }
    if (listed && x.shape().dim(k) != 1)
      return ctx.error("cannot squeeze dim " + std::to_string(k) + ", expected a dimension of 1, got " +
                       std::to_string(x.shape().dim(k)));
    if ((axes.empty() && x.shape().dim(k) == 1) || listed) continue;
    dims.push_back(x.shape().dim(k));
  }
  ctx.outputs[0] = x.reshaped(Shape(dims));
  return Status::ok();
}

Status expandDims(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  int64_t axis;
  if (!scalarInt(ctx.inputs[1], &axis)) return ctx.error("dim must be a scalar");
  int rank = x.shape().rank();
  if (axis < -rank - 1 || axis > rank) return ctx.error("dim " + std::to_string(axis) + " out of range");
  if (axis < 0) axis += rank + 1;
  std::vector<int64_t> dims = x.shape().dims();
  dims.insert(dims.begin() + axis, 1);
  ctx.outputs[0] = x.reshaped(Shape(dims));
  return Status::ok();
}

Status shapeOp(KernelContext& ctx) {
  DType t = attrType(ctx.node, "out_type", DType::kInt32);
  for (size_t i = 0; i < ctx.outputs.size(); ++i) ctx.outputs[i] = makeIntVector(ctx.inputs[i].shape().dims(), t);
  return Status::ok();
}

Status sizeOp(KernelContext& ctx) {
  DType t = attrType(ctx.node, "out_type", DType::kInt32);
  ctx.outputs[0] = makeIntVector({ctx.inputs[0].numElements()}, t).reshaped(Shape{});
  return Status::ok();
}

Status rankOp(KernelContext& ctx) {
  ctx.outputs[0] = Tensor::scalar<int32_t>(DType::kInt32, ctx.inputs[0].shape().rank());
  return Status::ok();
}

template <typename F>
Status moveBySize(KernelContext& ctx, const Tensor& like, F&& f) {
  if (like.isStringLike()) return ctx.error("does not support " + std::string(dtypeName(like.dtype())) + " tensors");
  if (!dispatchBySize(like.dtype(), f)) return ctx.error("unsupported dtype " + std::string(dtypeName(like.dtype())));
  return Status::ok();
}

Status transpose(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  std::vector<int64_t> perm = intValues(ctx.inputs[1]);
  const int rank = x.shape().rank();
  if (static_cast<int>(perm.size()) != rank) return ctx.error("perm has " + std::to_string(perm.size()) + " entries for rank " + std::to_string(rank));
  std::vector<int64_t> inStrides = stridesOf(x.shape()), dims(perm.size()), strides(perm.size());
  std::vector<bool> seen(perm.size(), false);
  for (size_t k = 0; k < perm.size(); ++k) {
    if (perm[k] < 0 || perm[k] >= rank || seen[static_cast<size_t>(perm[k])]) return ctx.error("perm is not a permutation");
    seen[static_cast<size_t>(perm[k])] = true;
    dims[k] = x.shape().dim(static_cast<int>(perm[k]));
    strides[k] = inStrides[static_cast<size_t>(perm[k])];
  }
  Tensor out = Tensor::uninitialized(x.dtype(), Shape(dims));
  FS_RETURN_IF_ERROR(moveBySize(ctx, x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    stridedCopy(x.data<T>(), 0, strides, dims, out.data<T>());
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// Concatenates `parts` along `axis` (shared by ConcatV2, Concat and Pack).
Status concatAlong(KernelContext& ctx, const std::vector<const Tensor*>& parts, int64_t axis, Shape outShape) {
  const Tensor& first = *parts[0];
  Tensor out = first.isStringLike() ? Tensor(first.dtype(), outShape) : Tensor::uninitialized(first.dtype(), outShape);
  int64_t outer = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= outShape.dim(static_cast<int>(k));
  int64_t rowOut = outShape.numElements() / std::max<int64_t>(outer, 1);
  if (first.isStringLike()) {
    int64_t offset = 0;
    for (const Tensor* p : parts) {
      int64_t row = p->numElements() / std::max<int64_t>(outer, 1);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < row; ++i) out.mutableStrings()[static_cast<size_t>(o * rowOut + offset + i)] = p->strings()[static_cast<size_t>(o * row + i)];
      offset += row;
    }
  } else {
    const size_t elem = static_cast<size_t>(dtypeSize(first.dtype()));
    int64_t offset = 0;
    for (const Tensor* p : parts) {
      int64_t row = p->numElements() / std::max<int64_t>(outer, 1);
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(out.mutableBytes().data() + (o * rowOut + offset) * static_cast<int64_t>(elem),
                    p->bytes().data() + o * row * static_cast<int64_t>(elem), static_cast<size_t>(row) * elem);
      offset += row;
    }
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status concat(KernelContext& ctx) {
  bool v2 = ctx.node.op == "ConcatV2";
  const Tensor& axisT = v2 ? ctx.inputs.back() : ctx.inputs.front();
  std::vector<const Tensor*> parts;
  for (size_t i = v2 ? 0 : 1; i < (v2 ? ctx.inputs.size() - 1 : ctx.inputs.size()); ++i) parts.push_back(&ctx.inputs[i]);
  if (parts.empty()) return ctx.error("nothing to concatenate");
  int64_t axis;
  if (!scalarInt(axisT, &axis)) return ctx.error("axis must be a scalar");
  const Shape& s0 = parts[0]->shape();
  if (!normalizeAxis(axis, s0.rank(), &axis)) return ctx.error("axis out of range for rank " + std::to_string(s0.rank()));
  std::vector<int64_t> dims = s0.dims();
  dims[static_cast<size_t>(axis)] = 0;
  for (const Tensor* p : parts) {
    if (p->dtype() != parts[0]->dtype()) return ctx.error("inputs have different dtypes");
    if (p->shape().rank() != s0.rank()) return ctx.error("inputs have different ranks: " + s0.toString() + " and " + p->shape().toString());
    for (int k = 0; k < s0.rank(); ++k)
      if (k != axis && p->shape().dim(k) != s0.dim(k))
        return ctx.error("input shapes " + s0.toString() + " and " + p->shape().toString() + " differ outside axis " + std::to_string(axis));
    dims[static_cast<size_t>(axis)] += p->shape().dim(static_cast<int>(axis));
  }
  return concatAlong(ctx, parts, axis, Shape(dims));
}

Status pack(KernelContext& ctx) {
  const Shape& s0 = ctx.inputs[0].shape();
  int64_t axis = attrInt(ctx.node, "axis", 0);
  if (!normalizeAxis(axis, s0.rank() + 1, &axis)) return ctx.error("axis out of range");
  std::vector<const Tensor*> parts;
  std::vector<int64_t> partDims = s0.dims();
  partDims.insert(partDims.begin() + axis, 1);
  std::vector<Tensor> reshaped;
  reshaped.reserve(ctx.inputs.size());
  for (const auto& t : ctx.inputs) {
    if (t.shape() != s0 || t.dtype() != ctx.inputs[0].dtype())
      return ctx.error("all inputs must have shape " + s0.toString() + " and one dtype; got " + t.shape().toString());
    reshaped.push_back(t.reshaped(Shape(partDims)));
  }
  for (const auto& t : reshaped) parts.push_back(&t);
  std::vector<int64_t> dims = partDims;
  dims[static_cast<size_t>(axis)] = static_cast<int64_t>(ctx.inputs.size());
  return concatAlong(ctx, parts, axis, Shape(dims));
}

// Splits x along axis into pieces of the given sizes (Unpack, Split, SplitV).
Status splitAlong(KernelContext& ctx, const Tensor& x, int64_t axis, const std::vector<int64_t>& sizes, bool dropAxis) {
  const Shape& s = x.shape();
  int64_t start = 0;
  for (size_t p = 0; p < sizes.size(); ++p) {
    std::vector<int64_t> dims = s.dims();
    dims[static_cast<size_t>(axis)] = sizes[p];
    if (dropAxis) dims.erase(dims.begin() + axis);
    std::vector<int64_t> pieceDims = s.dims();
    pieceDims[static_cast<size_t>(axis)] = sizes[p];
    Tensor out = Tensor::uninitialized(x.dtype(), Shape(dims));
    std::vector<int64_t> strides = stridesOf(s);
    FS_RETURN_IF_ERROR(moveBySize(ctx, x, [&](auto tag) {
      using T = typename decltype(tag)::type;
      stridedCopy(x.data<T>(), start * strides[static_cast<size_t>(axis)], strides, pieceDims, out.data<T>());
    }));
    ctx.outputs[p] = std::move(out);
    start += sizes[p];
  }
  return Status::ok();
}

Status unpack(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  int64_t axis = attrInt(ctx.node, "axis", 0);
  if (!normalizeAxis(axis, x.shape().rank(), &axis)) return ctx.error("axis out of range");
  int64_t num = x.shape().dim(static_cast<int>(axis));
  if (num != static_cast<int64_t>(ctx.outputs.size()))
    return ctx.error("num=" + std::to_string(ctx.outputs.size()) + " but the axis has " + std::to_string(num) + " entries");
  return splitAlong(ctx, x, axis, std::vector<int64_t>(static_cast<size_t>(num), 1), true);
}

Status split(KernelContext& ctx) {
  bool v = ctx.node.op == "SplitV";
  const Tensor& x = ctx.inputs[v ? 0 : 1];
  int64_t axis;
  if (!scalarInt(ctx.inputs[v ? 2 : 0], &axis) || !normalizeAxis(axis, x.shape().rank(), &axis))
    return ctx.error("split_dim must be a scalar in range");
  int64_t len = x.shape().dim(static_cast<int>(axis));
  auto parts = static_cast<int64_t>(ctx.outputs.size());
  std::vector<int64_t> sizes;
  if (v) {
    sizes = intValues(ctx.inputs[1]);
    int64_t known = 0, missing = -1;
    for (size_t k = 0; k < sizes.size(); ++k) {
      if (sizes[k] == -1) missing = static_cast<int64_t>(k);
      else known += sizes[k];
    }
    if (missing >= 0) sizes[static_cast<size_t>(missing)] = len - known;
    int64_t sum = 0;
    for (int64_t s : sizes) sum += s;
    if (sum != len || static_cast<int64_t>(sizes.size()) != parts) return ctx.error("size_splits do not add up to the dim");
  } else {
    if (parts == 0 || len % parts) return ctx.error("dim of size " + std::to_string(len) + " does not split into " + std::to_string(parts));
    sizes.assign(static_cast<size_t>(parts), len / parts);
  }
  return splitAlong(ctx, x, axis, sizes, false);
}

Status tile(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  std::vector<int64_t> multiples = intValues(ctx.inputs[1]);
  const int rank = x.shape().rank();
  if (static_cast<int>(multiples.size()) != rank) return ctx.error("multiples must have one entry per dim");
  // Output dims are (m_k, d_k) pairs: tile index then element index, so strides are (0, s_k).
  std::vector<int64_t> dims, strides, inStrides = stridesOf(x.shape()), outDims;
  for (int k = 0; k < rank; ++k) {
    if (multiples[static_cast<size_t>(k)] < 0) return ctx.error("multiples must be non-negative");
    dims.push_back(multiples[static_cast<size_t>(k)]);
    strides.push_back(0);
    dims.push_back(x.shape().dim(k));
    strides.push_back(inStrides[static_cast<size_t>(k)]);
    outDims.push_back(multiples[static_cast<size_t>(k)] * x.shape().dim(k));
  }
  Tensor out = Tensor::uninitialized(x.dtype(), Shape(outDims));
  FS_RETURN_IF_ERROR(moveBySize(ctx, x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    stridedCopy(x.data<T>(), 0, strides, dims, out.data<T>());
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status broadcastValue(KernelContext& ctx, const Tensor& value, const Shape& target) {
  Shape outShape;
  BroadcastPlan plan;
  if (!planBroadcast({value.shape(), target}, &outShape, &plan) || outShape != target)
    return ctx.error("cannot broadcast " + value.shape().toString() + " to " + target.toString());
  Tensor out = Tensor::uninitialized(value.dtype(), target);
  FS_RETURN_IF_ERROR(moveBySize(ctx, value, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = value.data<T>();
    T* o = out.data<T>();
    plan.forEachRun([&](int64_t at, int64_t len, const int64_t* off, const int64_t* inner) {
      for (int64_t i = 0; i < len; ++i) o[at + i] = in[off[0] + i * inner[0]];
    });
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status fill(KernelContext& ctx) {
  std::vector<int64_t> dims = intValues(ctx.inputs[0]);
  for (int64_t d : dims)
    if (d < 0) return ctx.error("dims must be non-negative, got " + Shape(dims).toString());
  if (ctx.inputs[1].numElements() != 1) return ctx.error("value must be a scalar");
  if (ctx.inputs[1].isStringLike()) {
    ctx.outputs[0] = Tensor::fromStrings(Shape(dims), std::vector<std::string>(static_cast<size_t>(Shape(dims).numElements()), ctx.inputs[1].strings()[0]));
    return Status::ok();
  }
  return broadcastValue(ctx, ctx.inputs[1].reshaped(Shape{}), Shape(dims));
}

Status broadcastTo(KernelContext& ctx) { return broadcastValue(ctx, ctx.inputs[0], Shape(intValues(ctx.inputs[1]))); }

Status pad(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  std::vector<int64_t> p = intValues(ctx.inputs[1]);
  const int rank = x.shape().rank();
  if (p.size() != 2 * static_cast<size_t>(rank)) return ctx.error("paddings must be [rank, 2]");
  std::string mode = ctx.node.op == "MirrorPad" ? attrString(ctx.node, "mode", "REFLECT") : "CONSTANT";
  std::vector<int64_t> outDims;
  for (int k = 0; k < rank; ++k) {
    int64_t before = p[2 * static_cast<size_t>(k)], after = p[2 * static_cast<size_t>(k) + 1];
    if (before < 0 || after < 0) return ctx.error("paddings must be non-negative");
    int64_t limit = mode == "REFLECT" ? x.shape().dim(k) - 1 : x.shape().dim(k);
    if (mode != "CONSTANT" && (before > limit || after > limit)) return ctx.error("paddings too large for " + mode);
    outDims.push_back(x.shape().dim(k) + before + after);
  }
  Shape outShape(outDims);
  Tensor out(x.dtype(), outShape);
  std::vector<int64_t> inStrides = stridesOf(x.shape()), outStrides = stridesOf(outShape);
  FS_RETURN_IF_ERROR(moveBySize(ctx, x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    const T* in = x.data<T>();
    if (ctx.node.op == "PadV2" && ctx.inputs.size() > 2 && ctx.inputs[2].numElements() == 1) {
      T c = ctx.inputs[2].data<T>()[0];
      std::fill(o, o + out.numElements(), c);
    }
    const int64_t total = out.numElements();
    for (int64_t i = 0; i < total; ++i) {
      int64_t src = 0;
      bool inside = true;
      for (int k = 0; k < rank; ++k) {
        int64_t c = (i / outStrides[static_cast<size_t>(k)]) % outDims[static_cast<size_t>(k)] - p[2 * static_cast<size_t>(k)];
        int64_t n = x.shape().dim(k);
        if (c < 0 || c >= n) {
          if (mode == "CONSTANT") { inside = false; break; }
          int64_t shift = mode == "REFLECT" ? 0 : 1;
          c = c < 0 ? -c - shift : 2 * n - c - 2 + shift;
        }
        src += c * inStrides[static_cast<size_t>(k)];
      }
      if (inside) o[i] = in[src];
    }
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status range(KernelContext& ctx) {
  const Tensor& s = ctx.inputs[0];
  Status status;
  if (!dispatchNumeric(s.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
          status = ctx.error("bool range");
        } else {
          T start = s.data<T>()[0], limit = ctx.inputs[1].data<T>()[0], delta = ctx.inputs[2].data<T>()[0];
          if (delta == T(0)) { status = ctx.error("Requires delta != 0"); return; }
          if ((delta > T(0) && start > limit) || (delta < T(0) && start < limit)) {
            status = ctx.error("Requires start <= limit when delta > 0 (start >= limit when delta < 0)");
            return;
          }
          double count = std::ceil(std::abs((static_cast<double>(limit) - static_cast<double>(start)) / static_cast<double>(delta)));
          Tensor out = Tensor::uninitialized(s.dtype(), Shape{static_cast<int64_t>(count)});
          T v = start;
          for (int64_t i = 0; i < static_cast<int64_t>(count); ++i, v = static_cast<T>(v + delta)) out.data<T>()[i] = v;
          ctx.outputs[0] = std::move(out);
        }
      }))
    return ctx.error("unsupported dtype");
  return status;
}

Status oneHot(KernelContext& ctx) {
  const Tensor& indices = ctx.inputs[0];
  int64_t depth;
  if (!scalarInt(ctx.inputs[1], &depth) || depth < 0) return ctx.error("depth must be a non-negative scalar");
  int64_t axis = attrInt(ctx.node, "axis", -1);
  const int rank = indices.shape().rank();
  if (axis < -1 || axis > rank) return ctx.error("axis out of range");
  if (axis == -1) axis = rank;
  std::vector<int64_t> dims = indices.shape().dims();
  dims.insert(dims.begin() + axis, depth);
  const Tensor& on = ctx.inputs[2];
  const Tensor& off = ctx.inputs[3];
  Tensor out = Tensor::uninitialized(on.dtype(), Shape(dims));
  std::vector<int64_t> idx = intValues(indices);
  int64_t outer = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= indices.shape().dim(static_cast<int>(k));
  int64_t inner = indices.numElements() / std::max<int64_t>(outer, 1);
  FS_RETURN_IF_ERROR(moveBySize(ctx, on, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    for (int64_t a = 0; a < outer; ++a)
      for (int64_t d = 0; d < depth; ++d)
        for (int64_t b = 0; b < inner; ++b)
          o[(a * depth + d) * inner + b] = idx[static_cast<size_t>(a * inner + b)] == d ? on.data<T>()[0] : off.data<T>()[0];
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status select(KernelContext& ctx) {
  const Tensor& c = ctx.inputs[0];
  const Tensor& t = ctx.inputs[1];
  const Tensor& e = ctx.inputs[2];
  if (t.dtype() != e.dtype()) return ctx.error("t and e have different dtypes");
  Shape outShape;
  BroadcastPlan plan;
  std::vector<Shape> shapes = {c.shape(), t.shape(), e.shape()};
  bool v1Vector = ctx.node.op == "Select" && c.shape().rank() == 1 && t.shape().rank() > 1;
  if (v1Vector) {  // Select v1: a vector condition picks whole rows
    std::vector<int64_t> cd(static_cast<size_t>(t.shape().rank()), 1);
    cd[0] = c.shape().dim(0);
    shapes[0] = Shape(cd);
  }
  if (!planBroadcast(shapes, &outShape, &plan)) return ctx.error("condition, t and e shapes do not broadcast");
  Tensor out = Tensor::uninitialized(t.dtype(), outShape);
  FS_RETURN_IF_ERROR(moveBySize(ctx, t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const uint8_t* pc = c.data<uint8_t>();
    const T* pt = t.data<T>();
    const T* pe = e.data<T>();
    T* o = out.data<T>();
    plan.forEachRun([&](int64_t at, int64_t len, const int64_t* off, const int64_t* inner) {
      for (int64_t i = 0; i < len; ++i)
        o[at + i] = pc[off[0] + i * inner[0]] ? pt[off[1] + i * inner[1]] : pe[off[2] + i * inner[2]];
    });
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status where(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const int rank = x.shape().rank();
  std::vector<int64_t> hits;
  std::vector<int64_t> strides = stridesOf(x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i) {
    if (x.elementAsDouble(i) == 0) continue;
    for (int k = 0; k < rank; ++k) hits.push_back((i / strides[static_cast<size_t>(k)]) % x.shape().dim(k));
  }
  Tensor out = Tensor::uninitialized(DType::kInt64, Shape{static_cast<int64_t>(rank ? hits.size() / static_cast<size_t>(rank) : 0), rank});
  std::copy(hits.begin(), hits.end(), out.data<int64_t>());
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status reverse(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  std::vector<int64_t> strides = stridesOf(x.shape());
  int64_t offset = 0;
  for (int64_t a : intValues(ctx.inputs[1])) {
    if (!normalizeAxis(a, x.shape().rank(), &a)) return ctx.error("axis out of range");
    offset += (x.shape().dim(static_cast<int>(a)) - 1) * strides[static_cast<size_t>(a)];
    strides[static_cast<size_t>(a)] = -strides[static_cast<size_t>(a)];
  }
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  FS_RETURN_IF_ERROR(moveBySize(ctx, x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (x.numElements() > 0) stridedCopy(x.data<T>(), offset, strides, x.shape().dims(), out.data<T>());
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status broadcastGradientArgs(KernelContext& ctx) {
  std::vector<int64_t> a = intValues(ctx.inputs[0]), b = intValues(ctx.inputs[1]);
  size_t rank = std::max(a.size(), b.size());
  a.insert(a.begin(), rank - a.size(), 1);
  b.insert(b.begin(), rank - b.size(), 1);
  std::vector<int64_t> ra, rb;
  for (size_t k = 0; k < rank; ++k) {
    if (a[k] != b[k] && a[k] != 1 && b[k] != 1) return ctx.error("incompatible shapes");
    if (a[k] == 1 && b[k] != 1) ra.push_back(static_cast<int64_t>(k));
    if (b[k] == 1 && a[k] != 1) rb.push_back(static_cast<int64_t>(k));
    if (a[k] == 1 && b[k] == 1) {
      ra.push_back(static_cast<int64_t>(k));
      rb.push_back(static_cast<int64_t>(k));
    }
  }
  ctx.outputs[0] = makeIntVector(ra, ctx.inputs[0].dtype());
  ctx.outputs[1] = makeIntVector(rb, ctx.inputs[0].dtype());
  return Status::ok();
}

}  // namespace

void registerArrayKernels(KernelTable& r) {
  for (const char* op : {"Identity", "Snapshot", "StopGradient", "PreventGradient", "IdentityN", "Enter", "Exit",
                         "NextIteration", "LoopCond", "PlaceholderWithDefault"})
    r.addFn(op, identity);
  r.addFn("CheckNumerics", checkNumerics);
  r.add("Const", makeConst);
  r.addFn("Placeholder", placeholder);
  r.addFn("NoOp", noOp);
  r.addFn("ControlTrigger", noOp);
  r.addFn("Reshape", reshape);
  r.addFn("Squeeze", squeeze);
  r.addFn("ExpandDims", expandDims);
  r.addFn("Shape", shapeOp);
  r.addFn("ShapeN", shapeOp);
  r.addFn("Size", sizeOp);
  r.addFn("Rank", rankOp);
  r.addFn("Transpose", transpose);
  r.addFn("ConcatV2", concat);
  r.addFn("Concat", concat);
  r.addFn("Pack", pack);
  r.addFn("Unpack", unpack);
  r.addFn("Split", split);
  r.addFn("SplitV", split);
  r.addFn("Tile", tile);
  r.addFn("Fill", fill);
  r.addFn("BroadcastTo", broadcastTo);
  r.addFn("Pad", pad);
  r.addFn("PadV2", pad);
  r.addFn("MirrorPad", pad);
  r.addFn("Range", range);
  r.addFn("OneHot", oneHot);
  r.addFn("Select", select);
  r.addFn("SelectV2", select);
  r.addFn("Where", where);
  r.addFn("ReverseV2", reverse);
  r.addFn("BroadcastGradientArgs", broadcastGradientArgs);
}

}  // namespace flowscope
