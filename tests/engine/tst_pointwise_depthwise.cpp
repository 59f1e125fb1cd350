// The CPU's 1x1 + depthwise fusion (exec/cpu/pointwise_depthwise.h): which pairs the placement fuses, and that the
// fused node computes what the two nodes compute: in bands of rows on one thread or several (the depthwise half ours
// on AVX-512, oneDNN's elsewhere), else through oneDNN's fused primitive where it takes the shape, else through the
// two kernels.
#include <QtTest>

#include <set>

#include "base/thread_pool.h"
#include "exec/cpu/depthwise_band_rows.h"
#include "exec/cpu/fused_pair.h"
#include "exec/cpu/pointwise_depthwise.h"
#include "exec/model_runner.h"
#include "fusion_test_util.h"
#include "io/loader.h"
#include "kernel_test_util.h"
#include "onnx_test_util.h"
#include "profile/run_profile.h"
#include "vulkan_case.h"

using namespace flowscope;

namespace {

struct PairShape {
  int64_t n, h, w, c, oc, stride;
  std::string padding;  // SAME, VALID, or EXPLICIT: 1 on every side (PyTorch's padding=1)
};

// x [1, h, w, c] -> "pw": 1x1 to oc, bias, ReLU6 -> "dw": 3x3 depthwise, bias, ReLU6 (`depthwiseOp`: Grappler's
// name for it, or TF.js's).
void buildPair(vktest::Case& k, const PairShape& s, const std::string& depthwiseOp = "_FusedDepthwiseConv2dNative") {
  k.input("x", Shape{s.n, s.h, s.w, s.c});
  k.weights("f1", Shape{1, 1, s.c, s.oc});
  k.weights("b1", Shape{s.oc});
  k.weights("f2", Shape{3, 3, s.oc, 1});
  k.weights("b2", Shape{s.oc});
  auto conv = [&](const std::string& name, const std::string& op, std::vector<std::string> inputs, int64_t stride,
                  const std::string& padding) {
    Node n;
    n.name = name;
    n.op = op;
    for (const auto& i : inputs) n.inputs.push_back(TensorRef{i, 0, ""});
    n.attrs["T"] = AttrValue::fromType(DType::kFloat);
    n.attrs["strides"] = vktest::ints({1, stride, stride, 1});
    n.attrs["padding"] = AttrValue::fromString(padding);
    if (padding == "EXPLICIT") n.attrs["explicit_paddings"] = vktest::ints({0, 0, 1, 1, 1, 1, 0, 0});
    n.attrs["fused_ops"] = testing::stringList({"BiasAdd", "Relu6"});
    n.attrs["num_args"] = AttrValue::fromInt(1);
    if (op == "_FusedConv2D") n.attrs["num_host_args"] = AttrValue::fromInt(0);
    k.graph.addNode(std::move(n));
  };
  conv("pw", "_FusedConv2D", {"x", "f1", "b1"}, 1, "VALID");
  conv("dw", depthwiseOp, {"pw", "f2", "b2"}, s.stride, s.padding);
}

const Tensor& constantOf(const vktest::Case& k, const std::string& name) {
  return k.graph.findNode(name)->attr("value")->tensor();
}

// Where the banded kernel runs: everywhere unless FLOWSCOPE_BANDED_DNNL_DEPTHWISE=0 leaves machines without AVX-512
// to oneDNN's fused primitive.
bool bandsRunHere() { return DepthwiseBandRows::runsHere(); }

// The 1x1 node's FLOPs (a multiply-add per input channel, then the bias) and the depthwise node's (one per tap,
// then the bias); the activations are not counted.
int64_t pairFlops(const PairShape& s, const Shape& out) {
  return s.n * s.h * s.w * s.oc * (2 * s.c + 1) + out.numElements() * (2 * 9 + 1);
}

}  // namespace

class TestPointwiseDepthwise : public QObject {
  Q_OBJECT

 private slots:
  void cleanup() { setIntraOpThreads(physicalCores()); }

  void fusedKernelComputesTheTwoNodes_data() {
    testing::addShapeAndThreadRows(shapes(), [](const PairShape& s) {
      return QString("%1x%2x%3 %4->%5 s%6 %7")
          .arg(s.n)
          .arg(s.h)
          .arg(s.w)
          .arg(s.c)
          .arg(s.oc)
          .arg(s.stride)
          .arg(QString::fromStdString(s.padding));
    });
  }

