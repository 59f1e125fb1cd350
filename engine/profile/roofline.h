// The roofline: what a device can do at most (its FMA peak and its memory bandwidth, measured by its backend), and
// how close a node or an op came to it. A kernel's share of the roofline is the time the roofline allows for its work
// (the larger of FLOPs / peak and bytes / bandwidth) over the time it took: a heavy layer near its roofline shows a
// high share, a slow kernel a low one. The roofline is cache-aware: a kernel whose bytes fit in a cache level is held
// to that level's bandwidth, so a small, cache-resident kernel cannot look fast against main memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flowscope {

struct BandwidthTier {
  std::string level;    ///< "L1", "L2", "L3", "DRAM"
  double maxBytes = 0;  ///< the largest working set this tier's bandwidth applies to (0 on the last tier: any)
  double gbs = 0;       ///< measured copy bandwidth, reads plus writes
};

struct Roofline {
  double peakGflops = 0;             ///< float32 FMA peak (2 FLOPs per multiply-add)
  double bandwidthGBs = 0;           ///< main-memory bandwidth, reads plus writes
  std::vector<BandwidthTier> tiers;  ///< cache levels from the smallest, then main memory; empty: bandwidthGBs only
  int threads = 0;                   ///< the thread count all were measured at
  bool known() const { return peakGflops > 0 && bandwidthGBs > 0; }
  /// The bandwidth a kernel moving `bytes` (its working set) can reach: the tier it fits in.
  const BandwidthTier& tierFor(double bytes) const;
};

struct Efficiency {
  double gflops = 0;          ///< achieved GFLOP/s
  double gbs = 0;             ///< achieved GB/s
  double share = 0;           ///< of the roofline, 0..1 (a little above 1 within measurement noise)
  bool computeBound = false;  ///< the roofline's limit for this work is the FMA peak, not bandwidth
  std::string memoryLevel;    ///< the bandwidth tier the bytes were held to ("DRAM" without tiers)
};

/// The rates of `flops` FLOPs and `bytes` bytes done in `ns` nanoseconds over `events` kernel calls, against
/// `roofline` (share 0 when unknown). The tier is chosen by the bytes of one call.
Efficiency efficiencyOf(double flops, double bytes, double ns, const Roofline& roofline, double events = 1);

}  // namespace flowscope
