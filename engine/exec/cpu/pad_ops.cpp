// Padding: Pad, PadV2 (a constant value) and MirrorPad (REFLECT, SYMMETRIC, and EDGE, which repeats the border element:
// not TensorFlow's, for ONNX's edge mode). The output is written row by row (a
// row is the innermost dimension): each output coordinate maps to an input coordinate through a per-dimension table
// (or to the constant), so a row is a fill, a memcpy of the input row and a fill, or for mirror modes a memcpy plus
// a few reflected elements. Rows are shared among the intra-op threads.
#include <algorithm>
#include <cstring>

#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/move_by_size.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

enum class PadMode { kConstant, kReflect, kSymmetric, kEdge };

// For each dimension: output coordinate -> input coordinate, or -1 where the output is the constant.
std::vector<std::vector<int64_t>> coordinateMaps(const Shape& in, const std::vector<int64_t>& pads, PadMode mode) {
  std::vector<std::vector<int64_t>> maps(static_cast<size_t>(in.rank()));
  for (int k = 0; k < in.rank(); ++k) {
    const int64_t n = in.dim(k), before = pads[2 * static_cast<size_t>(k)];
    const int64_t size = n + before + pads[2 * static_cast<size_t>(k) + 1];
    auto& map = maps[static_cast<size_t>(k)];
    map.resize(static_cast<size_t>(size));
    for (int64_t o = 0; o < size; ++o) {
      int64_t c = o - before;
      if (c < 0 || c >= n) {
        if (mode == PadMode::kConstant)
          c = -1;
        else if (mode == PadMode::kReflect)
          c = c < 0 ? -c : 2 * n - c - 2;
        else if (mode == PadMode::kEdge)
          c = c < 0 ? 0 : n - 1;
        else
          c = c < 0 ? -c - 1 : 2 * n - c - 1;
      }
      map[static_cast<size_t>(o)] = c;
    }
  }
  return maps;
}

// Writes output rows [begin, end) of a rank >= 1 pad.
template <typename T>
void padRows(const T* in, T* out, T constant, const Shape& inShape, const Shape& outShape,
             const std::vector<std::vector<int64_t>>& maps, int64_t before, int64_t begin, int64_t end) {
  const int rank = inShape.rank();
  const int64_t rowOut = outShape.dim(rank - 1), rowIn = inShape.dim(rank - 1);
  const std::vector<int64_t>& inner = maps[static_cast<size_t>(rank - 1)];
  const std::vector<int64_t> inStrides = stridesOf(inShape);
  std::vector<int64_t> coord(static_cast<size_t>(rank - 1));  // the outer coordinates of row `begin`
  int64_t rest = begin;
  for (int d = rank - 2; d >= 0; --d) {
    coord[static_cast<size_t>(d)] = rest % outShape.dim(d);
    rest /= outShape.dim(d);
  }
  bool outerUnpadded = true;  // only the rows are padded (channel padding): row r reads input row r
  for (int d = 0; d < rank - 1; ++d) outerUnpadded &= outShape.dim(d) == inShape.dim(d);
  const bool constantEdges = std::all_of(inner.begin(), inner.begin() + before, [](int64_t c) { return c < 0; }) &&
                             std::all_of(inner.begin() + before + rowIn, inner.end(), [](int64_t c) { return c < 0; });
  for (int64_t r = begin; r < end; ++r) {
    T* row = out + r * rowOut;
    int64_t src = r * rowIn;
    bool constantRow = false;
    if (!outerUnpadded) {
      src = 0;
      for (int d = 0; d < rank - 1 && !constantRow; ++d) {
        const int64_t c = maps[static_cast<size_t>(d)][static_cast<size_t>(coord[static_cast<size_t>(d)])];
        constantRow = c < 0;
        src += c * inStrides[static_cast<size_t>(d)];
      }
      for (int d = rank - 2; d >= 0; --d) {  // next row: an odometer over the outer dimensions
        if (++coord[static_cast<size_t>(d)] < outShape.dim(d)) break;
        coord[static_cast<size_t>(d)] = 0;
      }
    }
    if (constantRow || rowIn == 0) {
      std::fill(row, row + rowOut, constant);
      continue;
    }
    const T* srcRow = in + src;
    if (constantEdges) {  // plain loops: rows are often short (channel padding), where calls cost more than copies
      for (int64_t j = 0; j < before; ++j) row[j] = constant;
      for (int64_t j = 0; j < rowIn; ++j) row[before + j] = srcRow[j];
      for (int64_t j = before + rowIn; j < rowOut; ++j) row[j] = constant;
      continue;
    }
    for (int64_t j = 0; j < before; ++j) row[j] = srcRow[inner[static_cast<size_t>(j)]];
    std::memcpy(row + before, srcRow, static_cast<size_t>(rowIn) * sizeof(T));
    for (int64_t j = before + rowIn; j < rowOut; ++j) row[j] = srcRow[inner[static_cast<size_t>(j)]];
  }
}