  void fusedKernelComputesTheTwoNodes() {
    QFETCH(int, index);
    QFETCH(int, threads);
    vktest::Case k;
    const PairShape& shape = shapes()[static_cast<size_t>(index)];
    buildPair(k, shape);
    const Node& pw = *k.graph.findNode("pw");
    const Node& dw = *k.graph.findNode("dw");
    const Tensor& x = k.feeds[0].second;
    std::vector<Tensor> inputs{x, constantOf(k, "f1"), constantOf(k, "b1"), constantOf(k, "f2"), constantOf(k, "b2")};
    Tensor middle = testing::run1(pw.op, {inputs[0], inputs[1], inputs[2]}, pw.attrs);
    Tensor expected = testing::run1(dw.op, {middle, inputs[3], inputs[4]}, dw.attrs);
    setIntraOpThreads(threads);
    auto kernel = makePointwiseDepthwiseKernel(pw, dw);
    for (int call = 0; call < 2; ++call) {  // the second call reuses the primitives and the reordered filters
      std::vector<Tensor> outputs(1);
      KernelContext ctx{dw, inputs, outputs, nullptr};
      Status s = kernel->compute(ctx);
      QVERIFY2(s.isOk(), s.message().c_str());
      QCOMPARE(outputs[0].shape(), expected.shape());
      const double error = testing::relativeError(expected, outputs[0]);
      QVERIFY2(error < 1e-5, qPrintable(QString("relative error %1").arg(error)));
      // The banded kernel counts the pair's FLOPs; oneDNN's primitive and the two kernels leave them to the profile.
      if (bandsRunHere()) QCOMPARE(ctx.flops, pairFlops(shape, expected.shape()));
    }
  }

  // The bands' buffer starts on a cache line, as it grows too: our depthwise kernel's 64-byte loads and stores
  // would otherwise each cross two lines.
  void bandBufferIsAligned() {
    for (size_t floats : {size_t{1}, size_t{1000}, size_t{123457}, size_t{10}}) {
      const float* buffer = threadBandBuffer(floats);
      QCOMPARE(reinterpret_cast<uintptr_t>(buffer) % 64, uintptr_t{0});
    }
  }

  // MobileNetV2's third block (4.6 MiB between the two) is fused; a small pair, or one whose 1x1 output is fetched,
  // fed or read by another node too, is not.
  void placementFusesLargePairsOnly() {
    vktest::Case large;
    buildPair(large, shapes()[0]);
    auto ops = testing::placedOps(large, {"dw:0"});
    QCOMPARE(ops[kPointwiseDepthwiseOp], size_t(1));
    QCOMPARE(ops.count("_FusedConv2D"), size_t(0));
    QCOMPARE(testing::placedOps(large, {"dw:0", "pw:0"}).count(kPointwiseDepthwiseOp), size_t(0));
    QCOMPARE(testing::placedOps(large, {"dw:0"}, {"x", "pw"}).count(kPointwiseDepthwiseOp), size_t(0));
    vktest::Case shared;
    buildPair(shared, shapes()[0]);
    testing::addReader(shared, "pw");
    QCOMPARE(testing::placedOps(shared, {"dw:0", "reader:0"}).count(kPointwiseDepthwiseOp), size_t(0));
    vktest::Case small;
    buildPair(small, shapes()[1]);
    QCOMPARE(testing::placedOps(small, {"dw:0"}).count(kPointwiseDepthwiseOp), size_t(0));
  }

  // TF.js's name for the fused depthwise convolution (FusedDepthwiseConv2dNative) pairs the same way.
  void placementFusesTfjsDepthwise() {
    vktest::Case k;
    buildPair(k, shapes()[0], "FusedDepthwiseConv2dNative");
    QCOMPARE(testing::placedOps(k, {"dw:0"})[kPointwiseDepthwiseOp], size_t(1));
    testing::checkFusedRun(k, "pw", "dw", kPointwiseDepthwiseOp);
  }

  // A run of the large pair: the fused node answers under the depthwise node's name, with the value of a run that
  // keeps the two apart (fetching the 1x1 output keeps it), and its FLOPs are both nodes'.
  void runsFusedUnderTheDepthwiseName() {
    vktest::Case k;
    buildPair(k, shapes()[0]);
    testing::checkFusedRun(k, "pw", "dw", kPointwiseDepthwiseOp);
  }

 private:
  static const std::vector<PairShape>& shapes() {
    static const std::vector<PairShape> all = {
        {1, 112, 112, 16, 96, 2, "EXPLICIT"},  // MobileNetV2's third block, as torchvision exports it
        {1, 20, 20, 16, 32, 1, "SAME"},
        {1, 21, 19, 8, 24, 2, "SAME"},   // odd sizes: a pad on each side
        {1, 16, 16, 16, 32, 2, "SAME"},  // even: TensorFlow pads below and right only
        {1, 12, 12, 8, 16, 1, "VALID"},  // oneDNN's pads cannot say VALID: bands, or else the two kernels
        {1, 56, 56, 24, 144, 1, "EXPLICIT"},
        {3, 23, 17, 8, 40, 1, "EXPLICIT"},  // three images: bands end at each image's last row; a masked slice
        {2, 9, 1700, 8, 40, 2, "SAME"},     // rows past the band size: bands of one output row, three 1x1 rows
    };
    return all;
  }
};

QTEST_GUILESS_MAIN(TestPointwiseDepthwise)
#include "tst_pointwise_depthwise.moc"
