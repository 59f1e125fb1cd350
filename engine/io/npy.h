// NumPy .npy files (format 1.0/2.0): read and write tensors of numeric and bool dtypes.
#pragma once

#include <string>

#include "base/status.h"
#include "ir/tensor.h"

namespace flowscope {

Expected<Tensor> readNpy(const std::string& path);
/// Written atomically.
Status writeNpy(const std::string& path, const Tensor& tensor);

}  // namespace flowscope
