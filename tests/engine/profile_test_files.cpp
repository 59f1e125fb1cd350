// Small profiles written by the tests.
#include "engine/profile_test_files.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "event.pb.h"
#include "graph.pb.h"
#include "profile/import/tf_record.h"
#include "xplane.pb.h"

namespace flowscope::testing {

std::string sharedProfile(const std::string& name) {
  return std::string(FLOWSCOPE_SHARED_GRAPHS) + "/../profiles/" + name;
}

std::string writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

Node node(const std::string& name, const std::string& op, const std::vector<std::string>& inputs) {
  Node n;
  n.name = name;
  n.op = op;
  for (const auto& in : inputs) {
    TensorRef ref;
    parseTensorRef(in, false, &ref);
    n.inputs.push_back(ref);
  }
  return n;
}

Graph onnxLikeMobilenetHead() {
  Graph g;
  g.addNode(node("input", "Placeholder"));
  g.addNode(node("w0", "Const"));
  g.addNode(node("/features/features.0/features.0.0/Conv", "Conv", {"input", "w0"}));
  g.addNode(node("/features/features.0/features.0.2/Clip", "Clip", {"/features/features.0/features.0.0/Conv"}));
  g.addNode(node("w1", "Const"));
  g.addNode(node("/features/features.1/conv/conv.1/Conv", "Conv", {"/features/features.0/features.0.2/Clip", "w1"}));
  g.addNode(node("w2", "Const"));
  g.addNode(node("/features/features.3/conv/conv.2/Conv", "Conv", {"/features/features.1/conv/conv.1/Conv", "w2"}));
  g.addNode(node("/features/features.3/Add", "Add",
                 {"/features/features.1/conv/conv.1/Conv", "/features/features.3/conv/conv.2/Conv"}));
  g.addNode(node("/GlobalAveragePool", "GlobalAveragePool", {"/features/features.3/Add"}));
  g.addNode(node("/Flatten", "Flatten", {"/GlobalAveragePool"}));
  g.addNode(node("wf", "Const"));
  g.addNode(node("/classifier/classifier.1/Gemm", "Gemm", {"/Flatten", "wf"}));
  return g;
}

std::string ortProfileJson(int runs) {
  using nlohmann::json;
  json events = json::array();
  events.push_back(
      {{"cat", "Session"}, {"name", "model_loading_uri"}, {"ph", "X"}, {"ts", 1}, {"dur", 50}, {"pid", 1}, {"tid", 1}});
  const std::vector<std::pair<std::string, std::string>> nodes = {
      {"/features/features.0/features.0.2/Clip_output_0_nchwc", "Conv"},
      {"/features/features.1/conv/conv.1/Conv_output_0_nchwc", "Conv"},
      {"/features/features.3/conv/conv.2/Conv_output_0_nchwc", "Conv"},
      {"/GlobalAveragePool_output_0_nchwc", "GlobalAveragePool"},
      {"ReorderOutput", "ReorderOutput"},
      {"/Flatten", "Flatten"},
      {"/classifier/classifier.1/Gemm", "Gemm"}};
  int64_t ts = 100;
  for (int r = 0; r < runs; ++r) {
    events.push_back(
        {{"cat", "Session"}, {"name", "model_run"}, {"ph", "X"}, {"ts", ts}, {"dur", 1000}, {"pid", 1}, {"tid", 1}});
    for (size_t k = 0; k < nodes.size(); ++k)
      events.push_back({{"cat", "Node"},
                        {"name", nodes[k].first + "_kernel_time"},
                        {"ph", "X"},
                        {"ts", ts + 10 + static_cast<int64_t>(k) * 100},
                        {"dur", 50 + static_cast<int64_t>(k)},
                        {"pid", 1},
                        {"tid", 1},
                        {"args",
                         {{"op_name", nodes[k].second},
                          {"provider", "CPUExecutionProvider"},
                          {"output_type_shape", json::array({{{"float", {1, 32, 112, 112}}}})}}}});
    ts += 2000;
  }
  return events.dump();
}

std::string tfEventsFile(int runs) {
  tensorflow::GraphDef graph;
  auto* x = graph.add_node();
  x->set_name("x");
  x->set_op("Placeholder");
  (*x->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
  for (auto [name, op, input] : {std::tuple{"r", "Relu", "x"}, std::tuple{"s", "Square", "r"}}) {
    auto* n = graph.add_node();
    n->set_name(name);
    n->set_op(op);
    n->add_input(input);
    (*n->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
  }
  std::string file;
  tensorflow::Event version;
  version.set_file_version("brain.Event:2");
  file += tfRecord(version.SerializeAsString());
  tensorflow::Event g;
  g.set_graph_def(graph.SerializeAsString());
  file += tfRecord(g.SerializeAsString());
  for (int r = 0; r < runs; ++r) {
    tensorflow::RunMetadata meta;
    auto* dev = meta.mutable_step_stats()->add_dev_stats();
    dev->set_device("/job:localhost/replica:0/task:0/device:CPU:0");
    int64_t t = 1000000 * (r + 1);
    for (auto [name, label] : {std::pair{"_SOURCE", ""}, std::pair{"x", "x = Placeholder()"},
                               std::pair{"r", "r = Relu(x)"}, std::pair{"s", "s = Square(r)"}}) {
      auto* s = dev->add_node_stats();
      s->set_node_name(name);
      s->set_timeline_label(label);
      s->set_all_start_micros(t);
      s->set_all_end_rel_micros(10);
      s->set_thread_id(7);
      t += 20;
    }
    tensorflow::Event e;
    e.set_step(r);
    e.mutable_tagged_run_metadata()->set_tag("step" + std::to_string(r));
    e.mutable_tagged_run_metadata()->set_run_metadata(meta.SerializeAsString());
    file += tfRecord(e.SerializeAsString());
  }
  return file;
}

namespace {

namespace xp = tensorflow::profiler;

void addEvent(xp::XLine* line, int64_t meta, int64_t offsetPs, int64_t durPs,
              const std::vector<std::pair<int64_t, std::string>>& strStats = {}) {
  auto* e = line->add_events();
  e->set_metadata_id(meta);
  e->set_offset_ps(offsetPs);
  e->set_duration_ps(durPs);
  for (const auto& [id, value] : strStats) {
    auto* s = e->add_stats();
    s->set_metadata_id(id);
    s->set_str_value(value);
  }
}

void names(xp::XPlane* plane, const std::vector<std::string>& events, const std::vector<std::string>& stats) {
  for (size_t i = 0; i < events.size(); ++i) {
    auto& m = (*plane->mutable_event_metadata())[static_cast<int64_t>(i + 1)];
    m.set_id(static_cast<int64_t>(i + 1));
    m.set_name(events[i]);
  }
  for (size_t i = 0; i < stats.size(); ++i) {
    auto& m = (*plane->mutable_stat_metadata())[static_cast<int64_t>(i + 1)];
    m.set_id(static_cast<int64_t>(i + 1));
    m.set_name(stats[i]);
  }
}

}  // namespace

std::string xspaceBytes(const std::string& hostPrefix) {
  xp::XSpace space;
  auto* host = space.add_planes();
  host->set_name("/host:CPU");
  names(host, {"conv1:Conv2D", "relu1:Relu", "$train.py:10 step", "cudaLaunchKernel"}, {"correlation_id"});
  auto* line = host->add_lines();
  line->set_id(1);
  line->set_name(hostPrefix + "tf_thread");
  line->set_timestamp_ns(5000);
  addEvent(line, 3, 0, 100000000);                   // python frame around everything
  addEvent(line, 1, 1000000, 20000000);              // conv1 at +1 us for 20 us
  addEvent(line, 4, 2000000, 1000000, {{1, "42"}});  // the launch inside conv1
  addEvent(line, 2, 30000000, 5000000);              // relu1
  auto* device = space.add_planes();
  device->set_name("/device:GPU:0");
  names(device, {"volta_sgemm", "relu_kernel"}, {"tf_op", "correlation_id"});
  auto* stream = device->add_lines();
  stream->set_id(7);
  stream->set_name("stream 7");
  stream->set_timestamp_ns(5000);
  addEvent(stream, 1, 4000000, 3000000, {{2, "42"}});           // linked by correlation to conv1
  addEvent(stream, 2, 32000000, 1000000, {{1, "relu1:Relu"}});  // names its op
  addEvent(stream, 9, 40000000, 1000000);                       // metadata the plane lacks
  auto* odd = space.add_planes();
  odd->set_name("/weird:plane");
  names(odd, {"mystery"}, {});
  auto* oddLine = odd->add_lines();
  oddLine->set_timestamp_ns(6000);
  addEvent(oddLine, 1, 0, 1000);
  auto* meta = space.add_planes();
  meta->set_name("/host:metadata");
  return space.SerializeAsString();
}

}  // namespace flowscope::testing
