// The newer ONNX kernels on inputs a model file can carry but the node tests never do: too few inputs, indices and
// sizes outside what the data holds, mismatched dtypes. Each gives an error naming the op and what was wrong, never
// a crash; and the edge cases the specification defines (empty images, no reduced axes, an empty determinant, large
// int64 values) give its answer.
#include <QtTest>

#include <cmath>
#include <complex>
#include <optional>

#include "engine/kernel_test_util.h"
#include "engine/onnx_test_util.h"
#include "engine/test_paths.h"
#include "exec/model_runner.h"
#include "io/onnx_tensor.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

Tensor int64s(Shape shape, const std::vector<double>& v) { return tensorOf(DType::kInt64, std::move(shape), v); }
Tensor floats(Shape shape, const std::vector<double>& v) { return tensorOf(DType::kFloat, std::move(shape), v); }

// An ONNX attribute: an int, a float list, a string, an int list, a string list or a float.
struct Attr {
  std::string name;
  int64_t i = 0;
  std::vector<float> floats;
  std::string text;
  std::vector<int64_t> ints;
  std::vector<std::string> texts = {};
  std::optional<float> real = {};
};
Attr intAttr(const char* name, int64_t v) { return {name, v, {}, "", {}}; }
Attr textAttr(const char* name, const char* v) { return {name, 0, {}, v, {}}; }
Attr intsAttr(const char* name, std::vector<int64_t> v) { return {name, 0, {}, "", std::move(v)}; }
Attr textsAttr(const char* name, std::vector<std::string> v) { return {name, 0, {}, "", {}, std::move(v)}; }
Attr floatAttr(const char* name, float v) { return {name, 0, {}, "", {}, {}, v}; }

// Runs a model of one `op` node (opset `opset`) whose inputs are initializers holding `inputs`: its first output, or
// the error.
Expected<Tensor> runNode(const std::string& op, const std::vector<Tensor>& inputs, const std::vector<Attr>& attrs,
                         int64_t opset = 17) {
  onnx::ModelProto m = onnxModel();
  m.mutable_opset_import(0)->set_version(opset);
  auto* g = m.mutable_graph();
  std::vector<std::string> names;
  for (size_t i = 0; i < inputs.size(); ++i) {
    names.push_back("in" + std::to_string(i));
    auto* t = g->add_initializer();
    if (Status s = tensorToOnnx(inputs[i], t); !s.isOk()) return s;
    t->set_name(names.back());
  }
  auto* node = addNode(g, op, names, {"y"}, "node");
  for (const Attr& a : attrs) {
    auto* attr = node->add_attribute();
    attr->set_name(a.name);
    if (!a.text.empty()) {
      attr->set_type(onnx::AttributeProto::STRING);
      attr->set_s(a.text);
    } else if (a.real) {
      attr->set_type(onnx::AttributeProto::FLOAT);
      attr->set_f(*a.real);
    } else if (!a.texts.empty()) {
      attr->set_type(onnx::AttributeProto::STRINGS);
      for (const std::string& v : a.texts) attr->add_strings(v);
    } else if (!a.ints.empty()) {
      attr->set_type(onnx::AttributeProto::INTS);
      for (int64_t v : a.ints) attr->add_ints(v);
    } else if (!a.floats.empty()) {
      attr->set_type(onnx::AttributeProto::FLOATS);
      for (float f : a.floats) attr->add_floats(f);
    } else {
      attr->set_type(onnx::AttributeProto::INT);
      attr->set_i(a.i);
    }
  }
  addValue(g->mutable_output(), "y", {});
  g->mutable_output(0)->mutable_type()->mutable_tensor_type()->clear_shape();
  QTemporaryDir dir;
  const std::string path = dir.filePath("node.onnx").toStdString();
  writeBytes(path, m.SerializeAsString());
  auto model = loadModel(path);
  if (!model) return model.status();
  ModelRunner runner(std::make_shared<const Model>(std::move(model).value()));
  auto out = runner.run({}, {"node:0"});
  if (!out) return out.status();
  return (*out)[0];
}

// A node's output where it is expected to run; the test stops with the error where it does not.
Tensor value(Expected<Tensor> out) {
  if (!out) qFatal("%s", out.status().message().c_str());
  return std::move(out).value();
}

class TestOnnxKernelErrors : public QObject {
  Q_OBJECT

