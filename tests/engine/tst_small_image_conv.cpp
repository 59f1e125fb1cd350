// 3x3 convolutions with 7-wide outputs and large weights (ResNet's last stage) run on our small-image kernel where
// the machine has AVX-512 (small_image_conv.h), on oneDNN's elsewhere. Either way the result is the definition's:
// strides 1 and 2, TensorFlow's SAME (no pad on the left) and ONNX's symmetric pads, VALID, output heights other
// than 7, channel counts that are not a multiple of 16, several images, the fused bias, residual Add, ReLU and ReLU6.
#include <QtTest>

#include <cstring>
#include <limits>

#include "base/thread_pool.h"
#include "exec/cpu/small_image_conv.h"
#include "kernel_test_util.h"

using namespace flowscope;

namespace {

struct Case {
  const char* name;
  int64_t n, h, w, c, k, stride;
  std::string padding;  // SAME, VALID or EXPLICIT (1 on every side, as PyTorch's exporter writes a 3x3 window's)
  bool addend;
  std::string activation;  // "Relu", "Relu6" or "" for none
};

// The window TensorFlow's padding gives.
testing::ConvWindow windowOf(const Case& t) {
  testing::ConvWindow w;
  w.stride = t.stride;
  if (t.padding == "VALID") {
    w.oh = (t.h - 3) / t.stride + 1;
    w.ow = (t.w - 3) / t.stride + 1;
  } else if (t.padding == "SAME") {
    w.oh = (t.h + t.stride - 1) / t.stride;
    w.ow = (t.w + t.stride - 1) / t.stride;
    w.padTop = std::max<int64_t>((w.oh - 1) * t.stride + 3 - t.h, 0) / 2;
    w.padLeft = std::max<int64_t>((w.ow - 1) * t.stride + 3 - t.w, 0) / 2;
  } else {
    w.padTop = w.padLeft = 1;
    w.oh = (t.h - 1) / t.stride + 1;
    w.ow = (t.w - 1) / t.stride + 1;
  }
  return w;
}

AttrMap attrsOf(const Case& t) {
  std::vector<std::string> ops{"BiasAdd"};
  if (t.addend) ops.push_back("Add");
  if (!t.activation.empty()) ops.push_back(t.activation);
  AttrMap attrs{
      {"T", AttrValue::fromType(DType::kFloat)},          {"strides", testing::ints({1, t.stride, t.stride, 1})},
      {"padding", AttrValue::fromString(t.padding)},      {"fused_ops", testing::stringList(ops)},
      {"num_args", AttrValue::fromInt(t.addend ? 2 : 1)}, {"num_host_args", AttrValue::fromInt(0)}};
  if (t.padding == "EXPLICIT") attrs["explicit_paddings"] = testing::ints({0, 0, 1, 1, 1, 1, 0, 0});
  return attrs;
}

SmallImageConvShape shapeOf(const Case& t) {
  const testing::ConvWindow w = windowOf(t);
  return {t.n, t.h, t.w, t.c, t.k, t.stride, w.padTop, w.padLeft, w.oh, w.ow};
}

}  // namespace

class TestSmallImageConv : public QObject {
  Q_OBJECT

 private slots:
  void fusedConvMatchesTheDefinition_data() {
    QTest::addColumn<int>("index");
    for (size_t i = 0; i < cases().size(); ++i) QTest::newRow(cases()[i].name) << static_cast<int>(i);
  }

  // Through the CPU kernel table, as a graph runs it; where the machine has AVX-512 these shapes take our kernel.
  void fusedConvMatchesTheDefinition() {
    QFETCH(int, index);
    const Case& t = cases()[static_cast<size_t>(index)];
    const testing::ConvWindow w = windowOf(t);
    QCOMPARE(smallImageConvRuns(shapeOf(t)), __builtin_cpu_supports("avx512f") != 0);
    const Tensor x = testing::randomOf(DType::kFloat, Shape{t.n, t.h, t.w, t.c}, 11);
    const Tensor f = testing::randomOf(DType::kFloat, Shape{3, 3, t.c, t.k}, 12, -0.05, 0.05);
    const Tensor bias = testing::randomOf(DType::kFloat, Shape{t.k}, 13);
    const Tensor addend = testing::randomOf(DType::kFloat, Shape{t.n, w.oh, w.ow, t.k}, 14);
    std::vector<Tensor> inputs{x, f, bias};
    if (t.addend) inputs.push_back(addend.clone());
    const Tensor got = testing::run1("_FusedConv2D", inputs, attrsOf(t));
    QCOMPARE(got.shape(), (Shape{t.n, w.oh, w.ow, t.k}));
    const double hi = t.activation == "Relu6" ? 6 : (t.activation == "Relu" ? 1e30 : 0);
    const double error =
        testing::worstError(got, testing::convByDefinition(x, f, bias, t.addend ? &addend : nullptr, w, hi));
    QVERIFY2(error < 4e-5, std::to_string(error).c_str());  // float sums of up to 4608 products: oneDNN's err 1.1e-5
  }

