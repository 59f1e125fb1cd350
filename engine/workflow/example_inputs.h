// Random values for string inputs: serialized tf.Examples that the graph's ParseExample ops accept.
#pragma once

#include <optional>

#include "ir/model.h"

namespace flowscope {

/// When `tensor` ("tf_example:0") feeds a ParseExample or ParseExampleV2 whose keys are constants: a string tensor of
/// `shape` holding serialized tf.Examples, each holding every dense feature the op reads with seeded random values of
/// its dtype and shape (floats in [0, 1), integers in [0, 10), empty bytes). Sparse features are left out (they are
/// optional). nullopt otherwise.
std::optional<Tensor> randomExamples(const Model& model, const std::string& tensor, const Shape& shape, uint64_t seed);

}  // namespace flowscope
