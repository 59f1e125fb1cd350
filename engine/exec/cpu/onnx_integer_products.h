// The int32 products of ONNX's integer ops: a 2-D convolution (QLinearConv, ConvInteger) and a matrix product
// (QLinearMatMul, MatMulInteger) of uint8 or int8 tensors less their zero points, summed in int32: exact up to some
// 33,000 products of extreme values, past that wrapping as ONNX Runtime's sums do. The caller decides what becomes of
// the sums (requantized, or kept as int32).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "exec/cpu/onnx_conv_window.h"
#include "exec/kernel.h"

namespace flowscope {

/// Element i of a uint8, int8 or int32 tensor (callers check the dtype; others are read by their own element size).
int32_t integerAt(const Tensor& t, int64_t i);

/// Checks a zero point: of its data's dtype (uint8 or int8), with 1 or `perAxis` values.
Status checkZeroPoint(const Tensor& zero, DType data, int64_t perAxis, const char* name);

/// Receives, for sample n and output channel oc, the int32 sums at every output position (bias included).
using ConvSums = std::function<void(int64_t n, int64_t oc, const int32_t* sums)>;

/// x (N, C, H, W) convolved with w (M, C / group, kh, kw) over `window`, each less its zero point (xZero: a scalar;
/// wZero: per tensor or per output channel, checked), plus the int32 bias of M values (or none).
void integerConv(const Tensor& x, int32_t xZero, const Tensor& w, const Tensor& wZero, const Tensor* bias,
                 int64_t group, const OnnxWindow& window, const ConvSums& emit);

/// Receives output row r's sum for column j (rows of all batches counted in order, so the row-major output's element
/// r * N + j).
using MatMulSum = std::function<void(int64_t r, int64_t j, int32_t sum)>;

/// The output dims of NumPy's matmul of a ([..., M, K] or [K]) by b ([..., K, N]), batch dims broadcast; an error
/// naming both shapes where they do not multiply.
Expected<std::vector<int64_t>> integerMatMulDims(const Shape& a, const Shape& b);

/// a times b (shapes checked by integerMatMulDims), each less its zero point (aZero: a scalar; bZero: per tensor or per
/// column of b).
void integerMatMul(const Tensor& a, int32_t aZero, const Tensor& b, const Tensor& bZero, const MatMulSum& emit);

}  // namespace flowscope
