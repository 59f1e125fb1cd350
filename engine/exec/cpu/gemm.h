// A plain, vectorizable matrix product for small sizes and non-float types (oneDNN takes large float ones).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "exec/cpu/wrapping_arithmetic.h"

namespace flowscope {

namespace gemm_detail {

// The type sums and products are taken in: WrappingType (unsigned, so that int32 and int64 overflow wraps as
// TensorFlow's integer MatMul does) where it has T's size, since sums are kept in the output's memory; T otherwise.
template <typename T>
using Wrap = std::conditional_t<sizeof(WrappingType<T>) == sizeof(T), WrappingType<T>, T>;

// a * b as Wrap<T>, multiplied in WrappingType: uint16 x uint16 promotes to int, where it can overflow.
template <typename T>
Wrap<T> product(T a, T b) {
  return static_cast<Wrap<T>>(static_cast<WrappingType<T>>(a) * static_cast<WrappingType<T>>(b));
}

// Rows of B contiguous and N known at compile time: the j loop unrolls into full vector operations.
template <int N, typename T>
void fixedN(const T* a, int64_t sa0, int64_t sa1, const T* b, int64_t sb0, T* out, int64_t m, int64_t k) {
  for (int64_t i = 0; i < m; ++i) {
    Wrap<T> row[N] = {};
    for (int64_t p = 0; p < k; ++p) {
      const T av = a[i * sa0 + p * sa1];
      const T* brow = b + p * sb0;
      for (int j = 0; j < N; ++j) row[j] = static_cast<Wrap<T>>(row[j] + product(av, brow[j]));
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
  using W = gemm_detail::Wrap<T>;
  std::memset(out, 0, static_cast<size_t>(m * n) * sizeof(T));
  if (sb1 == 1) {  // rows of B are contiguous: the inner loop vectorizes
    for (int64_t i = 0; i < m; ++i) {
      W* row = reinterpret_cast<W*>(out + i * n);  // same size and representation as T
      for (int64_t p = 0; p < k; ++p) {
        const T av = a[i * sa0 + p * sa1];
        const T* brow = b + p * sb0;
        for (int64_t j = 0; j < n; ++j) row[j] = static_cast<W>(row[j] + gemm_detail::product(av, brow[j]));
      }
    }
    return;
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      W acc = 0;
      for (int64_t p = 0; p < k; ++p)
        acc = static_cast<W>(acc + gemm_detail::product(a[i * sa0 + p * sa1], b[p * sb0 + j * sb1]));
      out[i * n + j] = static_cast<T>(acc);
    }
}

}  // namespace flowscope
