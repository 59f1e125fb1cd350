// Roofline arithmetic.
#include "profile/roofline.h"

#include <algorithm>

namespace flowscope {

Efficiency efficiencyOf(double flops, double bytes, double ns, const Roofline& roofline) {
  Efficiency e;
  if (ns <= 0) return e;
  e.gflops = flops / ns;  // FLOPs per nanosecond is GFLOP/s
  e.gbs = bytes / ns;
  if (!roofline.known() || (flops <= 0 && bytes <= 0)) return e;
  const double computeNs = flops / roofline.peakGflops, memoryNs = bytes / roofline.bandwidthGBs;
  e.computeBound = computeNs >= memoryNs;
  e.share = std::max(computeNs, memoryNs) / ns;
  return e;
}

}  // namespace flowscope
