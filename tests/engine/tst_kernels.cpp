// CPU kernels against straightforward reference implementations: dtypes, broadcasting, edge cases
// (empty tensors, size-1 dims, negative axes) and TensorFlow's division, rounding and padding rules.
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "base/thread_pool.h"
#include "engine/kernel_test_util.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/precision.h"
#include "ops/op_registry.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

// Reference broadcasting: the value of `t` at output coordinate `index` of `out`.
double at(const Tensor& t, const Shape& out, int64_t index) {
  const int rank = out.rank(), tr = t.shape().rank();
  int64_t offset = 0, stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    int64_t coord = index % out.dim(d);
    index /= out.dim(d);
    int td = d - (rank - tr);
    if (td >= 0) {
      if (t.shape().dim(td) != 1) offset += coord * stride;
      stride *= t.shape().dim(td);
    }
  }
  return t.elementAsDouble(offset);
}

double floorDivRef(double a, double b) { return std::floor(a / b); }
double floorModRef(double a, double b) { return a - std::floor(a / b) * b; }

// a [1, k] times b ([k, n], or [n, k] when transposed), in double.
std::vector<double> oneRowProduct(const Tensor& a, const Tensor& b, bool transposed) {
  const int64_t k = a.shape().dim(1), n = transposed ? b.shape().dim(0) : b.shape().dim(1);
  std::vector<double> out;
  for (int64_t j = 0; j < n; ++j) {
    double sum = 0;
    for (int64_t p = 0; p < k; ++p) sum += a.elementAsDouble(p) * b.elementAsDouble(transposed ? j * k + p : p * n + j);
    out.push_back(sum);
  }
  return out;
}

}  // namespace

class TestKernels : public QObject {
  Q_OBJECT

 private slots:
  void cleanup() { setIntraOpThreads(physicalCores()); }

  // The reference rounding of --precision (the GEMM shaders round the same way): to nearest, ties to even, at the
  // spacing of each format; fp16's overflow and subnormals, bf16's 8 significant bits.
  void roundingToPrecision() {
    const auto fp16 = [](double x) { return roundToPrecision(static_cast<float>(x), Precision::kFp16); };
    const auto bf16 = [](double x) { return roundToPrecision(static_cast<float>(x), Precision::kBf16); };
    QCOMPARE(fp16(1 + std::ldexp(1, -11)), 1.0f);                          // a tie: to the even neighbour
    QCOMPARE(fp16(1 + 3 * std::ldexp(1, -11)), 1 + std::ldexp(1.0f, -9));  // a tie the other way
    QCOMPARE(fp16(1 + std::ldexp(1, -10)), 1 + std::ldexp(1.0f, -10));     // representable: kept
    QCOMPARE(fp16(-1000.3), -1000.5f);                                     // spacing 0.5 in [512, 1024)
    QCOMPARE(fp16(65519), 65504.0f);
    QVERIFY(std::isinf(fp16(65520)) && fp16(-70000) < 0);
    QCOMPARE(fp16(std::ldexp(1, -24)), std::ldexp(1.0f, -24));      // the smallest subnormal
    QCOMPARE(fp16(std::ldexp(1, -25)), 0.0f);                       // half of it: a tie, to zero
    QCOMPARE(fp16(3 * std::ldexp(1, -25)), std::ldexp(1.0f, -23));  // 1.5 of it: a tie, to 2
    QCOMPARE(bf16(1 + std::ldexp(1, -8)), 1.0f);
    QCOMPARE(bf16(1 + 3 * std::ldexp(1, -8)), 1 + std::ldexp(1.0f, -6));
    QCOMPARE(bf16(3.0e38), 3.0040553e38f);  // bf16 keeps fp32's range
    QVERIFY(std::isnan(bf16(NAN)) && std::isnan(fp16(NAN)));
    QCOMPARE(roundToPrecision(0.1f, Precision::kFp32), 0.1f);
    QCOMPARE(*parsePrecision("bf16"), Precision::kBf16);
    QVERIFY(!parsePrecision("fp8"));
  }

