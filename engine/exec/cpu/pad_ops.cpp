// Padding: Pad, PadV2 (a constant value) and MirrorPad (REFLECT, SYMMETRIC).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "exec/cpu/broadcast.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/move_by_size.h"
#include "exec/cpu/strided_copy.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

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
        int64_t c =
            (i / outStrides[static_cast<size_t>(k)]) % outDims[static_cast<size_t>(k)] - p[2 * static_cast<size_t>(k)];
        int64_t n = x.shape().dim(k);
        if (c < 0 || c >= n) {
          if (mode == "CONSTANT") {
            inside = false;
            break;
          }
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

}  // namespace

void registerPadKernels(KernelTable& r) {
  r.addFn("Pad", pad);
  r.addFn("PadV2", pad);
  r.addFn("MirrorPad", pad);
}

}  // namespace flowscope
