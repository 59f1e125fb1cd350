// The CPU's depthwise + 1x1 fusion (exec/cpu/depthwise_pointwise.h): which pairs the placement fuses, and that the
// fused node computes what the two nodes compute, band by band on one thread or several, with the 1x1 node's fused
// residual Add, and through the two kernels where it cannot take the case. The two nodes' own kernels are the
// reference here: the depthwise one is the same kernel (ours on AVX-512, oneDNN's elsewhere), which tst_depthwise
// holds to the definition, band by band too.
#include <QtTest>

#include "base/thread_pool.h"
#include "exec/cpu/depthwise_band_rows.h"
#include "exec/cpu/depthwise_pointwise.h"
#include "fusion_test_util.h"
#include "kernel_test_util.h"
#include "profile/flops.h"

using namespace flowscope;

namespace {

struct PairShape {
  int64_t n, h, w, c, oc, k, stride;
  std::string padding;  // SAME, VALID, or EXPLICIT: k / 2 on every side (PyTorch's padding)
  bool residual;        // the 1x1 node adds a tensor of its output's shape (MobileNetV2's residual Add)
};

// The pair's output shape.
Shape outputShape(const PairShape& s) {
  const int64_t oh = s.padding == "VALID" ? (s.h - s.k) / s.stride + 1 : (s.h - 1) / s.stride + 1;
  const int64_t ow = s.padding == "VALID" ? (s.w - s.k) / s.stride + 1 : (s.w - 1) / s.stride + 1;
  return Shape{s.n, oh, ow, s.oc};
}

// x [n, h, w, c] -> "dw": k x k depthwise, bias, ReLU6 -> "pw": 1x1 to oc, bias [+ "r"] (`depthwiseOp`: Grappler's
// name for the depthwise node, or TF.js's).
void buildPair(vktest::Case& k, const PairShape& s, const std::string& depthwiseOp = "_FusedDepthwiseConv2dNative") {
  k.input("x", Shape{s.n, s.h, s.w, s.c});
  Node dw;
  dw.name = "dw";
  dw.op = depthwiseOp;
  dw.inputs = {TensorRef{"x", 0, ""}, TensorRef{k.weights("f1", Shape{s.k, s.k, s.c, 1}), 0, ""},
               TensorRef{k.weights("b1", Shape{s.c}), 0, ""}};
  dw.attrs["T"] = AttrValue::fromType(DType::kFloat);
  dw.attrs["strides"] = vktest::ints({1, s.stride, s.stride, 1});
  dw.attrs["padding"] = AttrValue::fromString(s.padding);
  const int64_t p = s.k / 2;
  if (s.padding == "EXPLICIT") dw.attrs["explicit_paddings"] = vktest::ints({0, 0, p, p, p, p, 0, 0});
  dw.attrs["fused_ops"] = testing::stringList({"BiasAdd", "Relu6"});
  dw.attrs["num_args"] = AttrValue::fromInt(1);
  k.graph.addNode(std::move(dw));
  Node pw;
  pw.name = "pw";
  pw.op = "_FusedConv2D";
  pw.inputs = {TensorRef{"dw", 0, ""}, TensorRef{k.weights("f2", Shape{1, 1, s.c, s.oc}), 0, ""},
               TensorRef{k.weights("b2", Shape{s.oc}), 0, ""}};
  if (s.residual) pw.inputs.push_back(TensorRef{k.weights("r", outputShape(s)), 0, ""});
  pw.attrs["T"] = AttrValue::fromType(DType::kFloat);
  pw.attrs["strides"] = vktest::ints({1, 1, 1, 1});
  pw.attrs["padding"] = AttrValue::fromString("VALID");
  pw.attrs["fused_ops"] = s.residual ? testing::stringList({"BiasAdd", "Add"}) : testing::stringList({"BiasAdd"});
  pw.attrs["num_args"] = AttrValue::fromInt(s.residual ? 2 : 1);
  pw.attrs["num_host_args"] = AttrValue::fromInt(0);
  k.graph.addNode(std::move(pw));
}

const Tensor& constantOf(const vktest::Case& k, const std::string& name) {
  return k.graph.findNode(name)->attr("value")->tensor();
}

// Where the depthwise half runs in bands (ours on AVX-512, oneDNN's elsewhere); else the fused node runs the two
// kernels.
bool depthwiseRunsHere() { return DepthwiseBandRows::runsHere(); }

// The depthwise node's FLOPs (a multiply-add per tap, then bias and activation) and the 1x1 node's.
int64_t fusedFlops(const PairShape& s, const Shape& out) {
  const int64_t pixels = out.numElements() / s.oc;
  return pixels * s.c * (2 * s.k * s.k + 1) + pixels * s.oc * (2 * s.c + 1 + (s.residual ? 1 : 0));
}

const std::vector<PairShape>& shapes() {
  static const std::vector<PairShape> all = {
      {1, 56, 56, 144, 24, 3, 1, "EXPLICIT", true},    // MobileNetV2's fourth block, as torchvision exports it
      {1, 112, 112, 32, 16, 3, 1, "EXPLICIT", false},  // its second
      {2, 37, 29, 40, 24, 5, 2, "SAME", true},         // two images (bands cross them), 5x5, a masked slice
      {1, 9, 3000, 32, 16, 3, 1, "VALID", false},      // rows past the band size: bands of one row
      {1, 20, 20, 16, 8, 3, 1, "SAME", false},         // small: the placement keeps it apart
  };
  return all;
}

}  // namespace

