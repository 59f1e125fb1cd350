// NumPy matmul's batch broadcasting, shared by TensorFlow's BatchMatMul and ONNX's integer matrix products: the
// operands' leading (batch) dims are padded with 1s to one rank and broadcast against each other.
#pragma once

#include <cstdint>
#include <vector>

namespace flowscope {

/// The batch dims of a matrix product and, for each output matrix, the operand matrices it reads.
struct MatMulBatches {
  std::vector<int64_t> dims;   ///< the output's batch dims
  std::vector<int64_t> aDims;  ///< A's batch dims, padded with leading 1s to dims' rank
  std::vector<int64_t> bDims;  ///< B's, likewise
  bool broadcast = true;       ///< false when a pair of dims differs and neither is 1

  /// The number of output matrices.
  int64_t count() const;
  /// The index of the matrix of A (aDims) or B (bDims) that output matrix i reads.
  int64_t offset(int64_t i, const std::vector<int64_t>& own) const;
};

/// The batches of A with leading dims aBatch and B with leading dims bBatch (each shape less its matrix dims).
MatMulBatches matMulBatches(std::vector<int64_t> aBatch, std::vector<int64_t> bBatch);

}  // namespace flowscope
