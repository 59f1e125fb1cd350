// The CPU's fusion of an NCHW input's transpose into the convolution reading it (exec/cpu/transpose_conv.h, the
// kernel nchw_input_conv.h): which pairs the placement fuses, and that the fused node computes what the Transpose and
// _FusedConv2D kernels compute, on one thread or two, across windows, strides, paddings, channel counts and
// activations, and through the two kernels, with their errors, where it cannot take the case.
#include <QtTest>

#include "base/thread_pool.h"
#include "exec/cpu/transpose_conv.h"
#include "fusion_test_util.h"
#include "kernel_test_util.h"
#include "profile/flops.h"

using namespace flowscope;

namespace {

struct StemShape {
  int64_t n, c, h, w, oc, k, stride;
  std::string padding;     // SAME, VALID, or EXPLICIT: k / 2 on every side (PyTorch's padding)
  std::string activation;  // "", Relu or Relu6
};

// x [n, c, h, w] (NCHW) -> "t": Transpose to NHWC -> "conv": k x k to oc, bias [, activation].
void buildStem(vktest::Case& k, const StemShape& s) {
  k.input("x", Shape{s.n, s.c, s.h, s.w});
  testing::addToNhwc(k, "t", "x");
  Node conv;
  conv.name = "conv";
  conv.op = "_FusedConv2D";
  conv.inputs = {TensorRef{"t", 0, ""}, TensorRef{k.weights("f", Shape{s.k, s.k, s.c, s.oc}), 0, ""},
                 TensorRef{k.weights("b", Shape{s.oc}), 0, ""}};
  conv.attrs["T"] = AttrValue::fromType(DType::kFloat);
  conv.attrs["strides"] = vktest::ints({1, s.stride, s.stride, 1});
  conv.attrs["padding"] = AttrValue::fromString(s.padding);
  const int64_t p = s.k / 2;
  if (s.padding == "EXPLICIT") conv.attrs["explicit_paddings"] = vktest::ints({0, 0, p, p, p, p, 0, 0});
  conv.attrs["fused_ops"] =
      s.activation.empty() ? testing::stringList({"BiasAdd"}) : testing::stringList({"BiasAdd", s.activation});
  conv.attrs["num_args"] = AttrValue::fromInt(1);
  conv.attrs["num_host_args"] = AttrValue::fromInt(0);
  k.graph.addNode(std::move(conv));
}

const Tensor& constantOf(const vktest::Case& k, const std::string& name) {
  return k.graph.findNode(name)->attr("value")->tensor();
}

// Where the fused kernel runs; elsewhere the placement keeps the pair apart and the node runs the two kernels.
bool fusedRunsHere() { return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma"); }

const std::vector<StemShape>& shapes() {
  static const std::vector<StemShape> all = {
      {1, 3, 64, 64, 32, 3, 2, "EXPLICIT", "Relu6"},  // MobileNetV2's stem, as torchvision exports it (smaller image)
      {2, 3, 45, 38, 64, 5, 2, "SAME", "Relu"},       // the largest window taken, on two odd-sized images
      {1, 3, 2, 2, 32, 5, 1, "EXPLICIT", "Relu"},     // pads as large as the image: every window crosses an edge
      {1, 1, 20, 33, 16, 5, 1, "VALID", ""},          // one channel, no padding, no activation
      {1, 4, 17, 19, 48, 1, 3, "VALID", "Relu"},      // 1x1 at stride 3
      {1, 2, 3, 5, 32, 3, 1, "SAME", "Relu6"},        // an image narrower than a group of pixels: edges only
      {1, 3, 30, 200, 64, 3, 2, "SAME", "Relu"},      // many full groups and an overlapping last one
      {1, 3, 20, 41, 32, 3, 1, "SAME", "Relu"},       // the swept 3x3 groups at stride 1, an overlapping last one
      {2, 3, 31, 70, 16, 3, 2, "VALID", ""},          // ... at stride 2 with one filter vector, two images
  };
  return all;
}

// The node's inputs: x, perm, filter, bias.
std::vector<Tensor> fusedInputs(const vktest::Case& k) {
  return {k.feeds[0].second, constantOf(k, "perm"), constantOf(k, "f"), constantOf(k, "b")};
}

}  // namespace

class TestTransposeConv : public QObject {
  Q_OBJECT

 private slots:
  void cleanup() { setIntraOpThreads(physicalCores()); }

  void fusedKernelComputesTheTwoNodes_data() {
    testing::addShapeAndThreadRows(shapes(), [](const StemShape& s) {
      return QString("%1x%2x%3 k%4 s%5 %6 -> %7 %8")
          .arg(s.c)
          .arg(s.h)
          .arg(s.w)
          .arg(s.k)
          .arg(s.stride)
          .arg(s.padding.c_str())
          .arg(s.oc)
          .arg(s.activation.c_str());
    });
  }

