// The remapper's Conv + BiasAdd + Add [+ activation] fusion (passes/remapper_add.h) and the CPU kernel that runs it:
// oneDNN's sum post-op on the direct, Winograd and depthwise-free paths, written in place on the addend when the
// node holds its last reference, and the C++ epilogue after a fused batch norm.
#include <QtTest>

#include <set>

#include "exec/cpu/cpu_kernels.h"
#include "exec/model_runner.h"
#include "kernel_test_util.h"
#include "onnx_test_util.h"
#include "passes/pass_registry.h"
#include "vulkan_case.h"

using namespace flowscope;

namespace {

struct ConvAddCase {
  const char* name;
  int64_t h, w, c, oc, k, stride;
  bool winograd, batchNorm;
  std::string activation;
};

const std::vector<ConvAddCase>& convAddCases() {
  static const std::vector<ConvAddCase> all = {
      {"1x1 direct", 6, 7, 16, 24, 1, 1, false, false, ""},
      {"3x3 Winograd relu", 16, 16, 8, 16, 3, 1, true, false, "Relu"},
      {"3x3 stride 2 relu6", 11, 9, 5, 12, 3, 2, false, false, "Relu6"},
      {"3x3 7x7 direct relu", 7, 7, 16, 16, 3, 1, true, false, "Relu"},
      {"batch norm, add, relu", 8, 8, 4, 8, 3, 1, false, true, "Relu"},
  };
  return all;
}

Node fusedNode(const ConvAddCase& t) {
  Node n;
  n.name = "conv";
  n.op = "_FusedConv2D";
  n.attrs["T"] = AttrValue::fromType(DType::kFloat);
  n.attrs["strides"] = vktest::ints({1, t.stride, t.stride, 1});
  n.attrs["padding"] = AttrValue::fromString("SAME");
  std::vector<std::string> ops{t.batchNorm ? "FusedBatchNorm" : "BiasAdd", "Add"};
  if (!t.activation.empty()) ops.push_back(t.activation);
  n.attrs["fused_ops"] = testing::stringList(ops);
  n.attrs["num_args"] = AttrValue::fromInt(t.batchNorm ? 5 : 2);
  if (t.winograd) n.attrs["_winograd"] = AttrValue::fromBool(true);
  return n;
}

float activate(const std::string& a, float v) {
  if (a == "Relu") return std::max(v, 0.0f);
  if (a == "Relu6") return std::min(std::max(v, 0.0f), 6.0f);
  return v;
}

// The definition: Conv2D, then the bias (or batch norm), the addend and the activation, each on its own.
Tensor reference(const ConvAddCase& t, const std::vector<Tensor>& inputs) {
  Tensor out = testing::run1("Conv2D", {inputs[0], inputs[1]},
                             {{"T", AttrValue::fromType(DType::kFloat)},
                              {"strides", vktest::ints({1, t.stride, t.stride, 1})},
                              {"padding", AttrValue::fromString("SAME")}})
                   .clone();
  const Tensor& addend = inputs.back();
  float* d = out.data<float>();
  for (int64_t i = 0; i < out.numElements(); ++i) {
    const auto ch = static_cast<size_t>(i % t.oc);
    float v = d[i];
    if (t.batchNorm) {
      const float scale = inputs[2].data<float>()[ch] / std::sqrt(inputs[5].data<float>()[ch] + 1e-4f);
      v = (v - inputs[4].data<float>()[ch]) * scale + inputs[3].data<float>()[ch];
    } else {
      v += inputs[2].data<float>()[ch];
    }
    d[i] = activate(t.activation, v + addend.data<float>()[i]);
  }
  return out;
}

std::vector<Tensor> inputsFor(const ConvAddCase& t, const Shape& outShape) {
  std::vector<Tensor> in{testing::randomOf(DType::kFloat, Shape{1, t.h, t.w, t.c}, 1),
                         testing::randomOf(DType::kFloat, Shape{t.k, t.k, t.c, t.oc}, 2, -0.5, 0.5)};
  for (uint32_t k = 0; k < (t.batchNorm ? 4u : 1u); ++k)  // bias, or scale, offset, mean and variance
    in.push_back(testing::randomOf(DType::kFloat, Shape{t.oc}, 3 + k, k == 3 ? 0.5 : -1, 1.5));
  in.push_back(testing::randomOf(DType::kFloat, outShape, 9));
  return in;
}

std::unique_ptr<OpKernel> kernelFor(const Node& node) {
  auto kernel = (*cpuKernelTable().find(node.op))(node);
  if (!kernel) qFatal("%s", kernel.status().message().c_str());
  return std::move(kernel).value();
}

// x [1, 8, 8, 4] -> Conv2D 3x3 -> BiasAdd -> AddV2 with `residual` (fed, of `residualShape`, declared or not)
// -> Relu "out".
vktest::Case residualBlock(const Shape& residualShape, bool declared = true) {
  vktest::Case k;
  k.input("x", Shape{1, 8, 8, 4});
  k.input("residual", residualShape, !declared);
  k.weights("w", Shape{3, 3, 4, 8});
  k.weights("b", Shape{8});
  const AttrValue f = AttrValue::fromType(DType::kFloat);
  auto add = [&](const char* name, const char* op, std::vector<std::string> inputs,
                 std::map<std::string, AttrValue> attrs = {}) {
    Node n;
    n.name = name;
    n.op = op;
    for (const auto& i : inputs) n.inputs.push_back(TensorRef{i, 0, ""});
    n.attrs = {{"T", f}};
    for (auto& [key, value] : attrs) n.attrs[key] = value;
    k.graph.addNode(std::move(n));
  };
  add("conv", "Conv2D", {"x", "w"},
      {{"strides", vktest::ints({1, 1, 1, 1})}, {"padding", AttrValue::fromString("SAME")}});
  add("bias", "BiasAdd", {"conv", "b"});
  add("add", "AddV2", {"bias", "residual"});
  add("out", "Relu", {"add"});
  return k;
}

// A batch unknown until fed: x [?, 8, 8, 4] -> Conv2D 3x3 -> BiasAdd [?, 8, 8, 8] -> AddV2 with Relu(Pad(`source`))
// -> Relu "out", where the Pad adds 4 channels, and one batch row too when `padBatch`. x and y [?, 8, 8, 4] are fed
// with batch 2.
vktest::Case unknownBatchBlock(const std::string& source, bool padBatch = false) {
  vktest::Case k;
  for (const char* name : {"x", "y"}) {
    k.input(name, Shape{2, 8, 8, 4});
    k.graph.mutableNode(static_cast<size_t>(k.graph.find(name))).attrs["shape"] =
        AttrValue::fromShape(Shape{-1, 8, 8, 4});
  }
  k.weights("w", Shape{3, 3, 4, 8});
  k.weights("b", Shape{8});
  k.ints("pads", {padBatch ? 1 : 0, 0, 0, 0, 0, 0, 0, 4}, Shape{4, 2});
  auto add = [&](const char* name, const char* op, std::vector<std::string> inputs) {
    Node n;
    n.name = name;
    n.op = op;
    for (const auto& i : inputs) n.inputs.push_back(TensorRef{i, 0, ""});
    n.attrs = {{"T", AttrValue::fromType(DType::kFloat)}};
    if (n.op == "Conv2D") {
      n.attrs["strides"] = vktest::ints({1, 1, 1, 1});
      n.attrs["padding"] = AttrValue::fromString("SAME");
    }
    k.graph.addNode(std::move(n));
  };
  add("padded", "Pad", {source, "pads"});
  add("skip", "Relu", {"padded"});
  add("conv", "Conv2D", {"x", "w"});
  add("bias", "BiasAdd", {"conv", "b"});
  add("add", "AddV2", {"bias", "skip"});
  add("out", "Relu", {"add"});
  return k;
}

Graph remapped(const vktest::Case& k, std::set<std::string> preserved) {
  Graph graph = k.graph;
  PassContext context;
  context.preserved = PreservedNames(preserved);
  auto result = createRemapper()->run(graph, context);
  if (!result) qFatal("%s", result.status().message().c_str());
  return graph;
}

Tensor runGraph(const Graph& graph, const vktest::Case& k, const std::string& fetch) {
  auto model = std::make_shared<Model>();
  model->graph = graph;
  ModelRunner runner(model);
  auto out = runner.run(k.feeds, {fetch});
  if (!out) qFatal("%s", out.status().message().c_str());
  return out->at(0);
}

}  // namespace

