// The CPU's convolution + max pool fusion (exec/cpu/conv_max_pool.h): which pairs the placement fuses, and that the
// fused node computes what the two nodes compute, in bands at any thread count, into NHWC or the blocked layout, and
// through the two kernels where the banded one does not take the case.
#include <QtTest>

#include <map>

#include "base/thread_pool.h"
#include "exec/cpu/blocked_layout.h"
#include "exec/cpu/conv_max_pool.h"
#include "exec/model_runner.h"
#include "fusion_test_util.h"
#include "kernel_test_util.h"
#include "onnx_test_util.h"
#include "profile/run_profile.h"
#include "vulkan_case.h"

using namespace flowscope;

namespace {

struct PairShape {
  int64_t n, h, w, c, oc, k, stride;
  std::string padding;  // SAME, VALID, or EXPLICIT: k / 2 on every side (PyTorch's)
  int64_t poolK, poolStride;
  std::string poolPadding;
  std::string activation = "Relu";
  int64_t dilation = 1;
};

// x [n, h, w, c] -> "conv": k x k to oc, bias, activation -> "pool": MaxPool.
void buildPair(vktest::Case& k, const PairShape& s) {
  k.input("x", Shape{s.n, s.h, s.w, s.c});
  Node conv;
  conv.name = "conv";
  conv.op = "_FusedConv2D";
  conv.inputs = {TensorRef{"x", 0, ""}, TensorRef{k.weights("f", Shape{s.k, s.k, s.c, s.oc}), 0, ""},
                 TensorRef{k.weights("b", Shape{s.oc}), 0, ""}};
  conv.attrs["T"] = AttrValue::fromType(DType::kFloat);
  conv.attrs["strides"] = vktest::ints({1, s.stride, s.stride, 1});
  conv.attrs["padding"] = AttrValue::fromString(s.padding);
  conv.attrs["dilations"] = vktest::ints({1, s.dilation, s.dilation, 1});
  const int64_t p = s.k / 2 * s.dilation;
  if (s.padding == "EXPLICIT") conv.attrs["explicit_paddings"] = vktest::ints({0, 0, p, p, p, p, 0, 0});
  conv.attrs["fused_ops"] = testing::stringList({"BiasAdd", s.activation});
  conv.attrs["num_args"] = AttrValue::fromInt(1);
  conv.attrs["num_host_args"] = AttrValue::fromInt(0);
  k.graph.addNode(std::move(conv));
  Node pool;
  pool.name = "pool";
  pool.op = "MaxPool";
  pool.inputs = {TensorRef{"conv", 0, ""}};
  pool.attrs["T"] = AttrValue::fromType(DType::kFloat);
  pool.attrs["ksize"] = vktest::ints({1, s.poolK, s.poolK, 1});
  pool.attrs["strides"] = vktest::ints({1, s.poolStride, s.poolStride, 1});
  pool.attrs["padding"] = AttrValue::fromString(s.poolPadding);
  k.graph.addNode(std::move(pool));
}

const std::vector<PairShape>& shapes() {
  static const std::vector<PairShape> all = {
      {1, 224, 224, 3, 64, 7, 2, "EXPLICIT", 3, 2, "SAME"},  // ResNet-18's stem, as torchvision exports it
      {2, 37, 29, 5, 24, 5, 1, "VALID", 2, 2, "VALID"},      // two images, odd sizes, channels not in blocks of 16
      {1, 40, 33, 8, 32, 3, 1, "SAME", 3, 1, "SAME"},        // stride-1 pool: bands share two rows
      {1, 9, 1100, 3, 128, 3, 1, "SAME", 3, 2, "SAME"},      // a row past the band size: bands of one pooled row
      {1, 30, 30, 16, 16, 3, 2, "SAME", 3, 2, "SAME", "Relu6"},
      {1, 31, 26, 4, 16, 3, 1, "EXPLICIT", 3, 2, "VALID", "Relu", 2},  // a dilated window
  };
  return all;
}

const Tensor& constantOf(const vktest::Case& k, const std::string& name) {
  return k.graph.findNode(name)->attr("value")->tensor();
}

// The NHWC tensor a blocked [n, c / 16, h, w, 16] one stands for.
Tensor unblocked(const Tensor& t) {
  const Shape nhwc = logicalNhwc(t.shape());
  Tensor out(DType::kFloat, nhwc);
  const int64_t n = nhwc.dim(0), h = nhwc.dim(1), w = nhwc.dim(2), c = nhwc.dim(3);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        for (int64_t ch = 0; ch < c; ++ch)
          out.data<float>()[((b * h + y) * w + x) * c + ch] =
              t.data<float>()[(((b * (c / 16) + ch / 16) * h + y) * w + x) * 16 + ch % 16];
  return out;
}

}  // namespace

class TestConvMaxPool : public QObject {
  Q_OBJECT

 private slots:
  void cleanup() { setIntraOpThreads(physicalCores()); }

