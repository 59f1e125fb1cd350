// 3x3 stride-1 convolutions marked `_winograd` (the ONNX channels-last pass marks them) against the direct Conv2D:
// oneDNN's F(4x4, 3x3) kernel where the transformed weights are small, its F(2x2, 3x3) one where they are not, the
// direct one below 14x14 outputs, on sizes that are not a multiple of any tile; and a chain of them that the CPU
// placement keeps in oneDNN's blocked layout (blocked_layout.h). On machines without AVX-512 the marked ones run on
// our own F(4x4, 3x3) (winograd_nhwc.h), also tested on its own against the definition wherever AVX2 is.
#include <QtTest>

#include "base/thread_pool.h"
#include "exec/backend.h"
#include "exec/cpu/blocked_layout.h"
#include "exec/cpu/cpu_features.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/winograd_nhwc.h"
#include "exec/kernel_table.h"
#include "exec/model_runner.h"
#include "kernel_test_util.h"
#include "onnx_test_util.h"
#include "vulkan_case.h"

using namespace flowscope;

namespace {

// Sets the calling thread's intra-op thread count to 1 for its lifetime.
class OneThread {
 public:
  OneThread() : m_before(intraOpThreads()) { setIntraOpThreads(1); }
  ~OneThread() { setIntraOpThreads(m_before); }
  OneThread(const OneThread&) = delete;
  OneThread& operator=(const OneThread&) = delete;

