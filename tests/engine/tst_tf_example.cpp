// tf.Example records: the hand-written wire codec against known bytes, and ParseExample / ParseExampleV2 kernels
// (dense features with defaults, sparse features, TensorFlow's errors for missing and mistyped features).
#include "engine/kernel_test_util.h"
#include "ir/tf_example.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

ExampleFeature floatFeature(std::vector<float> v) { return {ExampleFeature::Kind::kFloat, {}, std::move(v), {}}; }
ExampleFeature intFeature(std::vector<int64_t> v) { return {ExampleFeature::Kind::kInt64, {}, {}, std::move(v)}; }
ExampleFeature bytesFeature(std::vector<std::string> v) { return {ExampleFeature::Kind::kBytes, std::move(v), {}, {}}; }

Tensor strings(std::vector<std::string> values) {
  const auto n = static_cast<int64_t>(values.size());
  return Tensor::fromStrings(Shape{n}, std::move(values));
}
Tensor key(const std::string& k) { return Tensor::fromStrings(Shape{}, {k}); }

// Two records: {x: [1.5], s: [4, 5]} and {x: [2.5], k: [3]}.
Tensor twoRecords() {
  return strings({serializeExample({{"x", floatFeature({1.5f})}, {"s", intFeature({4, 5})}}),
                  serializeExample({{"x", floatFeature({2.5f})}, {"k", intFeature({3})}})});
}

// ParseExample: sparse "s" (int64); dense "x" (float [1], required) and "k" (int64 [1], default 7).
AttrMap parseAttrs() {
  AttrList tdense, sparse, shapes;
  tdense.type = {DType::kFloat, DType::kInt64};
  sparse.type = {DType::kInt64};
  shapes.shape = {Shape{1}, Shape{1}};
  return {{"Nsparse", AttrValue::fromInt(1)},
          {"Ndense", AttrValue::fromInt(2)},
          {"Tdense", AttrValue::fromList(tdense)},
          {"sparse_types", AttrValue::fromList(sparse)},
          {"dense_shapes", AttrValue::fromList(shapes)}};
}

std::vector<Tensor> parseInputs(Tensor serialized) {
  return {std::move(serialized),
          strings({}),
          key("s"),
          key("x"),
          key("k"),
          tensorOf(DType::kFloat, Shape{0}, {}),
          tensorOf(DType::kInt64, Shape{1}, {7})};
}

}  // namespace

class TestTfExample : public QObject {
  Q_OBJECT

 private slots:
  // Example{features{feature{key: "a" value{int64_list{value: [1]}}}}}, written out field by field.
  void knownBytes() {
    const std::string bytes = serializeExample({{"a", intFeature({1})}});
    const std::string want(
        "\x0a\x0c\x0a\x0a\x0a\x01"
        "a\x12\x05\x1a\x03\x0a\x01\x01",
        14);
    QCOMPARE(QByteArray::fromStdString(bytes).toHex(), QByteArray::fromStdString(want).toHex());
    QVERIFY(parseExample("").hasValue());  // the empty record is a valid Example with no features
    QVERIFY(!parseExample("\x0a\x05\x0a").hasValue());
  }

  void roundTrip() {
    Example e{{"f", floatFeature({0.25f, -1})}, {"i", intFeature({-3, 1ll << 40})}, {"b", bytesFeature({"", "xy"})}};
    auto back = parseExample(serializeExample(e));
    QVERIFY(back.hasValue());
    QCOMPARE(back->size(), size_t{3});
    QCOMPARE((*back)["f"].floats, (std::vector<float>{0.25f, -1}));
    QCOMPARE((*back)["i"].ints, (std::vector<int64_t>{-3, 1ll << 40}));
    QCOMPARE((*back)["b"].bytes, (std::vector<std::string>{"", "xy"}));
  }

  void parseExampleDenseAndSparse() {
    auto out = eagerExecute("ParseExample", parseInputs(twoRecords()), parseAttrs());
    QVERIFY2(out.hasValue(), out ? "" : out.status().message().c_str());
    QVERIFY(closeTo((*out)[0], Shape{2, 2}, {0, 0, 0, 1}));  // sparse indices: record 0, positions 0 and 1
    QVERIFY(closeTo((*out)[1], Shape{2}, {4, 5}));
    QVERIFY(closeTo((*out)[2], Shape{2}, {2, 2}));
    QVERIFY(closeTo((*out)[3], Shape{2, 1}, {1.5, 2.5}));
    QVERIFY(closeTo((*out)[4], Shape{2, 1}, {7, 3}));  // the default where k is missing
  }

  void parseExampleV2() {
    AttrMap attrs = parseAttrs();
    attrs.erase("Nsparse");
    attrs.erase("Ndense");
    attrs["num_sparse"] = AttrValue::fromInt(1);
    attrs["ragged_value_types"] = AttrValue::fromList({});
    attrs["ragged_split_types"] = AttrValue::fromList({});
    auto vectorOf = [](std::vector<std::string> v) { return strings(std::move(v)); };
    auto out = eagerExecute("ParseExampleV2",
                            {twoRecords(), strings({}), vectorOf({"s"}), vectorOf({"x", "k"}), vectorOf({}),
                             tensorOf(DType::kFloat, Shape{0}, {}), tensorOf(DType::kInt64, Shape{1}, {7})},
                            attrs);
    QVERIFY2(out.hasValue(), out ? "" : out.status().message().c_str());
    QVERIFY(closeTo((*out)[3], Shape{2, 1}, {1.5, 2.5}));
    QVERIFY(closeTo((*out)[4], Shape{2, 1}, {7, 3}));
  }

  void parseExampleErrors() {
    const QString missing = runError("ParseExample", parseInputs(strings({""})), parseAttrs());
    QVERIFY2(missing.contains("Feature: x (data type: float) is required but could not be found."),
             qPrintable(missing));
    const QString mistyped =
        runError("ParseExample", parseInputs(strings({serializeExample({{"x", intFeature({1})}})})), parseAttrs());
    QVERIFY2(mistyped.contains("Data types don't match. Data type: int64 but expected type: float"),
             qPrintable(mistyped));
    const QString count =
        runError("ParseExample", parseInputs(strings({serializeExample({{"x", floatFeature({1, 2})}})})), parseAttrs());
    QVERIFY2(count.contains("Number of float values != expected"), qPrintable(count));
  }
};

QTEST_APPLESS_MAIN(TestTfExample)
#include "tst_tf_example.moc"
