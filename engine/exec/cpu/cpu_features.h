// What the CPU offers beyond the x86-64 baseline the build targets, for kernels compiled for more.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>
/// Compiles a function for AVX-512F and FMA; call it only where cpuHasAvx512().
#define FS_AVX512 __attribute__((target("avx512f,fma")))
/// Compiles a function for AVX2 and FMA; call it only where cpuHasAvx2Fma().
#define FS_AVX2 __attribute__((target("avx2,fma")))
#endif

namespace flowscope {

/// AVX-512F with FMA: the hand-written kernels run in their 16-lane forms.
inline bool cpuHasAvx512() {
#if defined(__x86_64__)
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

/// AVX2 with FMA (every x86-64 machine of the last decade: Haswell on, Zen on): the hand-written kernels' 8-lane
/// forms run where AVX-512 is missing.
inline bool cpuHasAvx2Fma() {
#if defined(__x86_64__)
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

}  // namespace flowscope