class TestConvAdd : public QObject {
  Q_OBJECT

 private slots:
  void kernelAddsTheAddend_data() {
    QTest::addColumn<int>("index");
    for (size_t i = 0; i < convAddCases().size(); ++i) QTest::newRow(convAddCases()[i].name) << static_cast<int>(i);
  }

  // Twice with a shared addend (copied into the output, left as it was), then with the node holding the addend's
  // only reference (the output is the addend's buffer, as TensorFlow forwards it; not after a batch norm, whose
  // epilogue reads the addend while it writes).
  void kernelAddsTheAddend() {
    QFETCH(int, index);
    const ConvAddCase& t = convAddCases()[static_cast<size_t>(index)];
    const int64_t oh = (t.h + t.stride - 1) / t.stride, ow = (t.w + t.stride - 1) / t.stride;
    const std::vector<Tensor> inputs = inputsFor(t, Shape{1, oh, ow, t.oc});
    const Tensor expected = reference(t, inputs);
    const Tensor addendBefore = inputs.back().clone();
    const Node node = fusedNode(t);
    auto kernel = kernelFor(node);
    for (int call = 0; call < 3; ++call) {
      std::vector<Tensor> args = inputs;
      if (call == 2) args.back() = inputs.back().clone();
      const void* addendBuffer = args.back().bytes().data();
      std::vector<Tensor> outputs(1);
      KernelContext ctx{node, args, outputs, nullptr};
      Status s = kernel->compute(ctx);
      QVERIFY2(s.isOk(), s.message().c_str());
      QCOMPARE(outputs[0].shape(), expected.shape());
      const double error = testing::relativeError(expected, outputs[0]);
      QVERIFY2(error < 1e-5, qPrintable(QString("call %1: relative error %2").arg(call).arg(error)));
      QCOMPARE(outputs[0].bytes().data() == addendBuffer, call == 2 && !t.batchNorm);
      QVERIFY(inputs.back().contentEquals(addendBefore));
    }
  }

