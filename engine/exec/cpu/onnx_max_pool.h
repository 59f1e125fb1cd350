// ONNX MaxPool where oneDNN's pooling does not reach: dilated windows, integer tensors and the Indices output.
#pragma once

#include "exec/kernel.h"

namespace flowscope {

/// MaxPool over any window (onnx_conv_window.h's, ceil_mode included) of any numeric dtype, writing Indices (output
/// 1, flat int64 positions in the input, row-major or with storage_order=1 column-major) when asked for.
Status windowMaxPool(KernelContext& ctx);

}  // namespace flowscope