 private slots:
  void errorsNameTheOpAndTheFault() {
    struct Case {
      const char* op;
      std::vector<Tensor> inputs;
      std::vector<Attr> attrs;
      const char* expected;
    };
    const Tensor x = floats(Shape{2, 2}, {1, 2, 3, 4});
    const std::vector<Case> cases{
        {"onnx::ScatterElements",
         {x, int64s(Shape{5, 1}, {0, 0, 0, 0, 0}), floats(Shape{5, 1}, {1, 1, 1, 1, 1})},
         {intAttr("axis", 1)},
         "reach outside data"},
        {"onnx::Einsum", {floats(Shape{1, 1, 1}, {1})}, {textAttr("equation", "a......")}, "more than one ellipsis"},
        {"onnx::ConvTranspose", {floats(Shape{1, 1, 2, 2}, {1, 2, 3, 4})}, {}, "needs at least 2 inputs"},
        {"onnx::NegativeLogLikelihoodLoss",
         {tensorOf(DType::kDouble, Shape{2, 3}, {0, 0, 0, 0, 0, 0}), int64s(Shape{2}, {0, 2}),
          floats(Shape{3}, {1, 1, 1})},
         {},
         "weight of the input's dtype"},
        {"onnx::Conv",
         {floats(Shape{1, 1, 4, 4}, std::vector<double>(16, 1)), floats(Shape{1, 1, 3, 3}, std::vector<double>(9, 1))},
         {intsAttr("pads", {1, 1, -1, 1})},
         "pads must not be negative, got -1 at 2"},
        {"onnx::AveragePool",
         {floats(Shape{1, 1, 4, 4}, std::vector<double>(16, 1))},
         {intsAttr("kernel_shape", {2, 2}), intsAttr("pads", {0, -1, 0, 0})},
         "pads must not be negative, got -1 at 1"},
        {"onnx::ConvTranspose",
         {floats(Shape{1, 1, 2, 2}, {1, 2, 3, 4}), floats(Shape{1, 1, 3, 3}, std::vector<double>(9, 1))},
         {intsAttr("pads", {0, 0, 0, -2})},
         "pads must not be negative, got -2 at 3"},
        {"onnx::TopK", {x, int64s(Shape{0}, {})}, {}, "K must hold one value"},
        {"onnx::OneHot",
         {int64s(Shape{8}, {0, 1, 2, 3, 4, 5, 6, 7}), int64s(Shape{}, {1099511627776.0}), floats(Shape{2}, {0, 1})},
         {},
         "allowed"},
        {"onnx::HannWindow", {int64s(Shape{}, {4611686018427387904.0})}, {}, "allowed"},
        {"onnx::DepthToSpace",
         {floats(Shape{1, 4, 1, 1}, {1, 2, 3, 4})},
         {intAttr("blocksize", int64_t{1} << 32)},
         "larger than the channels"},
        {"onnx::MatMulInteger",
         {tensorOf(DType::kUInt8, Shape{1, 2}, {1, 2}), tensorOf(DType::kInt8, Shape{2, 2}, {1, 2, 3, 4}),
          tensorOf(DType::kUInt8, Shape{}, {0}), tensorOf(DType::kInt16, Shape{2}, {0, 0})},
         {},
         "b_zero_point must be int8"},
        {"onnx::Cast",
         {Tensor::fromStrings(Shape{2}, {"+1.5", "1.5x"})},
         {intAttr("to", 1)},
         "element 1 '1.5x' is not a number"},
        {"onnx::Cast",
         {Tensor::fromStrings(Shape{1}, {"300"})},
         {intAttr("to", 3)},
         "element 0 '300' is not an integer within int8's range"},
        {"onnx::DFT", {floats(Shape{1, 4, 2}, std::vector<double>(8, 1))}, {intAttr("onesided", 1)}, "needs a real"},
        {"onnx::DFT", {floats(Shape{4, 1}, {1, 2, 3, 4})}, {}, "axis must name a signal axis"},
        {"onnx::STFT",
         {floats(Shape{1, 4, 1}, {1, 2, 3, 4}), int64s(Shape{}, {1}), floats(Shape{8}, std::vector<double>(8, 1))},
         {},
         "frame_length <= the signal's length 4"},
        {"onnx::MelWeightMatrix",
         {int64s(Shape{}, {4}), int64s(Shape{}, {16}), int64s(Shape{}, {8000}), floats(Shape{}, {0}),
          floats(Shape{}, {6000})},
         {},
         "Nyquist"},
        {"onnx::RoiAlign",
         {floats(Shape{1, 1, 2, 2}, {1, 2, 3, 4}), floats(Shape{1, 4}, {0, 0, 1, 1}), int64s(Shape{1}, {1})},
         {},
         "batch index 1 of roi 0 is outside X's batch of 1"},
        {"onnx::RoiAlign",
         {floats(Shape{1, 1, 2, 2}, {1, 2, 3, 4}), floats(Shape{1, 4}, {0, 0, 1e30, 1e30}), int64s(Shape{1}, {0})},
         {},
         "roi 0 needs more than 2^24 samples per bin"},
        {"onnx::RoiAlign",
         {floats(Shape{1, 1, 2, 2}, {1, 2, 3, 4}), floats(Shape{1, 4}, {0, 0, 1, 1}), int64s(Shape{1}, {0})},
         {intAttr("sampling_ratio", 1 << 20)},
         "roi 0 needs more than 2^24 samples per bin"},
        {"onnx::STFT",
         {floats(Shape{1, 1 << 17, 1}, std::vector<double>(1 << 17, 1)), int64s(Shape{}, {1}),
          floats(Shape{1 << 16}, std::vector<double>(1 << 16, 1))},
         {intAttr("onesided", 0)},
         "allowed"},
        {"onnx::MaxUnpool",
         {floats(Shape{1, 1, 1, 1}, {5}), int64s(Shape{1, 1, 1, 1}, {4})},
         {intsAttr("kernel_shape", {2, 2})},
         "index 4 at 0 is outside the output"},
        {"onnx::QLinearMatMul",
         {tensorOf(DType::kUInt8, Shape{2, 1, 2}, {1, 2, 3, 4}), floats(Shape{}, {1}),
          tensorOf(DType::kUInt8, Shape{}, {0}), tensorOf(DType::kUInt8, Shape{3, 2, 1}, {1, 2, 3, 4, 5, 6}),
          floats(Shape{}, {1}), tensorOf(DType::kUInt8, Shape{}, {0}), floats(Shape{}, {1}),
          tensorOf(DType::kUInt8, Shape{}, {0})},
         {},
         "batch dimensions do not broadcast: A [2,1,2] and B [3,2,1]"},
        {"onnx::StringNormalizer",
         {Tensor::fromStrings(Shape{2, 2}, {"a", "b", "c", "d"})},
         {},
         "expects a string tensor of shape [C] or [1, C]"},
        {"onnx::StringNormalizer", {Tensor::fromStrings(Shape{2}, {"ok", "\xff"})}, {}, "element 1 is not valid UTF-8"},
        {"onnx::StringNormalizer",
         {Tensor::fromStrings(Shape{1}, {"a"})},
         {textAttr("case_change_action", "TITLE")},
         "'TITLE' is not LOWER, UPPER or NONE"},
        {"onnx::TfIdfVectorizer",
         {int64s(Shape{3}, {1, 2, 3})},
         {intAttr("min_gram_length", 1), intAttr("max_gram_length", 2), intAttr("max_skip_count", 0),
          textAttr("mode", "TF"), intsAttr("ngram_counts", {0, 2}), intsAttr("pool_int64s", {1, 2, 3}),
          intsAttr("ngram_indexes", {0, 1})},
         "does not split the pool of 3 items into 2-grams"},
        {"onnx::TfIdfVectorizer",
         {Tensor::fromStrings(Shape{1}, {"a"})},
         {intAttr("min_gram_length", 1), intAttr("max_gram_length", 1), intAttr("max_skip_count", 0),
          textAttr("mode", "TF"), intsAttr("ngram_counts", {0}), intsAttr("pool_int64s", {1}),
          intsAttr("ngram_indexes", {0})},
         "expects int32 or int64 tokens as its pool holds, got string"},
        {"onnx::RNN",
         {floats(Shape{1, 1, 3}, {1, 2, 3}), floats(Shape{1, 4, 3}, std::vector<double>(12, 0.1)),
          floats(Shape{1, 4, 4}, std::vector<double>(16, 0.1)), floats(Shape{1, 2}, {0, 0})},
         {intAttr("hidden_size", 4)},
         "B must be float32 [1, 8]"},
    };
    for (const Case& c : cases) {
      const std::string op = std::string(c.op).substr(6);  // the ONNX op type, without our "onnx::"
      auto out = runNode(op, c.inputs, c.attrs);
      const QString error = out ? QString("<no error>") : QString::fromStdString(out.status().message());
      QVERIFY2(error.contains(c.expected) && error.contains(c.op), qPrintable(QString(c.op) + ": " + error));
    }
  }

