// Depthwise convolution with square windows, as MobileNet and EfficientNet use it: the CPU backend runs these on its
// own AVX-512 kernel where the machine has one (depthwise_nhwc), on oneDNN's otherwise. Either way the result must
// be TensorFlow's: every row, border and interior, strides, paddings, channel counts that are not a multiple of 16,
// windows larger than the image, and the fused bias and activation.
#include <QtTest>

#include <cmath>
#include <limits>

#include "exec/cpu/depthwise_band_rows.h"
#include "exec/cpu/depthwise_nhwc.h"
#include "exec/cpu/input_bands.h"
#include "kernel_test_util.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

struct Case {
  int64_t h, w, c, k, stride;
  std::string padding;  // SAME, VALID, EXPLICIT (pads 2 top, 0 bottom, 1 left, 2 right) or ONES (1 on every side)
  std::string activation;
};

// out[n, y, x, c] by the definition, in double.
struct Geometry {
  int64_t oh = 0, ow = 0, padTop = 0, padLeft = 0;
};

// The output size and top and left pads of `t`, its padding's attributes set in `attrs`.
Geometry geometryOf(const Case& t, AttrMap& attrs) {
  Geometry g;
  if (t.padding == "SAME") {
    g.oh = (t.h + t.stride - 1) / t.stride;
    g.ow = (t.w + t.stride - 1) / t.stride;
    g.padTop = std::max<int64_t>((g.oh - 1) * t.stride + t.k - t.h, 0) / 2;
    g.padLeft = std::max<int64_t>((g.ow - 1) * t.stride + t.k - t.w, 0) / 2;
  } else if (t.padding == "VALID") {
    g.oh = (t.h - t.k) / t.stride + 1;
    g.ow = (t.w - t.k) / t.stride + 1;
  } else if (t.padding == "ONES") {  // as PyTorch pads a 3x3 window, and ONNX exports it
    attrs["padding"] = AttrValue::fromString("EXPLICIT");
    attrs["explicit_paddings"] = ints({0, 0, 1, 1, 1, 1, 0, 0});
    g.padTop = g.padLeft = 1;
    g.oh = (t.h + 2 - t.k) / t.stride + 1;
    g.ow = (t.w + 2 - t.k) / t.stride + 1;
  } else {
    attrs["explicit_paddings"] = ints({0, 0, 2, 0, 1, 2, 0, 0});
    g.padTop = 2;
    g.padLeft = 1;
    g.oh = (t.h + 2 - t.k) / t.stride + 1;
    g.ow = (t.w + 3 - t.k) / t.stride + 1;
  }
  return g;
}

std::vector<double> reference(const Case& t, const Tensor& x, const Tensor& f, const Tensor& bias, int64_t n,
                              const Geometry& g) {
  const int64_t padTop = g.padTop, padLeft = g.padLeft;
  std::vector<double> out;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < g.oh; ++y)
      for (int64_t xo = 0; xo < g.ow; ++xo)
        for (int64_t ch = 0; ch < t.c; ++ch) {
          double sum = bias.elementAsDouble(ch);
          for (int64_t i = 0; i < t.k; ++i)
            for (int64_t j = 0; j < t.k; ++j) {
              const int64_t iy = y * t.stride + i - padTop, ix = xo * t.stride + j - padLeft;
              if (iy < 0 || iy >= t.h || ix < 0 || ix >= t.w) continue;
              sum += x.elementAsDouble(((b * t.h + iy) * t.w + ix) * t.c + ch) *
                     f.elementAsDouble((i * t.k + j) * t.c + ch);
            }
          if (t.activation == "Relu" || t.activation == "Relu6") sum = std::max(sum, 0.0);
          if (t.activation == "Relu6") sum = std::min(sum, 6.0);
          out.push_back(sum);
        }
  return out;
}

}  // namespace

class TestDepthwise : public QObject {
  Q_OBJECT

