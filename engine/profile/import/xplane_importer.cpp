// The TensorFlow profiler's XSpace (*.xplane.pb, also written by JAX): one XPlane per host ("/host:CPU") and device
// ("/device:GPU:0"), one XLine per thread or stream, XEvents named through event metadata. TensorFlow names op events
// "node_name:OpType"; device kernels name their op in a "tf_op" stat, or link to the host launch through
// "correlation_id". A directory of *.xplane.pb files (one per host) is read as one view, each host's planes prefixed.
#include <algorithm>
#include <filesystem>
#include <map>

#include "profile/import/import_util.h"
#include "profile/import/importer.h"
#include "profile/import/trace_nesting.h"
#include "xplane.pb.h"

namespace flowscope {
namespace {

namespace xp = tensorflow::profiler;
namespace fs = std::filesystem;

bool isXPlaneName(const std::string& path) {
  const std::string tail = ".xplane.pb";
  return path.size() > tail.size() && path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
}

// "conv1/Conv2D:Conv2D" -> name "conv1/Conv2D", op "Conv2D"; false when the text is not of that form.
bool splitTfOp(const std::string& text, std::string* name, std::string* op) {
  size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 >= text.size()) return false;
  std::string type = text.substr(colon + 1);
  if (!std::isupper(static_cast<unsigned char>(type[0])) && type[0] != '_') return false;
  for (char c : type)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  *name = text.substr(0, colon);
  *op = type;
  return true;
}

int64_t clampNs(__int128 ns) {
  constexpr __int128 kLimit = __int128{1} << 62;
  return static_cast<int64_t>(std::clamp(ns, -kLimit, kLimit));
}

// The stats of one event by name (strings; numbers as text).
std::map<std::string, std::string> statsOf(const xp::XPlane& plane, const xp::XEvent& event) {
  std::map<std::string, std::string> out;
  for (const xp::XStat& s : event.stats()) {
    auto meta = plane.stat_metadata().find(s.metadata_id());
    if (meta == plane.stat_metadata().end()) continue;
    std::string& v = out[meta->second.name()];
    switch (s.value_case()) {
      case xp::XStat::kStrValue:
        v = s.str_value();
        break;
      case xp::XStat::kInt64Value:
        v = std::to_string(s.int64_value());
        break;
      case xp::XStat::kUint64Value:
        v = std::to_string(s.uint64_value());
        break;
      case xp::XStat::kDoubleValue:
        v = std::to_string(s.double_value());
        break;
      case xp::XStat::kRefValue: {
        auto ref = plane.stat_metadata().find(static_cast<int64_t>(s.ref_value()));
        v = ref == plane.stat_metadata().end() ? "" : ref->second.name();
        break;
      }
      default:
        break;
    }
  }
  return out;
}

struct PlaneContext {
  std::string host;  ///< "" for a single file
  ImportedProfile* profile;
  import::ThreadIds* threads;
  std::map<std::string, size_t>* launches;               ///< correlation_id -> host event
  std::vector<std::pair<size_t, std::string>>* kernels;  ///< device event -> correlation_id (no tf_op)
  size_t* missingMetadata;
};

ImportedEvent eventOf(const xp::XPlane& plane, const xp::XLine& line, const xp::XEvent& e, bool device,
                      const PlaneContext& ctx) {
  ImportedEvent ie;
  auto meta = plane.event_metadata().find(e.metadata_id());
  if (meta == plane.event_metadata().end()) ++*ctx.missingMetadata;
  ie.label = meta == plane.event_metadata().end() ? "#" + std::to_string(e.metadata_id())
             : meta->second.name().empty()        ? meta->second.display_name()
                                                  : meta->second.name();
  ie.kind = device ? "kernel" : "host";
  const auto stats = statsOf(plane, e);
  std::string name, op;
  auto tfOp = stats.find("tf_op");
  if (tfOp != stats.end() && splitTfOp(tfOp->second, &name, &op)) {
    ie.candidates.push_back(name);
    ie.event.op = op;
  } else if (splitTfOp(ie.label, &name, &op)) {
    ie.kind = "op";
    ie.candidates.push_back(name);
    ie.event.op = op;
  } else {
    ie.candidates.push_back(ie.label);
    ie.event.op = ie.label;
  }
  ie.event.name = ie.candidates.front();
  if (!device && !ie.label.empty() && ie.label[0] == '$') ie.nodeEvent = ie.inTables = false;  // Python frames
  const __int128 startPs =
      static_cast<__int128>(line.timestamp_ns()) * 1000 + (e.data_case() == xp::XEvent::kOffsetPs ? e.offset_ps() : 0);
  ie.event.startNs = clampNs(startPs / 1000);
  ie.event.endNs = clampNs((startPs + e.duration_ps()) / 1000);
  ie.event.backend = device ? plane.name().substr(plane.name().find(':') + 1) : "cpu";
  std::string where = (ctx.host.empty() ? "" : ctx.host + " ") + plane.name();
  ie.event.thread = ctx.threads->id(where, std::to_string(line.id()), where + " " + line.name());
  for (const char* key : {"group_id", "step_num"})
    if (auto it = stats.find(key); it != stats.end()) ie.event.run = std::max(0, std::atoi(it->second.c_str()));
  auto corr = stats.find("correlation_id");
  const size_t index = ctx.profile->events.size();
  if (corr != stats.end() && !device) (*ctx.launches)[corr->second] = index;
  if (corr != stats.end() && device && tfOp == stats.end()) ctx.kernels->emplace_back(index, corr->second);
  return ie;
}

void readPlane(const xp::XPlane& plane, const PlaneContext& ctx) {
  const bool host = plane.name().rfind("/host:", 0) == 0, device = plane.name().rfind("/device:", 0) == 0;
  size_t events = 0;
  for (const xp::XLine& line : plane.lines()) events += static_cast<size_t>(line.events_size());
  if (events == 0) return;  // metadata planes ("/host:metadata", "Task Environment")
  if (!host && !device)
    ctx.profile->warnings.push_back("plane '" + plane.name() + "' is neither a /host: nor a /device: plane; its " +
                                    std::to_string(events) + " events are shown as host events");
  for (const xp::XLine& line : plane.lines())
    for (const xp::XEvent& e : line.events()) {
      if (e.data_case() == xp::XEvent::kNumOccurrences) continue;  // aggregated counts, not timed events
      ImportedEvent ie = eventOf(plane, line, e, device, ctx);
      ctx.profile->events.push_back(std::move(ie));
    }
}

// Device events without tf_op take the op around their host launch.
void linkByCorrelation(const std::map<std::string, size_t>& launches,
                       const std::vector<std::pair<size_t, std::string>>& kernels, ImportedProfile* profile) {
  size_t orphans = 0;
  for (const auto& [k, corr] : kernels) {
    auto it = launches.find(corr);
    if (it == launches.end()) {
      ++orphans;
      continue;
    }
    const ImportedEvent& launch = profile->events[it->second];
    int op = launch.parent >= 0 ? launch.parent : static_cast<int>(it->second);
    profile->events[k].parent = op;
    profile->events[k].event.op = profile->events[static_cast<size_t>(op)].event.op + " [device]";
  }
  if (orphans)
    profile->warnings.push_back(std::to_string(orphans) +
                                " device events have neither a tf_op stat nor a host launch with their "
                                "correlation_id; shown on their stream, unmatched");
}

Status readSpace(const std::string& bytes, const std::string& host, PlaneContext ctx) {
  xp::XSpace space;
  if (!space.ParseFromString(bytes)) return invalidArgument("not a valid XSpace protobuf (truncated or damaged)");
  ctx.host = host;
  for (const std::string& w : space.errors()) ctx.profile->warnings.push_back("profiler error: " + w);
  for (const std::string& w : space.warnings()) ctx.profile->warnings.push_back("profiler warning: " + w);
  for (const xp::XPlane& plane : space.planes()) readPlane(plane, ctx);
  return Status::ok();
}

class XPlaneImporter : public ProfileImporter {
 public:
  std::string name() const override { return "TensorFlow profiler XSpace"; }

