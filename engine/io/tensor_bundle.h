// Reader for TensorFlow's TensorBundle checkpoints (variables.index + variables.data-*), used by SavedModels.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "ir/tensor.h"

namespace flowscope {

struct BundleTensor {
  std::string key;
  DType dtype = DType::kInvalid;
  Shape shape;
  Tensor value;         ///< invalid when the entry could not be read (see `problem`)
  std::string problem;  ///< why there is no value (sliced variable, unsupported dtype)
};

/// `prefix` is the path without ".index" (e.g. ".../variables/variables"). The index is a LevelDB-format
/// sorted table read with libleveldb; each value is a BundleEntryProto pointing into a data shard.
/// Checks every tensor's CRC-32C. Errors name the file, the key and what was expected.
Expected<std::vector<BundleTensor>> readTensorBundle(const std::string& prefix);

}  // namespace flowscope