  void specifiedEdgeCasesGiveTheSpecifiedAnswer() {
    // GridSample on an empty image samples nothing: zeros, whatever the padding.
    const Tensor sampled = value(
        runNode("GridSample", {Tensor(DType::kFloat, Shape{1, 1, 0, 4}), Tensor(DType::kFloat, Shape{1, 2, 2, 2})},
                {textAttr("padding_mode", "border")}));
    QVERIFY(closeTo(sampled, Shape{1, 1, 2, 2}, {0, 0, 0, 0}));
    // No reduced axes (noop_with_empty_axes, opset 18): the input as it is, not its absolute values.
    const Tensor same =
        value(runNode("ReduceL2", {floats(Shape{2}, {-3, 4})}, {intAttr("noop_with_empty_axes", 1)}, 18));
    QVERIFY(closeTo(same, Shape{2}, {-3, 4}));
    // The determinant of a 0 x 0 matrix is 1.
    QVERIFY(closeTo(value(runNode("Det", {Tensor(DType::kFloat, Shape{0, 0})}, {})), Shape{}, {1}));
    // int64 values that double cannot tell apart are two values.
    Tensor big(DType::kInt64, Shape{2});
    big.data<int64_t>()[0] = int64_t{1} << 53;
    big.data<int64_t>()[1] = (int64_t{1} << 53) + 1;
    QCOMPARE(value(runNode("Unique", {big}, {})).numElements(), int64_t{2});
    // NumPy's matmul: A's batch of one broadcast against B's two, and a 1-D A as one row that the output drops.
    const Tensor b = tensorOf(DType::kUInt8, Shape{2, 2, 1}, {1, 2, 3, 4});
    const Tensor row = tensorOf(DType::kUInt8, Shape{1, 1, 2}, {1, 2}),
                 vector = tensorOf(DType::kUInt8, Shape{2}, {1, 2});
    QVERIFY(closeTo(value(runNode("MatMulInteger", {row, b}, {})), Shape{2, 1, 1}, {5, 11}));
    QVERIFY(closeTo(value(runNode("MatMulInteger", {vector, b}, {})), Shape{2, 1}, {5, 11}));
    // Numbers to text and back: the shortest decimal that reads back the same value, int64s exactly, ONNX's
    // spellings of the infinities and NaN.
    const Tensor numbers = runNode("Cast", {floats(Shape{4}, {0.1, 1e-5, -INFINITY, NAN})}, {intAttr("to", 8)}).value();
    QCOMPARE(numbers.strings(), (std::vector<std::string>{"0.1", "1e-05", "-INF", "NaN"}));
    QCOMPARE(value(runNode("Cast", {big}, {intAttr("to", 8)})).strings()[1], std::string("9007199254740993"));
    const Tensor text = Tensor::fromStrings(Shape{3}, {"0.1", "+INF", "-1e-05"});
    QVERIFY(closeTo(value(runNode("Cast", {text}, {intAttr("to", 10)})), Shape{3},
                    {0.0999755859375, INFINITY, -1.0013580322265625e-05}, 1e-8));
    // MaxUnpool with output_shape writes each value at its flat index in that shape, as ONNX Runtime and PyTorch do.
    const Tensor unpooled = value(runNode(
        "MaxUnpool", {floats(Shape{1, 1, 1, 1}, {5}), int64s(Shape{1, 1, 1, 1}, {5}), int64s(Shape{4}, {1, 1, 3, 3})},
        {intsAttr("kernel_shape", {2, 2}), intsAttr("strides", {2, 2})}));
    QVERIFY(closeTo(unpooled, Shape{1, 1, 3, 3}, {0, 0, 0, 0, 0, 5, 0, 0, 0}));
    // RoiAlign at one sample in the middle of four pixels: their mean, or (max mode, as ONNX Runtime) the largest
    // weighted corner, 0.25 x 4.
    const std::vector<Tensor> region{floats(Shape{1, 1, 2, 2}, {1, 2, 3, 4}), floats(Shape{1, 4}, {0, 0, 1, 1}),
                                     int64s(Shape{1}, {0})};
    for (const char* mode : {"avg", "max"})
      QVERIFY(closeTo(value(runNode("RoiAlign", region,
                                    {textAttr("mode", mode), intAttr("sampling_ratio", 1),
                                     textAttr("coordinate_transformation_mode", "output_half_pixel")})),
                      Shape{1, 1, 1, 1}, {mode[0] == 'a' ? 2.5 : 1.0}));
    // Stop words matched without case, and upper case beyond ASCII.
    const Tensor words =
        value(runNode("StringNormalizer", {Tensor::fromStrings(Shape{1, 3}, {"\u00c9mile", "\u00fcber", "\u00dcBER"})},
                      {textsAttr("stopwords", {"\u00dcber"}), textAttr("case_change_action", "UPPER")}));
    QCOMPARE(words.shape(), (Shape{1, 1}));
    QCOMPARE(words.strings()[0], std::string("\u00c9MILE"));
    const Tensor lowered =
        value(runNode("StringNormalizer", {Tensor::fromStrings(Shape{3}, {"\u00c9mile", "\u00dcBER", "Caf\u00c9"})},
                      {textsAttr("stopwords", {"\u00fcber"}), textAttr("case_change_action", "LOWER")}));
    QCOMPARE(lowered.strings(), (std::vector<std::string>{"\u00e9mile", "caf\u00e9"}));
    // TF-IDF of 1-grams counted once and 2-grams at skips 0 and 1: "1" twice (x 0.5) and "1 2" twice (x 2).
    const Tensor tfidf =
        value(runNode("TfIdfVectorizer", {int64s(Shape{5}, {1, 9, 2, 1, 2})},
                      {intAttr("min_gram_length", 1), intAttr("max_gram_length", 2), intAttr("max_skip_count", 1),
                       textAttr("mode", "TFIDF"), intsAttr("ngram_counts", {0, 1}), intsAttr("pool_int64s", {1, 1, 2}),
                       intsAttr("ngram_indexes", {1, 0}), Attr{"weights", 0, {0.5f, 2.0f}, "", {}}}));
    QVERIFY(closeTo(tfidf, Shape{2}, {4, 1}));
    // Upsample before opset 9 takes its scales from the attr.
    Attr scales{"scales", 0, {1, 1, 2, 2}, "", {}};
    const Tensor up = value(runNode("Upsample", {floats(Shape{1, 1, 1, 2}, {1, 2})}, {scales}, 7));
    QVERIFY(closeTo(up, Shape{1, 1, 2, 4}, {1, 1, 2, 2, 1, 1, 2, 2}));
  }

