// Nesting of trace events on each thread.
#include "profile/import/trace_nesting.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace flowscope::import {

void markNestedEvents(ImportedProfile* profile) {
  std::map<int, std::vector<size_t>> byThread;
  for (size_t i = 0; i < profile->events.size(); ++i) {
    const ImportedEvent& e = profile->events[i];
    if (e.nodeEvent && e.inTables && e.parent < 0) byThread[e.event.thread].push_back(i);
  }
  size_t overlaps = 0;
  for (auto& [thread, indices] : byThread) {
    auto& events = profile->events;
    std::stable_sort(indices.begin(), indices.end(), [&](size_t a, size_t b) {
      const NodeEvent &x = events[a].event, &y = events[b].event;
      return x.startNs != y.startNs ? x.startNs < y.startNs : x.endNs > y.endNs;
    });
    size_t outer = SIZE_MAX;  // the open top-level event
    for (size_t i : indices) {
      NodeEvent& e = events[i].event;
      if (outer != SIZE_MAX && e.startNs < events[outer].event.endNs) {
        if (e.endNs <= events[outer].event.endNs) {
          events[i].inTables = false;
          events[i].parent = static_cast<int>(outer);
          continue;
        }
        ++overlaps;
      }
      outer = i;
    }
  }
  if (overlaps)
    profile->warnings.push_back(std::to_string(overlaps) +
                                " events start inside another event of their thread and end after it (overlapping "
                                "times); both are counted");
}

}  // namespace flowscope::import