 private slots:
  void matchesTheDefinition_data() {
    QTest::addColumn<int>("index");
    for (size_t i = 0; i < cases().size(); ++i) {
      const Case& t = cases()[i];
      QTest::newRow(QString("%1x%2x%3 k%4 s%5 %6 %7")
                        .arg(t.h)
                        .arg(t.w)
                        .arg(t.c)
                        .arg(t.k)
                        .arg(t.stride)
                        .arg(QString::fromStdString(t.padding))
                        .arg(QString::fromStdString(t.activation.empty() ? "linear" : t.activation))
                        .toUtf8())
          << static_cast<int>(i);
    }
  }
  void matchesTheDefinition() {
    QFETCH(int, index);
    const Case& t = cases()[static_cast<size_t>(index)];
    const int64_t n = 2;
    Tensor x = randomOf(DType::kFloat, Shape{n, t.h, t.w, t.c}, 31, -4, 4);
    Tensor f = randomOf(DType::kFloat, Shape{t.k, t.k, t.c, 1}, 32);
    Tensor bias = randomOf(DType::kFloat, Shape{t.c}, 33);
    AttrMap attrs{
        {"strides", ints({1, t.stride, t.stride, 1})},
        {"padding", AttrValue::fromString(t.padding)},
        {"fused_ops", testing::stringList(t.activation.empty() ? std::vector<std::string>{"BiasAdd"}
                                                               : std::vector<std::string>{"BiasAdd", t.activation})},
        {"num_args", AttrValue::fromInt(1)}};
    const Geometry g = geometryOf(t, attrs);
    Tensor out = run1("_FusedDepthwiseConv2dNative", {x, f, bias}, attrs);
    QVERIFY(closeTo(out, Shape{n, g.oh, g.ow, t.c}, reference(t, x, f, bias, n, g), 1e-4, 1e-5));
  }

  // oneDNN's depthwise kernel band by band (depthwise_band_rows.h, what the fused 1x1 kernels run where ours does
  // not): bands of one row, of three, and of whole images, each band's input rows given from its first row on as a
  // band buffer holds them, must give the definition's rows, top and bottom pads included.
  void oneDnnBandsMatchTheDefinition_data() { matchesTheDefinition_data(); }
  void oneDnnBandsMatchTheDefinition() {
    QFETCH(int, index);
    const Case& t = cases()[static_cast<size_t>(index)];
    const int64_t n = 2;
    AttrMap attrs;
    const Geometry g = geometryOf(t, attrs);
    if (g.oh <= 0 || g.ow <= 0) QSKIP("no output rows");
    Tensor x = randomOf(DType::kFloat, Shape{n, t.h, t.w, t.c}, 41, -4, 4);
    Tensor f = randomOf(DType::kFloat, Shape{t.k, t.k, t.c, 1}, 42);
    Tensor bias = randomOf(DType::kFloat, Shape{t.c}, 43);
    const DepthwiseShape shape{n, t.h, t.w, t.c, t.k, t.stride, t.stride, g.padTop, g.padLeft, g.oh, g.ow};
    const std::vector<double> want = reference(t, x, f, bias, n, g);
    for (int64_t perBand : {int64_t{1}, int64_t{3}, g.oh}) {
      DepthwiseBandRows rows;
      QVERIFY(rows.reset(shape, *depthwiseClampFor(t.activation), true));
      const std::vector<InputBand> bands = inputBandsOf(shape, 0, n * g.oh, perBand);
      DepthwiseBandRows::ThreadMemories memories;
      for (const InputBand& band : bands) QVERIFY2(rows.add(band, memories), "oneDNN has a fast kernel for a band");
      rows.load(f, bias);
      Tensor out = Tensor::uninitialized(DType::kFloat, Shape{n, g.oh, g.ow, t.c});
      const int64_t inRow = t.w * t.c, outRow = g.ow * t.c;
      for (const InputBand& band : bands)
        rows.run(band, memories, x.data<float>() + band.inBegin * inRow, band.inBegin,
                 out.data<float>() + band.outBegin * outRow);
      QVERIFY2(closeTo(out, Shape{n, g.oh, g.ow, t.c}, want, 1e-4, 1e-5),
               qPrintable(QString("%1 rows a band").arg(perBand)));
    }
  }

