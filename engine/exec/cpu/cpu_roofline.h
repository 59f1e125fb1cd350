// The CPU's roofline, measured: FMA peak from oneDNN's single-precision matmul, memory bandwidth from a copy loop
// at working sets that fit each cache level and at one larger than them all, all at a given thread count and all the
// best of a few tries.
#pragma once

#include "profile/roofline.h"

namespace flowscope {

/// Measured once per thread count (about 0.2 s the first time), then remembered for the process.
Roofline measureCpuRoofline(int threads);

}  // namespace flowscope
