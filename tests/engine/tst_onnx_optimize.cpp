// The optimizer on ONNX graphs: the channels-last pass (onnx_channels_last.cpp) fuses Conv, BatchNormalization and
// Relu/Clip into NHWC convolutions (1-D ones as [N, 1, W, C]) with transposes only at a chain's ends; If branches
// are optimized too, with the constants they capture moved inside; the optimized graph computes what the loaded one
// does; a profile of the optimized run puts a fused convolution's time on the Conv the user wrote and marks the nodes
// fused into it; the corpus's MobileNetV2 and Silero VAD (whose network is an If's branch), optimized, still match ONNX
// Runtime.
#include <QtTest>

#include <map>

#include "engine/onnx_test_util.h"
#include "engine/test_paths.h"
#include "exec/model_runner.h"
#include "io/npy.h"
#include "profile/chrome_trace.h"
#include "profile/node_times.h"
#include "workflow/optimize_model.h"
#include "workflow/prepared_run.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

void addFloats(onnx::GraphProto* g, const std::string& name, std::vector<int64_t> dims, float scale, float offset) {
  auto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  int64_t n = 1;
  for (int64_t d : dims) {
    t->add_dims(d);
    n *= d;
  }
  for (int64_t i = 0; i < n; ++i) t->add_float_data(offset + scale * std::sin(0.7f * static_cast<float>(i) + 0.3f));
}

void setInts(onnx::NodeProto* n, const std::string& name, std::vector<int64_t> values) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values) a->add_ints(v);
}

void setInt(onnx::NodeProto* n, const std::string& name, int64_t value) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(value);
}

// x [1,4,8,8] -> Conv 3x3 + BatchNormalization + Clip(0, 6) -> depthwise Conv 3x3 /2 -> Relu (a graph output too)
// -> Conv 1x1, added to MaxPool 2x2 /2 of the Clip -> GlobalAveragePool -> Flatten -> y [1,8].
onnx::ModelProto convChainModel() {
  onnx::ModelProto m = onnxModel();
  auto* g = m.mutable_graph();
  addValue(g->mutable_input(), "x", {1, 4, 8, 8});
  addValue(g->mutable_output(), "y", {1, 8});
  addValue(g->mutable_output(), "r2", {1, 8, 4, 4});
  addFloats(g, "w1", {8, 4, 3, 3}, 0.3f, 0.0f);
  addFloats(g, "b1", {8}, 0.2f, 0.0f);
  addFloats(g, "gamma", {8}, 0.5f, 1.0f);
  addFloats(g, "beta", {8}, 0.3f, 0.1f);
  addFloats(g, "mean", {8}, 0.2f, 0.0f);
  addFloats(g, "var", {8}, 0.4f, 1.0f);
  addFloats(g, "lo", {}, 0.0f, 0.0f);
  addFloats(g, "hi", {}, 0.0f, 6.0f);
  addFloats(g, "w2", {8, 1, 3, 3}, 0.4f, 0.0f);
  addFloats(g, "w3", {8, 8, 1, 1}, 0.3f, 0.0f);
  addFloats(g, "b3", {8}, 0.1f, 0.0f);
  setInts(addNode(g, "Conv", {"x", "w1", "b1"}, {"c1"}, "conv1"), "pads", {1, 1, 1, 1});
  addNode(g, "BatchNormalization", {"c1", "gamma", "beta", "mean", "var"}, {"n1"}, "bn1");
  addNode(g, "Clip", {"n1", "lo", "hi"}, {"r1"}, "clip1");
  auto* dw = addNode(g, "Conv", {"r1", "w2"}, {"c2"}, "dw");
  setInts(dw, "pads", {1, 1, 1, 1});
  setInts(dw, "strides", {2, 2});
  setInt(dw, "group", 8);
  addNode(g, "Relu", {"c2"}, {"r2"}, "relu2");
  addNode(g, "Conv", {"r2", "w3", "b3"}, {"c3"}, "pw");
  auto* pool = addNode(g, "MaxPool", {"r1"}, {"p"}, "pool");
  setInts(pool, "kernel_shape", {2, 2});
  setInts(pool, "strides", {2, 2});
  addNode(g, "Add", {"c3", "p"}, {"s"}, "add");
  addNode(g, "GlobalAveragePool", {"s"}, {"gap"}, "gap");
  addNode(g, "Flatten", {"gap"}, {"y"}, "flatten");
  return m;
}

