// MaxPool and AvgPool on NHWC (pool_nhwc: the CPU backend's own loop) against the definition: TensorFlow's windows
// for SAME, VALID and explicit paddings, strides 1 and 2, windows of 2 and 3, channel counts that no vector width
// divides, all-negative inputs (the max is not of the padding's zeros), and the average over valid elements only.
#include <QtTest>

#include <cmath>
#include <limits>

#include "kernel_test_util.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

struct PoolCase {
  int64_t h, w, c, k, stride;
  std::string padding;  // SAME, VALID or EXPLICIT (pads 1 top, 1 bottom, 0 left, 1 right: each under the window)
};

struct Geometry {
  int64_t oh, ow, padTop, padLeft;
};

Geometry geometryOf(const PoolCase& t) {
  if (t.padding == "SAME") {
    const int64_t oh = (t.h + t.stride - 1) / t.stride, ow = (t.w + t.stride - 1) / t.stride;
    return {oh, ow, std::max<int64_t>((oh - 1) * t.stride + t.k - t.h, 0) / 2,
            std::max<int64_t>((ow - 1) * t.stride + t.k - t.w, 0) / 2};
  }
  if (t.padding == "VALID") return {(t.h - t.k) / t.stride + 1, (t.w - t.k) / t.stride + 1, 0, 0};
  return {(t.h + 2 - t.k) / t.stride + 1, (t.w + 1 - t.k) / t.stride + 1, 1, 0};
}

// The pool of x [2, h, w, c] by the definition, in double.
std::vector<double> definition(const PoolCase& t, bool max, const Tensor& x) {
  const Geometry g = geometryOf(t);
  std::vector<double> out;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t y = 0; y < g.oh; ++y)
      for (int64_t xo = 0; xo < g.ow; ++xo)
        for (int64_t ch = 0; ch < t.c; ++ch) {
          double acc = max ? -std::numeric_limits<double>::infinity() : 0;
          int count = 0;
          for (int64_t i = 0; i < t.k; ++i)
            for (int64_t j = 0; j < t.k; ++j) {
              const int64_t iy = y * t.stride + i - g.padTop, ix = xo * t.stride + j - g.padLeft;
              if (iy < 0 || iy >= t.h || ix < 0 || ix >= t.w) continue;
              const double v = x.elementAsDouble(((b * t.h + iy) * t.w + ix) * t.c + ch);
              acc = max ? std::max(acc, v) : acc + v;
              ++count;
            }
          out.push_back(max ? acc : acc / count);
        }
  return out;
}

}  // namespace

class TestPool : public QObject {
  Q_OBJECT

 private slots:
  void matchesTheDefinition_data() {
    QTest::addColumn<int>("index");
    QTest::addColumn<bool>("max");
    for (size_t i = 0; i < cases().size(); ++i)
      for (bool max : {true, false}) {
        const PoolCase& t = cases()[i];
        QTest::newRow(QString("%1 %2x%3x%4 k%5 s%6 %7")
                          .arg(max ? "max" : "avg")
                          .arg(t.h)
                          .arg(t.w)
                          .arg(t.c)
                          .arg(t.k)
                          .arg(t.stride)
                          .arg(QString::fromStdString(t.padding))
                          .toUtf8())
            << static_cast<int>(i) << max;
      }
  }

  void matchesTheDefinition() {
    QFETCH(int, index);
    QFETCH(bool, max);
    const PoolCase& t = cases()[static_cast<size_t>(index)];
    const Tensor x = randomOf(DType::kFloat, Shape{2, t.h, t.w, t.c}, 41, -4, -1);  // all negative
    AttrMap attrs{{"ksize", ints({1, t.k, t.k, 1})},
                  {"strides", ints({1, t.stride, t.stride, 1})},
                  {"padding", AttrValue::fromString(t.padding)}};
    if (t.padding == "EXPLICIT") attrs["explicit_paddings"] = ints({0, 0, 1, 1, 0, 1, 0, 0});
    const Geometry g = geometryOf(t);
    const Tensor out = run1(max ? "MaxPool" : "AvgPool", {x}, attrs);
    QVERIFY(closeTo(out, Shape{2, g.oh, g.ow, t.c}, definition(t, max, x), 1e-6, 1e-6));
  }

 private:
  static const std::vector<PoolCase>& cases() {
    static const std::vector<PoolCase> all = [] {
      std::vector<PoolCase> v;
      for (int64_t k : {2, 3})
        for (int64_t stride : {1, 2})
          for (const char* padding : {"SAME", "VALID", "EXPLICIT"})
            for (int64_t c : {5, 64}) v.push_back({7, 12, c, k, stride, padding});
      v.push_back({1, 1, 3, 3, 2, "SAME"});  // one pixel, a window mostly padding
      return v;
    }();
    return all;
  }
};

QTEST_GUILESS_MAIN(TestPool)
#include "tst_pool.moc"
