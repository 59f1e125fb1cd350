// The CPU's row chains (exec/cpu/row_chain.h): an NCHW-input stem (transpose_conv.h) whose output only a
// depthwise + 1x1 pair (depthwise_pointwise.h) reads runs with it as one node that passes the stem's rows band by
// band. Which chains the placement makes, and that the chained node computes what the two fused nodes compute, on one
// thread or two, over one image or two, with its FLOPs and profile names those of the four nodes it stands for.
#include <QtTest>

#include "base/thread_pool.h"
#include "exec/cpu/depthwise_pointwise.h"
#include "exec/cpu/row_chain.h"
#include "exec/cpu/transpose_conv.h"
#include "fusion_test_util.h"
#include "kernel_test_util.h"

using namespace flowscope;

namespace {

struct ChainShape {
  int64_t n, h, w, oc, stride;  // the image (3 channels) and the stem's output channels and stride
  int64_t k;                    // the depthwise window
  int64_t pointwise;            // the 1x1's output channels
};

Node convNode(const std::string& name, const std::string& op, std::vector<TensorRef> inputs, int64_t stride,
              int64_t pad, std::vector<std::string> fusedOps) {
  Node n;
  n.name = name;
  n.op = op;
  n.inputs = std::move(inputs);
  n.attrs["T"] = AttrValue::fromType(DType::kFloat);
  n.attrs["strides"] = vktest::ints({1, stride, stride, 1});
  n.attrs["padding"] = AttrValue::fromString(pad > 0 ? "EXPLICIT" : "VALID");
  if (pad > 0) n.attrs["explicit_paddings"] = vktest::ints({0, 0, pad, pad, pad, pad, 0, 0});
  n.attrs["fused_ops"] = testing::stringList(fusedOps);
  n.attrs["num_args"] = AttrValue::fromInt(1);
  if (op == "_FusedConv2D") n.attrs["num_host_args"] = AttrValue::fromInt(0);
  return n;
}

// x [n, 3, h, w] -> "t": Transpose to NHWC -> "conv": 3x3 to oc, bias, ReLU6 -> "dw": k x k depthwise, bias, ReLU6
// -> "pw": 1x1, bias (MobileNetV2's stem and first block, as torchvision exports them, pads k / 2).
void buildChain(vktest::Case& k, const ChainShape& s) {
  k.input("x", Shape{s.n, 3, s.h, s.w});
  testing::addToNhwc(k, "t", "x");
  const auto ref = [](const std::string& name) { return TensorRef{name, 0, ""}; };
  k.graph.addNode(convNode("conv", "_FusedConv2D",
                           {ref("t"), ref(k.weights("f", Shape{3, 3, 3, s.oc})), ref(k.weights("b", Shape{s.oc}))},
                           s.stride, 1, {"BiasAdd", "Relu6"}));
  k.graph.addNode(convNode("dw", "_FusedDepthwiseConv2dNative",
                           {ref("conv"), ref(k.weights("fd", Shape{s.k, s.k, s.oc, 1})), ref(k.weights("bd", {s.oc}))},
                           1, s.k / 2, {"BiasAdd", "Relu6"}));
  k.graph.addNode(convNode(
      "pw", "_FusedConv2D",
      {ref("dw"), ref(k.weights("fp", Shape{1, 1, s.oc, s.pointwise})), ref(k.weights("bp", Shape{s.pointwise}))}, 1, 0,
      {"BiasAdd"}));
}

// Where the stem's and the pair's fused kernels run (AVX-512), and so the chain.
bool chainsRunHere() { return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma"); }

const std::vector<ChainShape>& shapes() {
  static const std::vector<ChainShape> all = {
      {1, 224, 224, 32, 2, 3, 16},  // MobileNetV2's stem and first block
      {2, 150, 150, 32, 2, 3, 24},  // two images: bands end at each image's last row
      {1, 150, 200, 16, 1, 5, 32},  // a 5x5 depthwise window over a stride-1 stem
  };
  return all;
}

}  // namespace

class TestRowChain : public QObject {
  Q_OBJECT

 private slots:
  void cleanup() { setIntraOpThreads(physicalCores()); }

