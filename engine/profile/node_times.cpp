// Summing events onto nodes.
#include "profile/node_times.h"

namespace flowscope {

NodeTimes nodeTimes(const RunProfile& profile, const Graph& graph) {
  NodeTimes times;
  times.runs = profile.runCount();
  times.seconds.assign(graph.size(), 0.0);
  const double perRun = 1e-9 / times.runs;
  for (const NodeEvent& e : profile.events()) {
    const double seconds = static_cast<double>(e.durationNs()) * perRun;
    if (int64_t node = graph.find(e.name); node >= 0) {
      times.seconds[static_cast<size_t>(node)] += seconds;
      times.matchedSeconds += seconds;
      ++times.matchedEvents;
    } else {
      times.unmatchedSeconds += seconds;
      ++times.unmatchedEvents;
    }
  }
  return times;
}

}  // namespace flowscope