  void addendOfAnotherShapeIsAnError() {
    const ConvAddCase& t = convAddCases()[0];
    std::vector<Tensor> inputs = inputsFor(t, Shape{1, 1, 1, t.oc});
    const Node node = fusedNode(t);
    auto kernel = kernelFor(node);
    std::vector<Tensor> outputs(1);
    KernelContext ctx{node, inputs, outputs, nullptr};
    Status s = kernel->compute(ctx);
    QVERIFY(!s.isOk());
    QVERIFY2(s.message().find("'conv'") != std::string::npos && s.message().find("addend") != std::string::npos &&
                 s.message().find("[1,6,7,24]") != std::string::npos,
             s.message().c_str());
  }

  void matMulRefusesAFusedAdd() {
    Node n;
    n.name = "mm";
    n.op = "_FusedMatMul";
    n.attrs["fused_ops"] = testing::stringList({"BiasAdd", "Add"});
    auto kernel = (*cpuKernelTable().find(n.op))(n);
    QVERIFY(!kernel);
    QVERIFY2(kernel.status().message().find("convolutions only") != std::string::npos,
             kernel.status().message().c_str());
  }

  // Conv2D + BiasAdd + AddV2 + Relu becomes one _FusedConv2D named "out", computing what the four nodes compute.
  void remapperFusesTheResidualBlock() {
    vktest::Case k = residualBlock(Shape{1, 8, 8, 8});
    Graph graph = remapped(k, {"x", "residual", "out"});
    auto ops = graph.opHistogram();
    QCOMPARE(ops["_FusedConv2D"], size_t(1));
    QCOMPARE(ops.count("AddV2") + ops.count("Relu") + ops.count("BiasAdd"), size_t(0));
    const Node* fused = graph.findNode("out");
    QVERIFY(fused && fused->op == "_FusedConv2D");
    QCOMPARE(fused->attr("fused_ops")->list().s, (std::vector<std::string>{"BiasAdd", "Add", "Relu"}));
    QCOMPARE(fused->attr("num_args")->i(), int64_t(2));
    QCOMPARE(fused->inputs.back().node, std::string("residual"));
    QCOMPARE(originalNames(*fused), (std::vector<std::string>{"conv", "bias", "add", "out"}));  // the conv first
    const double error = testing::relativeError(runGraph(k.graph, k, "out:0"), runGraph(graph, k, "out:0"));
    QVERIFY2(error < 1e-6, qPrintable(QString("relative error %1").arg(error)));
  }

  // With the batch unknown, the Add fuses when the addend's batch has the convolution input's origin (through a Pad
  // of channels only and a Relu), and not when it comes from another input, whose batch may differ and broadcast, or
  // through a Pad of the batch dim.
  void remapperFusesAnUnknownBatchOfOneOrigin() {
    vktest::Case k = unknownBatchBlock("x");
    Graph graph = remapped(k, {"x", "y", "out"});
    QCOMPARE(graph.opHistogram()["AddV2"], size_t(0));
    QCOMPARE(graph.findNode("out")->op, std::string("_FusedConv2D"));
    const double error = testing::relativeError(runGraph(k.graph, k, "out:0"), runGraph(graph, k, "out:0"));
    QVERIFY2(error < 1e-6, qPrintable(QString("relative error %1").arg(error)));
    QCOMPARE(remapped(unknownBatchBlock("y"), {"x", "y", "out"}).opHistogram()["AddV2"], size_t(1));
    QCOMPARE(remapped(unknownBatchBlock("x", true), {"x", "y", "out"}).opHistogram()["AddV2"], size_t(1));
  }

  // Not fused: an addend that broadcasts, or whose shape is not known; the Add is kept apart from the activation
  // when it is fetched itself.
  void remapperLeavesWhatItCannotProve() {
    for (bool declared : {true, false}) {
      vktest::Case k = declared ? residualBlock(Shape{1, 1, 1, 8}) : residualBlock(Shape{1, 8, 8, 8}, false);
      auto ops = remapped(k, {"x", "residual", "out"}).opHistogram();
      QCOMPARE(ops["AddV2"], size_t(1));
      QCOMPARE(ops["Relu"], size_t(1));
    }
    vktest::Case k = residualBlock(Shape{1, 8, 8, 8});
    Graph graph = remapped(k, {"x", "residual", "out", "add"});
    QCOMPARE(graph.findNode("add")->attr("fused_ops")->list().s, (std::vector<std::string>{"BiasAdd", "Add"}));
    QCOMPARE(graph.findNode("out")->op, std::string("Relu"));
  }
};

QTEST_GUILESS_MAIN(TestConvAdd)
#include "tst_conv_add.moc"
