// Profiling: per-node events from graph and eager runs, aggregation by op type and by name scope, and
// Chrome trace JSON (opens in Perfetto and chrome://tracing).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"

namespace flowscope {

struct NodeEvent {
  std::string name;      ///< node name (prefixed with the calling function's frame for function bodies)
  std::string op;
  std::string backend = "cpu";
  int64_t startNs = 0;   ///< since the trace's origin
  int64_t endNs = 0;
  int thread = 0;
  int64_t bytesIn = 0, bytesOut = 0;
  int64_t flops = 0;     ///< for matmul and convolution
  int run = 0;           ///< which of several runs

  int64_t durationNs() const { return endNs - startNs; }
};

struct OpStats {
  std::string key;  ///< op type or scope
  int64_t count = 0;
  int64_t totalNs = 0;
  int64_t flops = 0;
  double share = 0;  ///< of the summed node time
};

/// Collects events from any thread.
class Trace {
 public:
  Trace();
  Trace(Trace&& other) noexcept;
  Trace& operator=(Trace&& other) noexcept;
  void add(NodeEvent event);
  /// Nanoseconds since this trace began (the time base of events).
  int64_t now() const;
  /// Small dense id for the calling thread (0 = the first thread seen).
  int threadId();

  const std::vector<NodeEvent>& events() const { return m_events; }
  void clear() { m_events.clear(); }
  size_t size() const { return m_events.size(); }

  /// Per op type, sorted by total time (descending).
  std::vector<OpStats> byOp() const;
  /// Per name scope at `depth` components ("a/b" for depth 2), sorted by total time.
  std::vector<OpStats> byScope(int depth) const;
  /// The slowest nodes (summed over runs), longest first.
  std::vector<OpStats> slowestNodes(size_t limit) const;
  /// Chrome trace event format: {"traceEvents": [{"ph": "X", ...}], "displayTimeUnit": "ns"}.
  std::string toChromeJson() const;
  /// Reads what toChromeJson wrote (and other X-phase traces); errors name what was expected.
  static Expected<Trace> fromChromeJson(const std::string& json);

 private:
  int64_t m_origin;
  std::vector<NodeEvent> m_events;
  std::map<uint64_t, int> m_threads;
  mutable std::mutex m_mutex;
};

}  // namespace flowscope