  void fusedKernelComputesTheTwoNodes() {
    QFETCH(int, index);
    QFETCH(int, threads);
    vktest::Case k;
    buildStem(k, shapes()[static_cast<size_t>(index)]);
    const Node& t = *k.graph.findNode("t");
    const Node& conv = *k.graph.findNode("conv");
    std::vector<Tensor> inputs = fusedInputs(k);
    const Tensor nhwc = testing::run1(t.op, {inputs[0], inputs[1]}, t.attrs);
    const Tensor expected = testing::run1(conv.op, {nhwc, inputs[2], inputs[3]}, conv.attrs);
    setIntraOpThreads(threads);
    auto kernel = makeTransposeConvKernel(t, conv);
    std::vector<Tensor> outputs(1);
    KernelContext ctx{conv, inputs, outputs, nullptr};
    Status s = kernel->compute(ctx);
    QVERIFY2(s.isOk(), s.message().c_str());
    QCOMPARE(outputs[0].shape(), expected.shape());
    const double error = testing::relativeError(expected, outputs[0]);
    QVERIFY2(error < 1e-5, qPrintable(QString("relative error %1").arg(error)));
    // The fused kernel ran (not the two nodes' kernels): it reports the convolution's FLOPs, as the profiler's
    // estimate for the fused node does.
    if (!fusedRunsHere()) return;
    const Shape x = inputs[0].shape(), perm = inputs[1].shape(), f = inputs[2].shape(), b = inputs[3].shape();
    Node fused;  // as the placement makes it: the convolution's attrs, but no fused_ops
    fused.op = kTransposeConvOp;
    QCOMPARE(ctx.flops, estimateFlops(fused, {&x, &perm, &f, &b}, expected.shape()));
    QVERIFY(ctx.flops > 2 * expected.numElements() * f.dim(2));
  }

  // A bias that does not fit the filter: the fused kernel leaves the case to the two kernels, whose error names the
  // convolution and what it expected.
  void mismatchedBiasIsTheConvolutionsError() {
    vktest::Case k;
    buildStem(k, shapes()[0]);
    std::vector<Tensor> inputs = fusedInputs(k);
    inputs[3] = Tensor(DType::kFloat, Shape{5});
    auto kernel = makeTransposeConvKernel(*k.graph.findNode("t"), *k.graph.findNode("conv"));
    std::vector<Tensor> outputs(1);
    KernelContext ctx{*k.graph.findNode("conv"), inputs, outputs, nullptr};
    Status s = kernel->compute(ctx);
    QVERIFY(!s.isOk());
    QVERIFY2(s.message().find("conv") != std::string::npos && s.message().find("bias") != std::string::npos,
             s.message().c_str());
  }

  // A negative explicit pad (TensorFlow and ONNX reject them): the fused kernel leaves it to the two kernels, whose
  // error names the convolution and the pads.
  void negativePadIsTheConvolutionsError() {
    vktest::Case k;
    buildStem(k, shapes()[0]);
    Node conv = *k.graph.findNode("conv");
    conv.attrs["explicit_paddings"] = vktest::ints({0, 0, -1, 1, 1, 1, 0, 0});
    std::vector<Tensor> inputs = fusedInputs(k);
    auto kernel = makeTransposeConvKernel(*k.graph.findNode("t"), conv);
    std::vector<Tensor> outputs(1);
    KernelContext ctx{conv, inputs, outputs, nullptr};
    Status s = kernel->compute(ctx);
    QVERIFY(!s.isOk());
    QVERIFY2(
        s.message().find("conv") != std::string::npos && s.message().find("must not be negative") != std::string::npos,
        s.message().c_str());
  }

  // The stem is fused; not when the transposed input is fetched, fed or read by another node too, nor for a
  // convolution over more than four channels or with a 7x7 window.
  void placementFusesTheInputTranspose() {
    if (!fusedRunsHere()) QSKIP("no AVX-512 here: the pair stays two nodes");
    vktest::Case stem;
    buildStem(stem, shapes()[0]);
    auto ops = testing::placedOps(stem, {"conv:0"});
    QCOMPARE(ops[kTransposeConvOp], size_t(1));
    QCOMPARE(ops.count("Transpose"), size_t(0));
    QCOMPARE(testing::placedOps(stem, {"conv:0", "t:0"}).count(kTransposeConvOp), size_t(0));
    QCOMPARE(testing::placedOps(stem, {"conv:0"}, {"x", "t"}).count(kTransposeConvOp), size_t(0));
    vktest::Case shared;
    buildStem(shared, shapes()[0]);
    testing::addReader(shared, "t");
    QCOMPARE(testing::placedOps(shared, {"conv:0", "reader:0"}).count(kTransposeConvOp), size_t(0));
    vktest::Case wide;
    buildStem(wide, {1, 8, 16, 16, 32, 3, 1, "SAME", "Relu"});
    QCOMPARE(testing::placedOps(wide, {"conv:0"}).count(kTransposeConvOp), size_t(0));
    vktest::Case resnet;  // a 7x7 window: oneDNN's convolution after the transpose is as fast
    buildStem(resnet, {1, 3, 32, 32, 64, 7, 2, "SAME", "Relu"});
    QCOMPARE(testing::placedOps(resnet, {"conv:0"}).count(kTransposeConvOp), size_t(0));
  }

  // A run of the stem: the fused node answers under the convolution's name, with the value of a run that keeps the
  // two apart, and its profile event names both nodes.
  void runsFusedUnderTheConvolutionName() {
    if (!fusedRunsHere()) QSKIP("no AVX-512 here: the pair stays two nodes");
    vktest::Case k;
    buildStem(k, shapes()[1]);
    testing::checkFusedRun(k, "t", "conv", kTransposeConvOp);
  }
};

QTEST_GUILESS_MAIN(TestTransposeConv)
#include "tst_transpose_conv.moc"
