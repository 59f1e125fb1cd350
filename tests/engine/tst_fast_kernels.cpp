// Kernels rewritten for speed, against plain references written from their definitions: NonMaxSuppressionV5 (a heap
// instead of a full sort), ResizeBilinear / ResizeNearestNeighbor (tap tables), float Tanh (series and expf instead
// of libm's tanhf), the random kernels (Philox, as TensorFlow; the paper's known answer), and the strided copies whose
// dimensions are merged before copying (Unpack, StridedSlice, Transpose, ReverseV2, Tile on channel-last shapes), and
// MatMul's weights packed once when they repeat.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "engine/kernel_test_util.h"
#include "exec/cpu/philox.h"
#include "exec/model_runner.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

// Greedy NMS exactly as TensorFlow defines it: all boxes sorted by score (ties: lower index first), each kept when
// its IoU with every kept box is at most the threshold.
std::vector<int32_t> referenceNms(const Tensor& boxes, const Tensor& scores, int64_t maxOut, float iouThreshold,
                                  float scoreThreshold) {
  const float* b = boxes.data<float>();
  const float* s = scores.data<float>();
  std::vector<int32_t> order(static_cast<size_t>(scores.numElements()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t x, int32_t y) { return s[x] > s[y]; });
  auto iou = [&](int32_t i, int32_t j) {
    const float *p = b + 4 * i, *q = b + 4 * j;
    const float py0 = std::min(p[0], p[2]), py1 = std::max(p[0], p[2]), px0 = std::min(p[1], p[3]),
                px1 = std::max(p[1], p[3]);
    const float qy0 = std::min(q[0], q[2]), qy1 = std::max(q[0], q[2]), qx0 = std::min(q[1], q[3]),
                qx1 = std::max(q[1], q[3]);
    const float areaP = (py1 - py0) * (px1 - px0), areaQ = (qy1 - qy0) * (qx1 - qx0);
    if (areaP <= 0 || areaQ <= 0) return 0.0f;
    const float inter = std::max(0.0f, std::min(py1, qy1) - std::max(py0, qy0)) *
                        std::max(0.0f, std::min(px1, qx1) - std::max(px0, qx0));
    return inter / (areaP + areaQ - inter);
  };
  std::vector<int32_t> kept;
  for (int32_t i : order) {
    if (static_cast<int64_t>(kept.size()) >= maxOut || s[i] <= scoreThreshold) break;
    if (std::all_of(kept.begin(), kept.end(), [&](int32_t j) { return iou(i, j) <= iouThreshold; })) kept.push_back(i);
  }
  return kept;
}

// Boxes of random corners (some given upside down, some empty) and scores with ties.
std::pair<Tensor, Tensor> randomBoxes(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> unit(0, 1);
  Tensor boxes(DType::kFloat, Shape{n, 4}), scores(DType::kFloat, Shape{n});
  for (int64_t i = 0; i < n; ++i) {
    float* b = boxes.data<float>() + 4 * i;
    const float y = unit(gen), x = unit(gen), h = 0.3f * unit(gen), w = 0.3f * unit(gen);
    b[0] = y, b[1] = x, b[2] = y + h, b[3] = x + w;
    if (i % 7 == 0) std::swap(b[0], b[2]);                      // corners in the other order
    if (i % 11 == 0) b[3] = b[1];                               // empty
    scores.data<float>()[i] = std::round(unit(gen) * 50) / 50;  // many ties
  }
  return {boxes, scores};
}

Tensor floatScalar(float v) { return Tensor::scalar<float>(DType::kFloat, v); }