class TestDepthwisePointwise : public QObject {
  Q_OBJECT

 private slots:
  void cleanup() { setIntraOpThreads(physicalCores()); }

  void fusedKernelComputesTheTwoNodes_data() {
    testing::addShapeAndThreadRows(shapes(), [](const PairShape& s) {
      return QString("%1x%2x%3 k%4 s%5 -> %6%7")
          .arg(s.h)
          .arg(s.w)
          .arg(s.c)
          .arg(s.k)
          .arg(s.stride)
          .arg(s.oc)
          .arg(s.residual ? " + r" : "");
    });
  }

  void fusedKernelComputesTheTwoNodes() {
    QFETCH(int, index);
    QFETCH(int, threads);
    vktest::Case k;
    const PairShape& shape = shapes()[static_cast<size_t>(index)];
    buildPair(k, shape);
    const Node& dw = *k.graph.findNode("dw");
    const Node& pw = *k.graph.findNode("pw");
    std::vector<Tensor> inputs{k.feeds[0].second, constantOf(k, "f1"), constantOf(k, "b1"), constantOf(k, "f2"),
                               constantOf(k, "b2")};
    if (shape.residual) inputs.push_back(constantOf(k, "r"));
    Tensor middle = testing::run1(dw.op, {inputs[0], inputs[1], inputs[2]}, dw.attrs);
    std::vector<Tensor> pwInputs{middle};
    pwInputs.insert(pwInputs.end(), inputs.begin() + 3, inputs.end());
    Tensor expected = testing::run1(pw.op, pwInputs, pw.attrs);
    setIntraOpThreads(threads);
    auto kernel = makeDepthwisePointwiseKernel(dw, pw);
    for (int call = 0; call < 2; ++call) {  // the second call reuses the primitives and the reordered filter
      // The first call's addend is another reference to the residual, which the output must not overwrite; the
      // second's is the kernel's alone (TensorFlow forwards an addend whose last reader this is), written in place.
      const Tensor residual = shape.residual ? constantOf(k, "r").clone() : Tensor();
      if (shape.residual && call == 1) inputs.back() = residual.clone();
      std::vector<Tensor> outputs(1);
      KernelContext ctx{pw, inputs, outputs, nullptr};
      Status s = kernel->compute(ctx);
      QVERIFY2(s.isOk(), s.message().c_str());
      QCOMPARE(outputs[0].shape(), expected.shape());
      const double error = testing::relativeError(expected, outputs[0]);
      QVERIFY2(error < 1e-5, qPrintable(QString("relative error %1").arg(error)));
      // The banded kernel ran (not the two nodes' kernels): it reports both nodes' FLOPs.
      if (depthwiseRunsHere()) QCOMPARE(ctx.flops, fusedFlops(shape, expected.shape()));
      if (shape.residual) QCOMPARE(testing::relativeError(residual, constantOf(k, "r")), 0.0);
      if (shape.residual && call == 1 && depthwiseRunsHere())
        QVERIFY(outputs[0].bytes().data() == inputs.back().bytes().data());
    }
  }

