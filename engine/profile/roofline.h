// The roofline: what a device can do at most (its FMA peak and its memory bandwidth, measured by its backend), and
// how close a node or an op came to it. A kernel's share of the roofline is the time the roofline allows for its work
// (the larger of FLOPs / peak and bytes / bandwidth) over the time it took: a heavy layer near its roofline shows a
// high share, a slow kernel a low one.
#pragma once

#include <cstdint>

namespace flowscope {

struct Roofline {
  double peakGflops = 0;    ///< float32 FMA peak (2 FLOPs per multiply-add)
  double bandwidthGBs = 0;  ///< memory bandwidth, reads plus writes
  int threads = 0;          ///< the thread count both were measured at
  bool known() const { return peakGflops > 0 && bandwidthGBs > 0; }
};

struct Efficiency {
  double gflops = 0;          ///< achieved GFLOP/s
  double gbs = 0;             ///< achieved GB/s
  double share = 0;           ///< of the roofline, 0..1 (a little above 1 within measurement noise)
  bool computeBound = false;  ///< the roofline's limit for this work is the FMA peak, not bandwidth
};

/// The rates of `flops` FLOPs and `bytes` bytes done in `ns` nanoseconds, against `roofline` (share 0 when unknown).
Efficiency efficiencyOf(double flops, double bytes, double ns, const Roofline& roofline);

}  // namespace flowscope