 private:
  int m_before;
};

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
    n.attrs["fused_ops"] =
        addend.empty() ? testing::stringList({"BiasAdd", "Relu"}) : testing::stringList({"BiasAdd", "Add", "Relu"});
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
    QTest::newRow("below 14x14, direct or our F(2x2): 32 -> 32, 9x9") << 9 << 9 << 32 << 32 << "SAME";
    QTest::newRow("256 -> 256, 14x14: ours on the streamed kernel at 1 thread, else oneDNN's")
        << 14 << 14 << 256 << 256 << "SAME";
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
    attrs["fused_ops"] = testing::stringList({"BiasAdd", "Relu"});
    attrs["num_args"] = AttrValue::fromInt(1);
    attrs["num_host_args"] = AttrValue::fromInt(0);
    attrs["_winograd"] = AttrValue::fromBool(true);
    const Tensor want = reference(x, filter, bias, padding.toStdString());
    const Tensor got = testing::run1("_FusedConv2D", {x, filter, bias}, attrs);
    QCOMPARE(got.shape(), want.shape());
    const double error = testing::relativeError(got, want);
    QVERIFY2(error < 1e-5, std::to_string(error).c_str());
  }

  // Our own F(4x4, 3x3) and F(2x2, 3x3) on their own: batches that fill several chunks of tiles and leave a tail, pads
  // on every side, outputs that are not a multiple of 4, the addend and ReLU6 in the output transform; the transformed
  // weights follow a new filter at a new address; a NaN input comes out as 0 through ReLU6, as the C++ epilogue makes
  // it.
  void ownWinogradMatchesTheDefinition_data() {
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("h");
    QTest::addColumn<int>("c");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("pad");
    QTest::addColumn<int>("tile");
    QTest::addColumn<bool>("streamed");  // the products on the streamed 1x1 kernel, where AVX-512 is here
    QTest::newRow("F(4x4): 1 image, 16 -> 24, 29x29, same") << 1 << 29 << 16 << 24 << 1 << 4 << false;
    QTest::newRow("F(4x4): 10 images of 64 tiles: chunks of 4, a tail of 2") << 10 << 30 << 8 << 8 << 1 << 4 << false;
    QTest::newRow("F(2x2) below 28x28: 17 images of 49 tiles: 6, 6, a tail of 5")
        << 17 << 14 << 8 << 16 << 1 << 2 << false;
    QTest::newRow("F(2x2): 1 image, 27x27 outputs, same") << 1 << 27 << 8 << 8 << 1 << 2 << false;
    QTest::newRow("F(2x2): valid, 9x9 -> 7x7") << 2 << 9 << 32 << 8 << 0 << 2 << false;
    QTest::newRow("F(2x2): 40 images of 16 tiles: 16, 16, a tail of 8") << 40 << 7 << 16 << 16 << 1 << 2 << false;
    QTest::newRow("streamed: ResNet's 14x14 layer, 256 -> 256, 49 tiles") << 1 << 14 << 256 << 256 << 1 << 2 << true;
    QTest::newRow("streamed: 12x12, 128 -> 512, 36 tiles (a tile of 1)") << 1 << 12 << 128 << 512 << 1 << 2 << true;
    QTest::newRow("not streamed: 7x7, 512 -> 512, 16 tiles") << 1 << 7 << 512 << 512 << 1 << 2 << false;
    QTest::newRow("not streamed: 14x14, 128 -> 256, 128 KiB a point") << 1 << 14 << 128 << 256 << 1 << 2 << false;
  }

  void ownWinogradMatchesTheDefinition() {
    QFETCH(int, n);
    QFETCH(int, h);
    QFETCH(int, c);
    QFETCH(int, k);
    QFETCH(int, pad);
    QFETCH(int, tile);
    QFETCH(bool, streamed);
    const WinogradShape shape{n, h, h, c, k, pad, pad, h + 2 * pad - 2, h + 2 * pad - 2};
    if (!winogradNhwcRuns(shape)) QSKIP("no AVX2 with FMA on this machine");
    const OneThread oneThread;  // the streamed products run at 1 intra-op thread only
    QCOMPARE(winogradStreamsProducts(shape), streamed && cpuHasAvx512());
    const Tensor x = testing::randomOf(DType::kFloat, Shape{n, h, h, c}, 1);
    const Tensor bias = testing::randomOf(DType::kFloat, Shape{k}, 3);
    const Tensor addend = testing::randomOf(DType::kFloat, Shape{n, shape.oh, shape.ow, k}, 4);
    WinogradNhwc conv;
    // A second filter, at another address (both stay alive, as the kernel keeps its filter): transformed again.
    const Tensor filters[] = {testing::randomOf(DType::kFloat, Shape{3, 3, c, k}, 2, -0.5, 0.5),
                              testing::randomOf(DType::kFloat, Shape{3, 3, c, k}, 5, -0.5, 0.5)};
    for (const Tensor& filter : filters) {
      QVERIFY(conv.prepare(shape, filter.data<float>()).isOk());
      QCOMPARE(conv.tile(), tile);
      Tensor out = Tensor::uninitialized(DType::kFloat, Shape{n, shape.oh, shape.ow, k});
      conv.run(x.data<float>(), {bias.data<float>(), addend.data<float>(), true, 0.0f, 6.0f}, out.data<float>());
      const std::vector<double> want = testing::convByDefinition(
          x, filter, bias, &addend, {1, shape.padTop, shape.padLeft, shape.oh, shape.ow}, 6.0);
      double worst = 0;
      for (size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::abs(out.data<float>()[i] - want[i]));
      QVERIFY2(worst < 1e-4, std::to_string(worst).c_str());
    }
    Tensor nan = x.clone();
    nan.data<float>()[0] = std::numeric_limits<float>::quiet_NaN();
    Tensor out = Tensor::uninitialized(DType::kFloat, Shape{n, shape.oh, shape.ow, k});
    conv.run(nan.data<float>(), {nullptr, nullptr, true, 0.0f, 6.0f}, out.data<float>());
    QCOMPARE(out.data<float>()[0], 0.0f);
  }

  // A convolution that runs as Winograd tells the profiler the arithmetic it did (KernelContext::flops): its products
  // and transforms, a quarter to a half of the direct count, so the roofline holds it to what it computed. A direct
  // one leaves the op's estimate.
  void winogradReportsItsOwnArithmetic() {
    const WinogradShape shape{1, 28, 28, 32, 32, 1, 1, 28, 28};
    const Tensor x = testing::randomOf(DType::kFloat, Shape{1, 28, 28, 32}, 1);
    const Tensor filter = testing::randomOf(DType::kFloat, Shape{3, 3, 32, 32}, 2);
    const Tensor bias = testing::randomOf(DType::kFloat, Shape{32}, 3);
    for (bool winograd : {true, false}) {
      Node node;
      node.name = "conv";
      node.op = "_FusedConv2D";
      node.attrs = convAttrs("SAME");
      node.attrs["fused_ops"] = testing::stringList({"BiasAdd", "Relu"});
      node.attrs["num_args"] = AttrValue::fromInt(1);
      if (winograd) node.attrs["_winograd"] = AttrValue::fromBool(true);
      auto kernel = (*cpuKernelTable().find(node.op))(node);
      QVERIFY(kernel.hasValue());
      std::vector<Tensor> inputs{x, filter, bias}, outputs(1);
      KernelContext ctx{node, inputs, outputs};
      QVERIFY((*kernel)->compute(ctx).isOk());
      const bool ranWinograd = winograd && (winogradRunsBlocked() || winogradNhwcRuns(shape));
      if (!ranWinograd) {
        QCOMPARE(ctx.flops, int64_t{-1});
        continue;
      }
      const int64_t direct = 2 * 28 * 28 * 32 * 9 * 32;
      QVERIFY2(ctx.flops > direct / 5 && ctx.flops < direct / 2, std::to_string(ctx.flops).c_str());
      if (winogradNhwcRuns(shape) && !winogradRunsBlocked()) QCOMPARE(ctx.flops, winogradFlops(shape, 4));
    }
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
