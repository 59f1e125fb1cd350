// Chrome trace JSON in general ({"traceEvents": [...]} or a bare array, plain or gzip): "X" events, and "B"/"E"
// pairs. PyTorch's Kineto traces are read with their meaning: cpu_op events are operators (nested ones counted once),
// GPU kernels are linked to the operator that launched them through the runtime call with the same "correlation",
// runtime and driver calls are kept but are about no node. Flowscope's own traces keep their op, run and backend.
#include <map>

#include "profile/import/import_util.h"
#include "profile/import/importer.h"
#include "profile/import/trace_nesting.h"

namespace flowscope {
namespace {

using nlohmann::json;

constexpr size_t kMaxInflated = size_t{2} << 30;

bool isGpuCategory(const std::string& cat) { return cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset"; }

// Kineto's categories that are about no operator.
bool isRuntimeCategory(const std::string& cat) {
  return cat == "cuda_runtime" || cat == "cuda_driver" || cat == "overhead" || cat == "Trace" ||
         cat == "python_function" || cat == "user_annotation" || cat == "gpu_user_annotation" || cat == "ac2g";
}

ImportedEvent eventOf(const json& e, bool kineto, import::ThreadIds* threads) {
  ImportedEvent ie;
  ie.label = import::jsonText(e.value("name", json()));
  ie.kind = import::jsonText(e.value("cat", json()));
  ie.event.name = ie.label;
  ie.event.op = kineto || ie.kind.empty() ? ie.label : ie.kind;
  ie.candidates.push_back(ie.label);
  ie.event.startNs = import::microsToNs(import::jsonNumber(e.value("ts", json())));
  ie.event.endNs = ie.event.startNs + import::microsToNs(import::jsonNumber(e.value("dur", json())));
  const std::string pid = import::jsonText(e.value("pid", json())), tid = import::jsonText(e.value("tid", json()));
  const bool gpu = isGpuCategory(ie.kind);
  ie.event.backend = gpu ? "cuda:" + pid : "cpu";
  ie.event.thread = threads->id(pid, tid, gpu ? "GPU " + pid + " stream " + tid : "process " + pid + " thread " + tid);
  ie.nodeEvent = !(kineto && isRuntimeCategory(ie.kind));
  if (!ie.nodeEvent) ie.inTables = false;
  if (const auto a = e.find("args"); a != e.end() && a->is_object()) {
    ie.inputShapes = import::shapesOf(a->value("Input Dims", json()));
    if (auto op = a->find("op"); op != a->end() && op->is_string()) ie.event.op = op->get<std::string>();
    if (auto b = a->find("backend"); b != a->end() && b->is_string()) ie.event.backend = b->get<std::string>();
    ie.event.run = static_cast<int>(import::clampedInt(import::jsonNumber(a->value("run", json()), 0)));
    ie.event.flops = import::clampedInt(import::jsonNumber(a->value("flops", json()), 0));
    ie.event.bytesIn = import::clampedInt(import::jsonNumber(a->value("bytes_in", json()), 0));
    ie.event.bytesOut = import::clampedInt(import::jsonNumber(a->value("bytes_out", json()), 0));
  }
  return ie;
}

// Kineto: each GPU event's parent is the top-level operator around the runtime call with its correlation id.
void linkKernels(const json& events, const std::vector<int>& indexOf, ImportedProfile* profile) {
  std::map<std::string, size_t> launches;  // correlation -> runtime event
  std::vector<std::pair<size_t, std::string>> gpu;
  for (size_t i = 0; i < events.size(); ++i) {
    if (indexOf[i] < 0) continue;
    const json& a = events[i].contains("args") && events[i]["args"].is_object() ? events[i]["args"] : json::object();
    if (!a.contains("correlation")) continue;
    const ImportedEvent& ie = profile->events[static_cast<size_t>(indexOf[i])];
    if (isGpuCategory(ie.kind))
      gpu.emplace_back(static_cast<size_t>(indexOf[i]), import::jsonText(a["correlation"]));
    else
      launches[import::jsonText(a["correlation"])] = static_cast<size_t>(indexOf[i]);
  }
  size_t orphans = 0;
  for (const auto& [k, correlation] : gpu) {
    auto it = launches.find(correlation);
    int op = it == launches.end() ? -1 : profile->events[it->second].parent;
    ImportedEvent& kernel = profile->events[k];
    if (op < 0) {
      ++orphans;
      continue;
    }
    kernel.parent = op;
    kernel.event.op = profile->events[static_cast<size_t>(op)].label + " [gpu]";
  }
  if (orphans)
    profile->warnings.push_back(std::to_string(orphans) +
                                " GPU events have no launching operator (no runtime call with their correlation "
                                "inside a cpu_op); shown on their stream, unmatched");
}

// Runtime calls belong to the top-level operator around them on their thread (parent), for linkKernels.
void parentRuntimeCalls(ImportedProfile* profile) {
  std::map<int, std::vector<size_t>> ops;
  for (size_t i = 0; i < profile->events.size(); ++i)
    if (profile->events[i].nodeEvent && profile->events[i].parent < 0)
      ops[profile->events[i].event.thread].push_back(i);
  for (ImportedEvent& e : profile->events) {
    if (e.nodeEvent || (e.kind != "cuda_runtime" && e.kind != "cuda_driver")) continue;
    for (size_t i : ops[e.event.thread]) {
      const NodeEvent& op = profile->events[i].event;
      if (op.startNs <= e.event.startNs && e.event.endNs <= op.endNs) e.parent = static_cast<int>(i);
    }
  }
}

Expected<ImportedProfile> loadTrace(const json& root) {
  const json* events = root.is_array() ? &root : nullptr;
  if (root.is_object() && root.contains("traceEvents")) events = &root["traceEvents"];
  if (!events || !events->is_array()) return invalidArgument("expected a Chrome trace with a 'traceEvents' array");
  const bool kineto = root.is_object() && (root.contains("schemaVersion") || root.contains("deviceProperties") ||
                                           root.contains("baseTimeNanoseconds"));
  const bool ours = root.is_object() && root.value("otherData", json::object()).value("producer", "") == "flowscope";
  ImportedProfile profile;
  profile.format = kineto ? "PyTorch (Kineto) Chrome trace" : ours ? "Flowscope Chrome trace" : "Chrome trace";
  import::ThreadIds threads(&profile);
  std::vector<int> indexOf(events->size(), -1);
  size_t skippedPhases = 0;
  for (size_t i = 0; i < events->size(); ++i) {
    const json& e = (*events)[i];
    if (!e.is_object()) continue;
    if (e.value("ph", "") != "X") {
      skippedPhases += e.value("ph", "") != "M" && e.value("ph", "") != "s" && e.value("ph", "") != "f";
      continue;
    }
    indexOf[i] = static_cast<int>(profile.events.size());
    profile.events.push_back(eventOf(e, kineto, &threads));
  }
  if (skippedPhases)
    profile.warnings.push_back(std::to_string(skippedPhases) +
                               " events of phases other than X (complete), M, s and f were not read");
  import::markNestedEvents(&profile);
  if (kineto) {
    parentRuntimeCalls(&profile);
    linkKernels(*events, indexOf, &profile);
  }
  if (!ours) assignRunsByPeriod(&profile);
  return profile;
}

class ChromeTraceImporter : public ProfileImporter {
 public:
  std::string name() const override { return "Chrome trace"; }

  float match(const Source& source) const override {
    if (source.isDirectory()) return 0;
    const std::string text =
        import::isGzip(source.head()) ? import::gunzipPrefix(source.head(), 1 << 16) : source.head();
    size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || (text[first] != '[' && text[first] != '{')) return 0;
    if (text.find("\"traceEvents\"") != std::string::npos) return 0.6f;
    return text.find("\"ph\"") != std::string::npos ? 0.4f : 0;
  }

  Expected<ImportedProfile> load(const Source& source) const override {
    FS_ASSIGN_OR_RETURN(std::string text, source.readAll());
    if (import::isGzip(text)) {
      auto inflated = import::gunzip(text, kMaxInflated);
      if (!inflated) return inflated.status();
      text = std::move(inflated).value();
    }
    FS_ASSIGN_OR_RETURN(nlohmann::json root, parseJson(text));
    try {
      return loadTrace(root);
    } catch (const nlohmann::json::exception& e) {  // a field of an unexpected type
      return invalidArgument(std::string("Chrome trace: ") + e.what());
    }
  }
};

}  // namespace

std::unique_ptr<ProfileImporter> makeChromeTraceImporter() { return std::make_unique<ChromeTraceImporter>(); }

}  // namespace flowscope
