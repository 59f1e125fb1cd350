// Chrome trace JSON (the Trace Event Format that Perfetto and chrome://tracing open).
#include "profile/chrome_trace.h"

#include <nlohmann/json.hpp>

#include "base/json.h"

namespace flowscope {
namespace {

NodeEvent eventFromJson(const nlohmann::json& e) {
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
    n.depth = a.value("depth", 0);
    if (a.contains("fused_from") && a["fused_from"].is_array())
      for (const auto& name : a["fused_from"])
        if (name.is_string()) n.fusedFrom.push_back(name.get<std::string>());
  }
  return n;
}

}  // namespace

std::string toChromeTraceJson(const RunProfile& profile) {
  nlohmann::json events = nlohmann::json::array();
  for (const auto& e : profile.events()) {
    nlohmann::json args = {
        {"op", e.op},       {"backend", e.backend}, {"bytes_in", e.bytesIn}, {"bytes_out", e.bytesOut},
        {"flops", e.flops}, {"run", e.run},         {"depth", e.depth}};
    if (!e.fusedFrom.empty()) args["fused_from"] = e.fusedFrom;
    events.push_back({{"name", e.name},
                      {"cat", e.op},
                      {"ph", "X"},
                      {"ts", static_cast<double>(e.startNs) / 1000.0},
                      {"dur", static_cast<double>(e.durationNs()) / 1000.0},
                      {"pid", 1},
                      {"tid", e.thread},
                      {"args", std::move(args)}});
  }
  nlohmann::json root = {
      {"traceEvents", events}, {"displayTimeUnit", "ns"}, {"otherData", {{"producer", "flowscope"}}}};
  return root.dump();
}

Expected<RunProfile> fromChromeTraceJson(const std::string& text) {
  FS_ASSIGN_OR_RETURN(nlohmann::json root, parseJson(text));
  const nlohmann::json* events = root.is_array()                ? &root
                                 : root.contains("traceEvents") ? &root["traceEvents"]
                                                                : nullptr;
  if (!events || !events->is_array()) return invalidArgument("expected a Chrome trace with a 'traceEvents' array");
  std::vector<NodeEvent> read;
  size_t at = 0;
  try {
    for (; at < events->size(); ++at) {
      const nlohmann::json& e = (*events)[at];
      if (!e.is_object() || e.value("ph", "") != "X") continue;
      read.push_back(eventFromJson(e));
    }
  } catch (const nlohmann::json::exception& e) {  // a field of the wrong type
    return invalidArgument("trace event " + std::to_string(at) + ": " + e.what());
  }
  RunProfile profile;
  profile.addAll(std::move(read));
  return profile;
}

}  // namespace flowscope