  // With more threads than weight blocks (8 here) each block's rows are split between threads; every output is the
  // same sum in the same order, so the result is bit for bit the one thread's.
  void rowsSplitBetweenThreadsGiveTheSameResult() {
    if (!__builtin_cpu_supports("avx512f")) QSKIP("no AVX-512 here: oneDNN runs these convolutions");
    for (const Case& t : {cases()[0], cases()[4]}) {
      const SmallImageConvShape shape = shapeOf(t);
      const Tensor x = testing::randomOf(DType::kFloat, Shape{t.n, t.h, t.w, t.c}, 31);
      const Tensor f = testing::randomOf(DType::kFloat, Shape{3, 3, t.c, t.k}, 32, -0.05, 0.05);
      const Tensor bias = testing::randomOf(DType::kFloat, Shape{t.k}, 33);
      SmallImageConv conv;
      conv.prepare(shape, f.data<float>());
      Tensor results[2];
      const int before = intraOpThreads();
      for (int i = 0; i < 2; ++i) {
        setIntraOpThreads(i == 0 ? 1 : 16);
        results[i] = Tensor::uninitialized(DType::kFloat, Shape{t.n, shape.oh, shape.ow, t.k});
        conv.run(x.data<float>(), {bias.data<float>(), nullptr, false, 0.0f, 0.0f}, results[i].data<float>());
      }
      setIntraOpThreads(before);
      QCOMPARE(std::memcmp(results[1].data<float>(), results[0].data<float>(), results[0].byteSize()), 0);
    }
  }

  // The kernel on its own: a second filter at another address is packed again; a NaN sum comes out of ReLU6 as 0,
  // as the C++ epilogue makes it; weights under 2 MiB and windows it has no row kernel for stay with oneDNN.
  void kernelRepacksANewFilterAndClampsNaN() {
    if (!__builtin_cpu_supports("avx512f")) QSKIP("no AVX-512 here: oneDNN runs these convolutions");
    const Case t{"", 1, 7, 7, 256, 256, 1, "SAME", false, "Relu6"};
    const SmallImageConvShape shape = shapeOf(t);
    QVERIFY(smallImageConvRuns(shape));
    Tensor x = testing::randomOf(DType::kFloat, Shape{1, 7, 7, 256}, 21);
    const Tensor bias = testing::randomOf(DType::kFloat, Shape{256}, 22);
    const Tensor filters[] = {testing::randomOf(DType::kFloat, Shape{3, 3, 256, 256}, 23, -0.05, 0.05),
                              testing::randomOf(DType::kFloat, Shape{3, 3, 256, 256}, 24, -0.05, 0.05)};
    SmallImageConv conv;
    Tensor out = Tensor::uninitialized(DType::kFloat, Shape{1, 7, 7, 256});
    for (const Tensor& f : filters) {
      conv.prepare(shape, f.data<float>());
      conv.run(x.data<float>(), {bias.data<float>(), nullptr, true, 0.0f, 6.0f}, out.data<float>());
      const double error = testing::worstError(out, testing::convByDefinition(x, f, bias, nullptr, windowOf(t), 6));
      QVERIFY2(error < 1e-5, std::to_string(error).c_str());
    }
    x.data<float>()[0] = std::numeric_limits<float>::quiet_NaN();
    conv.run(x.data<float>(), {bias.data<float>(), nullptr, true, 0.0f, 6.0f}, out.data<float>());
    QCOMPARE(out.data<float>()[0], 0.0f);
    QVERIFY(!smallImageConvRuns({1, 7, 7, 128, 256, 1, 1, 1, 7, 7}));      // 1.1 MiB of weights
    QVERIFY(!smallImageConvRuns({1, 7, 7, 512, 512, 1, 2, 2, 7, 7}));      // the left column two pixels into the pad
    QVERIFY(!smallImageConvRuns({1, 14, 14, 512, 512, 1, 1, 1, 14, 14}));  // 14 wide
    QVERIFY(!smallImageConvRuns({1, 7, 7, 512, 480, 1, 1, 1, 7, 7}));      // 480 outputs: not blocks of 64
  }

 private:
  static const std::vector<Case>& cases() {
    static const std::vector<Case> all{
        {"ResNet-18's last stage with its residual Add", 1, 7, 7, 512, 512, 1, "SAME", true, "Relu"},
        {"its stride-2 entry as PyTorch exports it", 1, 14, 14, 256, 512, 2, "EXPLICIT", false, "Relu"},
        {"TensorFlow's SAME at stride 2: no pad above or left", 1, 14, 14, 256, 512, 2, "SAME", false, ""},
        {"two images, VALID, 272 channels in", 2, 9, 9, 272, 256, 1, "VALID", true, "Relu6"},
        {"three rows of 7, five blocks of outputs", 3, 3, 7, 264, 320, 1, "SAME", false, "Relu"},
        {"stride 2, the last window inside the image", 1, 13, 13, 256, 256, 2, "EXPLICIT", false, ""},
    };
    return all;
  }
};

QTEST_GUILESS_MAIN(TestSmallImageConv)
#include "tst_small_image_conv.moc"
