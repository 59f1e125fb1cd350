// 1x1 convolutions over at most 64 pixels with 256 KiB of weights or more (MobileNetV2's 7x7 blocks) run on our
// streamed kernel where the machine has AVX-512 (streamed_pointwise.h), on oneDNN's elsewhere. Either way the result
// is the definition's: pixel counts that leave a short tile, output channels that leave a panel of 16, 32 or 48,
// several images, the fused bias, residual Add, ReLU and ReLU6; and the threads' share changes no bit.
#include <QtTest>

#include <cstring>
#include <limits>

#include "base/thread_pool.h"
#include "exec/cpu/streamed_pointwise.h"
#include "kernel_test_util.h"

using namespace flowscope;

namespace {

struct Case {
  const char* name;
  int64_t n, h, w, c, k;
  bool addend;
  std::string activation;  // "Relu", "Relu6" or "" for none
};

AttrMap attrsOf(const Case& t) {
  std::vector<std::string> ops{"BiasAdd"};
  if (t.addend) ops.push_back("Add");
  if (!t.activation.empty()) ops.push_back(t.activation);
  return {{"T", AttrValue::fromType(DType::kFloat)},          {"strides", testing::ints({1, 1, 1, 1})},
          {"padding", AttrValue::fromString("VALID")},        {"fused_ops", testing::stringList(ops)},
          {"num_args", AttrValue::fromInt(t.addend ? 2 : 1)}, {"num_host_args", AttrValue::fromInt(0)}};
}

StreamedPointwiseShape shapeOf(const Case& t) { return {t.n * t.h * t.w, t.c, t.k}; }

// A 1x1 convolution's window over an h x w image: the image itself.
testing::ConvWindow windowOver(int64_t h, int64_t w) { return {1, 0, 0, h, w}; }

}  // namespace

class TestStreamedPointwise : public QObject {
  Q_OBJECT

 private slots:
  void fusedConvMatchesTheDefinition_data() {
    QTest::addColumn<int>("index");
    for (size_t i = 0; i < cases().size(); ++i) QTest::newRow(cases()[i].name) << static_cast<int>(i);
  }

  // Through the CPU kernel table, as a graph runs it, at one thread and at two; where the machine has AVX-512 these
  // shapes take our kernel.
  void fusedConvMatchesTheDefinition() {
    QFETCH(int, index);
    const Case& t = cases()[static_cast<size_t>(index)];
    QCOMPARE(streamedPointwiseRuns(shapeOf(t)), __builtin_cpu_supports("avx512f") != 0);
    const Tensor x = testing::randomOf(DType::kFloat, Shape{t.n, t.h, t.w, t.c}, 11);
    const Tensor f = testing::randomOf(DType::kFloat, Shape{1, 1, t.c, t.k}, 12, -0.05, 0.05);
    const Tensor bias = testing::randomOf(DType::kFloat, Shape{t.k}, 13);
    const Tensor addend = testing::randomOf(DType::kFloat, Shape{t.n, t.h, t.w, t.k}, 14);
    const double hi = t.activation == "Relu6" ? 6 : (t.activation == "Relu" ? 1e30 : 0);
    const std::vector<double> want =
        testing::convByDefinition(x, f, bias, t.addend ? &addend : nullptr, windowOver(t.h, t.w), hi);
    const int before = intraOpThreads();
    for (int threads : {1, 2}) {
      setIntraOpThreads(threads);
      std::vector<Tensor> inputs{x, f, bias};
      if (t.addend) inputs.push_back(addend.clone());
      const Tensor got = testing::run1("_FusedConv2D", inputs, attrsOf(t));
      QCOMPARE(got.shape(), (Shape{t.n, t.h, t.w, t.k}));
      const double error = testing::worstError(got, want);
      QVERIFY2(error < 2e-5, (std::to_string(threads) + " threads: " + std::to_string(error)).c_str());
    }
    setIntraOpThreads(before);
  }