  void fusedKernelComputesTheTwoNodes_data() {
    QTest::addColumn<int>("index");
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("blocked");
    for (size_t i = 0; i < shapes().size(); ++i)
      for (int threads : {1, 2, 3}) {
        const PairShape& s = shapes()[i];
        for (bool blocked : {false, true}) {
          if (blocked && s.oc % 16 != 0) continue;
          QTest::newRow(QString("%1x%2x%3 %4->%5 k%6 s%7 d%13 %8, pool %9 s%10, %11 threads%12")
                            .arg(s.n)
                            .arg(s.h)
                            .arg(s.w)
                            .arg(s.c)
                            .arg(s.oc)
                            .arg(s.k)
                            .arg(s.stride)
                            .arg(QString::fromStdString(s.padding))
                            .arg(s.poolK)
                            .arg(s.poolStride)
                            .arg(threads)
                            .arg(blocked ? ", blocked" : "")
                            .arg(s.dilation)
                            .toUtf8())
              << static_cast<int>(i) << threads << blocked;
        }
      }
  }
  void fusedKernelComputesTheTwoNodes() {
    QFETCH(int, index);
    QFETCH(int, threads);
    QFETCH(bool, blocked);
    setIntraOpThreads(threads);
    vktest::Case k;
    buildPair(k, shapes()[static_cast<size_t>(index)]);
    Node pool = *k.graph.findNode("pool");
    if (blocked) pool.attrs[kBlockedOutputAttr] = AttrValue::fromBool(true);
    const Node& conv = *k.graph.findNode("conv");
    std::vector<Tensor> inputs{k.feeds[0].second, constantOf(k, "f"), constantOf(k, "b")};
    const Tensor middle = testing::run1(conv.op, inputs, conv.attrs);
    const Tensor expected = testing::run1(pool.op, {middle}, k.graph.findNode("pool")->attrs);
    auto kernel = makeConvMaxPoolKernel(conv, pool);
    for (int call = 0; call < 2; ++call) {  // the second call reuses the band primitives and the reordered filter
      std::vector<Tensor> outputs(1);
      KernelContext ctx{pool, inputs, outputs, nullptr};
      Status s = kernel->compute(ctx);
      QVERIFY2(s.isOk(), s.message().c_str());
      QVERIFY2(ctx.flops > 0, "the banded kernel did not run");
      QCOMPARE(isBlocked(outputs[0].shape()), blocked);
      const Tensor got = blocked ? unblocked(outputs[0]) : outputs[0];
      QCOMPARE(got.shape(), expected.shape());
      const double error = testing::relativeError(expected, got);
      QVERIFY2(error < 1e-5, qPrintable(QString("relative error %1").arg(error)));
    }
  }

  // An activation oneDNN's post-ops are not asked for here (Elu): the two kernels run, one after the other.
  void otherCasesRunTheTwoKernels() {
    PairShape s = shapes()[1];
    s.activation = "Elu";
    vktest::Case k;
    buildPair(k, s);
    const Node& conv = *k.graph.findNode("conv");
    const Node& pool = *k.graph.findNode("pool");
    std::vector<Tensor> inputs{k.feeds[0].second, constantOf(k, "f"), constantOf(k, "b")};
    const Tensor expected = testing::run1(pool.op, {testing::run1(conv.op, inputs, conv.attrs)}, pool.attrs);
    auto kernel = makeConvMaxPoolKernel(conv, pool);
    std::vector<Tensor> outputs(1);
    KernelContext ctx{pool, inputs, outputs, nullptr};
    Status status = kernel->compute(ctx);
    QVERIFY2(status.isOk(), status.message().c_str());
    QCOMPARE(ctx.flops, int64_t{-1});  // the banded kernel sets it
    QCOMPARE(testing::relativeError(expected, outputs[0]), 0.0);
  }

  // ResNet's stem (a 3 MiB convolution output) is fused; a small pair, one whose convolution output is fetched, fed
  // or read by another node too, or one marked for Winograd, is not.
  void placementFusesLargePairsOnly() {
    vktest::Case stem;
    buildPair(stem, shapes()[0]);
    auto ops = testing::placedOps(stem, {"pool:0"});
    QCOMPARE(ops[kConvMaxPoolOp], size_t(1));
    QCOMPARE(ops.count("_FusedConv2D"), size_t(0));
    QCOMPARE(ops.count("MaxPool"), size_t(0));
    QCOMPARE(testing::placedOps(stem, {"pool:0", "conv:0"}).count(kConvMaxPoolOp), size_t(0));
    QCOMPARE(testing::placedOps(stem, {"pool:0"}, {"x", "conv"}).count(kConvMaxPoolOp), size_t(0));
    vktest::Case shared;
    buildPair(shared, shapes()[0]);
    testing::addReader(shared, "conv");
    QCOMPARE(testing::placedOps(shared, {"pool:0", "reader:0"}).count(kConvMaxPoolOp), size_t(0));
    vktest::Case small;
    buildPair(small, shapes()[1]);
    QCOMPARE(testing::placedOps(small, {"pool:0"}).count(kConvMaxPoolOp), size_t(0));
    vktest::Case winograd;
    buildPair(winograd, {1, 64, 64, 16, 64, 3, 1, "SAME", 3, 2, "SAME"});
    QCOMPARE(testing::placedOps(winograd, {"pool:0"})[kConvMaxPoolOp], size_t(1));
    winograd.graph.mutableNode(static_cast<size_t>(winograd.graph.find("conv"))).attrs["_winograd"] =
        AttrValue::fromBool(true);
    QCOMPARE(testing::placedOps(winograd, {"pool:0"}).count(kConvMaxPoolOp), size_t(0));
  }

  // A run of the stem: the fused node answers under the pool's name, with the value of a run that keeps the two
  // apart (fetching the convolution's output keeps it), and its FLOPs are both nodes'.
  void runsFusedUnderThePoolName() {
    vktest::Case k;
    buildPair(k, shapes()[0]);
    testing::checkFusedRun(k, "conv", "pool", kConvMaxPoolOp);
  }
};

QTEST_GUILESS_MAIN(TestConvMaxPool)
#include "tst_conv_max_pool.moc"
