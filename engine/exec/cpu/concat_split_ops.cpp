// Joining and splitting along an axis: ConcatV2/Concat, Pack, Unpack, Split/SplitV.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "exec/cpu/broadcast.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/move_by_size.h"
#include "exec/cpu/strided_copy.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

// memcpy, but rows of a few bytes (a channel or two of a detection head) are copied inline: a call per 4-byte row
// costs more than the copy.
inline void copySmallOrLarge(std::byte* to, const std::byte* from, size_t bytes) {
  if (bytes > 32) {
    std::memcpy(to, from, bytes);
    return;
  }
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) std::memcpy(to + i, from + i, 8);  // fixed sizes compile to moves
  if (i + 4 <= bytes) std::memcpy(to + i, from + i, 4), i += 4;
  for (; i < bytes; ++i) to[i] = from[i];
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
        for (int64_t i = 0; i < row; ++i)
          out.mutableStrings()[static_cast<size_t>(o * rowOut + offset + i)] =
              p->strings()[static_cast<size_t>(o * row + i)];
      offset += row;
    }
  } else {
    const auto elem = static_cast<int64_t>(dtypeSize(first.dtype()));
    std::vector<const std::byte*> sources;  // per part: its data and its row's bytes, looked up once
    std::vector<size_t> rowBytes;
    for (const Tensor* p : parts) {
      sources.push_back(p->bytes().data());
      rowBytes.push_back(static_cast<size_t>(p->numElements() / std::max<int64_t>(outer, 1) * elem));
    }
    std::byte* dst = out.mutableBytes().data();
    const auto outRowBytes = static_cast<size_t>(rowOut * elem);
    parallelFor(outer, rowOut * elem / 32 + static_cast<int64_t>(parts.size()), [&](int64_t begin, int64_t end) {
      for (int64_t o = begin; o < end; ++o) {  // one output row: each part's row in turn
        std::byte* to = dst + static_cast<size_t>(o) * outRowBytes;
        for (size_t p = 0; p < sources.size(); ++p) {
          copySmallOrLarge(to, sources[p] + static_cast<size_t>(o) * rowBytes[p], rowBytes[p]);
          to += rowBytes[p];
        }
      }
    });
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status concat(KernelContext& ctx) {
  bool v2 = ctx.node.op == "ConcatV2";
  const Tensor& axisT = v2 ? ctx.inputs.back() : ctx.inputs.front();
  std::vector<const Tensor*> parts;
  for (size_t i = v2 ? 0 : 1; i < (v2 ? ctx.inputs.size() - 1 : ctx.inputs.size()); ++i)
    parts.push_back(&ctx.inputs[i]);
  if (parts.empty()) return ctx.error("nothing to concatenate");
  int64_t axis;
  if (!scalarInt(axisT, &axis)) return ctx.error("axis must be a scalar");
  const Shape& s0 = parts[0]->shape();
  if (!normalizeAxis(axis, s0.rank(), &axis))
    return ctx.error("axis out of range for rank " + std::to_string(s0.rank()));
  std::vector<int64_t> dims = s0.dims();
  dims[static_cast<size_t>(axis)] = 0;
  for (const Tensor* p : parts) {
    if (p->dtype() != parts[0]->dtype()) return ctx.error("inputs have different dtypes");
    if (p->shape().rank() != s0.rank())
      return ctx.error("inputs have different ranks: " + s0.toString() + " and " + p->shape().toString());
    for (int k = 0; k < s0.rank(); ++k)
      if (k != axis && p->shape().dim(k) != s0.dim(k))
        return ctx.error("input shapes " + s0.toString() + " and " + p->shape().toString() + " differ outside axis " +
                         std::to_string(axis));
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

// Splits x along axis into pieces of the given sizes (Unpack, Split, SplitV): each piece is `outer` blocks of
// size * inner contiguous elements, copied block by block (no per-element index arithmetic: pieces are often tiny,
// the gates of an LSTM cell).
Status splitAlong(KernelContext& ctx, const Tensor& x, int64_t axis, const std::vector<int64_t>& sizes, bool dropAxis) {
  const Shape& s = x.shape();
  if (x.isStringLike()) return ctx.error("does not support " + std::string(dtypeName(x.dtype())) + " tensors");
  const AxisSplit split = splitAt(s, axis);  // elements before the axis, along it and after it
  const int64_t outer = split.outer, len = split.length, inner = split.inner;
  const auto elem = static_cast<size_t>(dtypeSize(x.dtype()));
  const std::byte* source = x.bytes().data();
  int64_t start = 0;
  for (size_t p = 0; p < sizes.size(); ++p) {
    std::vector<int64_t> dims = s.dims();
    dims[static_cast<size_t>(axis)] = sizes[p];
    if (dropAxis) dims.erase(dims.begin() + axis);
    Tensor out = Tensor::uninitialized(x.dtype(), Shape(std::move(dims)));
    const auto block = static_cast<size_t>(sizes[p] * inner) * elem;
    std::byte* to = out.mutableBytes().data();
    for (int64_t o = 0; o < outer && block > 0; ++o)
      std::memcpy(to + static_cast<size_t>(o) * block, source + static_cast<size_t>((o * len + start) * inner) * elem,
                  block);
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
    return ctx.error("num=" + std::to_string(ctx.outputs.size()) + " but the axis has " + std::to_string(num) +
                     " entries");
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
      if (sizes[k] == -1)
        missing = static_cast<int64_t>(k);
      else
        known += sizes[k];
    }
    if (missing >= 0) sizes[static_cast<size_t>(missing)] = len - known;
    int64_t sum = 0;
    for (int64_t s : sizes) sum += s;
    if (sum != len || static_cast<int64_t>(sizes.size()) != parts)
      return ctx.error("size_splits do not add up to the dim");
  } else {
    if (parts == 0 || len % parts)
      return ctx.error("dim of size " + std::to_string(len) + " does not split into " + std::to_string(parts));
    sizes.assign(static_cast<size_t>(parts), len / parts);
  }
  return splitAlong(ctx, x, axis, sizes, false);
}

}  // namespace

void registerConcatSplitKernels(KernelTable& r) {
  r.addFn("ConcatV2", concat);
  r.addFn("Concat", concat);
  r.addFn("Pack", pack);
  r.addFn("Unpack", unpack);
  r.addFn("Split", split);
  r.addFn("SplitV", split);
}

}  // namespace flowscope