  float match(const Source& source) const override {
    if (source.isDirectory()) {
      std::error_code ec;
      for (const auto& entry : fs::directory_iterator(source.path(), ec))
        if (isXPlaneName(entry.path().filename().string())) return 0.9f;
      return 0;
    }
    if (isXPlaneName(source.fileName())) return 0.9f;
    const std::string& h = source.head();
    bool planes = h.find("/host:") != std::string::npos || h.find("/device:") != std::string::npos;
    return !h.empty() && h[0] == 0x0a && planes ? 0.7f : 0;
  }

  Expected<ImportedProfile> load(const Source& source) const override {
    std::vector<std::pair<std::string, std::string>> files;  // host, path
    if (source.isDirectory()) {
      std::error_code ec;
      for (const auto& entry : fs::directory_iterator(source.path(), ec))
        if (isXPlaneName(entry.path().filename().string())) {
          std::string file = entry.path().filename().string();
          files.emplace_back(file.substr(0, file.size() - 10), entry.path().string());
        }
      std::sort(files.begin(), files.end());
    } else {
      files.emplace_back("", source.path());
    }
    ImportedProfile profile;
    profile.format = "TensorFlow profiler XSpace";
    import::ThreadIds threads(&profile);
    std::map<std::string, size_t> launches;
    std::vector<std::pair<size_t, std::string>> kernels;
    size_t missing = 0;
    for (const auto& [host, path] : files) {
      FS_ASSIGN_OR_RETURN(std::string bytes, readFile(path));
      Status s = readSpace(bytes, host, {host, &profile, &threads, &launches, &kernels, &missing});
      if (!s.isOk()) return s.withContext(host.empty() ? "" : fs::path(path).filename().string() + ": ");
    }
    if (missing)
      profile.warnings.push_back(std::to_string(missing) + " events name event metadata their plane does not have");
    import::markNestedEvents(&profile);
    linkByCorrelation(launches, kernels, &profile);
    return profile;
  }
};

}  // namespace

std::unique_ptr<ProfileImporter> makeXPlaneImporter() { return std::make_unique<XPlaneImporter>(); }

}  // namespace flowscope
