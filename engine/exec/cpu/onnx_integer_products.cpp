// The int32 products of ONNX's integer ops (onnx_integer_products.h): an im2col convolution and a row-by-column
// matrix product, shared among the intra-op threads by output channel and by row.
#include "exec/cpu/onnx_integer_products.h"

#include <algorithm>
#include <vector>

#include "base/thread_pool.h"
#include "exec/cpu/matmul_batches.h"
#include "exec/cpu/wrapping_arithmetic.h"

namespace flowscope {
namespace {

// The int32 columns of one image and group: (x - zero point), zero where the window is in the padding.
void im2col(const Tensor& x, int32_t zx, int64_t n, int64_t c0, int64_t cg, const OnnxWindow& w,
            std::vector<int32_t>& col) {
  const int64_t h = x.shape().dim(2), wd = x.shape().dim(3);
  const int64_t kh = w.kernel[0], kw = w.kernel[1], oh = w.out[0], ow = w.out[1];
  const int64_t c = x.shape().dim(1);
  col.assign(static_cast<size_t>(cg * kh * kw * oh * ow), 0);
  for (int64_t ci = 0; ci < cg; ++ci)
    for (int64_t ky = 0; ky < kh; ++ky)
      for (int64_t kx = 0; kx < kw; ++kx) {
        int32_t* row = col.data() + ((ci * kh + ky) * kw + kx) * oh * ow;
        const int64_t plane = (n * c + c0 + ci) * h * wd;
        for (int64_t y = 0; y < oh; ++y) {
          const int64_t iy = y * w.strides[0] - w.padBegin[0] + ky * w.dilations[0];
          if (iy < 0 || iy >= h) continue;
          for (int64_t xx = 0; xx < ow; ++xx) {
            const int64_t ix = xx * w.strides[1] - w.padBegin[1] + kx * w.dilations[1];
            if (ix >= 0 && ix < wd) row[y * ow + xx] = integerAt(x, plane + iy * wd + ix) - zx;
          }
        }
      }
}

// The batches of A (a 1-D A is one row, no batch dims) and B.
MatMulBatches matMulBatchesOf(const Shape& a, const Shape& b) {
  return matMulBatches({a.dims().begin(), a.dims().end() - std::min(a.rank(), 2)},
                       {b.dims().begin(), b.dims().end() - 2});
}

}  // namespace

int32_t integerAt(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::kUInt8:
      return t.data<uint8_t>()[i];
    case DType::kInt8:
      return t.data<int8_t>()[i];
    case DType::kInt32:
      return t.data<int32_t>()[i];
    default:  // other dtypes are refused by the kernels' checks; read within the tensor's own element size all the same
      return static_cast<int32_t>(std::clamp(t.elementAsDouble(i), -2147483648.0, 2147483647.0));
  }
}

Status checkZeroPoint(const Tensor& zero, DType data, int64_t perAxis, const char* name) {
  if (zero.dtype() != data || (zero.numElements() != 1 && zero.numElements() != perAxis))
    return invalidArgument(std::string(name) + " must be " + std::string(dtypeName(data)) + " with 1 or " +
                           std::to_string(perAxis) + " values");
  return Status::ok();
}

void integerConv(const Tensor& x, int32_t xZero, const Tensor& w, const Tensor& wZero, const Tensor* bias,
                 int64_t group, const OnnxWindow& window, const ConvSums& emit) {
  const int64_t c = x.shape().dim(1), m = w.shape().dim(0), cg = c / group, mg = m / group;
  const int64_t k = cg * w.shape().dim(2) * w.shape().dim(3), p = window.out[0] * window.out[1];
  std::vector<int32_t> col;
  for (int64_t n = 0; n < x.shape().dim(0); ++n)
    for (int64_t g = 0; g < group; ++g) {
      im2col(x, xZero, n, g * cg, cg, window, col);
      parallelFor(mg, k * p, [&](int64_t b, int64_t e) {
        std::vector<int32_t> acc(static_cast<size_t>(p));
        for (int64_t mi = b; mi < e; ++mi) {
          const int64_t oc = g * mg + mi;
          const int32_t zw = integerAt(wZero, wZero.numElements() == 1 ? 0 : oc);
          std::fill(acc.begin(), acc.end(), bias ? bias->data<int32_t>()[oc] : 0);
          for (int64_t kk = 0; kk < k; ++kk) {
            const int32_t wv = integerAt(w, oc * k + kk) - zw;
            const int32_t* row = col.data() + kk * p;
            for (int64_t j = 0; j < p; ++j)
              acc[static_cast<size_t>(j)] = wrappingAdd(acc[static_cast<size_t>(j)], wrappingMul(wv, row[j]));
          }
          emit(n, oc, acc.data());
        }
      });
    }
}

Expected<std::vector<int64_t>> integerMatMulDims(const Shape& a, const Shape& b) {
  const std::string shapes = "A " + a.toString() + " and B " + b.toString();
  if (a.rank() < 1 || b.rank() < 2)
    return invalidArgument("needs A of rank 1 or more and B of rank 2 or more: " + shapes);
  if (a.dims().back() != b.dim(b.rank() - 2)) return invalidArgument("inner dimensions differ: " + shapes);
  const MatMulBatches batches = matMulBatchesOf(a, b);
  if (!batches.broadcast) return invalidArgument("batch dimensions do not broadcast: " + shapes);
  std::vector<int64_t> dims = batches.dims;
  if (a.rank() >= 2) dims.push_back(a.dim(a.rank() - 2));
  dims.push_back(b.dims().back());
  return dims;
}

void integerMatMul(const Tensor& a, int32_t aZero, const Tensor& b, const Tensor& bZero, const MatMulSum& emit) {
  const Shape &as = a.shape(), &bs = b.shape();
  const int64_t kdim = bs.dim(bs.rank() - 2), n = bs.dims().back(), m = as.rank() >= 2 ? as.dim(as.rank() - 2) : 1;
  const MatMulBatches batches = matMulBatchesOf(as, bs);
  parallelFor(batches.count() * m, kdim * n, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t aRow = (batches.offset(r / m, batches.aDims) * m + r % m) * kdim;
      const int64_t bAt = batches.offset(r / m, batches.bDims) * kdim * n;
      for (int64_t j = 0; j < n; ++j) {
        const int32_t zb = integerAt(bZero, bZero.numElements() == 1 ? 0 : j);
        int32_t acc = 0;
        for (int64_t kk = 0; kk < kdim; ++kk)
          acc = wrappingAdd(acc, wrappingMul(integerAt(a, aRow + kk) - aZero, integerAt(b, bAt + kk * n + j) - zb));
        emit(r, j, acc);
      }
    }
  });
}

}  // namespace flowscope