// x read by two Convs, a 3x3 with a Relu and a 1x1, whose sum goes through a Relu to y: one layout transpose of x
// serves both.
onnx::ModelProto sharedInputModel() {
  onnx::ModelProto m = onnxModel();
  auto* g = m.mutable_graph();
  addValue(g->mutable_input(), "x", {1, 4, 8, 8});
  addValue(g->mutable_output(), "y", {1, 8, 8, 8});
  addFloats(g, "wa", {8, 4, 3, 3}, 0.3f, 0.0f);
  addFloats(g, "wb", {8, 4, 1, 1}, 0.2f, 0.0f);
  setInts(addNode(g, "Conv", {"x", "wa"}, {"ca"}, "conva"), "pads", {1, 1, 1, 1});
  addNode(g, "Relu", {"ca"}, {"ra"}, "relua");
  addNode(g, "Conv", {"x", "wb"}, {"cb"}, "convb");
  addNode(g, "Add", {"ra", "cb"}, {"s"}, "add");
  addNode(g, "Relu", {"s"}, {"y"}, "relu");
  return m;
}

// x [1,3,16] -> Conv1d k3 pad 1 + Relu -> Conv1d k3 /2 -> Sigmoid -> y.
onnx::ModelProto conv1dChainModel() {
  onnx::ModelProto m = onnxModel();
  auto* g = m.mutable_graph();
  addValue(g->mutable_input(), "x", {1, 3, 16});
  addValue(g->mutable_output(), "y", {1, 6, 7});
  addFloats(g, "w1", {5, 3, 3}, 0.3f, 0.0f);
  addFloats(g, "b1", {5}, 0.2f, 0.0f);
  addFloats(g, "w2", {6, 5, 3}, 0.4f, 0.0f);
  setInts(addNode(g, "Conv", {"x", "w1", "b1"}, {"c1"}, "conv1"), "pads", {1, 1});
  addNode(g, "Relu", {"c1"}, {"r1"}, "relu1");
  setInts(addNode(g, "Conv", {"r1", "w2"}, {"c2"}, "conv2"), "strides", {2});
  addNode(g, "Sigmoid", {"c2"}, {"y"}, "sigmoid");
  return m;
}

// If(cond): then Relu(Conv1d(x, w)), else Sigmoid(Conv1d(x, w)), with x and the initializer w captured from the
// main graph, and Constant nodes inside the branches for the Clip after the Conv.
onnx::ModelProto ifWithConvBranchesModel() {
  onnx::ModelProto m = onnxModel();
  auto* g = m.mutable_graph();
  addValue(g->mutable_input(), "x", {1, 2, 8});
  addValue(g->mutable_input(), "cond", {}, onnx::TensorProto::BOOL);
  addValue(g->mutable_output(), "y", {});
  addFloats(g, "w", {4, 2, 3}, 0.5f, 0.0f);
  auto* ifNode = addNode(g, "If", {"cond"}, {"y"}, "branch");
  for (const char* side : {"then_branch", "else_branch"}) {
    auto* attr = ifNode->add_attribute();
    attr->set_name(side);
    attr->set_type(onnx::AttributeProto::GRAPH);
    onnx::GraphProto* b = attr->mutable_g();
    b->set_name(side);
    const std::string out = std::string(side) + "_y";
    addValue(b->mutable_output(), out, {});
    setInts(addNode(b, "Conv", {"x", "w"}, {"c"}, std::string(side) + "_conv"), "pads", {1, 1});
    addNode(b, std::string(side) == "then_branch" ? "Relu" : "Sigmoid", {"c"}, {"a"});
    auto* lo = addNode(b, "Constant", {}, {"lo"});
    auto* value = lo->add_attribute();
    value->set_name("value");
    value->set_type(onnx::AttributeProto::TENSOR);
    value->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
    value->mutable_t()->add_float_data(0.25f);
    addNode(b, "Clip", {"a", "lo"}, {out});
  }
  return m;
}

