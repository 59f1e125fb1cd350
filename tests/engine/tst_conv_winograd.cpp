// 3x3 stride-1 convolutions marked `_winograd` (the ONNX channels-last pass marks them) against the direct Conv2D:
// oneDNN's F(4x4, 3x3) kernel where the transformed weights are small, its F(2x2, 3x3) one where they are not, the
// direct one below 14x14 outputs, on sizes that are not a multiple of any tile; and a chain of them that the CPU
// placement keeps in oneDNN's blocked layout (blocked_layout.h).
#include <QtTest>

#include "exec/backend.h"
#include "exec/cpu/blocked_layout.h"
#include "exec/model_runner.h"
#include "kernel_test_util.h"
#include "onnx_test_util.h"
#include "vulkan_case.h"

using namespace flowscope;

namespace {

AttrValue stringList(std::vector<std::string> v) {
  AttrList l;
  l.s = std::move(v);
  return AttrValue::fromList(std::move(l));
}

AttrMap convAttrs(const std::string& padding) {
  return {{"T", AttrValue::fromType(DType::kFloat)},
          {"strides", vktest::ints({1, 1, 1, 1})},
          {"padding", AttrValue::fromString(padding)}};
}

// Conv2D, BiasAdd and Relu, each on its own.
Tensor reference(const Tensor& x, const Tensor& filter, const Tensor& bias, const std::string& padding) {
  Tensor conv = testing::run1("Conv2D", {x, filter}, convAttrs(padding));
  Tensor biased = testing::run1("BiasAdd", {conv, bias}, {{"T", AttrValue::fromType(DType::kFloat)}});
  return testing::run1("Relu", {biased}, {{"T", AttrValue::fromType(DType::kFloat)}});
}

// x [1, 16, 16, 16] -> c0 (1x1, direct) -> pool (MaxPool 3x3) -> c1 -> c2 (+ pool) -> c3 -> c4 (+ c2): 3x3
// convolutions with 32 channels, marked `_winograd` when `winograd`, each with a bias and a ReLU. c4 is fetched.
vktest::Case residualChain(bool winograd) {
  vktest::Case k;
  k.input("x", Shape{1, 16, 16, 16});
  auto conv = [&](const std::string& name, const std::string& input, int64_t size, int64_t c,
                  const std::string& addend) {
    Node n;
    n.name = name;
    n.op = "_FusedConv2D";
    n.inputs = {TensorRef{input, 0, ""}, TensorRef{k.weights(name + "/w", Shape{size, size, c, 32}), 0, ""},
                TensorRef{k.weights(name + "/b", Shape{32}), 0, ""}};
    if (!addend.empty()) n.inputs.push_back(TensorRef{addend, 0, ""});
    n.attrs = convAttrs("SAME");
    n.attrs["fused_ops"] = addend.empty() ? stringList({"BiasAdd", "Relu"}) : stringList({"BiasAdd", "Add", "Relu"});
    n.attrs["num_args"] = AttrValue::fromInt(addend.empty() ? 1 : 2);
    if (winograd && size == 3) n.attrs["_winograd"] = AttrValue::fromBool(true);
    k.graph.addNode(std::move(n));
  };
  conv("c0", "x", 1, 16, "");
  Node pool;
  pool.name = "pool";
  pool.op = "MaxPool";
  pool.inputs = {TensorRef{"c0", 0, ""}};
  pool.attrs = convAttrs("SAME");
  pool.attrs["ksize"] = vktest::ints({1, 3, 3, 1});
  k.graph.addNode(std::move(pool));
  conv("c1", "pool", 3, 32, "");
  conv("c2", "c1", 3, 32, "pool");
  conv("c3", "c2", 3, 32, "");
  conv("c4", "c3", 3, 32, "c2");
  return k;
}

Tensor runChain(const vktest::Case& k) {
  auto model = std::make_shared<Model>();
  model->graph = k.graph;
  ModelRunner runner(model);
  Tensor last;
  for (int run = 0; run < 2; ++run) {  // the second run reuses the primitives, their reorders and weights
    auto out = runner.run(k.feeds, {"c4:0"});
    if (!out) qFatal("%s", out.status().message().c_str());
    if (run == 1 && testing::relativeError(out->at(0), last) != 0) qFatal("the second run differs from the first");
    last = out->at(0);
  }
  return last;
}

bool blockedOutput(const Graph& graph, const std::string& node) {
  const AttrValue* v = graph.findNode(node)->attr(kBlockedOutputAttr);
  return v && v->b();
}

}  // namespace