  void binaryBroadcast_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<int>("dtype");
    QTest::addColumn<QString>("shapes");
    const char* ops[] = {"AddV2",    "Sub",      "Mul",     "Maximum", "Minimum", "SquaredDifference",
                         "FloorDiv", "FloorMod", "RealDiv", "Less",    "Equal"};
    const DType types[] = {DType::kFloat, DType::kDouble, DType::kInt32, DType::kInt64, DType::kInt8, DType::kUInt8};
    const char* shapes[] = {"[2,3] [2,3]", "[2,3] [3]",     "[2,1] [1,3]", "[] [4]",
                            "[0,3] [3]",   "[4,1,2] [3,1]", "[1] [1]"};
    for (const char* op : ops)
      for (DType t : types)
        for (const char* s : shapes) {
          if ((std::string(op) == "RealDiv") && !isFloating(t)) continue;
          QTest::newRow(QString("%1 %2 %3").arg(op, QString::fromUtf8(dtypeName(t).data()), s).toUtf8())
              << op << int(t) << s;
        }
  }
  void binaryBroadcast() {
    QFETCH(QString, op);
    QFETCH(int, dtype);
    QFETCH(QString, shapes);
    auto parse = [](const QString& s) {
      std::vector<int64_t> dims;
      for (const auto& part : QString(s).remove('[').remove(']').split(',', Qt::SkipEmptyParts))
        dims.push_back(part.toLongLong());
      return Shape(dims);
    };
    QStringList parts = shapes.split(' ');
    DType t = static_cast<DType>(dtype);
    bool unsignedType = t == DType::kUInt8;
    Tensor a = randomOf(t, parse(parts[0]), 1, unsignedType ? 0 : -9, 9);
    Tensor b = randomOf(t, parse(parts[1]), 2, unsignedType ? 1 : -9, 9);
    if (!isFloating(t))  // integer division by zero is an error (tested below): keep divisors non-zero
      for (int64_t i = 0; i < b.numElements(); ++i)
        if (b.elementAsDouble(i) == 0) b = run1("AddV2", {b, tensorOf(t, Shape{}, {1})});
    for (int64_t i = 0; i < b.numElements(); ++i)
      if (b.elementAsDouble(i) == 0) qFatal("zero divisor left");
    Tensor out = run1(op.toStdString(), {a, b});
    for (int64_t i = 0; i < out.numElements(); ++i) {
      double x = at(a, out.shape(), i), y = at(b, out.shape(), i), want = 0;
      if (op == "AddV2")
        want = x + y;
      else if (op == "Sub")
        want = x - y;
      else if (op == "Mul")
        want = x * y;
      else if (op == "Maximum")
        want = std::max(x, y);
      else if (op == "Minimum")
        want = std::min(x, y);
      else if (op == "SquaredDifference")
        want = (x - y) * (x - y);
      else if (op == "FloorDiv")
        want = floorDivRef(x, y);
      else if (op == "FloorMod")
        want = floorModRef(x, y);
      else if (op == "RealDiv")
        want = x / y;
      else if (op == "Less")
        want = x < y;
      else if (op == "Equal")
        want = x == y;
      if (!isFloating(t) && op != "Less" && op != "Equal") {  // wrap like the C++ type does
        if (t == DType::kInt8) want = static_cast<int8_t>(static_cast<int64_t>(want));
        if (t == DType::kUInt8) want = static_cast<uint8_t>(static_cast<int64_t>(want));
      }
      double got = out.elementAsDouble(i);
      double tol = t == DType::kFloat ? 1e-5 * (1 + std::fabs(want)) : 1e-12;
      QVERIFY2(std::fabs(got - want) <= tol,
               qPrintable(QString("element %1: got %2, expected %3").arg(i).arg(got).arg(want)));
    }
  }

  void integerDivisionRules() {
    Tensor a = tensorOf(DType::kInt32, Shape{4}, {7, -7, 7, -7});
    Tensor b = tensorOf(DType::kInt32, Shape{4}, {2, 2, -2, -2});
    QVERIFY(closeTo(run1("Div", {a, b}), Shape{4}, {3, -3, -3, 3}));       // truncates
    QVERIFY(closeTo(run1("FloorDiv", {a, b}), Shape{4}, {3, -4, -4, 3}));  // toward -inf
    QVERIFY(closeTo(run1("FloorMod", {a, b}), Shape{4}, {1, 1, -1, -1}));  // sign of the divisor
    QVERIFY(runError("FloorDiv", {a, tensorOf(DType::kInt32, Shape{4}, {1, 0, 1, 1})})
                .contains("Integer division by zero"));
    QVERIFY(runError("Pow", {a, tensorOf(DType::kInt32, Shape{4}, {1, -1, 1, 1})}).contains("negative integer powers"));
    QVERIFY(
        closeTo(run1("Pow", {tensorOf(DType::kInt32, Shape{2}, {3, -2}), tensorOf(DType::kInt32, Shape{2}, {4, 3})}),
                Shape{2}, {81, -8}));
  }

  // A scalar exponent of 2, 0.5 or 1 skips std::pow: the results must still be pow's, signed zeros, infinities and
  // NaN included (x * x and sqrt are correctly rounded, so they may only beat pow's last bit).
  void powWithSimpleExponents() {
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> xs = {3.0f, -1.5f, 0.0f, -0.0f, 1e-30f, 7.1e22f, inf, -inf, nan, 2.0f, 0.3f, -4.0f};
    for (float y : {2.0f, 0.5f, 1.0f, 3.0f}) {
      Tensor x(DType::kFloat, Shape{static_cast<int64_t>(xs.size())});
      std::copy(xs.begin(), xs.end(), x.data<float>());
      const Tensor out = run1("Pow", {x, Tensor::scalar<float>(DType::kFloat, y)});
      for (size_t i = 0; i < xs.size(); ++i) {
        const float got = out.data<float>()[i], want = std::pow(xs[i], y);
        const bool same = std::isnan(want) ? std::isnan(got) : got == want && std::signbit(got) == std::signbit(want);
        const bool withinAnUlp = std::isfinite(want) && std::fabs(got - want) <= std::fabs(want) * 1.2e-7f;
        QVERIFY2(same || withinAnUlp,
                 qPrintable(QString("%1 ^ %2: got %3, pow gives %4").arg(xs[i]).arg(y).arg(got).arg(want)));
      }
    }
  }

  void broadcastErrors() {
    QString e = runError("AddV2", {tensorOf(DType::kFloat, Shape{2, 3}, {}), tensorOf(DType::kFloat, Shape{4}, {})});
    QVERIFY2(e.contains("do not broadcast") && e.contains("[2,3]") && e.contains("AddV2"), qPrintable(e));
    e = runError("AddV2", {tensorOf(DType::kFloat, Shape{2}, {}), tensorOf(DType::kInt32, Shape{2}, {})});
    QVERIFY2(e.contains("must be float32"), qPrintable(e));
  }

  void unary_data() {
    QTest::addColumn<QString>("op");
    for (const char* op :
         {"Neg",  "Abs",   "Exp",  "Log",  "Sqrt",  "Rsqrt", "Square",   "Reciprocal", "Tanh", "Sigmoid", "Floor",
          "Ceil", "Round", "Sign", "Relu", "Relu6", "Elu",   "Softplus", "Sin",        "Cos",  "Erf",     "LeakyRelu"})
      QTest::newRow(op) << op;
  }
  void unary() {
    QFETCH(QString, op);
    std::vector<double> xs = {-7.5, -2.5, -0.5, 0.0, 0.5, 1.5, 2.5, 6.5};
    bool positiveOnly = op == "Log" || op == "Sqrt" || op == "Rsqrt";
    if (positiveOnly) xs = {0.25, 0.5, 1, 2, 3, 4, 9, 100};
    Tensor out = run1(op.toStdString(), {tensorOf(DType::kDouble, Shape{8}, xs)});
    for (size_t i = 0; i < xs.size(); ++i) {
      double x = xs[i], want = 0;
      if (op == "Neg")
        want = -x;
      else if (op == "Abs")
        want = std::fabs(x);
      else if (op == "Exp")
        want = std::exp(x);
      else if (op == "Log")
        want = std::log(x);
      else if (op == "Sqrt")
        want = std::sqrt(x);
      else if (op == "Rsqrt")
        want = 1 / std::sqrt(x);
      else if (op == "Square")
        want = x * x;
      else if (op == "Reciprocal")
        want = 1 / x;
      else if (op == "Tanh")
        want = std::tanh(x);
      else if (op == "Sigmoid")
        want = 1 / (1 + std::exp(-x));
      else if (op == "Floor")
        want = std::floor(x);
      else if (op == "Ceil")
        want = std::ceil(x);
      else if (op == "Round")
        want = x - std::floor(x) == 0.5 ? 2 * std::round(x / 2) : std::round(x);  // half to even
      else if (op == "Sign")
        want = (x > 0) - (x < 0);
      else if (op == "Relu")
        want = std::max(x, 0.0);
      else if (op == "Relu6")
        want = std::min(std::max(x, 0.0), 6.0);
      else if (op == "Elu")
        want = x > 0 ? x : std::exp(x) - 1;
      else if (op == "Softplus")
        want = std::log(1 + std::exp(x));
      else if (op == "Sin")
        want = std::sin(x);
      else if (op == "Cos")
        want = std::cos(x);
      else if (op == "Erf")
        want = std::erf(x);
      else if (op == "LeakyRelu")
        want = x > 0 ? x : 0.2 * x;
      if (op == "Reciprocal" && x == 0) want = INFINITY;
      double got = out.elementAsDouble(static_cast<int64_t>(i));
      QVERIFY2(std::isinf(want)
                   ? std::isinf(got)
                   : std::fabs(got - want) < 1e-7 * (1 + std::fabs(want)),  // LeakyRelu's alpha is a float attr
               qPrintable(QString("%1(%2) = %3, expected %4").arg(op).arg(x).arg(got).arg(want)));
    }
  }

  void castsIncludingHalf() {
    Tensor f = tensorOf(DType::kFloat, Shape{4}, {1.5, -2.25, 1e5, 0});
    AttrMap toHalf{{"DstT", AttrValue::fromType(DType::kHalf)}}, toFloat{{"DstT", AttrValue::fromType(DType::kFloat)}};
    Tensor h = run1("Cast", {f}, toHalf);
    QCOMPARE(h.dtype(), DType::kHalf);
    QVERIFY(closeTo(run1("Cast", {h}, toFloat), Shape{4}, {1.5, -2.25, INFINITY, 0}));
    QVERIFY(closeTo(run1("Cast", {f}, {{"DstT", AttrValue::fromType(DType::kInt32)}}), Shape{4}, {1, -2, 100000, 0}));
    QVERIFY(closeTo(run1("Cast", {f}, {{"DstT", AttrValue::fromType(DType::kBool)}}), Shape{4}, {1, 1, 1, 0}));
  }

  void reductions_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("axes");
    QTest::addColumn<bool>("keep");
    QTest::addColumn<bool>("single");  // float32: leading or middle axes fold rows without a transpose
    for (const char* op : {"Sum", "Mean", "Max", "Min", "Prod"})
      for (const char* axes : {"0", "1", "-1", "0,2", "0,1", "1,-1", ""})
        for (bool keep : {false, true})
          for (bool single : {false, true})
            QTest::newRow(QString("%1 [%2] %3 %4").arg(op, axes).arg(keep).arg(single ? "f32" : "f64").toUtf8())
                << op << axes << keep << single;
  }
  void reductions() {
    QFETCH(QString, op);
    QFETCH(QString, axes);
    QFETCH(bool, keep);
    QFETCH(bool, single);
    Tensor x = randomOf(single ? DType::kFloat : DType::kDouble, Shape{2, 3, 4}, 7, 0.5, 2);
    std::vector<double> axisValues;
    for (const auto& a : axes.split(',', Qt::SkipEmptyParts)) axisValues.push_back(a.toInt());
    Tensor axisT = tensorOf(DType::kInt32, Shape{static_cast<int64_t>(axisValues.size())}, axisValues);
    Tensor out = run1(op.toStdString(), {x, axisT}, {{"keep_dims", AttrValue::fromBool(keep)}});
    std::vector<bool> reduced(3, false);
    for (double a : axisValues) reduced[static_cast<size_t>((static_cast<int>(a) + 3) % 3)] = true;
    std::vector<int64_t> outDims;
    for (int d = 0; d < 3; ++d)
      if (!reduced[static_cast<size_t>(d)])
        outDims.push_back(x.shape().dim(d));
      else if (keep)
        outDims.push_back(1);
    QCOMPARE(out.shape(), Shape(outDims));
    std::map<std::vector<int64_t>, std::vector<double>> groups;
    for (int64_t i = 0; i < 24; ++i) {
      std::vector<int64_t> key = {reduced[0] ? 0 : i / 12, reduced[1] ? 0 : (i / 4) % 3, reduced[2] ? 0 : i % 4};
      groups[key].push_back(x.elementAsDouble(i));
    }
    int64_t k = 0;
    for (const auto& [key, vals] : groups) {
      double want = op == "Sum" || op == "Mean" ? 0 : op == "Prod" ? 1 : vals[0];
      for (double v : vals) {
        if (op == "Sum" || op == "Mean")
          want += v;
        else if (op == "Prod")
          want *= v;
        else if (op == "Max")
          want = std::max(want, v);
        else
          want = std::min(want, v);
      }
      if (op == "Mean") want /= static_cast<double>(vals.size());
      QVERIFY(std::fabs(out.elementAsDouble(k++) - want) < (single ? 1e-6 : 1e-9) * (1 + std::fabs(want)));
    }
  }

  // NHWC's H and W reduced (a global average pool): the block form, its channels in chunks of 32 (two whole chunks
  // and a ragged one here) shared among the threads.
  void reductionOverMiddleAxesInChunks() {
    const Tensor x = randomOf(DType::kFloat, Shape{2, 3, 5, 70}, 8, -2, 2);
    const Tensor axes = tensorOf(DType::kInt32, Shape{2}, {1, 2});
    for (int threads : {1, 2})
      for (const char* op : {"Sum", "Mean", "Max", "Min"}) {
        setIntraOpThreads(threads);
        const Tensor out = run1(op, {x, axes}, {{"keep_dims", AttrValue::fromBool(true)}});
        std::vector<double> want;
        for (int64_t n = 0; n < 2; ++n)
          for (int64_t c = 0; c < 70; ++c) {
            double sum = 0, hi = -1e9, lo = 1e9;
            for (int64_t p = 0; p < 15; ++p) {
              const double v = x.elementAsDouble((n * 15 + p) * 70 + c);
              sum += v, hi = std::max(hi, v), lo = std::min(lo, v);
            }
            const std::string name = op;
            want.push_back(name == "Sum" ? sum : name == "Mean" ? sum / 15 : name == "Max" ? hi : lo);
          }
        QVERIFY2(closeTo(out, Shape{2, 1, 1, 70}, want), qPrintable(QString("%1, %2 threads").arg(op).arg(threads)));
      }
  }

  void integerMeanTruncates() {
    QVERIFY(
        closeTo(run1("Mean", {tensorOf(DType::kInt32, Shape{3}, {1, 2, 2}), tensorOf(DType::kInt32, Shape{1}, {0})}),
                Shape{}, {1}));
    QVERIFY(closeTo(run1("ArgMax", {tensorOf(DType::kFloat, Shape{2, 3}, {1, 5, 5, 9, 0, 2}),
                                    tensorOf(DType::kInt32, Shape{}, {1})}),
                    Shape{2}, {1, 0}));
  }

  void matmul_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    QTest::addColumn<bool>("ta");
    QTest::addColumn<bool>("tb");
    QTest::addColumn<int>("dtype");
    for (auto [m, k, n] : std::vector<std::tuple<int, int, int>>{{1, 1, 1},
                                                                 {10, 10, 10},
                                                                 {3, 7, 5},
                                                                 {64, 128, 96},
                                                                 {1, 784, 512},
                                                                 {1, 300, 70},
                                                                 {1, 5000, 5}})  // one row: gemv.h, lane tails
      for (bool ta : {false, true})
        for (bool tb : {false, true})
          for (DType t : {DType::kFloat, DType::kInt32, DType::kDouble})
            QTest::newRow(QString("%1x%2x%3 ta=%4 tb=%5 %6")
                              .arg(m)
                              .arg(k)
                              .arg(n)
                              .arg(ta)
                              .arg(tb)
                              .arg(QString::fromUtf8(dtypeName(t).data()))
                              .toUtf8())
                << m << k << n << ta << tb << int(t);
  }
  void matmul() {
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    QFETCH(bool, ta);
    QFETCH(bool, tb);
    QFETCH(int, dtype);
    DType t = static_cast<DType>(dtype);
    Tensor a = randomOf(t, ta ? Shape{k, m} : Shape{m, k}, 3);
    Tensor b = randomOf(t, tb ? Shape{n, k} : Shape{k, n}, 4);
    Tensor out =
        run1("MatMul", {a, b}, {{"transpose_a", AttrValue::fromBool(ta)}, {"transpose_b", AttrValue::fromBool(tb)}});
    QCOMPARE(out.shape(), (Shape{m, n}));
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double want = 0;
        for (int p = 0; p < k; ++p)
          want += a.elementAsDouble(ta ? p * m + i : i * k + p) * b.elementAsDouble(tb ? j * k + p : p * n + j);
        double got = out.elementAsDouble(i * n + j);
        QVERIFY2(std::fabs(got - want) <= (t == DType::kFloat ? 1e-4 * (1 + std::fabs(want)) : 1e-9),
                 qPrintable(QString("(%1,%2): %3 vs %4").arg(i).arg(j).arg(got).arg(want)));
      }
  }

  // A product of one row with a bias and an activation (a classifier at batch 1): the matrix-vector kernel, then
  // the epilogue.
  void fusedMatMulOfOneRow() {
    for (bool tb : {false, true}) {
      const int64_t k = 333, n = 77;
      Tensor a = randomOf(DType::kFloat, Shape{1, k}, 5);
      Tensor b = randomOf(DType::kFloat, tb ? Shape{n, k} : Shape{k, n}, 6);
      Tensor bias = randomOf(DType::kFloat, Shape{n}, 7, -20, 20);
      AttrList ops;
      ops.s = {"BiasAdd", "Relu"};
      Tensor out = run1("_FusedMatMul", {a, b, bias},
                        {{"transpose_b", AttrValue::fromBool(tb)},
                         {"fused_ops", AttrValue::fromList(ops)},
                         {"num_args", AttrValue::fromInt(1)}});
      std::vector<double> want;
      for (int64_t j = 0; j < n; ++j) {
        double sum = bias.elementAsDouble(j);
        for (int64_t p = 0; p < k; ++p) sum += a.elementAsDouble(p) * b.elementAsDouble(tb ? j * k + p : p * n + j);
        want.push_back(std::max(sum, 0.0));
      }
      QVERIFY2(closeTo(out, Shape{1, n}, want, 1e-4, 1e-5), tb ? "B transposed" : "B plain");
    }
  }

  // Weights seen twice in a row are packed into blocks of columns (gemv.h): the second product reads the packed copy,
  // and new weights of the same shape are packed anew, not read from the old copy.
  void matmulOfOneRowPacksReusedWeights() {
    for (bool tb : {false, true})
      for (auto [k, n] : std::vector<std::pair<int64_t, int64_t>>{{1280, 1000}, {300, 70}, {300, 128}, {130, 129}}) {
        const AttrMap attrs{{"transpose_b", AttrValue::fromBool(tb)}};
        const Tensor first = randomOf(DType::kFloat, tb ? Shape{n, k} : Shape{k, n}, 8);
        const Tensor second = randomOf(DType::kFloat, tb ? Shape{n, k} : Shape{k, n}, 9);
        int seed = 10;
        for (const Tensor* b : {&first, &first, &first, &second, &second}) {
          const Tensor a = randomOf(DType::kFloat, Shape{1, k}, seed++);
          const QString what = QString("k %1, n %2, tb %3, call %4").arg(k).arg(n).arg(tb).arg(seed - 10);
          QVERIFY2(closeTo(run1("MatMul", {a, *b}, attrs), Shape{1, n}, oneRowProduct(a, *b, tb), 1e-4, 1e-5),
                   qPrintable(what));
        }
      }
  }

  // The packed weights give the same bits as the first, unpacked product (a model's runs repeat bit for bit).
  void matmulOfOneRowRepeatsBitForBitOncePacked() {
    for (bool tb : {false, true}) {
      const int64_t k = 1283, n = 1000;
      const AttrMap attrs{{"transpose_b", AttrValue::fromBool(tb)}};
      const Tensor a = randomOf(DType::kFloat, Shape{1, k}, 12);
      const Tensor b = randomOf(DType::kFloat, tb ? Shape{n, k} : Shape{k, n}, 13);
      const Tensor unpacked = run1("MatMul", {a, b}, attrs), packed = run1("MatMul", {a, b}, attrs);
      QVERIFY2(std::memcmp(unpacked.bytes().data(), packed.bytes().data(), static_cast<size_t>(n) * sizeof(float)) == 0,
               tb ? "B transposed" : "B plain");
    }
  }

  // A reshaped tensor shares its buffer: weights packed for one product's shape are not read for another's.
  void matmulOfOneRowRepacksAReshapedBuffer() {
    const Tensor w = randomOf(DType::kFloat, Shape{256, 64}, 14);
    const Tensor a = randomOf(DType::kFloat, Shape{1, 256}, 15), wide = randomOf(DType::kFloat, Shape{1, 128}, 16);
    for (int i = 0; i < 2; ++i) QVERIFY(closeTo(run1("MatMul", {a, w}), Shape{1, 64}, oneRowProduct(a, w, false)));
    const Tensor square = w.reshaped(Shape{128, 128});  // the same packed size, 2 blocks of 64 x 128 rows
    for (int i = 0; i < 2; ++i)
      QVERIFY(closeTo(run1("MatMul", {wide, square}), Shape{1, 128}, oneRowProduct(wide, square, false)));
  }

  void matmulShapeError() {
    QString e =
        runError("MatMul", {tensorOf(DType::kFloat, Shape{2, 3}, {}), tensorOf(DType::kFloat, Shape{2, 3}, {})});
    QVERIFY2(e.contains("Matrix size-incompatible"), qPrintable(e));
  }

  void convolution_data() {
    QTest::addColumn<QString>("padding");
    QTest::addColumn<int>("stride");
    QTest::addColumn<int>("dilation");
    QTest::addColumn<bool>("depthwise");
    for (const char* p : {"SAME", "VALID"})
      for (int s : {1, 2})
        for (int d : {1, 2})
          for (bool dw : {false, true})
            if (!(s > 1 && d > 1))
              QTest::newRow(QString("%1 s%2 d%3 %4").arg(p).arg(s).arg(d).arg(dw ? "depthwise" : "conv").toUtf8())
                  << p << s << d << dw;
  }
  void convolution() {
    QFETCH(QString, padding);
    QFETCH(int, stride);
    QFETCH(int, dilation);
    QFETCH(bool, depthwise);
    const int64_t n = 2, h = 7, w = 6, c = 3, kh = 3, kw = 2, oc = depthwise ? 2 : 4;
    Tensor x = randomOf(DType::kFloat, Shape{n, h, w, c}, 11);
    Tensor f = randomOf(DType::kFloat, Shape{kh, kw, c, oc}, 12);
    AttrMap attrs{{"strides", ints({1, stride, stride, 1})},
                  {"dilations", ints({1, dilation, dilation, 1})},
                  {"padding", AttrValue::fromString(padding.toStdString())}};
    Tensor out = run1(depthwise ? "DepthwiseConv2dNative" : "Conv2D", {x, f}, attrs);
    auto outSize = [&](int64_t in, int64_t k) {
      int64_t eff = (k - 1) * dilation + 1;
      return padding == "SAME" ? (in + stride - 1) / stride : (in - eff) / stride + 1;
    };
    const int64_t oh = outSize(h, kh), ow = outSize(w, kw), channels = depthwise ? c * oc : oc;
    QCOMPARE(out.shape(), (Shape{n, oh, ow, channels}));
    auto padBefore = [&](int64_t in, int64_t k, int64_t o) {
      return padding == "SAME" ? std::max<int64_t>((o - 1) * stride + (k - 1) * dilation + 1 - in, 0) / 2 : 0;
    };
    const int64_t pt = padBefore(h, kh, oh), pl = padBefore(w, kw, ow);
    for (int64_t b = 0; b < n; ++b)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xo = 0; xo < ow; ++xo)
          for (int64_t o = 0; o < channels; ++o) {
            double want = 0;
            for (int64_t i = 0; i < kh; ++i)
              for (int64_t j = 0; j < kw; ++j) {
                int64_t iy = y * stride + i * dilation - pt, ix = xo * stride + j * dilation - pl;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                if (depthwise) {
                  int64_t ci = o / oc, mi = o % oc;
                  want += x.elementAsDouble(((b * h + iy) * w + ix) * c + ci) *
                          f.elementAsDouble(((i * kw + j) * c + ci) * oc + mi);
                } else {
                  for (int64_t ci = 0; ci < c; ++ci)
                    want += x.elementAsDouble(((b * h + iy) * w + ix) * c + ci) *
                            f.elementAsDouble(((i * kw + j) * c + ci) * oc + o);
                }
              }
            double got = out.elementAsDouble(((b * oh + y) * ow + xo) * channels + o);
            QVERIFY2(std::fabs(got - want) < 1e-4 * (1 + std::fabs(want)),
                     qPrintable(QString("%1 vs %2").arg(got).arg(want)));
          }
  }

  void pooling() {
    Tensor x = tensorOf(DType::kFloat, Shape{1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    AttrMap same{
        {"ksize", ints({1, 2, 2, 1})}, {"strides", ints({1, 2, 2, 1})}, {"padding", AttrValue::fromString("SAME")}};
    QVERIFY(closeTo(run1("MaxPool", {x}, same), Shape{1, 2, 2, 1}, {5, 6, 8, 9}));
    // SAME average pooling divides by the number of valid elements only.
    QVERIFY(closeTo(run1("AvgPool", {x}, same), Shape{1, 2, 2, 1}, {3, 4.5, 7.5, 9}));
    AttrMap valid = same;
    valid["padding"] = AttrValue::fromString("VALID");
    QVERIFY(closeTo(run1("MaxPool", {x}, valid), Shape{1, 1, 1, 1}, {5}));
  }

  void softmaxRowsSumToOne() {
    Tensor logits = randomOf(DType::kFloat, Shape{5, 17}, 9, -30, 30);
    Tensor p = run1("Softmax", {logits});
    for (int r = 0; r < 5; ++r) {
      double sum = 0;
      for (int c = 0; c < 17; ++c) sum += p.elementAsDouble(r * 17 + c);
      QVERIFY(std::fabs(sum - 1) < 1e-5);
    }
  }

  void arrayOps() {
    Tensor x = tensorOf(DType::kInt32, Shape{2, 3}, {0, 1, 2, 3, 4, 5});
    QVERIFY(
        closeTo(run1("Transpose", {x, tensorOf(DType::kInt32, Shape{2}, {1, 0})}), Shape{3, 2}, {0, 3, 1, 4, 2, 5}));
    QVERIFY(closeTo(run1("ConcatV2", {x, x, tensorOf(DType::kInt32, Shape{}, {-1})}), Shape{2, 6},
                    {0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
    QVERIFY(closeTo(run1("Tile", {x, tensorOf(DType::kInt32, Shape{2}, {2, 1})}), Shape{4, 3},
                    {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}));
    QVERIFY(closeTo(run1("Pad", {x, tensorOf(DType::kInt32, Shape{2, 2}, {1, 0, 0, 1})}), Shape{3, 4},
                    {0, 0, 0, 0, 0, 1, 2, 0, 3, 4, 5, 0}));
    QVERIFY(closeTo(run1("MirrorPad", {x, tensorOf(DType::kInt32, Shape{2, 2}, {0, 0, 1, 1})},
                         {{"mode", AttrValue::fromString("REFLECT")}}),
                    Shape{2, 5}, {1, 0, 1, 2, 1, 4, 3, 4, 5, 4}));
    QVERIFY(closeTo(run1("Reshape", {x, tensorOf(DType::kInt32, Shape{2}, {-1, 2})}), Shape{3, 2}, {0, 1, 2, 3, 4, 5}));
    QVERIFY(runError("Reshape", {x, tensorOf(DType::kInt32, Shape{2}, {4, 2})}).contains("cannot reshape"));
    QVERIFY(closeTo(run1("Pack", {x, x}, {{"axis", AttrValue::fromInt(1)}}), Shape{2, 2, 3},
                    {0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
    QVERIFY(closeTo(run1("ReverseV2", {x, tensorOf(DType::kInt32, Shape{1}, {-1})}), Shape{2, 3}, {2, 1, 0, 5, 4, 3}));
    QVERIFY(closeTo(run1("Range", {tensorOf(DType::kInt32, Shape{}, {3}), tensorOf(DType::kInt32, Shape{}, {-4}),
                                   tensorOf(DType::kInt32, Shape{}, {-3})}),
                    Shape{3}, {3, 0, -3}));
    Tensor empty = tensorOf(DType::kFloat, Shape{0, 3}, {});
    QCOMPARE(run1("Relu", {empty}).shape(), (Shape{0, 3}));
    QCOMPARE(run1("Sum", {empty, tensorOf(DType::kInt32, Shape{1}, {0})}).shape(), (Shape{3}));
  }

  void slicing() {
    Tensor x = tensorOf(DType::kFloat, Shape{3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    auto v = [](std::vector<double> values) {
      return tensorOf(DType::kInt32, Shape{static_cast<int64_t>(values.size())}, values);
    };
    QVERIFY(closeTo(run1("Slice", {x, v({1, 1}), v({-1, 2})}), Shape{2, 2}, {5, 6, 9, 10}));
    QVERIFY(closeTo(run1("StridedSlice", {x, v({0, 3}), v({3, 0}), v({2, -1})}), Shape{2, 3}, {3, 2, 1, 11, 10, 9}));
    QVERIFY(closeTo(run1("StridedSlice", {x, v({-1}), v({0}), v({1})}, {{"shrink_axis_mask", AttrValue::fromInt(1)}}),
                    Shape{4}, {8, 9, 10, 11}));
    QVERIFY(runError("Slice", {x, v({2, 0}), v({2, 1})}).contains("outside dim 0"));
  }

  void everyScheduledOpHasAKernel() {
    // Ops that load and show but do not run on the CPU backend yet, each for a stated reason: audio front ends
    // (feed their outputs instead), checkpoint I/O (variables are read from the checkpoint directly),
    // tf.Example parsing and Einsum.
    const std::set<std::string> notYet = {"Einsum",        "DecodeWav", "AudioSpectrogram",   "Mfcc",
                                          "RestoreV2",     "SaveV2",    "MergeV2Checkpoints", "ParseExample",
                                          "ParseExampleV2"};
    // TensorFlow's op set only: which ONNX ops run is what tst_onnx_conformance reports, op by op.
    std::vector<std::string> missing;
    for (const auto& schema : OpRegistry::global().all())
      if (!isOnnxOp(schema.def.name) && !cpuKernelTable().find(schema.def.name) && !notYet.count(schema.def.name))
        missing.push_back(schema.def.name);
    QVERIFY2(missing.empty(), missing.empty() ? "" : missing[0].c_str());
  }

  void addNAndStrings() {
    Tensor a = tensorOf(DType::kInt32, Shape{2}, {1, 2});
    QVERIFY(closeTo(run1("AddN", {a, a, a}), Shape{2}, {3, 6}));
    QVERIFY(runError("AddN", {a, tensorOf(DType::kInt32, Shape{1}, {1})}).contains("does not broadcast"));
    Tensor s = run1("StringFormat", {tensorOf(DType::kInt32, Shape{2, 2}, {1, 2, 3, 4})},
                    {{"template", AttrValue::fromString("x = {}")}, {"placeholder", AttrValue::fromString("{}")}});
    QCOMPARE(QString::fromStdString(s.strings()[0]), QString("x = [[1 2]\n [3 4]]"));
  }

  void transposedConvolutionIsTheAdjoint() {
    // <conv(x, f), dy> == <x, conv2d_backprop_input(dy, f)> for any x, dy.
    Tensor x = randomOf(DType::kFloat, Shape{1, 6, 5, 2}, 31), f = randomOf(DType::kFloat, Shape{3, 3, 2, 4}, 32);
    AttrMap attrs{{"strides", ints({1, 2, 2, 1})}, {"padding", AttrValue::fromString("SAME")}};
    Tensor y = run1("Conv2D", {x, f}, attrs);
    Tensor dy = randomOf(DType::kFloat, y.shape(), 33);
    Tensor dx = run1("Conv2DBackpropInput", {tensorOf(DType::kInt32, Shape{4}, {1, 6, 5, 2}), f, dy}, attrs);
    double lhs = 0, rhs = 0;
    for (int64_t i = 0; i < y.numElements(); ++i) lhs += y.elementAsDouble(i) * dy.elementAsDouble(i);
    for (int64_t i = 0; i < x.numElements(); ++i) rhs += x.elementAsDouble(i) * dx.elementAsDouble(i);
    QVERIFY2(std::fabs(lhs - rhs) < 1e-3 * (1 + std::fabs(lhs)), qPrintable(QString("%1 vs %2").arg(lhs).arg(rhs)));
  }

  void gatherAndErrors() {
    Tensor params = tensorOf(DType::kFloat, Shape{3, 2}, {0, 1, 2, 3, 4, 5});
    Tensor idx = tensorOf(DType::kInt32, Shape{2}, {2, 0});
    QVERIFY(closeTo(run1("GatherV2", {params, idx, tensorOf(DType::kInt32, Shape{}, {0})}), Shape{2, 2}, {4, 5, 0, 1}));
    QVERIFY(closeTo(
        run1("GatherV2", {params, tensorOf(DType::kInt32, Shape{}, {1}), tensorOf(DType::kInt32, Shape{}, {-1})}),
        Shape{3}, {1, 3, 5}));
    QString e =
        runError("GatherV2", {params, tensorOf(DType::kInt32, Shape{1}, {3}), tensorOf(DType::kInt32, Shape{}, {0})});
    QVERIFY2(e.contains("indices[0] = 3 is not in [0, 3)"), qPrintable(e));
    QVERIFY(closeTo(run1("GatherNd", {params, tensorOf(DType::kInt32, Shape{2, 2}, {1, 1, 2, 0})}), Shape{2}, {3, 4}));
  }
};

QTEST_APPLESS_MAIN(TestKernels)
#include "tst_kernels.moc"