// Bilinear resize by its definition, one output element at a time.
float referenceBilinear(const Tensor& x, int64_t b, int64_t y, int64_t xo, int64_t ch, float scaleH, float scaleW,
                        bool half) {
  const int64_t h = x.shape().dim(1), w = x.shape().dim(2), c = x.shape().dim(3);
  auto source = [&](int64_t o, float scale) {
    return std::max(0.0f, half ? (static_cast<float>(o) + 0.5f) * scale - 0.5f : static_cast<float>(o) * scale);
  };
  const float fy = source(y, scaleH), fx = source(xo, scaleW);
  const int64_t y0 = std::min<int64_t>(static_cast<int64_t>(fy), h - 1),
                x0 = std::min<int64_t>(static_cast<int64_t>(fx), w - 1);
  const int64_t y1 = std::min(y0 + 1, h - 1), x1 = std::min(x0 + 1, w - 1);
  auto at = [&](int64_t yy, int64_t xx) { return x.data<float>()[((b * h + yy) * w + xx) * c + ch]; };
  const float dy = fy - static_cast<float>(y0), dx = fx - static_cast<float>(x0);
  const float top = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * dx;
  const float bottom = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * dx;
  return top + (bottom - top) * dy;
}

Node graphNode(const std::string& name, const std::string& op, const std::vector<std::string>& inputs) {
  Node n{name, op, "",
         {},   {}, {{"T", AttrValue::fromType(DType::kFloat)}, {"dtype", AttrValue::fromType(DType::kFloat)}},
         {}};
  for (const std::string& in : inputs) {
    TensorRef ref;
    parseTensorRef(in, false, &ref);
    n.inputs.push_back(ref);
  }
  return n;
}

// a [m, k] times b [k, n], by the definition.
std::vector<double> referenceProduct(const Tensor& a, const Tensor& b) {
  const int64_t m = a.shape().dim(0), k = a.shape().dim(1), n = b.shape().dim(1);
  std::vector<double> out(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t l = 0; l < k; ++l)
        out[static_cast<size_t>(i * n + j)] += double(a.data<float>()[i * k + l]) * b.data<float>()[l * n + j];
  return out;
}

bool sameValues(const Tensor& got, const Tensor& want) {
  if (got.shape() != want.shape()) return false;
  for (int64_t i = 0; i < got.numElements(); ++i)
    if (got.elementAsDouble(i) != want.elementAsDouble(i)) {
      qWarning("element %lld: got %.9g, expected %.9g", static_cast<long long>(i), got.elementAsDouble(i),
               want.elementAsDouble(i));
      return false;
    }
  return true;
}

}  // namespace

class TestFastKernels : public QObject {
  Q_OBJECT

 private slots:
  void nmsMatchesTheReference_data() {
    QTest::addColumn<int>("boxes");
    QTest::addColumn<int>("maxOut");
    QTest::addColumn<float>("iou");
    QTest::addColumn<float>("scoreThreshold");
    QTest::newRow("none") << 0 << 10 << 0.5f << 0.0f;
    QTest::newRow("one") << 1 << 10 << 0.5f << -1.0f;
    QTest::newRow("few kept") << 500 << 7 << 0.3f << 0.1f;
    QTest::newRow("all considered") << 2000 << 2000 << 0.5f << -1.0f;
    QTest::newRow("nothing suppressed") << 300 << 300 << 1.0f << 0.5f;
    QTest::newRow("max 0") << 50 << 0 << 0.5f << 0.0f;
  }
  void nmsMatchesTheReference() {
    QFETCH(int, boxes);
    QFETCH(int, maxOut);
    QFETCH(float, iou);
    QFETCH(float, scoreThreshold);
    const auto [b, s] = randomBoxes(boxes, 5);
    for (bool pad : {false, true}) {
      const std::vector<int32_t> want = referenceNms(b, s, maxOut, iou, scoreThreshold);
      auto out = eagerExecute("NonMaxSuppressionV5",
                              {b, s, Tensor::scalar<int32_t>(DType::kInt32, maxOut), floatScalar(iou),
                               floatScalar(scoreThreshold), floatScalar(0)},
                              {{"pad_to_max_output_size", AttrValue::fromBool(pad)}});
      QVERIFY2(out.hasValue(), out ? "" : out.status().message().c_str());
      const Tensor& indices = (*out)[0];
      QCOMPARE(indices.numElements(), pad ? static_cast<int64_t>(maxOut) : static_cast<int64_t>(want.size()));
      QCOMPARE((*out)[2].data<int32_t>()[0], static_cast<int32_t>(want.size()));
      for (size_t i = 0; i < want.size(); ++i) QCOMPARE(indices.data<int32_t>()[i], want[i]);
      for (int64_t i = static_cast<int64_t>(want.size()); i < indices.numElements(); ++i)
        QCOMPARE(indices.data<int32_t>()[i], 0);  // padding
    }
  }