// x [4096] -> two Dropouts in training mode (ratio 0.5) -> their difference y: two draws, not one.
onnx::ModelProto trainingDropoutsModel() {
  onnx::ModelProto m = onnxModel();
  auto* g = m.mutable_graph();
  addValue(g->mutable_input(), "x", {4096});
  addValue(g->mutable_output(), "y", {4096});
  addFloats(g, "ratio", {}, 0.0f, 0.5f);
  auto* training = g->add_initializer();
  training->set_name("training");
  training->set_data_type(onnx::TensorProto::BOOL);
  training->add_int32_data(1);
  addNode(g, "Dropout", {"x", "ratio", "training"}, {"a"}, "first");
  addNode(g, "Dropout", {"x", "ratio", "training"}, {"b"}, "second");
  addNode(g, "Sub", {"a", "b"}, {"y"}, "difference");
  return m;
}

using Feeds = std::vector<std::pair<std::string, Tensor>>;

std::vector<Tensor> run(const std::shared_ptr<const Model>& model, const Feeds& feeds) {
  std::vector<std::string> fetches;
  for (const auto& out : model->signatures[0].outputs) fetches.push_back(out.tensorName);
  ModelRunner runner(model);
  auto out = runner.run(feeds, fetches);
  if (!out) qFatal("run failed: %s", out.status().message().c_str());
  return std::move(out).value();
}

std::vector<Tensor> run(const std::shared_ptr<const Model>& model, const Tensor& x) {
  return run(model, {{model->signatures[0].inputs[0].tensorName, x}});
}

Expected<OptimizedModel> optimizeForRun(const std::shared_ptr<const Model>& model) {
  std::vector<std::string> feeds, fetches;
  for (const auto& in : model->signatures[0].inputs) feeds.push_back(in.tensorName);
  for (const auto& out : model->signatures[0].outputs) fetches.push_back(out.tensorName);
  return optimizeModel(model, PipelineOptions{}, feeds, fetches);
}

// `proto` written to `file` in `dir` (the loader reads files), loaded.
std::shared_ptr<const Model> loadWritten(const QTemporaryDir& dir, const char* file, const onnx::ModelProto& proto) {
  const std::string path = dir.filePath(file).toStdString();
  writeBytes(path, proto.SerializeAsString());
  return loadForTest(path);
}

std::shared_ptr<const Model> optimized(const std::shared_ptr<const Model>& model) {
  auto result = optimizeForRun(model);
  if (!result) qFatal("optimizing failed: %s", result.status().message().c_str());
  return result->model;
}

void compareOutputs(const std::vector<Tensor>& got, const std::vector<Tensor>& want, double tolerance) {
  QCOMPARE(got.size(), want.size());
  for (size_t k = 0; k < want.size(); ++k) {
    QCOMPARE(got[k].shape(), want[k].shape());
    const double error = relativeError(got[k], want[k]);
    QVERIFY2(error < tolerance, std::to_string(error).c_str());
  }
}

// How many nodes of `op` the bodies of `model`'s library hold.
size_t opsInBodies(const Model& model, const std::string& op) {
  size_t count = 0;
  for (const auto& f : model.graph.library.functions())
    for (size_t i = 0; f.body && i < f.body->size(); ++i) count += f.body->node(i).op == op;
  return count;
}

}  // namespace

class TestOnnxOptimize : public QObject {
  Q_OBJECT

 private slots:
  void convChainRunsChannelsLast() {
    QTemporaryDir dir;
    auto model = loadWritten(dir, "chain.onnx", convChainModel());
    auto fast = optimized(model);
    const std::map<std::string, size_t> ops = fast->graph.opHistogram();
    for (const char* gone :
         {"onnx::Conv", "onnx::BatchNormalization", "onnx::Clip", "onnx::MaxPool", "onnx::GlobalAveragePool"})
      QVERIFY2(!ops.count(gone), gone);
    QCOMPARE(ops.count("Mean") ? ops.at("Mean") : 0, size_t(1));                  // the global pool, in NHWC
    QCOMPARE(ops.count("_FusedConv2D") ? ops.at("_FusedConv2D") : 0, size_t(2));  // the second with the Add
    QCOMPARE(ops.count("_FusedDepthwiseConv2dNative") ? ops.at("_FusedDepthwiseConv2dNative") : 0, size_t(1));
    // Into NHWC at x and after the fetched Relu; back to NCHW for that Relu and after the global pool's Mean (N x C
    // values): nowhere else.
    QCOMPARE(ops.count("Transpose") ? ops.at("Transpose") : 0, size_t(4));
    QVERIFY(fast->graph.findNode("relu2") && fast->graph.findNode("relu2")->op == "onnx::Relu");
    const Node* add = fast->graph.findNode("add");  // the remapper's residual fusion: the 1x1 Conv adds the pool
    QVERIFY(add && add->op == "_FusedConv2D" && !ops.count("onnx::Add"));
    QCOMPARE(add->attr("fused_ops")->list().s, (std::vector<std::string>{"BiasAdd", "Add"}));
    const Tensor x = formulaTensor(Shape{1, 4, 8, 8}, 1.0f);
    auto want = run(model, x), got = run(fast, x);
    QCOMPARE(got.size(), want.size());
    for (size_t k = 0; k < want.size(); ++k) {
      QCOMPARE(got[k].shape(), want[k].shape());
      const double error = relativeError(got[k], want[k]);
      QVERIFY2(error < 1e-5, std::to_string(error).c_str());
    }
  }

