// Eager vs graph: the same gallery function called N times eagerly and N times as its traced graph, with totals
// and per-op profiles of both. Shared by `flowscope compare` and the desktop app's comparison view.
#pragma once

#include <memory>

#include "profile/trace.h"
#include "trace/gallery.h"

namespace flowscope::tf {

struct EagerGraphComparison {
  int calls = 0;
  double eagerSeconds = 0;  ///< total over the calls, unprofiled
  double graphSeconds = 0;
  Trace eagerTrace;         ///< per-op events of a second, profiled round of calls
  Trace graphTrace;
  std::shared_ptr<ConcreteFunction> concrete;
};

/// Traces once (outside the timing), then times `calls` eager and `calls` graph calls on `args`, then profiles both.
Expected<EagerGraphComparison> compareEagerAndGraph(const GalleryEntry& entry, const std::vector<Arg>& args, int calls);

}  // namespace flowscope::tf