  void nmsRejectsMismatchedScores() {
    const auto [b, s] = randomBoxes(10, 1);
    const QString error = runError("NonMaxSuppressionV5",
                                   {b, randomOf(DType::kFloat, Shape{9}, 2), Tensor::scalar<int32_t>(DType::kInt32, 5),
                                    floatScalar(0.5f), floatScalar(0), floatScalar(0)});
    QVERIFY2(error.contains("one per box"), qPrintable(error));
  }

  void resizeMatchesTheDefinition_data() {
    QTest::addColumn<bool>("align");
    QTest::addColumn<bool>("half");
    QTest::addColumn<int>("outH");
    QTest::addColumn<int>("outW");
    QTest::newRow("upscale") << false << false << 17 << 23;
    QTest::newRow("half pixel") << false << true << 17 << 23;
    QTest::newRow("align corners") << true << false << 17 << 23;
    QTest::newRow("downscale") << false << true << 3 << 5;
    QTest::newRow("one pixel") << true << false << 1 << 1;
  }
  void resizeMatchesTheDefinition() {
    QFETCH(bool, align);
    QFETCH(bool, half);
    QFETCH(int, outH);
    QFETCH(int, outW);
    const Tensor x = randomOf(DType::kFloat, Shape{2, 7, 9, 3}, 3);
    const AttrMap attrs = {{"align_corners", AttrValue::fromBool(align)},
                           {"half_pixel_centers", AttrValue::fromBool(half)}};
    const Tensor got =
        run1("ResizeBilinear", {x, tensorOf(DType::kInt32, Shape{2}, {double(outH), double(outW)})}, attrs);
    QCOMPARE(got.shape(), Shape({2, outH, outW, 3}));
    auto scale = [&](int64_t in, int64_t out) {
      return align && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                              : static_cast<float>(in) / static_cast<float>(out);
    };
    for (int64_t b = 0; b < 2; ++b)
      for (int64_t y = 0; y < outH; ++y)
        for (int64_t xo = 0; xo < outW; ++xo)
          for (int64_t ch = 0; ch < 3; ++ch) {
            const float want = referenceBilinear(x, b, y, xo, ch, scale(7, outH), scale(9, outW), half);
            QCOMPARE(got.data<float>()[((b * outH + y) * outW + xo) * 3 + ch], want);
          }
  }