  // Integer sums and products that overflow wrap modulo 2^bits, as ONNX Runtime's and TensorFlow's do (C++'s signed
  // overflow is undefined; the sanitizer build reports it), and the one division that overflows, the most negative
  // int32 by -1, gives that wrapped value instead of x86's division trap.
  void integerArithmeticWrapsWhereItOverflows() {
    const double most = 2147483647, least = -2147483648.0;
    auto int32s = [](Shape shape, const std::vector<double>& v) {
      return tensorOf(DType::kInt32, std::move(shape), v);
    };
    QVERIFY(closeTo(value(runNode("CumSum", {int32s(Shape{3}, {most, 1, 1}), int32s(Shape{}, {0})}, {})), Shape{3},
                    {most, least, least + 1}));
    QVERIFY(closeTo(value(runNode("Div", {int32s(Shape{2}, {least, 7}), int32s(Shape{2}, {-1, -1})}, {})), Shape{2},
                    {least, -7}));
    QVERIFY(closeTo(value(runNode("Mod", {int32s(Shape{2}, {least, 7}), int32s(Shape{2}, {-1, -2})}, {})), Shape{2},
                    {0, -1}));
    for (const char* op : {"Neg", "Abs"})
      QVERIFY(closeTo(value(runNode(op, {int32s(Shape{2}, {least, -5})}, {})), Shape{2}, {least, 5}));
    const double twoTo62 = 4611686018427387904.0;
    QVERIFY(closeTo(value(runNode("Mul", {int64s(Shape{1}, {twoTo62}), int64s(Shape{1}, {4})}, {})), Shape{1}, {0}));
    QVERIFY(closeTo(value(runNode("ReduceSum", {int64s(Shape{2}, {twoTo62, twoTo62})}, {intAttr("keepdims", 0)})),
                    Shape{}, {-2 * twoTo62}));
    QVERIFY(closeTo(
        value(runNode("ScatterElements", {int32s(Shape{1}, {most}), int64s(Shape{1}, {0}), int32s(Shape{1}, {1})},
                      {textAttr("reduction", "add")}, 16)),
        Shape{1}, {least}));
    // uint16 x uint16 promotes to int in C++, where 65535 x 65535 overflows: the product wraps to 1.
    Tensor big16(DType::kUInt16, Shape{1, 1});
    big16.data<uint16_t>()[0] = 65535;
    QVERIFY(closeTo(value(runNode("MatMul", {big16, big16}, {})), Shape{1, 1}, {1}));
    // 40,000 products of 255 x 255 pass 2^31: the int32 sum wraps.
    const int64_t k = 40000;
    const Tensor ones = tensorOf(DType::kUInt8, Shape{1, k}, std::vector<double>(k, 255));
    const Tensor column = tensorOf(DType::kUInt8, Shape{k, 1}, std::vector<double>(k, 255));
    QVERIFY(closeTo(value(runNode("MatMulInteger", {ones, column}, {})), Shape{1, 1},
                    {static_cast<double>(k * 65025) - 4294967296.0}));
  }