  // The profiler's estimate for the fused node (what a run through the two kernels reports) is both nodes' FLOPs.
  void flopEstimateIsBothNodes() {
    for (size_t i : {size_t{0}, size_t{2}}) {
      const PairShape& s = shapes()[i];
      const Shape x{s.n, s.h, s.w, s.c}, f1{s.k, s.k, s.c, 1}, b1{s.c}, f2{1, 1, s.c, s.oc}, b2{s.oc};
      const Shape out = outputShape(s);
      InputShapes inputs{&x, &f1, &b1, &f2, &b2};
      if (s.residual) inputs.push_back(&out);
      Node fused;
      fused.op = kDepthwisePointwiseOp;
      QCOMPARE(estimateFlops(fused, inputs, out), fusedFlops(s, out));
    }
  }

  // MobileNetV2's fourth block (1.8 MiB between the two) is fused; a small pair, or one whose depthwise output is
  // fetched or read by another node too, is not.
  void placementFusesLargePairsOnly() {
    if (!depthwiseRunsHere()) QSKIP("FLOWSCOPE_BANDED_DNNL_DEPTHWISE=0: the pairs stay two nodes");
    vktest::Case large;
    buildPair(large, shapes()[0]);
    auto ops = testing::placedOps(large, {"pw:0"});
    QCOMPARE(ops[kDepthwisePointwiseOp], size_t(1));
    QCOMPARE(ops.count("_FusedDepthwiseConv2dNative"), size_t(0));
    QCOMPARE(testing::placedOps(large, {"pw:0", "dw:0"}).count(kDepthwisePointwiseOp), size_t(0));
    vktest::Case shared;
    buildPair(shared, shapes()[0]);
    testing::addReader(shared, "dw");
    QCOMPARE(testing::placedOps(shared, {"pw:0", "reader:0"}).count(kDepthwisePointwiseOp), size_t(0));
    vktest::Case small;
    buildPair(small, shapes()[4]);
    QCOMPARE(testing::placedOps(small, {"pw:0"}).count(kDepthwisePointwiseOp), size_t(0));
  }

  // TF.js's name for the fused depthwise convolution (FusedDepthwiseConv2dNative) pairs the same way.
  void placementFusesTfjsDepthwise() {
    if (!depthwiseRunsHere()) QSKIP("FLOWSCOPE_BANDED_DNNL_DEPTHWISE=0: the pairs stay two nodes");
    vktest::Case k;
    buildPair(k, shapes()[0], "FusedDepthwiseConv2dNative");
    QCOMPARE(testing::placedOps(k, {"pw:0"})[kDepthwisePointwiseOp], size_t(1));
    testing::checkFusedRun(k, "dw", "pw", kDepthwisePointwiseOp);
  }

  // A run of the large pair: the fused node answers under the 1x1 node's name, with the value of a run that keeps
  // the two apart, and its FLOPs are both nodes'.
  void runsFusedUnderThePointwiseName() {
    if (!depthwiseRunsHere()) QSKIP("FLOWSCOPE_BANDED_DNNL_DEPTHWISE=0: the pairs stay two nodes");
    vktest::Case k;
    buildPair(k, shapes()[0]);
    testing::checkFusedRun(k, "dw", "pw", kDepthwisePointwiseOp);
  }
};

QTEST_GUILESS_MAIN(TestDepthwisePointwise)
#include "tst_depthwise_pointwise.moc"
