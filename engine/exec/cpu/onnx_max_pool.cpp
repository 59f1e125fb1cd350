// ONNX MaxPool by its definition (onnx_max_pool.h): each output the largest input in its window (the first on ties),
// padding never chosen.
#include "exec/cpu/onnx_max_pool.h"

#include <limits>
#include <type_traits>

#include "exec/cpu/onnx_conv_window.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

// The input position of window tap `tap` at output `out` on each spatial axis; false when one is in the padding.
bool tapPosition(const OnnxWindow& w, const std::vector<int64_t>& out, const std::vector<int64_t>& tap, const Shape& x,
                 std::vector<int64_t>& at) {
  for (size_t d = 0; d < out.size(); ++d) {
    at[d] = out[d] * w.strides[d] - w.padBegin[d] + tap[d] * w.dilations[d];
    if (at[d] < 0 || at[d] >= x.dim(static_cast<int>(d) + 2)) return false;
  }
  return true;
}

// Advances an odometer over `dims`; false once it wraps.
bool next(std::vector<int64_t>& index, const std::vector<int64_t>& dims) {
  for (size_t d = index.size(); d-- > 0;) {
    if (++index[d] < dims[d]) return true;
    index[d] = 0;
  }
  return false;
}

// The flat index of spatial position `at` in plane `plane`: row-major, or column-major over the spatial axes.
int64_t flatIndex(const Shape& x, int64_t plane, const std::vector<int64_t>& at, bool columnMajor) {
  int64_t index = 0, stride = 1, area = 1;
  for (size_t k = 0; k < at.size(); ++k) {
    const size_t d = columnMajor ? k : at.size() - 1 - k;
    index += at[d] * stride;
    stride *= x.dim(static_cast<int>(d) + 2);
    area *= x.dim(static_cast<int>(d) + 2);
  }
  return plane * area + index;
}

}  // namespace

Status windowMaxPool(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.shape().rank() < 3) return ctx.error("expects N, C, spatial..., got " + x.shape().toString());
  auto w = onnxWindow(ctx.node, x.shape(), attrInts(ctx.node, "kernel_shape"), attrInt(ctx.node, "ceil_mode", 0));
  if (!w) return ctx.error(w.status().message());
  const bool columnMajor = attrInt(ctx.node, "storage_order", 0) != 0;
  std::vector<int64_t> dims{x.shape().dim(0), x.shape().dim(1)};
  dims.insert(dims.end(), w->out.begin(), w->out.end());
  Tensor y = Tensor::uninitialized(x.dtype(), Shape(dims)), indices(DType::kInt64, Shape(dims));
  const int64_t planes = x.shape().dim(0) * x.shape().dim(1);
  const size_t spatial = w->out.size();
  const bool ok = dispatchNumeric(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      int64_t k = 0;
      for (int64_t plane = 0; plane < planes; ++plane) {
        std::vector<int64_t> out(spatial, 0), tap(spatial), at(spatial);
        do {
          T best = std::numeric_limits<T>::lowest();
          int64_t where = -1;
          std::fill(tap.begin(), tap.end(), 0);
          do {
            if (!tapPosition(*w, out, tap, x.shape(), at)) continue;
            const int64_t i = flatIndex(x.shape(), plane, at, false);
            if (where < 0 || x.data<T>()[i] > best) {
              best = x.data<T>()[i];
              where = flatIndex(x.shape(), plane, at, columnMajor);
            }
          } while (next(tap, w->kernel));
          y.data<T>()[k] = best;
          indices.data<int64_t>()[k++] = where;
        } while (next(out, w->out));
      }
    }
  });
  if (!ok || x.dtype() == DType::kBool) return ctx.error("cannot pool " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(y);
  if (ctx.outputs.size() > 1) ctx.outputs[1] = std::move(indices);
  return Status::ok();
}

}  // namespace flowscope
