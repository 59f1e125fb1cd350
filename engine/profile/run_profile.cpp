// Profile collection and aggregation.
#include "profile/run_profile.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>
#include <unordered_map>

namespace flowscope {
namespace {

int64_t steadyNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::vector<OpStats> aggregate(const std::vector<NodeEvent>& events,
                               const std::function<std::string(const NodeEvent&)>& key) {
  std::unordered_map<std::string, OpStats> stats;
  int64_t total = 0;
  for (const auto& e : events) {
    OpStats& s = stats[key(e)];
    s.key = key(e);
    ++s.count;
    s.totalNs += e.durationNs();
    s.flops += e.flops;
    s.bytes += e.bytesIn + e.bytesOut;
    total += e.durationNs();
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
    size_t pos = 0;
    for (int d = 0; d < depth; ++d) {
      size_t next = e.name.find('/', pos);
      if (next == std::string::npos) return d == 0 ? std::string("(top level)") : e.name.substr(0, pos - 1);
      pos = next + 1;
    }
    return e.name.substr(0, pos - 1);
  });
}

std::vector<OpStats> RunProfile::slowestNodes(size_t limit) const {
  auto all = aggregate(m_events, [](const NodeEvent& e) { return e.name + " (" + e.op + ")"; });
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
