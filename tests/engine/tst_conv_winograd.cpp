// 3x3 stride-1 convolutions marked `_winograd` (the ONNX channels-last pass marks them) against the direct Conv2D:
// oneDNN's F(4x4, 3x3) kernel where the transformed weights are small, its F(2x2, 3x3) one where they are not, the
// direct one below 14x14 outputs, on sizes that are not a multiple of any tile.
#include <QtTest>

#include "kernel_test_util.h"
#include "onnx_test_util.h"
#include "vulkan_case.h"

using namespace flowscope;

namespace {

AttrValue stringList(std::vector<std::string> v) {
  AttrList l;
  l.s = std::move(v);
  return AttrValue::fromList(std::move(l));
}

AttrMap convAttrs(const std::string& padding) {
  return {{"T", AttrValue::fromType(DType::kFloat)},
          {"strides", vktest::ints({1, 1, 1, 1})},
          {"padding", AttrValue::fromString(padding)}};
}

// Conv2D, BiasAdd and Relu, each on its own.
Tensor reference(const Tensor& x, const Tensor& filter, const Tensor& bias, const std::string& padding) {
  Tensor conv = testing::run1("Conv2D", {x, filter}, convAttrs(padding));
  Tensor biased = testing::run1("BiasAdd", {conv, bias}, {{"T", AttrValue::fromType(DType::kFloat)}});
  return testing::run1("Relu", {biased}, {{"T", AttrValue::fromType(DType::kFloat)}});
}

}  // namespace

class TestConvWinograd : public QObject {
  Q_OBJECT

 private slots:
  void winogradMatchesDirect_data() {
    QTest::addColumn<int>("h");
    QTest::addColumn<int>("w");
    QTest::addColumn<int>("c");
    QTest::addColumn<int>("oc");
    QTest::addColumn<QString>("padding");
    QTest::newRow("F(4x4): 8 -> 16, 16x16") << 16 << 16 << 8 << 16 << "SAME";
    QTest::newRow("F(4x4): 16 -> 24, 19x17 odd") << 19 << 17 << 16 << 24 << "SAME";
    QTest::newRow("F(4x4): 64 -> 64, 21x21 valid") << 21 << 21 << 64 << 64 << "VALID";
    QTest::newRow("F(2x2): 128 -> 128, 28x28") << 28 << 28 << 128 << 128 << "SAME";
    QTest::newRow("direct below 14x14: 32 -> 32, 9x9") << 9 << 9 << 32 << 32 << "SAME";
  }

  void winogradMatchesDirect() {
    QFETCH(int, h);
    QFETCH(int, w);
    QFETCH(int, c);
    QFETCH(int, oc);
    QFETCH(QString, padding);
    const Tensor x = testing::randomOf(DType::kFloat, Shape{1, h, w, c}, 1);
    const Tensor filter = testing::randomOf(DType::kFloat, Shape{3, 3, c, oc}, 2, -0.5, 0.5);
    const Tensor bias = testing::randomOf(DType::kFloat, Shape{oc}, 3);
    AttrMap attrs = convAttrs(padding.toStdString());
    attrs["fused_ops"] = stringList({"BiasAdd", "Relu"});
    attrs["num_args"] = AttrValue::fromInt(1);
    attrs["num_host_args"] = AttrValue::fromInt(0);
    attrs["_winograd"] = AttrValue::fromBool(true);
    const Tensor want = reference(x, filter, bias, padding.toStdString());
    const Tensor got = testing::run1("_FusedConv2D", {x, filter, bias}, attrs);
    QCOMPARE(got.shape(), want.shape());
    const double error = testing::relativeError(got, want);
    QVERIFY2(error < 1e-5, std::to_string(error).c_str());
  }
};

QTEST_GUILESS_MAIN(TestConvWinograd)
#include "tst_conv_winograd.moc"
