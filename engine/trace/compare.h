// Eager vs graph: the same gallery function called N times eagerly and N times as its traced graph, with totals
// and per-op profiles of both. Shared by `flowscope compare` and the desktop app's comparison view.
#pragma once

#include <atomic>
#include <functional>
#include <memory>

#include "profile/run_profile.h"
#include "trace/gallery.h"

namespace flowscope::tf {

struct EagerGraphComparison {
  int calls = 0;
  double eagerSeconds = 0;  ///< total over the calls, unprofiled
  double graphSeconds = 0;
  RunProfile eagerProfile;  ///< per-op events of a second, profiled round of calls
  RunProfile graphProfile;
  std::shared_ptr<ConcreteFunction> concrete;
};

struct CompareOptions {
  const std::atomic<bool>* cancelled = nullptr;   ///< checked between calls
  std::function<void(double fraction)> progress;  ///< 0..1 over the four rounds of calls
};

/// Traces once (outside the timing), then times `calls` eager and `calls` graph calls on `args`, then profiles both
/// (events carry the call's index as their run).
Expected<EagerGraphComparison> compareEagerAndGraph(const GalleryEntry& entry, const std::vector<Arg>& args, int calls,
                                                    const CompareOptions& options = {});

}  // namespace flowscope::tf