  // A negative pad (ONNX forbids them) keeps its Conv out of the NHWC rewrite: the run's error names the node and its
  // "pads", as the model spells them, rather than oneDNN's refusal or a TensorFlow attribute.
  void negativePadStaysOnTheOnnxConv() {
    onnx::ModelProto m = onnxModel();
    auto* g = m.mutable_graph();
    addValue(g->mutable_input(), "x", {1, 4, 8, 8});
    addValue(g->mutable_output(), "y", {});
    addFloats(g, "w", {8, 4, 3, 3}, 0.3f, 0.0f);
    setInts(addNode(g, "Conv", {"x", "w"}, {"c"}, "cropping_conv"), "pads", {-1, 1, 1, 1});
    addNode(g, "Relu", {"c"}, {"y"}, "relu");  // so that the Conv is not a fetched node, which the rewrite leaves
    QTemporaryDir dir;
    auto fast = optimized(loadWritten(dir, "negative.onnx", m));
    QVERIFY(fast->graph.findNode("cropping_conv") && fast->graph.findNode("cropping_conv")->op == "onnx::Conv");
    ModelRunner runner(fast);
    auto out = runner.run({{"x", formulaTensor(Shape{1, 4, 8, 8}, 1.0f)}}, {"relu:0"});
    QVERIFY(!out);
    const std::string error = out.status().message();
    QVERIFY2(error.find("cropping_conv") != std::string::npos &&
                 error.find("pads must not be negative, got -1 at 0") != std::string::npos,
             error.c_str());
  }