  // Each thread takes a range of output channels, and every output is the same sum in the same order, so the result
  // is bit for bit the one thread's, with 2 threads and with more threads than the 10 vectors of output channels.
  void threadsShareChannelsWithTheSameResult() {
    if (!__builtin_cpu_supports("avx512f")) QSKIP("no AVX-512 here: oneDNN runs these convolutions");
    const Case t = cases()[1];
    const StreamedPointwiseShape shape = shapeOf(t);
    const Tensor x = testing::randomOf(DType::kFloat, Shape{t.n, t.h, t.w, t.c}, 31);
    const Tensor f = testing::randomOf(DType::kFloat, Shape{1, 1, t.c, t.k}, 32, -0.05, 0.05);
    const Tensor bias = testing::randomOf(DType::kFloat, Shape{t.k}, 33);
    StreamedPointwise conv;
    Tensor results[3];
    const int before = intraOpThreads();
    const int threads[] = {1, 2, 16};
    for (int i = 0; i < 3; ++i) {
      setIntraOpThreads(threads[i]);
      conv.prepare(shape, f.data<float>(), threads[i]);
      results[i] = Tensor::uninitialized(DType::kFloat, Shape{t.n, t.h, t.w, t.k});
      conv.run(x.data<float>(), {bias.data<float>(), nullptr, false, 0.0f, 0.0f}, results[i].data<float>());
    }
    setIntraOpThreads(before);
    for (int i = 1; i < 3; ++i)
      QCOMPARE(std::memcmp(results[i].data<float>(), results[0].data<float>(), results[0].byteSize()), 0);
  }

  // The kernel on its own: a second filter at another address is packed again; a NaN sum comes out of ReLU6 as 0,
  // as the C++ epilogue makes it; more pixels, smaller weights and channel counts off the vector stay with oneDNN.
  void kernelRepacksANewFilterAndClampsNaN() {
    if (!__builtin_cpu_supports("avx512f")) QSKIP("no AVX-512 here: oneDNN runs these convolutions");
    const Case t{"", 1, 7, 7, 320, 256, false, "Relu6"};
    const StreamedPointwiseShape shape = shapeOf(t);
    QVERIFY(streamedPointwiseRuns(shape));
    Tensor x = testing::randomOf(DType::kFloat, Shape{1, 7, 7, 320}, 21);
    const Tensor bias = testing::randomOf(DType::kFloat, Shape{256}, 22);
    const Tensor filters[] = {testing::randomOf(DType::kFloat, Shape{1, 1, 320, 256}, 23, -0.05, 0.05),
                              testing::randomOf(DType::kFloat, Shape{1, 1, 320, 256}, 24, -0.05, 0.05)};
    StreamedPointwise conv;
    Tensor out = Tensor::uninitialized(DType::kFloat, Shape{1, 7, 7, 256});
    for (const Tensor& f : filters) {
      conv.prepare(shape, f.data<float>(), 1);
      conv.run(x.data<float>(), {bias.data<float>(), nullptr, true, 0.0f, 6.0f}, out.data<float>());
      const double error =
          testing::worstError(out, testing::convByDefinition(x, f, bias, nullptr, windowOver(7, 7), 6));
      QVERIFY2(error < 1e-5, std::to_string(error).c_str());
    }
    x.data<float>()[0] = std::numeric_limits<float>::quiet_NaN();
    conv.run(x.data<float>(), {bias.data<float>(), nullptr, true, 0.0f, 6.0f}, out.data<float>());
    QCOMPARE(out.data<float>()[0], 0.0f);
    QVERIFY(!streamedPointwiseRuns({65, 960, 160}));  // 65 pixels
    QVERIFY(!streamedPointwiseRuns({49, 96, 576}));   // 216 KiB of weights
    QVERIFY(!streamedPointwiseRuns({49, 960, 168}));  // 168 outputs: not vectors of 16
  }

 private:
  static const std::vector<Case>& cases() {
    static const std::vector<Case> all{
        {"MobileNetV2's last 1x1: 320 to 1280 channels, ReLU6", 1, 7, 7, 320, 1280, false, "Relu6"},
        {"its projection with the residual Add: 960 to 160", 1, 7, 7, 960, 160, true, ""},
        {"9 pixels: a tile of 7 and one of 2; ReLU", 1, 3, 3, 512, 256, false, "Relu"},
        {"two images of 4x4, 272 outputs: a panel of 16", 2, 4, 4, 256, 272, true, "Relu6"},
        {"48 outputs: one panel of 3 vectors", 1, 7, 7, 2048, 48, false, ""},
        {"a single pixel", 1, 1, 1, 1024, 512, false, "Relu"},
    };
    return all;
  }
};

QTEST_GUILESS_MAIN(TestStreamedPointwise)
#include "tst_streamed_pointwise.moc"
