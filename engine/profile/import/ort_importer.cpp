// ONNX Runtime's profiling JSON (SessionOptions.enable_profiling): an array of Chrome-trace "X" events; "Node" events
// are named <node>_kernel_time (or _fence_before/_fence_after) and carry op_name, provider and shapes in args.
// ORT names nodes after its optimized graph: a fused Conv+Clip is named after the fused output tensor, a node re-laid
// out to NCHWc gets "_nchwc" appended; the candidates list both spellings for the matcher.
#include <algorithm>

#include "profile/import/import_util.h"
#include "profile/import/importer.h"

namespace flowscope {
namespace {

using nlohmann::json;

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string stripTail(const std::string& s, const std::string& tail) {
  return endsWith(s, tail) ? s.substr(0, s.size() - tail.size()) : s;
}

// "CPUExecutionProvider" -> "cpu", "CUDAExecutionProvider" -> "cuda".
std::string backendOf(const std::string& provider) {
  std::string b = stripTail(provider, "ExecutionProvider");
  std::transform(b.begin(), b.end(), b.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return b.empty() ? "cpu" : b;
}

struct Span {
  int64_t start, end;
};

// ORT's "model_run" session events, one per InferenceSession::Run, in time order.
std::vector<Span> runSpans(const json& events) {
  std::vector<Span> spans;
  for (const auto& e : events)
    if (e.is_object() && e.value("cat", "") == "Session" && e.value("name", "") == "model_run") {
      int64_t ts = import::microsToNs(import::jsonNumber(e.value("ts", json())));
      spans.push_back({ts, ts + import::microsToNs(import::jsonNumber(e.value("dur", json())))});
    }
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
  return spans;
}

int runOf(const std::vector<Span>& spans, int64_t ts) {
  for (size_t i = 0; i < spans.size(); ++i)
    if (ts >= spans[i].start && ts <= spans[i].end) return static_cast<int>(i);
  return -1;
}

ImportedEvent nodeEvent(const json& e, const json& args) {
  ImportedEvent ie;
  ie.label = e.value("name", "");
  ie.kind = "Node";
  ie.event.op = import::jsonText(args.value("op_name", json()));
  std::string base = stripTail(ie.label, "_kernel_time");
  if (endsWith(ie.label, "_fence_before") || endsWith(ie.label, "_fence_after")) {
    base = stripTail(stripTail(ie.label, "_fence_before"), "_fence_after");
    ie.kind = "fence";
    ie.event.op = "Fence";
  }
  ie.candidates.push_back(base);
  if (endsWith(base, "_nchwc")) ie.candidates.push_back(stripTail(base, "_nchwc"));
  ie.event.name = ie.label;
  ie.event.backend = backendOf(import::jsonText(args.value("provider", json())));
  ie.inputShapes = import::shapesOf(args.value("input_type_shape", json()));
  ie.outputShapes = import::shapesOf(args.value("output_type_shape", json()));
  ie.event.bytesIn = import::clampedInt(import::jsonNumber(args.value("activation_size", json())));
  ie.event.bytesOut = import::clampedInt(import::jsonNumber(args.value("output_size", json())));
  return ie;
}

Expected<ImportedProfile> loadOrt(const json& root) {
  const json& events = root.is_array() ? root : root.value("traceEvents", json());
  if (!events.is_array()) return invalidArgument("expected a JSON array of ONNX Runtime profile events");
  ImportedProfile profile;
  profile.format = "ONNX Runtime profile";
  import::ThreadIds threads(&profile);
  const std::vector<Span> spans = runSpans(events);
  size_t outside = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const json& e = events[i];
    if (!e.is_object() || e.value("ph", "X") != "X") continue;
    const json& args = e.contains("args") && e["args"].is_object() ? e["args"] : json::object();
    const bool isNode = e.value("cat", "") == "Node";
    ImportedEvent ie = isNode ? nodeEvent(e, args) : ImportedEvent{};
    if (!isNode) {
      ie.label = ie.event.name = ie.event.op = import::jsonText(e.value("name", json()));
      ie.kind = import::jsonText(e.value("cat", json()));
      ie.inTables = ie.nodeEvent = false;
    }
    ie.event.startNs = import::microsToNs(import::jsonNumber(e.value("ts", json())));
    ie.event.endNs = ie.event.startNs + import::microsToNs(import::jsonNumber(e.value("dur", json())));
    std::string pid = import::jsonText(e.value("pid", json())), tid = import::jsonText(e.value("tid", json()));
    ie.event.thread = threads.id(pid, tid, "process " + pid + " thread " + tid);
    int run = runOf(spans, ie.event.startNs);
    if (isNode && run < 0 && !spans.empty()) ++outside;
    ie.event.run = std::max(run, 0);
    profile.events.push_back(std::move(ie));
  }
  if (outside)
    profile.warnings.push_back(std::to_string(outside) + " node events lie outside every model_run; counted in run 0");
  if (spans.empty()) assignRunsByPeriod(&profile);
  return profile;
}

class OrtProfileImporter : public ProfileImporter {
 public:
  std::string name() const override { return "ONNX Runtime profile"; }

  float match(const Source& source) const override {
    if (source.isDirectory()) return 0;
    const std::string& h = source.head();
    size_t first = h.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || (h[first] != '[' && h[first] != '{')) return 0;
    bool node = h.find("\"cat\" : \"Node\"") != std::string::npos || h.find("\"cat\":\"Node\"") != std::string::npos ||
                h.find("\"cat\": \"Node\"") != std::string::npos;
    bool session = h.find("\"model_loading_uri\"") != std::string::npos ||
                   h.find("\"session_initialization\"") != std::string::npos;
    bool ort = h.find("ExecutionProvider") != std::string::npos || h.find("_kernel_time") != std::string::npos;
    return (node || session) && (ort || session) ? 0.9f : 0;
  }

  Expected<ImportedProfile> load(const Source& source) const override {
    FS_ASSIGN_OR_RETURN(std::string text, source.readAll());
    FS_ASSIGN_OR_RETURN(nlohmann::json root, parseJson(text));
    try {
      return loadOrt(root);
    } catch (const nlohmann::json::exception& e) {  // a field of an unexpected type
      return invalidArgument(std::string("ONNX Runtime profile: ") + e.what());
    }
  }
};

}  // namespace

std::unique_ptr<ProfileImporter> makeOrtProfileImporter() { return std::make_unique<OrtProfileImporter>(); }

}  // namespace flowscope