  // The fused nodes record what they were made from (original_node_names, the Conv first); a profiled run shows
  // their time on the user's Conv, with the BatchNormalization, Clip and Add it absorbed marked as fused into it.
  void fusedTimeGoesOnTheUsersConv() {
    QTemporaryDir dir;
    auto model = loadWritten(dir, "chain.onnx", convChainModel());
    auto fast = optimized(model);
    using Names = std::vector<std::string>;
    QCOMPARE(originalNames(*fast->graph.findNode("clip1")), (Names{"conv1", "bn1", "clip1"}));
    QCOMPARE(originalNames(*fast->graph.findNode("add")), (Names{"pw", "add"}));
    QVERIFY(!fast->graph.findNode("dw")->debugInfo);  // converted in place, nothing fused into it

    auto prepared = prepareRun(model, RunSetup{});
    QVERIFY2(prepared, prepared.status().message().c_str());
    auto run = profileRun(*prepared, {2, 1, {}, false});
    QVERIFY2(run, run.status().message().c_str());
    const Graph& graph = model->graph;
    const auto at = [&](const char* name) { return static_cast<size_t>(graph.find(name)); };
    const NodeTimes times = nodeTimes(run->profile, graph);
    for (const char* anchor : {"conv1", "pw", "dw"}) QVERIFY2(times.seconds[at(anchor)] > 0, anchor);
    for (const char* part : {"bn1", "clip1"}) {
      QCOMPARE(times.seconds[at(part)], 0.0);
      QCOMPARE(times.fusedInto[at(part)], int64_t(at("conv1")));
    }
    QCOMPARE(times.fusedInto[at("add")], int64_t(at("pw")));
    QCOMPARE(times.fusedInto[at("conv1")], int64_t(-1));
    QCOMPARE(times.fusedInto[at("relu2")], int64_t(-1));  // fetched: it ran apart
    QVERIFY(times.seconds[at("relu2")] > 0);
    bool named = false;  // the slowest-nodes table names the nodes a fused kernel computes
    for (const OpStats& row : run->profile.slowestNodes(100)) named |= row.key == "conv1 + bn1 + clip1 (_FusedConv2D)";
    QVERIFY(named);
    auto reread = fromChromeTraceJson(toChromeTraceJson(run->profile));  // the trace file keeps them
    QVERIFY(reread.hasValue());
    const NodeTimes again = nodeTimes(*reread, graph);
    QCOMPARE(again.fusedInto, times.fusedInto);
    QVERIFY(again.seconds[at("conv1")] > 0);
    // On the optimized graph itself, the fused node keeps its own time.
    const NodeTimes onOptimized = nodeTimes(run->profile, fast->graph);
    QVERIFY(onOptimized.seconds[static_cast<size_t>(fast->graph.find("clip1"))] > 0);
    // The layout transposes the pass made record their reader: x's into NHWC goes on conv1 (ONNX Runtime's first
    // convolution reads NCHW itself), the global pool's back to NCHW on the Flatten; none is left unmatched.
    QCOMPARE(originalNames(*fast->graph.findNode("x/to_nhwc")).front(), std::string("conv1"));
    size_t transposes = 0;
    for (const NodeEvent& e : run->profile.events()) {
      if (e.op != "Transpose") continue;
      ++transposes;
      QVERIFY2(!eventNodes(e, graph).empty(), e.name.c_str());
    }
    QCOMPARE(transposes, size_t(2 * 4));  // two runs of four
    bool transposeNamed = false;
    for (const OpStats& row : run->profile.slowestNodes(100))
      transposeNamed |= row.key == "x/to_nhwc (Transpose, for conv1 + bn1 + clip1)";
    QVERIFY(transposeNamed);
  }

  // A layout transpose that two Convs read records both; a profile spreads its time evenly over the groups they ran
  // in (the fused nodes of a reader counted once, whichever order the events come in), and joins neither reader to
  // the other.
  void aSharedTransposeIsSpreadOverItsReaders() {
    QTemporaryDir dir;
    auto model = loadWritten(dir, "shared.onnx", sharedInputModel());
    auto fast = optimized(model);
    const Node* transpose = fast->graph.findNode("x/to_nhwc");
    QVERIFY(transpose);
    const std::vector<std::string> readers = originalNames(*transpose);
    for (const char* reader : {"conva", "relua", "convb"})
      QVERIFY2(std::find(readers.begin(), readers.end(), reader) != readers.end(), reader);
    const Graph& graph = model->graph;
    const auto at = [&](const char* name) { return static_cast<size_t>(graph.find(name)); };
    const auto event = [](const char* name, const char* op, int64_t ns, std::vector<std::string> from) {
      NodeEvent e;
      e.name = name;
      e.op = op;
      e.endNs = ns;
      e.flops = ns;
      e.fusedFrom = std::move(from);
      return e;
    };
    RunProfile profile;  // the transpose first: its readers' groups are known only after the kernels' events
    profile.addAll({event("x/to_nhwc", "Transpose", 3000, readers),
                    event("relua", "_FusedConv2D", 10000, {"conva", "relua"}),
                    event("convb", "_FusedConv2D", 5000, {})});
    const NodeTimes times = nodeTimes(profile, graph);
    QCOMPARE(times.seconds[at("conva")], 11.5e-6);
    QCOMPARE(times.seconds[at("convb")], 6.5e-6);
    QCOMPARE(times.flops[at("convb")], 6500.0);
    QCOMPARE(times.seconds[at("relua")], 0.0);
    QCOMPARE(times.fusedInto[at("relua")], int64_t(at("conva")));
    QCOMPARE(times.fusedInto[at("convb")], int64_t(-1));
    QCOMPARE(times.matchedEvents, size_t(3));
    auto prepared = prepareRun(fast, RunSetup{});  // and in a real run, the transpose's time reaches both readers
    QVERIFY2(prepared, prepared.status().message().c_str());
    auto run = profileRun(*prepared, {2, 1, {}, false});
    QVERIFY2(run, run.status().message().c_str());
    std::vector<NodeEvent> transposes;
    for (const NodeEvent& e : run->profile.events())
      if (e.name == "x/to_nhwc") transposes.push_back(e);
    QCOMPARE(transposes.size(), size_t(2));  // one a run
    RunProfile transposesOnly;
    transposesOnly.addAll(transposes);
    const NodeTimes measured = nodeTimes(transposesOnly, graph);
    QCOMPARE(measured.unmatchedEvents, size_t(0));
    QVERIFY(measured.seconds[at("conva")] > 0);
    QCOMPARE(measured.seconds[at("convb")], measured.seconds[at("conva")]);
  }