  // Likewise a window column in the padding, on the chunked rows' shapes (their edge pixels leave those taps out):
  // with the left filter column infinite the first output column is finite where its window starts in the padding,
  // with the right one the last where its window ends there (TensorFlow's SAME at stride 2 pads the right only).
  void aWindowColumnInThePaddingAddsNothingEvenAgainstAnInfiniteTap() {
    for (const Case& t :
         {Case{7, 7, 24, 3, 1, "SAME", ""}, Case{5, 28, 24, 3, 1, "SAME", ""}, Case{4, 28, 24, 3, 2, "SAME", ""}}) {
      const Tensor x = randomOf(DType::kFloat, Shape{1, t.h, t.w, t.c}, 44, -4, 4);
      const Tensor bias = randomOf(DType::kFloat, Shape{t.c}, 46);
      const AttrMap attrs{{"strides", ints({1, t.stride, t.stride, 1})},
                          {"padding", AttrValue::fromString(t.padding)},
                          {"fused_ops", testing::stringList({"BiasAdd"})},
                          {"num_args", AttrValue::fromInt(1)}};
      const int64_t oh = (t.h + t.stride - 1) / t.stride, ow = (t.w + t.stride - 1) / t.stride;
      const int64_t padTop = std::max<int64_t>((oh - 1) * t.stride + 3 - t.h, 0) / 2;
      const int64_t padLeft = std::max<int64_t>((ow - 1) * t.stride + 3 - t.w, 0) / 2;
      for (const int64_t filterColumn : {0, 2}) {
        const int64_t column = filterColumn == 0 ? 0 : ow - 1;
        if (column * t.stride - padLeft + filterColumn >= 0 && column * t.stride - padLeft + filterColumn < t.w)
          continue;  // that tap lies inside the image: its infinity is the right answer
        Tensor f = randomOf(DType::kFloat, Shape{3, 3, t.c, 1}, 45);
        for (int64_t ky = 0; ky < 3; ++ky)
          for (int64_t ch = 0; ch < t.c; ++ch)
            f.data<float>()[(ky * 3 + filterColumn) * t.c + ch] = std::numeric_limits<float>::infinity();
        const Tensor out = run1("_FusedDepthwiseConv2dNative", {x, f, bias}, attrs);
        QCOMPARE(out.shape(), (Shape{1, oh, ow, t.c}));
        const std::vector<double> want = reference(t, x, f, bias, 1, {oh, ow, padTop, padLeft});
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t ch = 0; ch < t.c; ++ch) {
            const int64_t i = (y * ow + column) * t.c + ch;
            const double got = out.data<float>()[i], expected = want[static_cast<size_t>(i)];
            QVERIFY2(std::isfinite(got) && std::abs(got - expected) < 1e-4 * (1 + std::abs(expected)),
                     qPrintable(QString("%1 wide, stride %2, filter column %3, output %4: %5, want %6")
                                    .arg(t.w)
                                    .arg(t.stride)
                                    .arg(filterColumn)
                                    .arg(i)
                                    .arg(got)
                                    .arg(expected)));
          }
      }
    }
  }

  // A window row in the padding has no term in the sum: an infinite tap over it leaves the output finite (a padding
  // zero times infinity would be a NaN). With the top filter row infinite, the first output row, whose window's top
  // row is in the padding, is finite; likewise the last with the bottom filter row. The rows between are not checked.
  void aWindowRowInThePaddingAddsNothingEvenAgainstAnInfiniteTap() {
    const Case t{5, 12, 24, 3, 1, "SAME", ""};
    const Tensor x = randomOf(DType::kFloat, Shape{1, t.h, t.w, t.c}, 41, -4, 4);
    const Tensor bias = randomOf(DType::kFloat, Shape{t.c}, 43);
    const AttrMap attrs{{"strides", ints({1, 1, 1, 1})},
                        {"padding", AttrValue::fromString(t.padding)},
                        {"fused_ops", testing::stringList({"BiasAdd"})},
                        {"num_args", AttrValue::fromInt(1)}};
    const int64_t rowFloats = t.w * t.c;
    for (const int64_t filterRow : {0, 2}) {
      Tensor f = randomOf(DType::kFloat, Shape{3, 3, t.c, 1}, 42);
      for (int64_t i = 0; i < 3 * t.c; ++i)
        f.data<float>()[filterRow * 3 * t.c + i] = std::numeric_limits<float>::infinity();
      const Tensor out = run1("_FusedDepthwiseConv2dNative", {x, f, bias}, attrs);
      QCOMPARE(out.shape(), (Shape{1, t.h, t.w, t.c}));
      const std::vector<double> want = reference(t, x, f, bias, 1, {t.h, t.w, 1, 1});
      const int64_t row = filterRow == 0 ? 0 : t.h - 1;
      for (int64_t i = row * rowFloats; i < (row + 1) * rowFloats; ++i) {
        const double got = out.data<float>()[i], expected = want[static_cast<size_t>(i)];
        QVERIFY2(
            std::isfinite(got) && std::abs(got - expected) < 1e-4,
            qPrintable(QString("filter row %1, output %2: %3, want %4").arg(filterRow).arg(i).arg(got).arg(expected)));
      }
    }
  }

  // The shapes MobileNetV2 gives the kernel, on this machine: it either runs them or says it does not.
  void runsMobileNetShapesWhereTheMachineHasAvx512() {
    const DepthwiseShape stride2{1, 112, 112, 96, 3, 2, 2, 0, 0, 56, 56};
    const DepthwiseShape dilatedLike{1, 14, 14, 384, 7, 1, 1, 3, 3, 14, 14};
    QCOMPARE(depthwiseNhwcRuns(dilatedLike), false);  // 7x7 windows stay with oneDNN
    if (!__builtin_cpu_supports("avx512f")) QSKIP("no AVX-512 here: oneDNN runs every depthwise convolution");
    QVERIFY(depthwiseNhwcRuns(stride2));
  }

 private:
  static const std::vector<Case>& cases() {
    static const std::vector<Case> all = [] {
      std::vector<Case> v;
      for (int64_t k : {3, 5})
        for (int64_t stride : {1, 2})
          for (const char* padding : {"SAME", "VALID", "EXPLICIT"})
            for (int64_t c : {16, 40, 5})  // whole slices, whole slices and a masked one, a masked one only
              v.push_back({9, 29, c, k, stride, padding, c == 40 ? "Relu6" : (c == 5 ? "Relu" : "")});
      v.push_back({2, 3, 24, 5, 1, "SAME", "Relu6"});    // every window larger than the image
      v.push_back({1, 1, 32, 3, 2, "SAME", ""});         // one pixel
      v.push_back({6, 40, 64, 3, 1, "VALID", "Relu"});   // groups of eight, the last overlapping the one before
      v.push_back({4, 9, 16, 3, 1, "VALID", ""});        // seven interior pixels: two overlapping groups of four
      v.push_back({5, 17, 16, 3, 2, "SAME", ""});        // the same at stride 2
      v.push_back({4, 5, 16, 3, 1, "VALID", ""});        // three interior pixels, one by one
      v.push_back({7, 11, 24, 3, 3, "SAME", "Relu6"});   // a stride with no grouped form: every pixel one by one
      v.push_back({7, 7, 40, 3, 1, "SAME", "Relu6"});    // rows of one chunk of 7, a masked slice too
      v.push_back({14, 14, 24, 3, 1, "ONES", ""});       // rows of one chunk of 14
      v.push_back({14, 14, 40, 3, 2, "ONES", "Relu"});   // one chunk of 7 at stride 2
      v.push_back({28, 28, 16, 3, 2, "ONES", "Relu6"});  // one chunk of 14 at stride 2
      v.push_back({6, 42, 24, 3, 1, "ONES", "Relu"});    // three chunks of 14: first, middle, last
      v.push_back({5, 56, 16, 3, 2, "ONES", ""});        // two chunks of 14 at stride 2
      v.push_back({3, 84, 24, 3, 2, "ONES", "Relu6"});   // three at stride 2, a masked slice
      v.push_back({14, 14, 16, 3, 2, "SAME", ""});       // TensorFlow's SAME at stride 2: one chunk of 7, no left pad
      v.push_back({5, 56, 24, 3, 2, "SAME", "Relu"});    // ... two chunks of 14, a masked slice
      v.push_back({3, 84, 16, 3, 2, "SAME", "Relu6"});   // ... three
      v.push_back({3, 30, 16, 3, 2, "SAME", ""});        // 15 wide: grouped, not chunked
      return v;
    }();
    return all;
  }
};

QTEST_GUILESS_MAIN(TestDepthwise)
#include "tst_depthwise.moc"
