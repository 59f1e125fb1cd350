// Profile importers (TensorFlow profiler XSpace, TensorBoard events, ONNX Runtime JSON, Chrome/Kineto traces) on the
// real files in ../shared/profiles and on small files written here (malformed ones included), and the matching of
// their events to graph nodes.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/crc32c.h"
#include "engine/profile_test_files.h"
#include "engine/test_paths.h"
#include "profile/import/importer.h"
#include "profile/import/tf_record.h"
#include "profile/node_times.h"
#include "profile/profile_match.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

const ImportedEvent* eventLabelled(const ImportedProfile& p, const std::string& label, int run = 0) {
  for (const auto& e : p.events)
    if (e.label == label && e.event.run == run) return &e;
  return nullptr;
}

std::vector<std::string> nodesOf(const ImportedProfile& p, const std::string& label) {
  const ImportedEvent* e = eventLabelled(p, label);
  return e ? e->nodes : std::vector<std::string>{"<no event " + label + ">"};
}

int64_t countOp(const RunProfile& profile, const std::string& op) {
  for (const auto& s : profile.byOp())
    if (s.key == op) return s.count;
  return 0;
}

bool hasWarning(const ImportedProfile& p, const std::string& part) {
  for (const auto& w : p.warnings)
    if (w.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

class TestProfileImport : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;
  std::string tmp(const std::string& name) { return m_dir.filePath(QString::fromStdString(name)).toStdString(); }

 private slots:
  void crc32cKnownAnswer() {
    // RFC 3720's check value; the importer reuses base/crc32c (already TensorBundle's) rather than a new library.
    QCOMPARE(crc32c("123456789", 9), 0xE3069283u);
  }

  void ortRealFile() {
    auto p = importProfile(sharedProfile("ort_mobilenet_v2_profile.json"));
    QVERIFY2(p, p ? "" : p.status().message().c_str());
    QCOMPARE(p->format, std::string("ONNX Runtime profile"));
    QCOMPARE(p->events.size(), size_t{292});
    QCOMPARE(p->nodeEventCount(), size_t{280});
    const RunProfile rp = p->toRunProfile();
    QCOMPARE(rp.runCount(), 5);
    QCOMPARE(countOp(rp, "Conv"), int64_t{52 * 5});
    QCOMPARE(countOp(rp, "ReorderOutput"), int64_t{5});
    const ImportedEvent* first = eventLabelled(*p, "/features/features.0/features.0.2/Clip_output_0_nchwc_kernel_time");
    QVERIFY(first);
    QCOMPARE(first->event.durationNs(), int64_t{332000});
    QCOMPARE(first->outputShapes.at(0), (std::vector<int64_t>{1, 32, 112, 112}));
  }

  void ortMatchesFusedAndRenamedNodes() {
    auto path = writeBytes(tmp("ort.json"), ortProfileJson(2));
    auto p = importProfile(path);
    QVERIFY2(p, p ? "" : p.status().message().c_str());
    const Graph g = onnxLikeMobilenetHead();
    MatchSummary m = matchProfileToGraph(g, &*p);
    QCOMPARE(m.nodeEvents, size_t{14});
    QCOMPARE(m.matched, size_t{12});  // all but ReorderOutput, in both runs
    QCOMPARE(p->unmatched().size(), size_t{2});
    QCOMPARE(p->events[p->unmatched()[0]].label, std::string("ReorderOutput_kernel_time"));
    // The fused Conv+Clip event is named after the Clip's output; it covers both, the Conv first.
    QCOMPARE(
        nodesOf(*p, "/features/features.0/features.0.2/Clip_output_0_nchwc_kernel_time"),
        (std::vector<std::string>{"/features/features.0/features.0.0/Conv", "/features/features.0/features.0.2/Clip"}));
    // The residual Add has no event of its own: the Conv that feeds only it covers it.
    QCOMPARE(nodesOf(*p, "/features/features.3/conv/conv.2/Conv_output_0_nchwc_kernel_time"),
             (std::vector<std::string>{"/features/features.3/conv/conv.2/Conv", "/features/features.3/Add"}));
    QCOMPARE(nodesOf(*p, "/Flatten_kernel_time"), std::vector<std::string>{"/Flatten"});
    QCOMPARE(m.byMethod["name"], size_t{4});    // Flatten, Gemm
    QCOMPARE(m.byMethod["output"], size_t{8});  // three Convs, GlobalAveragePool
    const RunProfile rp = p->toRunProfile();
    QCOMPARE(rp.slowestNodes(100).size(), size_t{7});  // six nodes and ReorderOutput
    // On the canvas the Conv holds the fused event's time and the Clip and Add are marked as fused into it.
    const NodeTimes times = nodeTimes(rp, g);
    const auto at = [&](const char* name) { return static_cast<size_t>(g.find(name)); };
    const size_t conv = at("/features/features.0/features.0.0/Conv"),
                 clip = at("/features/features.0/features.0.2/Clip");
    QVERIFY(times.seconds[conv] > 0);
    QCOMPARE(times.seconds[clip], 0.0);
    QCOMPARE(times.fusedInto[clip], int64_t(conv));
    QCOMPARE(times.fusedInto[at("/features/features.3/Add")], int64_t(at("/features/features.3/conv/conv.2/Conv")));
    QCOMPARE(times.fusedInto[conv], int64_t(-1));
  }

  void ortOnMobilenet() {
    auto model = loadModel(sharedProfile("mobilenet_v2.onnx"));
    if (!model) QSKIP(("mobilenet_v2.onnx does not load: " + model.status().message()).c_str());
    const Graph* graph = &model->graph;
    auto p = importProfile(sharedProfile("ort_mobilenet_v2_profile.json"));
    QVERIFY(p);
    MatchSummary m = matchProfileToGraph(*graph, &*p);
    QCOMPARE(m.nodeEvents, size_t{280});
    QCOMPARE(m.matched, size_t{275});  // 55 of 56 node events per run; ReorderOutput is ORT's own
    for (size_t i : p->unmatched()) QCOMPARE(p->events[i].event.op, std::string("ReorderOutput"));
    // Known answers for Conv nodes: the first Conv+Clip, a depthwise block's, a projection Conv with its residual Add.
    QCOMPARE(
        nodesOf(*p, "/features/features.0/features.0.2/Clip_output_0_nchwc_kernel_time"),
        (std::vector<std::string>{"/features/features.0/features.0.0/Conv", "/features/features.0/features.0.2/Clip"}));
    QCOMPARE(nodesOf(*p, "/features/features.5/conv/conv.1/conv.1.2/Clip_output_0_nchwc_kernel_time").front(),
             std::string("/features/features.5/conv/conv.1/conv.1.0/Conv"));
    QCOMPARE(nodesOf(*p, "/features/features.3/conv/conv.2/Conv_output_0_nchwc_kernel_time"),
             (std::vector<std::string>{"/features/features.3/conv/conv.2/Conv", "/features/features.3/Add"}));
    size_t convs = 0;
    for (size_t i = 0; i < graph->size(); ++i) convs += baseOpType(graph->node(i).op) == "Conv";
    QCOMPARE(convs, size_t{52});
    // Every compute node has its time: 52 Conv, 35 Clip, 10 Add, GlobalAveragePool, Flatten, Gemm. Left: 70
    // Constant and 39 Identity nodes ORT folds away, the 67 initializers and the input.
    std::set<std::string> covered;
    for (const auto& e : p->events) covered.insert(e.nodes.begin(), e.nodes.end());
    std::set<std::string> uncoveredOps;
    for (size_t i = 0; i < graph->size(); ++i)
      if (!covered.count(graph->node(i).name)) uncoveredOps.insert(baseOpType(graph->node(i).op));
    QCOMPARE(m.nodesCovered, size_t{100});
    QCOMPARE(uncoveredOps, (std::set<std::string>{"Const", "Constant", "Identity", "Placeholder"}));
  }

  void kinetoRealFile() {
    auto p = importProfile(sharedProfile("torch_mobilenet_v2_cuda_trace.json.gz"));
    QVERIFY2(p, p ? "" : p.status().message().c_str());
    QCOMPARE(p->format, std::string("PyTorch (Kineto) Chrome trace"));
    const RunProfile rp = p->toRunProfile();
    QCOMPARE(rp.runCount(), 3);
    QCOMPARE(countOp(rp, "aten::conv2d"), int64_t{52 * 3});
    QCOMPARE(countOp(rp, "aten::add"), int64_t{10 * 3});
    QVERIFY(!hasWarning(*p, "no launching operator"));  // every kernel found its operator
    size_t kernels = 0, linked = 0;
    for (const auto& e : p->events)
      if (e.kind == "kernel") {
        ++kernels;
        linked += e.parent >= 0;
      }
    QCOMPARE(linked, kernels);
    QCOMPARE(kernels, size_t{471});
  }

  void kinetoOnMobilenet() {
    // PyTorch's run of the same network has no node names: operators take the graph's nodes in order.
    auto model = loadModel(sharedProfile("mobilenet_v2.onnx"));
    if (!model) QSKIP(("mobilenet_v2.onnx does not load: " + model.status().message()).c_str());
    const Graph* graph = &model->graph;
    auto p = importProfile(sharedProfile("torch_mobilenet_v2_cuda_trace.json.gz"));
    QVERIFY(p);
    MatchSummary m = matchProfileToGraph(*graph, &*p);
    QCOMPARE(m.nodeEvents, size_t{3081});
    QCOMPARE(m.matched, size_t{3081});
    QCOMPARE(m.byMethod["order"], size_t{300});    // per run: 52 conv2d, 35 hardtanh_, 10 add, pool, flatten, linear
    QCOMPARE(m.byMethod["folded"], size_t{159});   // 52 batch_norm folded into their Conv, and dropout, per run
    QCOMPARE(m.byMethod["parent"], size_t{2622});  // nested aten ops and the GPU kernels they launched
    int convs = 0;
    for (const auto& e : p->events)
      if (e.event.run == 2 && e.parent < 0 && e.label == "aten::conv2d" && ++convs == 52)
        QCOMPARE(e.nodes.front(), std::string("/features/features.18/features.18.0/Conv"));
    QCOMPARE(convs, 52);
  }

  void kinetoMatchesByOrder() {
    // PyTorch's operators against the ONNX-like graph: no names in common, so op order (and shapes) decide.
    nlohmann::json trace = {{"schemaVersion", 1}, {"traceEvents", nlohmann::json::array()}};
    int64_t ts = 0;
    for (int run = 0; run < 2; ++run)
      for (const char* op : {"aten::conv2d", "aten::hardtanh_", "aten::conv2d", "aten::conv2d", "aten::add",
                             "aten::adaptive_avg_pool2d", "aten::flatten", "aten::linear"}) {
        trace["traceEvents"].push_back(
            {{"ph", "X"}, {"cat", "cpu_op"}, {"name", op}, {"pid", 1}, {"tid", 1}, {"ts", ts}, {"dur", 10}});
        ts += 20;
      }
    auto p = importProfile(writeBytes(tmp("kineto.json"), trace.dump()));
    QVERIFY2(p, p ? "" : p.status().message().c_str());
    QCOMPARE(p->toRunProfile().runCount(), 2);
    MatchSummary m = matchProfileToGraph(onnxLikeMobilenetHead(), &*p);
    QCOMPARE(m.matched, size_t{16});
    QCOMPARE(m.byMethod["order"], size_t{16});
    const ImportedEvent* third = nullptr;
    int convs = 0;
    for (const auto& e : p->events)
      if (e.event.run == 1 && e.label == "aten::conv2d" && ++convs == 3) third = &e;
    QVERIFY(third);
    QCOMPARE(third->nodes.front(), std::string("/features/features.3/conv/conv.2/Conv"));
  }

  void tfEventsRoundTrip() {
    auto p = importProfile(writeBytes(tmp("events.out.tfevents.1.host"), tfEventsFile(3)));
    QVERIFY2(p, p ? "" : p.status().message().c_str());
    QVERIFY(p->graph);
    QCOMPARE(p->graph->graph.size(), size_t{3});
    QCOMPARE(p->events.size(), size_t{12});
    QCOMPARE(p->toRunProfile().runCount(), 3);
    MatchSummary m = matchProfileToGraph(p->graph->graph, &*p);
    QCOMPARE(m.matched, size_t{9});
    QCOMPARE(p->unmatched().size(), size_t{3});  // _SOURCE, listed with its time
    const ImportedEvent* r = eventLabelled(*p, "r", 1);
    QVERIFY(r);
    QCOMPARE(r->event.op, std::string("Relu"));
    QCOMPARE(r->event.durationNs(), int64_t{10000});
    QCOMPARE(r->event.backend, std::string("cpu:0"));
  }

  void tfEventsMalformed() {
    const std::string good = tfEventsFile(2);
    // A truncated tail (a file still being written): the records before it load, with a warning.
    auto truncated = importProfile(writeBytes(tmp("events.out.tfevents.2"), good.substr(0, good.size() - 7)));
    QVERIFY(truncated);
    QVERIFY(hasWarning(*truncated, "truncated"));
    QCOMPARE(truncated->toRunProfile().runCount(), 1);
    // A bad data CRC in the last record: skipped with a warning.
    std::string badData = good;
    badData[badData.size() - 1] ^= 0x5a;
    auto skipped = importProfile(writeBytes(tmp("events.out.tfevents.3"), badData));
    QVERIFY(skipped);
    QVERIFY(hasWarning(*skipped, "data's CRC-32C does not match"));
    // A bad length CRC in the first record: nothing can be framed.
    std::string badLength = good;
    badLength[9] ^= 0x01;
    auto broken = importProfile(writeBytes(tmp("events.out.tfevents.4"), badLength));
    QVERIFY(!broken);
    QVERIFY(broken.status().message().find("length's CRC-32C") != std::string::npos);
    // Garbage framed correctly: not an Event, skipped with a warning.
    auto garbage = importProfile(writeBytes(tmp("events.out.tfevents.5"), tfRecord(std::string(40, '\xff'))));
    QVERIFY(garbage);
    QVERIFY(hasWarning(*garbage, "not an Event"));
  }

  void xplaneSynthetic() {
    auto p = importProfile(writeBytes(tmp("host.xplane.pb"), xspaceBytes()));
    QVERIFY2(p, p ? "" : p.status().message().c_str());
    QVERIFY(hasWarning(*p, "'/weird:plane'"));
    QVERIFY(hasWarning(*p, "event metadata"));
    Graph g;
    g.addNode(node("x", "Placeholder"));
    g.addNode(node("conv1", "Conv2D", {"x"}));
    g.addNode(node("relu1", "Relu", {"conv1"}));
    MatchSummary m = matchProfileToGraph(g, &*p);
    QCOMPARE(nodesOf(*p, "conv1:Conv2D"), std::vector<std::string>{"conv1"});
    QCOMPARE(nodesOf(*p, "volta_sgemm"), std::vector<std::string>{"conv1"});       // via correlation_id
    QCOMPARE(nodesOf(*p, "relu_kernel"), std::vector<std::string>{"relu1"});       // via tf_op
    QCOMPARE(nodesOf(*p, "cudaLaunchKernel"), std::vector<std::string>{"conv1"});  // nested in the op
    QCOMPARE(m.unmatched(), size_t{2});  // the unknown plane's event and the one without metadata
    const ImportedEvent* conv = eventLabelled(*p, "conv1:Conv2D");
    QCOMPARE(conv->event.durationNs(), int64_t{20000});
    QCOMPARE(conv->event.op, std::string("Conv2D"));
  }

  void xplaneDirectoryOfHosts() {
    const std::string dir = tmp("hosts");
    std::filesystem::create_directories(dir);
    writeBytes(dir + "/worker0.xplane.pb", xspaceBytes());
    writeBytes(dir + "/worker1.xplane.pb", xspaceBytes());
    auto p = importProfile(dir);
    QVERIFY2(p, p ? "" : p.status().message().c_str());
    bool both = false;
    for (const auto& [id, name] : p->threadNames) both |= name.rfind("worker1 /host:CPU", 0) == 0;
    QVERIFY(both);
    QCOMPARE(countOp(p->toRunProfile(), "Conv2D"), int64_t{2});
  }

  void xplaneRealFile() {
    auto p = importProfile(sharedProfile("jax_mlp.xplane.pb"));
    QVERIFY2(p, p ? "" : p.status().message().c_str());
    QCOMPARE(p->format, std::string("TensorFlow profiler XSpace"));
    QCOMPARE(countOp(p->toRunProfile(), "PjitFunction(<lambda>)"), int64_t{5});  // the five jitted calls
    QCOMPARE(p->nodeEventCount(), size_t{30});
  }

  void malformedJson() {
    auto cut = importProfile(writeBytes(tmp("cut.json"), ortProfileJson(1).substr(0, 300)));
    QVERIFY(!cut);
    QVERIFY(cut.status().message().find("not valid JSON") != std::string::npos);
    auto empty = importProfile(writeBytes(tmp("empty.json"), ""));
    QVERIFY(!empty);
    // A number past a double's range is nlohmann's out_of_range, not parse_error (a fuzz find): still an error.
    auto huge = importProfile(writeBytes(tmp("huge.json"), R"({"traceEvents": [{"ph": "X", "ts": 1e999}]})"));
    QVERIFY(!huge);
    QVERIFY2(huge.status().message().find("number overflow") != std::string::npos, huge.status().message().c_str());
    // Times that go backwards (negative durations) and overlap on one thread: listed warnings, no crash.
    nlohmann::json trace = {{"traceEvents",
                             {{{"ph", "X"}, {"name", "a"}, {"ts", 10}, {"dur", -5}, {"tid", 1}},
                              {{"ph", "X"}, {"name", "b"}, {"ts", 20}, {"dur", 10}, {"tid", 1}},
                              {{"ph", "X"}, {"name", "c"}, {"ts", 25}, {"dur", 10}, {"tid", 1}},
                              {{"ph", "X"}, {"name", "d"}, {"ts", "soon"}, {"dur", 1e300}, {"tid", 2}},
                              {{"ph", "B"}, {"name", "e"}, {"ts", 1}}}}};
    auto odd = importProfile(writeBytes(tmp("odd.json"), trace.dump()));
    QVERIFY2(odd, odd ? "" : odd.status().message().c_str());
    QVERIFY(hasWarning(*odd, "ends before it starts"));
    QVERIFY(hasWarning(*odd, "overlapping"));
    QVERIFY(hasWarning(*odd, "phases other than X"));
    // Events of no node: none match, each is listed.
    MatchSummary m = matchProfileToGraph(onnxLikeMobilenetHead(), &*odd);
    QCOMPARE(m.matched, size_t{0});
    QCOMPARE(odd->unmatched().size(), size_t{4});
    auto gz = importProfile(writeBytes(tmp("cut.json.gz"), std::string("\x1f\x8b\x08\x00\x00\x00", 6)));
    QVERIFY(!gz);
  }

  void mutatedFilesNeverCrash() {
    // Truncations and flipped bytes of every kind of file: each imports or fails with a message, and what imports
    // matches and sums (the fuzz targets do this at length; this keeps a deterministic slice in every test run).
    const std::vector<std::pair<std::string, std::string>> files = {
        {"m.xplane.pb", readAll(sharedProfile("jax_mlp.xplane.pb"))},
        {"s.xplane.pb", xspaceBytes()},
        {"ort.json", ortProfileJson(2)},
        {"trace.json.gz", readAll(sharedProfile("torch_mobilenet_v2_cuda_trace.json.gz")).substr(0, 4096)},
        {"events.out.tfevents.m", reframedWithFlip(tfEventsFile(2), SIZE_MAX)}};
    const Graph graph = onnxLikeMobilenetHead();
    size_t imported = 0, failed = 0;
    for (const auto& [name, bytes] : files)
      for (size_t k = 1; k <= 60; ++k) {
        const size_t at = bytes.size() * k / 61;
        std::string flipped =
            name.find("tfevents") != std::string::npos ? reframedWithFlip(tfEventsFile(2), at) : bytes;
        if (name.find("tfevents") == std::string::npos) flipped[at] = static_cast<char>(flipped[at] ^ 0xa5);
        for (const std::string& variant : {bytes.substr(0, at), flipped}) {
          auto p = importProfile(writeBytes(tmp(name), variant));
          if (!p) {
            QVERIFY(!p.status().message().empty());
            ++failed;
            continue;
          }
          ++imported;
          matchProfileToGraph(p->graph ? p->graph->graph : graph, &*p);
          (void)p->toRunProfile().byOp();
        }
      }
    QVERIFY(imported > 0 && failed > 0);
  }

 private:
  static std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  // The event file's records with one byte of their data (at `at` counted over all of them) flipped, framed again
  // with good CRCs so that the Event parser sees the damage.
  static std::string reframedWithFlip(const std::string& file, size_t at) {
    auto records = readTfRecords(file);
    std::string out;
    size_t seen = 0;
    for (std::string_view r : records->records) {
      std::string data(r);
      if (at >= seen && at - seen < data.size()) data[at - seen] = static_cast<char>(data[at - seen] ^ 0xa5);
      seen += data.size();
      out += tfRecord(data);
    }
    return out;
  }
};

QTEST_GUILESS_MAIN(TestProfileImport)
#include "tst_profile_import.moc"
