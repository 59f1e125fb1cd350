// NumPy matmul's batch broadcasting (matmul_batches.h).
#include "exec/cpu/matmul_batches.h"

#include <algorithm>

namespace flowscope {

int64_t MatMulBatches::count() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

int64_t MatMulBatches::offset(int64_t i, const std::vector<int64_t>& own) const {
  int64_t at = 0, stride = 1;
  for (size_t d = dims.size(); d-- > 0; i /= dims[d]) {
    if (own[d] != 1) at += (i % dims[d]) * stride;
    stride *= own[d];
  }
  return at;
}

MatMulBatches matMulBatches(std::vector<int64_t> aBatch, std::vector<int64_t> bBatch) {
  MatMulBatches batches;
  const size_t rank = std::max(aBatch.size(), bBatch.size());
  aBatch.insert(aBatch.begin(), rank - aBatch.size(), 1);
  bBatch.insert(bBatch.begin(), rank - bBatch.size(), 1);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t x = aBatch[d], y = bBatch[d];
    batches.broadcast = batches.broadcast && (x == y || x == 1 || y == 1);
    batches.dims.push_back(x == 1 ? y : x);
  }
  batches.aDims = std::move(aBatch);
  batches.bDims = std::move(bBatch);
  return batches;
}

}  // namespace flowscope