  void resizeNearestOfIntegersAndErrors() {
    const Tensor x = tensorOf(DType::kInt32, Shape{1, 2, 2, 1}, {1, 2, 3, 4});
    const Tensor got = run1("ResizeNearestNeighbor", {x, tensorOf(DType::kInt32, Shape{2}, {4, 4})});
    QVERIFY(closeTo(got, Shape{1, 4, 4, 1}, {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
    const QString error = runError(
        "ResizeBilinear", {Tensor(DType::kFloat, Shape{1, 0, 3, 1}), tensorOf(DType::kInt32, Shape{2}, {2, 2})});
    QVERIFY2(error.contains("empty image"), qPrintable(error));
  }

  // Within 2 ulp-ish of the true tanh everywhere, exactly +-1 far out, and -0, NaN and infinities as TensorFlow.
  void tanhIsAccurate() {
    std::vector<double> values;
    for (double v = -12; v <= 12; v += 0.000731) values.push_back(v);
    for (double v : {1e-30, -1e-20, 1e-7, 0.4999999, 0.5, 0.5000001, 8.999, 9.0001}) values.push_back(v);
    const Tensor x = tensorOf(DType::kFloat, Shape{static_cast<int64_t>(values.size())}, values);
    const Tensor y = run1("Tanh", {x});
    for (int64_t i = 0; i < x.numElements(); ++i) {
      const double truth = std::tanh(static_cast<double>(x.data<float>()[i]));
      const double error = std::fabs(y.data<float>()[i] - truth);
      QVERIFY2(error <= 2.5e-7 * std::fabs(truth) + 1e-38, qPrintable(QString("tanh(%1) = %2, true %3")
                                                                          .arg(x.data<float>()[i], 0, 'g', 9)
                                                                          .arg(y.data<float>()[i], 0, 'g', 9)
                                                                          .arg(truth, 0, 'g', 9)));
    }
    const float inf = std::numeric_limits<float>::infinity();
    const Tensor special = tensorOf(DType::kFloat, Shape{4}, {-0.0, inf, -inf, std::nan("")});
    const Tensor t = run1("Tanh", {special});
    QVERIFY(std::signbit(t.data<float>()[0]) && t.data<float>()[0] == 0);
    QCOMPARE(t.data<float>()[1], 1.0f);
    QCOMPARE(t.data<float>()[2], -1.0f);
    QVERIFY(std::isnan(t.data<float>()[3]));
  }

  // Copies whose dimensions merge (channel-last unstack, slices of contiguous blocks, reversed and tiled runs) give
  // what an element-by-element gather gives.
  void mergedCopiesMatchTheDefinition() {
    const Tensor x = randomOf(DType::kFloat, Shape{5, 6, 3}, 9);
    auto element = [&](int64_t i, int64_t j, int64_t k) { return x.data<float>()[(i * 6 + j) * 3 + k]; };
    auto out = eagerExecute("Unpack", {x}, {{"axis", AttrValue::fromInt(2)}, {"num", AttrValue::fromInt(3)}});
    QVERIFY(out.hasValue());
    for (int64_t k = 0; k < 3; ++k)
      for (int64_t i = 0; i < 5; ++i)
        for (int64_t j = 0; j < 6; ++j)
          QCOMPARE((*out)[static_cast<size_t>(k)].data<float>()[i * 6 + j], element(i, j, k));
    const Tensor slice =
        run1("Slice", {x, tensorOf(DType::kInt32, Shape{3}, {1, 0, 0}), tensorOf(DType::kInt32, Shape{3}, {3, 6, 3})});
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 6; ++j)
        for (int64_t k = 0; k < 3; ++k) QCOMPARE(slice.data<float>()[(i * 6 + j) * 3 + k], element(i + 1, j, k));
    const Tensor all = run1(
        "Slice", {x, tensorOf(DType::kInt32, Shape{3}, {0, 0, 0}), tensorOf(DType::kInt32, Shape{3}, {-1, -1, -1})});
    QVERIFY(sameValues(all, x));
    QCOMPARE(all.bytes().data(), x.bytes().data());  // a slice of everything shares the buffer: nothing to copy
    const Tensor reversed = run1("ReverseV2", {x, tensorOf(DType::kInt32, Shape{2}, {1, 2})});
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t j = 0; j < 6; ++j)
        for (int64_t k = 0; k < 3; ++k) QCOMPARE(reversed.data<float>()[(i * 6 + j) * 3 + k], element(i, 5 - j, 2 - k));
    const Tensor tiled = run1("Tile", {x, tensorOf(DType::kInt32, Shape{3}, {2, 1, 1})});
    Tensor twice = run1("ConcatV2", {x, x, Tensor::scalar<int32_t>(DType::kInt32, 0)}, {{"N", AttrValue::fromInt(2)}});
    QVERIFY(sameValues(tiled, twice));
    const Tensor moved = run1("Transpose", {x, tensorOf(DType::kInt32, Shape{3}, {2, 0, 1})});
    for (int64_t k = 0; k < 3; ++k)
      for (int64_t i = 0; i < 5; ++i)
        for (int64_t j = 0; j < 6; ++j) QCOMPARE(moved.data<float>()[(k * 5 + i) * 6 + j], element(i, j, k));
    // Axes of size 1 move without moving elements: NCHW -> NHWC of one channel shares the buffer; a float NHWC ->
    // NCHW with small channels under the reorder's threshold is a strided copy, and both give the right values.
    const Tensor oneChannel = randomOf(DType::kFloat, Shape{1, 1, 4, 7}, 4);
    const Tensor toLast = run1("Transpose", {oneChannel, tensorOf(DType::kInt32, Shape{4}, {0, 2, 3, 1})});
    QCOMPARE(toLast.shape(), (Shape{1, 4, 7, 1}));
    QCOMPARE(toLast.bytes().data(), oneChannel.bytes().data());
    const Tensor small = randomOf(DType::kFloat, Shape{2, 3, 5, 4}, 5);
    const Tensor toFirst = run1("Transpose", {small, tensorOf(DType::kInt32, Shape{4}, {0, 3, 1, 2})});
    QCOMPARE(toFirst.shape(), (Shape{2, 4, 3, 5}));
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t c = 0; c < 4; ++c)
        for (int64_t h = 0; h < 3; ++h)
          for (int64_t w = 0; w < 5; ++w)
            QCOMPARE(toFirst.data<float>()[((n * 4 + c) * 3 + h) * 5 + w],
                     small.data<float>()[((n * 3 + h) * 5 + w) * 4 + c]);
  }

