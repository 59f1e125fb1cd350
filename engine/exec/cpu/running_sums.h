// Running sums along an axis: TensorFlow's Cumsum and ONNX's CumSum.
#pragma once

#include <cstdint>

#include "exec/kernel.h"

namespace flowscope {

/// x's running sums along `axis` (in range): `exclusive` leaves each element out of its own sum, `reverse` sums from
/// the end. Integer sums wrap where they overflow. An error for bool and string tensors. The series are shared among
/// the intra-op threads.
Expected<Tensor> runningSums(const Tensor& x, int axis, bool exclusive, bool reverse);

}  // namespace flowscope
