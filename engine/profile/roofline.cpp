// Roofline arithmetic.
#include "profile/roofline.h"

#include <algorithm>

namespace flowscope {

const BandwidthTier& Roofline::tierFor(double bytes) const {
  static const BandwidthTier kNone;
  if (tiers.empty()) return kNone;
  for (const BandwidthTier& tier : tiers)
    if (tier.maxBytes <= 0 || bytes <= tier.maxBytes) return tier;
  return tiers.back();
}

Efficiency efficiencyOf(double flops, double bytes, double ns, const Roofline& roofline, double events) {
  Efficiency e;
  if (ns <= 0) return e;
  e.gflops = flops / ns;  // FLOPs per nanosecond is GFLOP/s
  e.gbs = bytes / ns;
  if (!roofline.known() || (flops <= 0 && bytes <= 0)) return e;
  const BandwidthTier& tier = roofline.tierFor(bytes / std::max(events, 1.0));
  const double bandwidth = tier.gbs > 0 ? tier.gbs : roofline.bandwidthGBs;
  e.memoryLevel = tier.gbs > 0 ? tier.level : "DRAM";
  const double computeNs = flops / roofline.peakGflops, memoryNs = bytes / bandwidth;
  e.computeBound = computeNs >= memoryNs;
  e.share = std::max(computeNs, memoryNs) / ns;
  return e;
}

}  // namespace flowscope