  // The random generators and training-mode Dropout draw their distributions (their node tests compare against
  // NumPy's draws, which no other generator gives), a seeded node draws the same values every run, and the dtypes and
  // shapes are as specified.
  void randomGeneratorsDrawTheirDistributions() {
    auto moments = [](const Tensor& t) {
      double sum = 0, squares = 0;
      for (int64_t i = 0; i < t.numElements(); ++i) sum += t.elementAsDouble(i);
      const double mean = sum / static_cast<double>(t.numElements());
      for (int64_t i = 0; i < t.numElements(); ++i) squares += std::pow(t.elementAsDouble(i) - mean, 2);
      return std::pair{mean, std::sqrt(squares / static_cast<double>(t.numElements()))};
    };
    const int64_t n = 40000;
    const std::vector<Attr> normal{intsAttr("shape", {n}), floatAttr("mean", 3), floatAttr("scale", 2),
                                   floatAttr("seed", 7)};
    const Tensor first = value(runNode("RandomNormal", {}, normal)), again = value(runNode("RandomNormal", {}, normal));
    QCOMPARE(first.dtype(), DType::kFloat);
    const auto [mean, deviation] = moments(first);
    QVERIFY2(std::abs(mean - 3) < 0.05 && std::abs(deviation - 2) < 0.05, qPrintable(QString::number(mean)));
    QVERIFY(std::equal(first.bytes().begin(), first.bytes().end(), again.bytes().begin()));
    const Tensor uniform =
        value(runNode("RandomUniformLike", {tensorOf(DType::kDouble, Shape{n}, std::vector<double>(n))},
                      {floatAttr("low", -1), floatAttr("high", 3)}));
    QCOMPARE(uniform.dtype(), DType::kDouble);
    for (int64_t i = 0; i < n; ++i) QVERIFY(uniform.data<double>()[i] >= -1 && uniform.data<double>()[i] < 3);
    QVERIFY(std::abs(moments(uniform).first - 1) < 0.05);
    std::vector<double> p(n, 0.25);
    p[0] = 0, p[1] = 1;
    const Tensor coins = value(runNode("Bernoulli", {floats(Shape{n}, p)}, {intAttr("dtype", 7)}));  // int64
    QCOMPARE(coins.dtype(), DType::kInt64);
    QCOMPARE(coins.data<int64_t>()[0], int64_t{0});
    QCOMPARE(coins.data<int64_t>()[1], int64_t{1});
    QVERIFY(std::abs(moments(coins).first - 0.25) < 0.02);
    // Class 1 of log-weights [log 0.1, log 0.9, -inf]: 90% of the draws; class 2 never.
    const Tensor classes = value(runNode(
        "Multinomial", {floats(Shape{1, 3}, {std::log(0.1), std::log(0.9), -INFINITY})}, {intAttr("sample_size", n)}));
    QCOMPARE(classes.shape(), (Shape{1, n}));
    QCOMPARE(classes.dtype(), DType::kInt32);
    int64_t ones = 0;
    for (int64_t i = 0; i < n; ++i) {
      QVERIFY(classes.data<int32_t>()[i] == 0 || classes.data<int32_t>()[i] == 1);
      ones += classes.data<int32_t>()[i];
    }
    QVERIFY(std::abs(static_cast<double>(ones) / n - 0.9) < 0.02);
    // Training-mode Dropout keeps three quarters, scaled by 4/3; at inference it passes the input through.
    const Tensor input = floats(Shape{n}, std::vector<double>(n, 1.0)), ratio = floats(Shape{}, {0.25});
    const Tensor dropped =
        value(runNode("Dropout", {input, ratio, tensorOf(DType::kBool, Shape{}, {1})}, {intAttr("seed", 3)}, 13));
    int64_t zeros = 0;
    for (int64_t i = 0; i < n; ++i) {
      const float v = dropped.data<float>()[i];
      QVERIFY(v == 0.0f || std::abs(v - 4.0f / 3.0f) < 1e-6f);
      zeros += v == 0.0f;
    }
    QVERIFY(std::abs(static_cast<double>(zeros) / n - 0.25) < 0.02);
    QVERIFY(closeTo(value(runNode("Dropout", {input, ratio}, {}, 13)), Shape{n}, std::vector<double>(n, 1.0)));
    // Errors name the op and the fault.
    auto error = [](Expected<Tensor> out) { return out ? std::string("<no error>") : out.status().message(); };
    QVERIFY(
        error(runNode("RandomNormal", {}, {intsAttr("shape", {2}), intAttr("dtype", 6)})).find("onnx::RandomNormal") !=
        std::string::npos);  // int32
    QVERIFY(error(runNode("RandomUniform", {}, {intsAttr("shape", {int64_t{1} << 40, 1 << 20})})).find("allowed") !=
            std::string::npos);
    QVERIFY(error(runNode("Multinomial", {floats(Shape{3}, {1, 2, 3})}, {})).find("[batch, classes]") !=
            std::string::npos);
  }

