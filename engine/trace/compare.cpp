// Eager vs graph comparison.
#include "trace/compare.h"

#include <chrono>

#include "exec/eager.h"

namespace flowscope::tf {
namespace {

// Calls fn(0..calls-1) and returns the seconds taken; `round` of 4 places the progress.
template <typename Fn>
Expected<double> timed(int calls, Fn fn, const CompareOptions& options, int round) {
  auto start = std::chrono::steady_clock::now();
  const int step = std::max(1, calls / 50);
  for (int i = 0; i < calls; ++i) {
    if (options.cancelled && options.cancelled->load(std::memory_order_relaxed))
      return cancelled("comparison cancelled");
    if (options.progress && i % step == 0) options.progress((round + static_cast<double>(i) / calls) / 4);
    FS_RETURN_IF_ERROR(fn(i));
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Expected<EagerGraphComparison> compareEagerAndGraph(const GalleryEntry& entry, const std::vector<Arg>& args, int calls,
                                                    const CompareOptions& options) {
  EagerGraphComparison result;
  result.calls = calls;
  Function function = entry.make();
  FS_ASSIGN_OR_RETURN(result.concrete, function.getConcreteFunction(args));
  auto eagerCall = [&](int i) -> Status {
    EagerContext::global().exec().run = i;
    try {
      entry.eager(args);
      return Status::ok();
    } catch (const Error& e) {
      return Status(e.code(), std::string(e.typeName()) + ": " + e.what());
    }
  };
  auto graphCall = [&](RunProfile* profile) {
    return [&, profile](int i) -> Status { return result.concrete->run(args, profile, i).status(); };
  };
  FS_RETURN_IF_ERROR(eagerCall(0));  // warm both: kernel caches, plans, the graph's optimization
  FS_RETURN_IF_ERROR(graphCall(nullptr)(0));
  FS_ASSIGN_OR_RETURN(result.eagerSeconds, timed(calls, eagerCall, options, 0));
  FS_ASSIGN_OR_RETURN(result.graphSeconds, timed(calls, graphCall(nullptr), options, 1));
  EagerContext::global().setProfile(&result.eagerProfile);
  auto profiled = timed(calls, eagerCall, options, 2);
  EagerContext::global().setProfile(nullptr);
  EagerContext::global().exec().run = 0;
  FS_RETURN_IF_ERROR(profiled.status());
  FS_RETURN_IF_ERROR(timed(calls, graphCall(&result.graphProfile), options, 3).status());
  if (options.progress) options.progress(1);
  return result;
}

}  // namespace flowscope::tf
