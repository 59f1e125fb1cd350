// The two Winograd variants winograd_nhwc runs, after Lavin and Gray: F(4x4, 3x3) (points 0, 1, -1, 2, -2 and
// infinity) and F(2x2, 3x3) (points 0, 1, -1 and infinity). Each gives its tile sides, G (for the weights, applied in
// double) and its one-dimensional B^T and A^T on AVX2 vectors of 8 channels.
#pragma once

#include <cstdint>

#include "exec/cpu/cpu_features.h"

namespace flowscope::winograd {

struct F4x4 {
  static constexpr int64_t kTile = 4;                            // output tile side
  static constexpr int64_t kAlpha = 6;                           // input tile side
  static constexpr int64_t kInputFlops = 24, kOutputFlops = 13;  // of one input / output transform below
  static constexpr double G[kAlpha][3] = {{1.0 / 4, 0, 0},
                                          {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                          {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                          {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                          {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                          {0, 0, 1}};
#if defined(__x86_64__)
  /// t = B^T d for the six vectors d (a column or a row of a tile).
  FS_AVX2 static void input(const __m256* d, __m256* t) {
    const __m256 two = _mm256_set1_ps(2), four = _mm256_set1_ps(4), five = _mm256_set1_ps(5);
    t[0] = _mm256_fmadd_ps(four, d[0], _mm256_fnmadd_ps(five, d[2], d[4]));
    t[1] = _mm256_fnmadd_ps(four, _mm256_add_ps(d[1], d[2]), _mm256_add_ps(d[3], d[4]));
    t[2] = _mm256_fmadd_ps(four, _mm256_sub_ps(d[1], d[2]), _mm256_sub_ps(d[4], d[3]));
    t[3] = _mm256_fmadd_ps(two, _mm256_sub_ps(d[3], d[1]), _mm256_sub_ps(d[4], d[2]));
    t[4] = _mm256_fmadd_ps(two, _mm256_sub_ps(d[1], d[3]), _mm256_sub_ps(d[4], d[2]));
    t[5] = _mm256_fmadd_ps(four, d[1], _mm256_fnmadd_ps(five, d[3], d[5]));
  }
  /// y = A^T m for the six vectors m, four results.
  FS_AVX2 static void output(const __m256* m, __m256* y) {
    const __m256 two = _mm256_set1_ps(2), four = _mm256_set1_ps(4), eight = _mm256_set1_ps(8);
    const __m256 sum12 = _mm256_add_ps(m[1], m[2]), diff12 = _mm256_sub_ps(m[1], m[2]);
    const __m256 sum34 = _mm256_add_ps(m[3], m[4]), diff34 = _mm256_sub_ps(m[3], m[4]);
    y[0] = _mm256_add_ps(_mm256_add_ps(m[0], sum12), sum34);
    y[1] = _mm256_fmadd_ps(two, diff34, diff12);
    y[2] = _mm256_fmadd_ps(four, sum34, sum12);
    y[3] = _mm256_add_ps(_mm256_fmadd_ps(eight, diff34, diff12), m[5]);
  }
#endif
};

struct F2x2 {
  static constexpr int64_t kTile = 2;
  static constexpr int64_t kAlpha = 4;
  static constexpr int64_t kInputFlops = 4, kOutputFlops = 4;
  static constexpr double G[kAlpha][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
#if defined(__x86_64__)
  FS_AVX2 static void input(const __m256* d, __m256* t) {
    t[0] = _mm256_sub_ps(d[0], d[2]);
    t[1] = _mm256_add_ps(d[1], d[2]);
    t[2] = _mm256_sub_ps(d[2], d[1]);
    t[3] = _mm256_sub_ps(d[1], d[3]);
  }
  FS_AVX2 static void output(const __m256* m, __m256* y) {
    y[0] = _mm256_add_ps(_mm256_add_ps(m[0], m[1]), m[2]);
    y[1] = _mm256_sub_ps(_mm256_sub_ps(m[1], m[2]), m[3]);
  }
#endif
};

}  // namespace flowscope::winograd
