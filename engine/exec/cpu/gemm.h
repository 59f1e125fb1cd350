// A plain, vectorizable matrix product for small sizes and non-float types (oneDNN takes large float ones).
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>

namespace flowscope {

namespace gemm_detail {

// Rows of B contiguous and N known at compile time: the j loop unrolls into full vector operations.
template <int N, typename T>
void fixedN(const T* a, int64_t sa0, int64_t sa1, const T* b, int64_t sb0, T* out, int64_t m, int64_t k) {
  for (int64_t i = 0; i < m; ++i) {
    T row[N] = {};
    for (int64_t p = 0; p < k; ++p) {
      const T av = a[i * sa0 + p * sa1];
      const T* brow = b + p * sb0;
      for (int j = 0; j < N; ++j) row[j] += av * brow[j];
    }
    std::memcpy(out + i * N, row, sizeof row);
  }
}

template <typename T, int... Ns>
bool dispatchFixedN(std::integer_sequence<int, Ns...>, int64_t n, const T* a, int64_t sa0, int64_t sa1, const T* b,
                    int64_t sb0, T* out, int64_t m, int64_t k) {
  bool done = false;
  ((n == Ns + 1 ? (fixedN<Ns + 1>(a, sa0, sa1, b, sb0, out, m, k), done = true) : false), ...);
  return done;
}

}  // namespace gemm_detail

/// out[M,N] = A[M,K] * B[K,N] where A(i,k) = a[i*sa0 + k*sa1] and B(k,j) = b[k*sb0 + j*sb1].
template <typename T>
void gemm(const T* a, int64_t sa0, int64_t sa1, const T* b, int64_t sb0, int64_t sb1, T* out, int64_t m, int64_t k,
          int64_t n) {
  if (sb1 == 1 && n <= 16 &&
      gemm_detail::dispatchFixedN(std::make_integer_sequence<int, 16>{}, n, a, sa0, sa1, b, sb0, out, m, k))
    return;
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
