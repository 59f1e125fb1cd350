// TensorBoard event files (events.out.tfevents.*): TFRecords of Event protos. The GraphDef an Event carries (or a
// MetaGraphDef's) opens as the graph; each TaggedRunMetadata's step stats become one run: per node its start,
// duration, device, thread and memory.
#include <algorithm>

#include "event.pb.h"
#include "io/graph_proto.h"
#include "meta_graph.pb.h"
#include "profile/import/import_util.h"
#include "profile/import/importer.h"
#include "profile/import/tf_record.h"

namespace flowscope {
namespace {

// "/job:localhost/replica:0/task:0/device:GPU:0" -> "gpu:0"; "" -> "cpu".
std::string backendOf(const std::string& device) {
  size_t at = device.rfind("device:");
  std::string b = at == std::string::npos ? device : device.substr(at + 7);
  std::transform(b.begin(), b.end(), b.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return b.empty() ? "cpu" : b;
}

// "conv/Conv2D = Conv2D(input, filter)" -> "Conv2D"; "" when the label is not of that form.
std::string opOfLabel(const std::string& label) {
  size_t eq = label.find(" = ");
  if (eq == std::string::npos) return "";
  size_t paren = label.find('(', eq + 3);
  return label.substr(eq + 3, paren == std::string::npos ? std::string::npos : paren - eq - 3);
}

ImportedEvent eventOf(const tensorflow::NodeExecStats& s, const std::string& device, int run, import::ThreadIds* ids) {
  ImportedEvent ie;
  ie.label = ie.event.name = s.node_name();
  ie.kind = "node_stats";
  ie.candidates.push_back(s.node_name());
  ie.event.op = opOfLabel(s.timeline_label());
  const int64_t start = s.all_start_nanos() ? s.all_start_nanos() : import::clampedInt(s.all_start_micros() * 1e3);
  const int64_t length =
      s.all_end_rel_nanos() ? s.all_end_rel_nanos() : import::clampedInt(s.all_end_rel_micros() * 1e3);
  ie.event.startNs = import::clampedInt(static_cast<double>(start));
  ie.event.endNs = import::clampedInt(static_cast<double>(start) + static_cast<double>(length));
  ie.event.backend = backendOf(device);
  ie.event.run = run;
  ie.event.thread = ids->id(device, std::to_string(s.thread_id()), device + " thread " + std::to_string(s.thread_id()));
  for (const auto& m : s.memory())
    ie.event.bytesOut += std::max<int64_t>(0, std::min<int64_t>(m.total_bytes(), 1LL << 50));
  return ie;
}

Status readRunMetadata(const tensorflow::TaggedRunMetadata& tagged, int run, ImportedProfile* profile,
                       import::ThreadIds* ids) {
  tensorflow::RunMetadata metadata;
  if (!metadata.ParseFromString(tagged.run_metadata()))
    return invalidArgument("run metadata '" + tagged.tag() + "' is not a valid RunMetadata protobuf");
  for (const auto& dev : metadata.step_stats().dev_stats())
    for (const auto& s : dev.node_stats()) profile->events.push_back(eventOf(s, dev.device(), run, ids));
  return Status::ok();
}

Status readGraph(const tensorflow::GraphDef& proto, const std::string& path, ImportedProfile* profile) {
  auto graph = graphFromProto(proto, DecodeLimits{});
  if (!graph) return graph.status().withContext("the GraphDef it carries: ");
  auto model = std::make_shared<Model>();
  model->path = path;
  model->format = "TensorBoard events (GraphDef)";
  model->graph = std::move(graph).value();
  profile->graph = std::move(model);
  return Status::ok();
}

// One Event record; `runs` counts the run metadata read so far.
Status readEvent(std::string_view record, size_t index, const std::string& path, int* runs, ImportedProfile* profile,
                 import::ThreadIds* ids) {
  tensorflow::Event event;
  if (!event.ParseFromArray(record.data(), static_cast<int>(record.size()))) {
    profile->warnings.push_back("record " + std::to_string(index) + " is not an Event protobuf; skipped");
    return Status::ok();
  }
  if (event.has_graph_def() && !profile->graph) {
    tensorflow::GraphDef proto;
    if (!proto.ParseFromString(event.graph_def())) return invalidArgument("the GraphDef it carries does not parse");
    return readGraph(proto, path, profile);
  }
  if (event.has_meta_graph_def() && !profile->graph) {
    tensorflow::MetaGraphDef meta;
    if (!meta.ParseFromString(event.meta_graph_def()))
      return invalidArgument("the MetaGraphDef it carries does not parse");
    return readGraph(meta.graph_def(), path, profile);
  }
  if (event.has_tagged_run_metadata()) return readRunMetadata(event.tagged_run_metadata(), (*runs)++, profile, ids);
  return Status::ok();
}

class TfEventsImporter : public ProfileImporter {
 public:
  std::string name() const override { return "TensorBoard events"; }

  float match(const Source& source) const override {
    if (source.isDirectory()) return 0;
    if (source.fileName().find("tfevents") != std::string::npos) return 0.9f;
    const std::string& h = source.head();  // a first record framing an Event with file_version "brain.Event:..."
    return h.size() >= 12 && h.find("brain.Event:") != std::string::npos ? 0.8f : 0;
  }

  Expected<ImportedProfile> load(const Source& source) const override {
    FS_ASSIGN_OR_RETURN(std::string bytes, source.readAll());
    FS_ASSIGN_OR_RETURN(TfRecords records, readTfRecords(bytes));
    ImportedProfile profile;
    profile.format = "TensorBoard events";
    profile.warnings = records.warnings;
    import::ThreadIds ids(&profile);
    int runs = 0;
    for (size_t i = 0; i < records.records.size(); ++i) {
      Status s = readEvent(records.records[i], i, source.path(), &runs, &profile, &ids);
      if (!s.isOk()) return s.withContext("record " + std::to_string(i) + ": ");
    }
    if (runs == 0) profile.warnings.push_back("no RunMetadata step stats: the file holds no profiled run");
    fillOps(&profile);
    return profile;
  }

 private:
  // Ops the timeline labels did not give, from the graph.
  static void fillOps(ImportedProfile* profile) {
    if (!profile->graph) return;
    for (ImportedEvent& e : profile->events)
      if (e.event.op.empty())
        if (const Node* n = profile->graph->graph.findNode(e.label)) e.event.op = n->op;
  }
};

}  // namespace

std::unique_ptr<ProfileImporter> makeTfEventsImporter() { return std::make_unique<TfEventsImporter>(); }

}  // namespace flowscope