  // A chain of a large middle tensor is made; fetching the stem's output, or a small image, keeps the two apart.
  void placementChainsLargeStems() {
    if (!chainsRunHere()) QSKIP("no AVX-512 here: neither fused kernel runs, so no chain is made");
    vktest::Case large;
    buildChain(large, shapes()[0]);
    auto ops = testing::placedOps(large, {"pw:0"});
    QCOMPARE(ops[kRowChainOp], size_t(1));
    QCOMPARE(ops.count(kTransposeConvOp), size_t(0));
    ops = testing::placedOps(large, {"pw:0", "conv:0"});
    QCOMPARE(ops.count(kRowChainOp), size_t(0));
    QCOMPARE(ops[kTransposeConvOp], size_t(1));
    QCOMPARE(ops[kDepthwisePointwiseOp], size_t(1));
    vktest::Case small;
    buildChain(small, {1, 64, 64, 32, 2, 3, 16});  // a 128 KiB stem output
    QCOMPARE(testing::placedOps(small, {"pw:0"}).count(kRowChainOp), size_t(0));
  }

  void chainComputesTheNodes_data() {
    testing::addShapeAndThreadRows(shapes(), [](const ChainShape& s) {
      return QString("%1x3x%2x%3 -> %4 s%5, dw %6, -> %7")
          .arg(s.n)
          .arg(s.h)
          .arg(s.w)
          .arg(s.oc)
          .arg(s.stride)
          .arg(s.k)
          .arg(s.pointwise);
    });
  }

  // Fetching pw alone runs the chain; fetching the stem's output too keeps it apart. The values agree, and the
  // chained node's event names the four nodes and counts their FLOPs.
  void chainComputesTheNodes() {
    if (!chainsRunHere()) QSKIP("no AVX-512 here: no chain is made");
    QFETCH(int, index);
    QFETCH(int, threads);
    vktest::Case k;
    buildChain(k, shapes()[static_cast<size_t>(index)]);
    setIntraOpThreads(threads);
    auto model = std::make_shared<Model>();
    model->graph = k.graph;
    ModelRunner runner(model);
    RunProfile chained, apart;
    auto got = runner.run(k.feeds, {"pw:0"}, {}, &chained, 0);
    QVERIFY2(got, got.status().message().c_str());
    auto expected = runner.run(k.feeds, {"pw:0", "conv:0"}, {}, &apart, 0);
    QVERIFY2(expected, expected.status().message().c_str());
    const double error = testing::relativeError(expected->at(0), got->at(0));
    QVERIFY2(error < 1e-5, qPrintable(QString("relative error %1").arg(error)));
    int64_t chainedFlops = -1, apartFlops = 0;
    for (const auto& e : chained.events())
      if (e.name == "pw") {
        QCOMPARE(e.op, std::string(kRowChainOp));
        QCOMPARE(e.fusedFrom, (std::vector<std::string>{"t", "conv", "dw", "pw"}));
        chainedFlops = e.flops;
      }
    for (const auto& e : apart.events())
      if (e.name == "pw" || e.name == "conv") apartFlops += e.flops;
    QCOMPARE(chainedFlops, apartFlops);
  }

  // A chain whose kernels could not be made says which node has none.
  void missingKernelIsNamed() {
    vktest::Case k;
    buildChain(k, shapes()[0]);
    const Node& conv = *k.graph.findNode("conv");
    const Node& pw = *k.graph.findNode("pw");
    auto kernel = makeRowChainKernel(conv, pw, nullptr, makeDepthwisePointwiseKernel(*k.graph.findNode("dw"), pw));
    std::vector<Tensor> inputs, outputs(1);
    KernelContext ctx{pw, inputs, outputs, nullptr};
    const Status s = kernel->compute(ctx);
    QVERIFY(!s.isOk());
    QVERIFY2(QString::fromStdString(s.message()).contains("conv"), s.message().c_str());
    QVERIFY2(QString::fromStdString(s.message()).contains("no CPU kernel"), s.message().c_str());
  }
};

QTEST_GUILESS_MAIN(TestRowChain)
#include "tst_row_chain.moc"
