// The CPU's roofline, measured: FMA peak from oneDNN's single-precision GEMM, memory bandwidth from a copy loop
// over buffers larger than the caches, both at a given thread count and both the best of a few tries.
#pragma once

#include "profile/roofline.h"

namespace flowscope {

/// Measured once per thread count (about 0.2 s the first time), then remembered for the process.
Roofline measureCpuRoofline(int threads);

}  // namespace flowscope
