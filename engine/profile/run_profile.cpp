// Profile collection and aggregation.
#include "profile/run_profile.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <thread>
#include <unordered_map>

namespace flowscope {

void recordFusedFrom(NodeEvent& event, const Node& node, const std::string& prefix) {
  if (!node.debugInfo || node.debugInfo->originalNodeNames.empty()) return;
  for (const std::string& name : node.debugInfo->originalNodeNames) event.fusedFrom.push_back(prefix + name);
}
namespace {

int64_t steadyNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The caller of `e` (one call shallower, same run, running from before e starts until after it ends; on e's thread
// when two such calls overlap), among `callers` sorted by start; or -1.
int64_t callerOf(const std::vector<NodeEvent>& events, const std::vector<size_t>& callers, const NodeEvent& e) {
  auto c = std::upper_bound(callers.begin(), callers.end(), e.startNs,
                            [&](int64_t t, size_t k) { return t < events[k].startNs; });
  int64_t found = -1;
  for (int scanned = 0; c != callers.begin() && scanned < 16; ++scanned) {
    const size_t k = *--c;
    if (events[k].endNs < e.endNs) continue;
    if (events[k].thread == e.thread) return static_cast<int64_t>(k);
    if (found < 0) found = static_cast<int64_t>(k);
  }
  return found;
}

// Each event's own time: its duration less that of the events one call deeper inside it (a call or control-flow
// node's body), so that totals and shares add up to the time the nodes took instead of counting bodies twice.
std::vector<int64_t> selfDurations(const std::vector<NodeEvent>& events) {
  std::vector<int64_t> self(events.size());
  std::map<std::pair<int, int>, std::vector<size_t>> byFrame;  // (run, depth) -> events by start
  for (size_t i = 0; i < events.size(); ++i) {
    self[i] = events[i].durationNs();
    byFrame[{events[i].run, events[i].depth}].push_back(i);
  }
  if (byFrame.size() == 1 && events[0].depth == 0) return self;  // one frame: nothing nests
  for (auto& [frame, list] : byFrame)
    std::sort(list.begin(), list.end(), [&](size_t a, size_t b) { return events[a].startNs < events[b].startNs; });
  for (const NodeEvent& e : events) {
    auto callers = e.depth > 0 ? byFrame.find({e.run, e.depth - 1}) : byFrame.end();
    if (callers == byFrame.end()) continue;
    if (int64_t caller = callerOf(events, callers->second, e); caller >= 0)
      self[static_cast<size_t>(caller)] -= e.durationNs();
  }
  for (auto& t : self) t = std::max<int64_t>(t, 0);  // concurrent bodies may overlap their callers unevenly
  return self;
}

std::vector<OpStats> aggregate(const std::vector<NodeEvent>& events,
                               const std::function<std::string(const NodeEvent&)>& key) {
  std::unordered_map<std::string, OpStats> stats;
  int64_t total = 0;
  const std::vector<int64_t> self = selfDurations(events);
  for (size_t i = 0; i < events.size(); ++i) {
    const NodeEvent& e = events[i];
    OpStats& s = stats[key(e)];
    s.key = key(e);
    ++s.count;
    s.totalNs += self[i];
    s.flops += e.flops;
    s.bytes += e.bytesIn + e.bytesOut;
    total += self[i];
  }
  std::vector<OpStats> out;
  for (auto& [k, s] : stats) {
    s.share = total > 0 ? static_cast<double>(s.totalNs) / static_cast<double>(total) : 0;
    out.push_back(s);
  }
  std::sort(out.begin(), out.end(), [](const OpStats& a, const OpStats& b) {
    return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.key < b.key;
  });
  return out;
}

}  // namespace

RunProfile::RunProfile() : m_origin(steadyNs()) {}

RunProfile::RunProfile(RunProfile&& other) noexcept
    : m_origin(other.m_origin), m_events(std::move(other.m_events)), m_threads(std::move(other.m_threads)) {}

RunProfile& RunProfile::operator=(RunProfile&& other) noexcept {
  m_origin = other.m_origin;
  m_events = std::move(other.m_events);
  m_threads = std::move(other.m_threads);
  return *this;
}

void RunProfile::add(NodeEvent event) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_events.push_back(std::move(event));
}

int64_t RunProfile::now() const { return steadyNs() - m_origin; }

int RunProfile::threadId() {
  uint64_t id = std::hash<std::thread::id>()(std::this_thread::get_id());
  std::lock_guard<std::mutex> lock(m_mutex);
  auto [it, inserted] = m_threads.emplace(id, static_cast<int>(m_threads.size()));
  return it->second;
}

std::vector<OpStats> RunProfile::byOp() const {
  return aggregate(m_events, [](const NodeEvent& e) { return e.op; });
}

std::vector<OpStats> RunProfile::byScope(int depth) const {
  return aggregate(m_events, [depth](const NodeEvent& e) {
    const std::string& name = e.fusedFrom.empty() ? e.name : e.fusedFrom.front();  // a fused node's anchor
    size_t pos = 0;
    for (int d = 0; d < depth; ++d) {
      size_t next = name.find('/', pos);
      if (next == std::string::npos) return d == 0 ? std::string("(top level)") : name.substr(0, pos - 1);
      pos = next + 1;
    }
    return name.substr(0, pos - 1);
  });
}

std::vector<OpStats> RunProfile::slowestNodes(size_t limit) const {
  auto all = aggregate(m_events, [](const NodeEvent& e) {
    if (e.fusedFrom.empty()) return e.name + " (" + e.op + ")";
    std::string parts;  // a fused node: the nodes of the user's graph it computes
    for (const std::string& name : e.fusedFrom) parts += (parts.empty() ? "" : " + ") + name;
    if (!computesItsOriginals(e.name, e.fusedFrom))
      return e.name + " (" + e.op + ", for " + parts + ")";  // made for them (a layout transpose), not from them
    return parts + " (" + e.op + ")";
  });
  if (all.size() > limit) all.resize(limit);
  return all;
}

int RunProfile::runCount() const {
  int runs = 1;
  for (const auto& e : m_events) runs = std::max(runs, e.run + 1);
  return runs;
}

void RunProfile::addAll(std::vector<NodeEvent> events) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_events.insert(m_events.end(), std::make_move_iterator(events.begin()), std::make_move_iterator(events.end()));
}

}  // namespace flowscope