  // One MatMul node run again and again: weights that repeat are packed once (oneDNN's layout), new weights, even at
  // a new address after packing, are used as given; every result is the product.
  void matmulPacksRepeatedWeights() {
    auto model = std::make_shared<Model>();
    model->graph.addNode(graphNode("a", "Placeholder", {}));
    model->graph.addNode(graphNode("b", "Placeholder", {}));
    model->graph.addNode(graphNode("product", "MatMul", {"a", "b"}));
    ModelRunner runner(model);
    const Tensor a = randomOf(DType::kFloat, Shape{37, 64}, 1), b1 = randomOf(DType::kFloat, Shape{64, 29}, 2);
    const Tensor b2 = randomOf(DType::kFloat, Shape{64, 29}, 3);
    for (const Tensor* b : {&b1, &b1, &b1, &b2, &b2, &b1}) {
      auto out = runner.run({{"a", a}, {"b", *b}}, {"product"});
      QVERIFY2(out.hasValue(), out ? "" : out.status().message().c_str());
      QVERIFY(closeTo((*out)[0], Shape{37, 29}, referenceProduct(a, *b), 1e-4, 1e-4));
    }
  }

  // Random123's known answer for Philox4x32-10 with a zero key and counter, then the kernels' ranges and moments.
  void philoxAndTheRandomKernels() {
    const Philox::Block first = Philox(0, 0).next();
    QCOMPARE(first, (Philox::Block{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
    const AttrMap seeded = {{"seed", AttrValue::fromInt(7)},
                            {"seed2", AttrValue::fromInt(3)},
                            {"dtype", AttrValue::fromType(DType::kFloat)}};
    const Tensor shape = tensorOf(DType::kInt32, Shape{1}, {100001});
    const Tensor uniform = run1("RandomUniform", {shape}, seeded);
    QVERIFY(sameValues(uniform, run1("RandomUniform", {shape}, seeded)));  // seeded: reproducible
    const Tensor normal = run1("RandomStandardNormal", {shape}, seeded);
    const Tensor truncated = run1("TruncatedNormal", {shape}, seeded);
    double mean = 0, square = 0;
    for (int64_t i = 0; i < shape.data<int32_t>()[0]; ++i) {
      QVERIFY(uniform.data<float>()[i] >= 0 && uniform.data<float>()[i] < 1);
      QVERIFY(std::fabs(truncated.data<float>()[i]) <= 2);
      mean += normal.data<float>()[i];
      square += normal.data<float>()[i] * normal.data<float>()[i];
    }
    mean /= 100001, square /= 100001;
    QVERIFY2(std::fabs(mean) < 0.02 && std::fabs(square - 1) < 0.03,
             qPrintable(QString("%1 %2").arg(mean).arg(square)));
    const Tensor dice =
        run1("RandomUniformInt",
             {shape, Tensor::scalar<int32_t>(DType::kInt32, -3), Tensor::scalar<int32_t>(DType::kInt32, 4)}, seeded);
    std::vector<int> counts(7);
    for (int64_t i = 0; i < dice.numElements(); ++i) ++counts.at(static_cast<size_t>(dice.data<int32_t>()[i] + 3));
    for (int c : counts) QVERIFY2(c > 13500 && c < 15100, qPrintable(QString::number(c)));
  }
};

QTEST_APPLESS_MAIN(TestFastKernels)
#include "tst_fast_kernels.moc"
