// Summing events onto nodes.
#include "profile/node_times.h"

namespace flowscope {

NodeTimes nodeTimes(const RunProfile& profile, const Graph& graph) {
  NodeTimes times;
  times.runs = profile.runCount();
  times.seconds.assign(graph.size(), 0.0);
  times.flops.assign(graph.size(), 0.0);
  times.bytes.assign(graph.size(), 0.0);
  times.events.assign(graph.size(), 0.0);
  const double perRun = 1e-9 / times.runs;
  for (const NodeEvent& e : profile.events()) {
    if (e.depth > 0) continue;  // a call node's body: inside that node's event, which counts it
    const double seconds = static_cast<double>(e.durationNs()) * perRun;
    if (int64_t node = graph.find(e.name); node >= 0) {
      const auto i = static_cast<size_t>(node);
      times.seconds[i] += seconds;
      times.flops[i] += static_cast<double>(e.flops) / times.runs;
      times.bytes[i] += static_cast<double>(e.bytesIn + e.bytesOut) / times.runs;
      times.events[i] += 1.0 / times.runs;
      times.matchedSeconds += seconds;
      ++times.matchedEvents;
    } else {
      times.unmatchedSeconds += seconds;
      ++times.unmatchedEvents;
    }
  }
  return times;
}

std::vector<double> rooflineShares(const NodeTimes& times, const Roofline& roofline) {
  std::vector<double> shares(times.seconds.size(), 0.0);
  for (size_t i = 0; i < shares.size(); ++i)
    if (times.seconds[i] > 0)
      shares[i] = efficiencyOf(times.flops[i], times.bytes[i], times.seconds[i] * 1e9, roofline, times.events[i]).share;
  return shares;
}

}  // namespace flowscope
