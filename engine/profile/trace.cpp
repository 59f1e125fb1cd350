// Trace collection, aggregation and Chrome trace JSON.
#include "profile/trace.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace flowscope {
namespace {

int64_t steadyNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::vector<OpStats> aggregate(const std::vector<NodeEvent>& events, const std::function<std::string(const NodeEvent&)>& key) {
  std::unordered_map<std::string, OpStats> stats;
  int64_t total = 0;
  for (const auto& e : events) {
    OpStats& s = stats[key(e)];
    s.key = key(e);
    ++s.count;
    s.totalNs += e.durationNs();
    s.flops += e.flops;
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

Trace::Trace() : m_origin(steadyNs()) {}

Trace::Trace(Trace&& other) noexcept
    : m_origin(other.m_origin), m_events(std::move(other.m_events)), m_threads(std::move(other.m_threads)) {}

Trace& Trace::operator=(Trace&& other) noexcept {
  m_origin = other.m_origin;
  m_events = std::move(other.m_events);
  m_threads = std::move(other.m_threads);
  return *this;
}

void Trace::add(NodeEvent event) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_events.push_back(std::move(event));
}

int64_t Trace::now() const { return steadyNs() - m_origin; }

int Trace::threadId() {
  uint64_t id = std::hash<std::thread::id>()(std::this_thread::get_id());
  std::lock_guard<std::mutex> lock(m_mutex);
  auto [it, inserted] = m_threads.emplace(id, static_cast<int>(m_threads.size()));
  return it->second;
}

std::vector<OpStats> Trace::byOp() const {
  return aggregate(m_events, [](const NodeEvent& e) { return e.op; });
}

std::vector<OpStats> Trace::byScope(int depth) const {
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

std::vector<OpStats> Trace::slowestNodes(size_t limit) const {
  auto all = aggregate(m_events, [](const NodeEvent& e) { return e.name + " (" + e.op + ")"; });
  if (all.size() > limit) all.resize(limit);
  return all;
}

std::string Trace::toChromeJson() const {
  nlohmann::json events = nlohmann::json::array();
  for (const auto& e : m_events) {
    events.push_back({{"name", e.name},
                      {"cat", e.op},
                      {"ph", "X"},
                      {"ts", static_cast<double>(e.startNs) / 1000.0},
                      {"dur", static_cast<double>(e.durationNs()) / 1000.0},
                      {"pid", 1},
                      {"tid", e.thread},
                      {"args", {{"op", e.op}, {"backend", e.backend}, {"bytes_in", e.bytesIn}, {"bytes_out", e.bytesOut},
                                {"flops", e.flops}, {"run", e.run}}}});
  }
  nlohmann::json root = {{"traceEvents", events}, {"displayTimeUnit", "ns"}, {"otherData", {{"producer", "flowscope"}}}};
  return root.dump();
}

Expected<Trace> Trace::fromChromeJson(const std::string& text) {
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return invalidArgument("not valid JSON at byte " + std::to_string(e.byte) + ": " + e.what());
  }
  const nlohmann::json* events = root.is_array() ? &root : root.contains("traceEvents") ? &root["traceEvents"] : nullptr;
  if (!events || !events->is_array()) return invalidArgument("expected a Chrome trace with a 'traceEvents' array");
  Trace trace;
  for (const auto& e : *events) {
    if (!e.is_object() || e.value("ph", "") != "X") continue;
    NodeEvent n;
    n.name = e.value("name", "");
    n.op = e.value("cat", "");
    n.startNs = static_cast<int64_t>(e.value("ts", 0.0) * 1000.0);
    n.endNs = n.startNs + static_cast<int64_t>(e.value("dur", 0.0) * 1000.0);
    n.thread = e.value("tid", 0);
    if (e.contains("args") && e["args"].is_object()) {
      const auto& a = e["args"];
      n.op = a.value("op", n.op);
      n.backend = a.value("backend", n.backend);
      n.bytesIn = a.value("bytes_in", int64_t{0});
      n.bytesOut = a.value("bytes_out", int64_t{0});
      n.flops = a.value("flops", int64_t{0});
      n.run = a.value("run", 0);
    }
    trace.m_events.push_back(std::move(n));
  }
  return trace;
}

}  // namespace flowscope
