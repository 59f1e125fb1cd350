// A plain, vectorizable matrix product for small sizes and non-float types (oneDNN takes large float ones).
#pragma once

#include <cstdint>
#include <cstring>

namespace flowscope {

/// out[M,N] = A[M,K] * B[K,N] where A(i,k) = a[i*sa0 + k*sa1] and B(k,j) = b[k*sb0 + j*sb1].
template <typename T>
void gemm(const T* a, int64_t sa0, int64_t sa1, const T* b, int64_t sb0, int64_t sb1, T* out, int64_t m, int64_t k,
          int64_t n) {
  std::memset(out, 0, static_cast<size_t>(m * n) * sizeof(T));
  if (sb1 == 1) {  // rows of B are contiguous: the inner loop vectorizes
    for (int64_t i = 0; i < m; ++i) {
      T* row = out + i * n;
      for (int64_t p = 0; p < k; ++p) {
        const T av = a[i * sa0 + p * sa1];
        const T* brow = b + p * sb0;
        for (int64_t j = 0; j < n; ++j) row[j] += av * brow[j];
      }
    }
    return;
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      T acc = 0;
      for (int64_t p = 0; p < k; ++p) acc += a[i * sa0 + p * sa1] * b[p * sb0 + j * sb1];
      out[i * n + j] = acc;
    }
}

}  // namespace flowscope