  // DFT of lengths the conformance data does not reach: a prime (one 13-point butterfly), a prime above the largest
  // radix (Bluestein's padded transforms), and a length that zero-pads the signal; forward and inverse, against the
  // definition summed directly.
  void fourierTransformsMatchTheDefinition() {
    for (const int64_t n : {13, 67, 96}) {
      for (const int inverse : {0, 1}) {
        const int64_t samples = n == 96 ? 90 : n;  // 96: six zeros appended by dft_length
        std::vector<double> signal, batch;  // batch: the signal, then twice the signal (the transforms reuse scratch)
        for (int64_t j = 0; j < samples; ++j)
          signal.insert(signal.end(), {std::sin(0.3 * j) + 0.1 * j, std::cos(0.7 * j)});
        batch = signal;
        for (double v : signal) batch.push_back(2 * v);
        auto out = runNode("DFT", {floats(Shape{2, samples, 2}, batch), int64s(Shape{}, {static_cast<double>(n)})},
                           {intAttr("inverse", inverse)});
        QVERIFY2(out.hasValue(), out ? "" : out.status().message().c_str());
        std::vector<double> want;
        for (int64_t k = 0; k < n; ++k) {
          std::complex<double> sum;
          for (int64_t j = 0; j < samples; ++j)
            sum += std::complex<double>(signal[2 * j], signal[2 * j + 1]) *
                   std::polar(1.0, (inverse ? 2 : -2) * M_PI * static_cast<double>(j * k % n) / static_cast<double>(n));
          if (inverse) sum /= static_cast<double>(n);
          want.insert(want.end(), {sum.real(), sum.imag()});
        }
        const size_t one = want.size();
        for (size_t i = 0; i < one; ++i) want.push_back(2 * want[i]);
        QVERIFY2(closeTo(*out, Shape{2, n, 2}, want, 1e-3, 1e-5),
                 qPrintable(QString("n %1 inverse %2").arg(n).arg(inverse)));
      }
    }
  }
};

}  // namespace

QTEST_GUILESS_MAIN(TestOnnxKernelErrors)
#include "tst_onnx_kernel_errors.moc"
