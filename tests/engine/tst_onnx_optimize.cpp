// The optimizer on ONNX graphs: the channels-last pass (onnx_channels_last.cpp) fuses Conv, BatchNormalization and
// Relu/Clip into NHWC convolutions with transposes only at a chain's ends, and the optimized graph computes what the
// loaded one does; the corpus's MobileNetV2, optimized, still matches ONNX Runtime.
#include <QtTest>

#include <map>

#include "engine/onnx_test_util.h"
#include "engine/test_paths.h"
#include "exec/model_runner.h"
#include "io/npy.h"
#include "workflow/optimize_model.h"

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

std::vector<Tensor> run(const std::shared_ptr<const Model>& model, const Tensor& x) {
  std::vector<std::string> fetches;
  for (const auto& out : model->signatures[0].outputs) fetches.push_back(out.tensorName);
  ModelRunner runner(model);
  auto out = runner.run({{model->signatures[0].inputs[0].tensorName, x}}, fetches);
  if (!out) qFatal("run failed: %s", out.status().message().c_str());
  return std::move(out).value();
}

std::shared_ptr<const Model> optimized(const std::shared_ptr<const Model>& model) {
  std::vector<std::string> fetches;
  for (const auto& out : model->signatures[0].outputs) fetches.push_back(out.tensorName);
  auto result = optimizeModel(model, PipelineOptions{}, {model->signatures[0].inputs[0].tensorName}, fetches);
  if (!result) qFatal("optimizing failed: %s", result.status().message().c_str());
  return result->model;
}

}  // namespace

class TestOnnxOptimize : public QObject {
  Q_OBJECT

 private slots:
  void convChainRunsChannelsLast() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("chain.onnx").toStdString();
    writeBytes(path, convChainModel().SerializeAsString());
    auto model = loadForTest(path);
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
