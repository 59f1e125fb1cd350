// RunProfile: the per-node events of graph and eager runs (from any backend, or imported), and their aggregation by op
// type, by name scope and by node. profile/chrome_trace.h reads and writes them as Chrome trace JSON.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/node.h"

namespace flowscope {

struct NodeEvent {
  std::string name;  ///< node name (prefixed with the calling function's frame for function bodies)
  std::string op;
  std::string backend = "cpu";
  int64_t startNs = 0;  ///< since the trace's origin
  int64_t endNs = 0;
  int thread = 0;
  int64_t bytesIn = 0, bytesOut = 0;
  int64_t flops = 0;  ///< estimated arithmetic (profile/flops.h)
  int run = 0;        ///< which of several runs
  int depth = 0;      ///< function-call depth: a call node's body nodes are one deeper and inside its time
  /// The nodes of the user's graph that a fused node computes (its original_node_names, the anchor first); empty
  /// for a node no rewrite fused.
  std::vector<std::string> fusedFrom;

  int64_t durationNs() const { return endNs - startNs; }
};

struct OpStats {
  std::string key;  ///< op type or scope
  int64_t count = 0;
  int64_t totalNs = 0;  ///< own time: a call or control-flow node's excludes its body's nodes
  int64_t flops = 0;
  int64_t bytes = 0;  ///< read and written
  double share = 0;   ///< of the summed node time
};

/// Fills `event.fusedFrom` from `node`'s debug info when a rewrite fused it (names prefixed with `prefix`, the
/// calling function's frame).
void recordFusedFrom(NodeEvent& event, const Node& node, const std::string& prefix);

/// Collects events from any thread.
class RunProfile {
 public:
  RunProfile();
  RunProfile(RunProfile&& other) noexcept;
  RunProfile& operator=(RunProfile&& other) noexcept;
  void add(NodeEvent event);
  /// Nanoseconds since this trace began (the time base of events).
  int64_t now() const;
  /// Small dense id for the calling thread (0 = the first thread seen).
  int threadId();

  const std::vector<NodeEvent>& events() const { return m_events; }
  void clear() { m_events.clear(); }
  /// Takes events as they are (an imported profile), keeping their times.
  void addAll(std::vector<NodeEvent> events);
  size_t size() const { return m_events.size(); }

  /// Per op type, sorted by total time (descending).
  std::vector<OpStats> byOp() const;
  /// Per name scope at `depth` components ("a/b" for depth 2), sorted by total time. A fused node counts in its
  /// anchor's scope.
  std::vector<OpStats> byScope(int depth) const;
  /// The slowest nodes (summed over runs), longest first. A fused node is named by the nodes it computes.
  std::vector<OpStats> slowestNodes(size_t limit) const;
  /// How many runs the events cover (the highest run index + 1; 1 when there are none).
  int runCount() const;

 private:
  int64_t m_origin;
  std::vector<NodeEvent> m_events;
  std::map<uint64_t, int> m_threads;
  mutable std::mutex m_mutex;
};

}  // namespace flowscope