class TestConvWinograd : public QObject {
  Q_OBJECT

 private slots:
  void winogradMatchesDirect_data() {
    QTest::addColumn<int>("h");
    QTest::addColumn<int>("w");
    QTest::addColumn<int>("c");
    QTest::addColumn<int>("oc");
    QTest::addColumn<QString>("padding");
    QTest::newRow("F(4x4): 8 -> 16, 16x16") << 16 << 16 << 8 << 16 << "SAME";
    QTest::newRow("F(4x4): 16 -> 24, 19x17 odd") << 19 << 17 << 16 << 24 << "SAME";
    QTest::newRow("F(4x4): 64 -> 64, 21x21 valid") << 21 << 21 << 64 << 64 << "VALID";
    QTest::newRow("F(2x2): 128 -> 128, 28x28") << 28 << 28 << 128 << 128 << "SAME";
    QTest::newRow("direct below 14x14: 32 -> 32, 9x9") << 9 << 9 << 32 << 32 << "SAME";
  }

  void winogradMatchesDirect() {
    QFETCH(int, h);
    QFETCH(int, w);
    QFETCH(int, c);
    QFETCH(int, oc);
    QFETCH(QString, padding);
    const Tensor x = testing::randomOf(DType::kFloat, Shape{1, h, w, c}, 1);
    const Tensor filter = testing::randomOf(DType::kFloat, Shape{3, 3, c, oc}, 2, -0.5, 0.5);
    const Tensor bias = testing::randomOf(DType::kFloat, Shape{oc}, 3);
    AttrMap attrs = convAttrs(padding.toStdString());
    attrs["fused_ops"] = stringList({"BiasAdd", "Relu"});
    attrs["num_args"] = AttrValue::fromInt(1);
    attrs["num_host_args"] = AttrValue::fromInt(0);
    attrs["_winograd"] = AttrValue::fromBool(true);
    const Tensor want = reference(x, filter, bias, padding.toStdString());
    const Tensor got = testing::run1("_FusedConv2D", {x, filter, bias}, attrs);
    QCOMPARE(got.shape(), want.shape());
    const double error = testing::relativeError(got, want);
    QVERIFY2(error < 1e-5, std::to_string(error).c_str());
  }

  // Where Winograd runs blocked, the pool's output and the chain's middle tensors stay blocked: each has more
  // Winograd readers than NHWC users. c0 (a direct producer read by the pool) and the fetched c4 stay NHWC.
  void placementKeepsTheChainBlocked() {
    if (!winogradRunsBlocked()) QSKIP("oneDNN has no blocked Winograd convolution on this machine");
    const vktest::Case k = residualChain(true);
    auto backend = openBackend("cpu");
    QVERIFY(backend);
    PlacementRequest request;
    request.fedNodes = {"x"};
    request.fetches = {"c4:0"};
    auto placement = (*backend)->place(k.graph, request);
    QVERIFY(placement);
    for (const char* node : {"pool", "c1", "c2", "c3"}) QVERIFY2(blockedOutput(placement->graph, node), node);
    for (const char* node : {"c0", "c4"}) QVERIFY2(!blockedOutput(placement->graph, node), node);
    QVERIFY(!blockedOutput(residualChain(true).graph, "c1"));  // the user's graph is left as it was
  }

  // The blocked chain computes what the same convolutions compute direct on NHWC.
  void blockedChainMatchesDirect() {
    const double error = testing::relativeError(runChain(residualChain(true)), runChain(residualChain(false)));
    QVERIFY2(error < 1e-5, std::to_string(error).c_str());
  }
};

QTEST_GUILESS_MAIN(TestConvWinograd)
#include "tst_conv_winograd.moc"
