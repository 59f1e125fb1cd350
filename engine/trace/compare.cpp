// Eager vs graph comparison.
#include "trace/compare.h"

#include <chrono>

#include "exec/eager.h"

namespace flowscope::tf {
namespace {

template <typename Fn>
Expected<double> timed(int calls, Fn fn) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) FS_RETURN_IF_ERROR(fn(i));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Expected<EagerGraphComparison> compareEagerAndGraph(const GalleryEntry& entry, const std::vector<Arg>& args, int calls) {
  EagerGraphComparison result;
  result.calls = calls;
  Function function = entry.make();
  FS_ASSIGN_OR_RETURN(result.concrete, function.getConcreteFunction(args));
  auto eagerCall = [&](int) -> Status {
    try {
      entry.eager(args);
      return Status::ok();
    } catch (const Error& e) {
      return Status(e.code(), std::string(e.typeName()) + ": " + e.what());
    }
  };
  auto graphCall = [&](Trace* trace) {
    return [&, trace](int i) -> Status { return result.concrete->run(args, trace, i).status(); };
  };
  FS_RETURN_IF_ERROR(eagerCall(0));  // warm both: kernel caches, plans, the graph's optimization
  FS_RETURN_IF_ERROR(graphCall(nullptr)(0));
  FS_ASSIGN_OR_RETURN(result.eagerSeconds, timed(calls, eagerCall));
  FS_ASSIGN_OR_RETURN(result.graphSeconds, timed(calls, graphCall(nullptr)));
  EagerContext::global().setTrace(&result.eagerTrace);
  auto profiled = timed(calls, eagerCall);
  EagerContext::global().setTrace(nullptr);
  FS_RETURN_IF_ERROR(profiled.status());
  FS_RETURN_IF_ERROR(timed(calls, graphCall(&result.graphTrace)).status());
  return result;
}

}  // namespace flowscope::tf