Expected<PadMode> padMode(const KernelContext& ctx) {
  if (ctx.node.op != "MirrorPad") return PadMode::kConstant;
  const std::string mode = attrString(ctx.node, "mode", "REFLECT");
  if (mode == "REFLECT") return PadMode::kReflect;
  if (mode == "SYMMETRIC") return PadMode::kSymmetric;
  if (mode == "EDGE") return PadMode::kEdge;
  return ctx.error("mode must be REFLECT, SYMMETRIC or EDGE, not '" + mode + "'");
}

Status pad(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const std::vector<int64_t> p = intValues(ctx.inputs[1]);
  const int rank = x.shape().rank();
  if (p.size() != 2 * static_cast<size_t>(rank)) return ctx.error("paddings must be [rank, 2]");
  FS_ASSIGN_OR_RETURN(PadMode mode, padMode(ctx));
  std::vector<int64_t> outDims;
  for (int k = 0; k < rank; ++k) {
    const int64_t before = p[2 * static_cast<size_t>(k)], after = p[2 * static_cast<size_t>(k) + 1];
    if (before < 0 || after < 0) return ctx.error("paddings must be non-negative");
    const int64_t limit = mode == PadMode::kReflect ? x.shape().dim(k) - 1 : x.shape().dim(k);
    if (mode == PadMode::kEdge && x.shape().dim(k) == 0 && before + after > 0)
      return ctx.error("cannot repeat the edge of empty dimension " + std::to_string(k));
    if (mode != PadMode::kConstant && mode != PadMode::kEdge && (before > limit || after > limit))
      return ctx.error("paddings must be at most " + std::to_string(limit) + " in dimension " + std::to_string(k) +
                       " for " + attrString(ctx.node, "mode", "REFLECT"));
    outDims.push_back(x.shape().dim(k) + before + after);
  }
  const Shape outShape(outDims);
  Tensor out = Tensor::uninitialized(x.dtype(), outShape);
  const auto maps = coordinateMaps(x.shape(), p, mode);
  FS_RETURN_IF_ERROR(moveBySize(ctx, x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T constant{};
    if (ctx.node.op == "PadV2" && ctx.inputs.size() > 2 && ctx.inputs[2].numElements() == 1)
      std::memcpy(&constant, ctx.inputs[2].bytes().data(), sizeof(T));
    if (rank == 0) {
      if (outShape.numElements() == 1) out.data<T>()[0] = x.data<T>()[0];
      return;
    }
    const int64_t rowLength = outShape.dim(rank - 1);
    const int64_t rows = rowLength == 0 ? 0 : outShape.numElements() / rowLength;
    parallelFor(rows, rowLength * static_cast<int64_t>(sizeof(T)) / 4 + 4, [&](int64_t begin, int64_t end) {
      padRows<T>(x.data<T>(), out.data<T>(), constant, x.shape(), outShape, maps, p[2 * static_cast<size_t>(rank - 1)],
                 begin, end);
    });
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerPadKernels(KernelTable& r) {
  r.addFn("Pad", pad);
  r.addFn("PadV2", pad);
  r.addFn("MirrorPad", pad);
}

}  // namespace flowscope