  // A 1-D chain stays [N, 1, W, C] between its convolutions: into that layout once at x (ExpandDims, Transpose), out
  // once before the fetched Sigmoid, which keeps its layout (Transpose, Squeeze).
  void conv1dChainRunsChannelsLast() {
    QTemporaryDir dir;
    auto model = loadWritten(dir, "chain1d.onnx", conv1dChainModel());
    auto fast = optimized(model);
    const std::map<std::string, size_t> ops = fast->graph.opHistogram();
    auto count = [&](const char* op) { return ops.count(op) ? ops.at(op) : size_t(0); };
    QCOMPARE(count("onnx::Conv"), size_t(0));
    QCOMPARE(count("_FusedConv2D"), size_t(2));
    QCOMPARE(count("Transpose"), size_t(2));
    QCOMPARE(count("ExpandDims"), size_t(1));
    QCOMPARE(count("Squeeze"), size_t(1));
    const Node* conv1 = fast->graph.findNode("relu1");
    QVERIFY(conv1 && conv1->op == "_FusedConv2D");
    QCOMPARE(conv1->attr("explicit_paddings")->list().i, (std::vector<int64_t>{0, 0, 0, 0, 1, 1, 0, 0}));
    const Tensor x = formulaTensor(Shape{1, 3, 16}, 1.0f);
    compareOutputs(run(fast, x), run(model, x), 1e-5);
  }

  // Grappler's function library optimization: the pipeline runs over the If's branches too. The main graph's pass
  // moves the captured initializer into each branch as a constant; the branches' own pipelines then run their 1-D
  // convolutions channels-last and fold the onnx Constant; both branches still compute what they did.
  // Two training-mode Dropouts of one input draw two masks: the optimizer keeps both (CSE would merge them, and their
  // difference would be zero).
  void trainingDropoutsStayApart() {
    QTemporaryDir dir;
    auto fast = optimized(loadWritten(dir, "dropouts.onnx", trainingDropoutsModel()));
    const std::map<std::string, size_t> ops = fast->graph.opHistogram();
    QCOMPARE(ops.count("onnx::Dropout") ? ops.at("onnx::Dropout") : 0, size_t(2));
    const Tensor y = run(fast, formulaTensor(Shape{4096}, 1.0f))[0];
    int64_t differing = 0;
    for (int64_t i = 0; i < y.numElements(); ++i) differing += y.data<float>()[i] != 0.0f;
    QVERIFY2(differing > 1000, std::to_string(differing).c_str());  // about half the elements
  }

  void ifBranchesAreOptimized() {
    QTemporaryDir dir;
    auto model = loadWritten(dir, "if.onnx", ifWithConvBranchesModel());
    QCOMPARE(opsInBodies(*model, "onnx::Conv"), size_t(2));
    auto result = optimizeForRun(model);
    QVERIFY2(result.hasValue(), result.status().message().c_str());
    const auto& last = result->pipeline.records.back();
    QCOMPARE(QString::fromStdString(last.pass), QString("function_library"));
    QVERIFY(last.stats.count("functions_optimized") && last.stats.at("functions_optimized") >= 2);
    auto fast = result->model;
    QCOMPARE(opsInBodies(*fast, "onnx::Conv"), size_t(0));
    QCOMPARE(opsInBodies(*fast, "onnx::Constant"), size_t(0));
    QVERIFY(opsInBodies(*fast, "_FusedConv2D") >= 2);
    const Node* branch = fast->graph.findNode("branch");
    QVERIFY(branch && branch->inputs.size() == 2);  // the condition and x: w now lives in the branches
    for (bool cond : {true, false}) {
      Tensor c(DType::kBool, Shape{});
      *c.data<bool>() = cond;
      const Feeds feeds{{"x", formulaTensor(Shape{1, 2, 8}, 1.0f)}, {"cond", c}};
      compareOutputs(run(fast, feeds), run(model, feeds), 1e-5);
    }
  }

