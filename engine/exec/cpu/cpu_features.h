// What the CPU offers beyond the x86-64 baseline the build targets, for kernels compiled for more.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>
/// Compiles a function for AVX-512F and FMA; call it only where cpuHasAvx512().
#define FS_AVX512 __attribute__((target("avx512f,fma")))
#endif

namespace flowscope {

/// AVX-512F with FMA: the hand-written kernels (depthwise_nhwc, gemv) run; elsewhere oneDNN's do.
inline bool cpuHasAvx512() {
#if defined(__x86_64__)
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

}  // namespace flowscope