  // Silero VAD's whole network is an If's branch: optimized, its convolutions run channels-last, its LSTM weights are
  // constants inside the specialized inner If, and it still matches ONNX Runtime's stored outputs.
  void optimizedSileroMatchesOnnxRuntime() {
    if (!haveCorpus()) QSKIP("../shared/graphs is not beside the checkout");
    auto model = loadForTest(std::string(FLOWSCOPE_SHARED_GRAPHS) + "/npm-ricky0123-vad-web/dist/silero_vad_v5.onnx");
    auto fast = optimized(model);
    QCOMPARE(opsInBodies(*fast, "onnx::Conv"), size_t(0));
    QVERIFY(opsInBodies(*fast, "_FusedConv2D") >= 12);                                       // six per sample rate
    QCOMPARE(opsInBodies(*fast, "onnx::Slice") < opsInBodies(*model, "onnx::Slice"), true);  // the weight slices
    Tensor sampleRate(DType::kInt64, Shape{});
    *sampleRate.data<int64_t>() = 16000;
    const Feeds feeds{{"input:0", formulaTensor(Shape{1, 512}, 0.5f)},
                      {"state:0", formulaTensor(Shape{2, 1, 128}, 0.1f)},
                      {"sr:0", sampleRate}};
    auto out = run(fast, feeds);
    for (size_t k = 0; k < out.size(); ++k) {
      const std::string key = fast->signatures[0].outputs[k].key;
      auto expected = readNpy(dataFile("onnx/silero_vad." + key + ".npy"));
      QVERIFY2(expected.hasValue(), expected.status().message().c_str());
      QCOMPARE(out[k].shape(), expected->shape());
      const double error = relativeError(out[k], *expected);
      qInfo("optimized silero_vad %s: relative error %.3g", key.c_str(), error);
      QVERIFY2(error <= 1e-4, std::to_string(error).c_str());
    }
  }

  // A decoder block as PyTorch exports it (tests/data/onnx/make_upsampling_block.py): ConvTranspose with groups and
  // output_padding, PReLU's per-channel slope, InstanceNormalization and a ReduceL2, as loaded and optimized.
  void upsamplingBlockMatchesPyTorch() {
    auto model = loadForTest(dataFile("onnx/upsampling_block.onnx"));
    auto x = readNpy(dataFile("onnx/upsampling_block.x.npy"));
    auto expected = readNpy(dataFile("onnx/upsampling_block.y.npy"));
    QVERIFY(x.hasValue() && expected.hasValue());
    const auto ops = model->graph.opHistogram();
    for (const char* op : {"onnx::ConvTranspose", "onnx::PRelu", "onnx::InstanceNormalization"})
      QVERIFY2(ops.count(op), op);
    for (const auto& candidate : {model, optimized(model)}) {
      auto out = run(candidate, *x);
      QCOMPARE(out[0].shape(), expected->shape());
      const double error = relativeError(out[0], *expected);
      qInfo("upsampling block: relative error %.3g against PyTorch", error);
      QVERIFY2(error <= 1e-5, std::to_string(error).c_str());
    }
  }

  void optimizedMobileNetMatchesOnnxRuntime() {
    if (!haveCorpus()) QSKIP("../shared/graphs is not beside the checkout");
    auto model = loadForTest(std::string(FLOWSCOPE_SHARED_GRAPHS) + "/../profiles/mobilenet_v2.onnx");
    auto fast = optimized(model);
    QVERIFY(!fast->graph.opHistogram().count("onnx::Conv"));
    auto out = run(fast, formulaTensor(Shape{1, 3, 224, 224}, 1.0f));
    auto expected = readNpy(dataFile("onnx/mobilenet_v2.logits.npy"));
    QVERIFY2(expected.hasValue(), expected.status().message().c_str());
    QCOMPARE(out[0].shape(), expected->shape());
    const double error = relativeError(out[0], *expected);
    qInfo("optimized mobilenet_v2: relative error %.3g", error);
    QVERIFY2(error <= 1e-4, std::to_string(error).c_str());
  }
};

QTEST_GUILESS_MAIN(TestOnnxOptimize)
#include "tst_onnx_optimize.moc"
