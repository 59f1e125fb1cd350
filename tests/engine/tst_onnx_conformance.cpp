// ONNX conformance: every node test of Debian's libonnx-testdata (a model, its inputs and expected outputs) loaded,
// run on the CPU and compared as ONNX's backend tests compare (rtol 1e-3, atol 1e-7). Prints passed / failed /
// not supported per operator, each failure with its reason, and holds the pass rate of the operators real models
// use (issue 15's list) at or above the measured floor, every failure among them explained (kExplained).
#include <QtTest>

#include <onnx/onnx-data_pb.h>
#include <onnx/onnx_pb.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "exec/model_runner.h"
#include "exec/resource_manager.h"
#include "io/loader.h"
#include "io/onnx_tensor.h"
#include "ops/onnx_op_set.h"

using namespace flowscope;
namespace fs = std::filesystem;

namespace {

enum class Outcome { kPassed, kFailed, kUnsupported };

struct Result {
  Outcome outcome = Outcome::kFailed;
  std::string why;
};

// The operators of issue 15's step 3: what real vision, audio and transformer models use (its convolutions include the
// transposed ones, its activations PRelu and the rest, its reductions every Reduce op).
const std::set<std::string> kListed = {"Conv",
                                       "MaxPool",
                                       "AveragePool",
                                       "GlobalAveragePool",
                                       "Gemm",
                                       "MatMul",
                                       "BatchNormalization",
                                       "Relu",
                                       "Sigmoid",
                                       "Tanh",
                                       "LeakyRelu",
                                       "Elu",
                                       "HardSigmoid",
                                       "HardSwish",
                                       "Clip",
                                       "Add",
                                       "Sub",
                                       "Mul",
                                       "Div",
                                       "Pow",
                                       "Sqrt",
                                       "Exp",
                                       "Reshape",
                                       "Transpose",
                                       "Concat",
                                       "Slice",
                                       "Gather",
                                       "Squeeze",
                                       "Unsqueeze",
                                       "Flatten",
                                       "Expand",
                                       "ReduceMean",
                                       "ReduceSum",
                                       "ReduceMax",
                                       "ReduceMin",
                                       "Softmax",
                                       "LayerNormalization",
                                       "Resize",
                                       "Pad",
                                       "Cast",
                                       "Shape",
                                       "ConstantOfShape",
                                       "Range",
                                       "Where",
                                       "If",
                                       "Loop",
                                       "QuantizeLinear",
                                       "DequantizeLinear",
                                       "QLinearConv",
                                       "QLinearMatMul",
                                       "LSTM",
                                       "GRU",
                                       "Equal",
                                       "Less",
                                       "Greater",
                                       "Not",
                                       "And",
                                       "Or",
                                       "Identity",
                                       "Constant",
                                       "Split",
                                       "Tile",
                                       "Erf",
                                       "Neg",
                                       "Abs",
                                       "Floor",
                                       "Ceil",
                                       "Min",
                                       "Max",
                                       "Sum",
                                       "Mean",
                                       "ArgMax",
                                       "ArgMin",
                                       "Dropout",
                                       "ConvTranspose",
                                       "GlobalMaxPool",
                                       "PRelu",
                                       "Selu",
                                       "Celu",
                                       "Softplus",
                                       "Softsign",
                                       "ThresholdedRelu",
                                       "InstanceNormalization",
                                       "LogSoftmax",
                                       "ReduceProd",
                                       "ReduceL1",
                                       "ReduceL2",
                                       "ReduceSumSquare",
                                       "ReduceLogSum",
                                       "ReduceLogSumExp"};

// ONNX 1.12's bfloat16 CastLike tests store 'like' as one element where their models declare [3, 4] (and the bfloat16
// one as UINT16, onnx/onnx#4226); a feed that contradicts a declared shape is refused, as ONNX Runtime refuses it.
const char* const kCastLikeFeed =
    "the test data's 'like' holds 1 element where the model declares [3, 4]; a feed against a declared shape is "
    "refused, as ONNX Runtime refuses it";

// Why each listed operator's node test that does not pass does not: the report prints it beside the failure, and a
// failure missing here fails the test (a regression, or a gap to explain).
const std::map<std::string, std::string> kExplained = {
    {"test_cast_FLOAT_to_BFLOAT16",
     "the test's answer truncates float to bfloat16; Flowscope rounds to nearest even, as TensorFlow and ONNX Runtime "
     "do"},
    {"test_maxunpool_export_with_output_shape",
     "the test's answer moves indices to output_shape's rows; ONNX Runtime and PyTorch write each value at its flat "
     "index, as Flowscope does (onnx/onnx#2398)"},
    {"test_training_dropout", "training-mode Dropout's mask comes from NumPy's random generator: not reproducible"},
    {"test_training_dropout_default", "training-mode Dropout's mask comes from NumPy's random generator"},
    {"test_training_dropout_default_mask", "training-mode Dropout's mask comes from NumPy's random generator"},
    {"test_training_dropout_mask", "training-mode Dropout's mask comes from NumPy's random generator"},
    {"test_bernoulli", "Bernoulli's answer is NumPy's random draw (the distribution is tested elsewhere)"},
    {"test_bernoulli_double", "Bernoulli's answer is NumPy's random draw"},
    {"test_bernoulli_seed", "Bernoulli's answer is NumPy's random draw"},
    {"test_bernoulli_expanded", "RandomUniformLike's answer is NumPy's random draw"},
    {"test_bernoulli_double_expanded", "RandomUniformLike's answer is NumPy's random draw"},
    {"test_bernoulli_seed_expanded", "RandomUniformLike's answer is NumPy's random draw"},
    {"test_castlike_BFLOAT16_to_FLOAT", kCastLikeFeed},
    {"test_castlike_BFLOAT16_to_FLOAT_expanded", kCastLikeFeed},
    {"test_castlike_FLOAT_to_BFLOAT16", kCastLikeFeed},
    {"test_castlike_FLOAT_to_BFLOAT16_expanded", kCastLikeFeed},
};

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Expected<Tensor> readTensor(const fs::path& path) {
  onnx::TensorProto proto;
  if (!proto.ParseFromString(readAll(path))) return unimplemented(path.filename().string() + " is not a tensor");
  return tensorFromOnnx(proto, ExternalDataRoot{path.parent_path().string()});
}

// The test data stores bfloat16 tensors as uint16 bit patterns (NumPy has no bfloat16; ONNX's test runner reads them
// so): such a tensor, where bfloat16 is expected, as the bfloat16 values it holds.
Tensor asBFloat16Where(const Tensor& t, DType expected) {
  if (expected != DType::kBFloat16 || t.dtype() != DType::kUInt16) return t;
  Tensor values(DType::kBFloat16, t.shape());
  std::copy(t.bytes().begin(), t.bytes().end(), values.mutableBytes().begin());
  return values;
}

bool close(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::abs(got - want) <= 1e-7 + 1e-3 * std::abs(want);
}

std::string compare(const Tensor& got, const Tensor& want) {
  if (got.dtype() != want.dtype())
    return "dtype " + std::string(dtypeName(got.dtype())) + ", expected " + std::string(dtypeName(want.dtype()));
  if (got.shape() != want.shape()) return "shape " + got.shape().toString() + ", expected " + want.shape().toString();
  if (got.dtype() == DType::kString) return got.strings() == want.strings() ? "" : "strings differ";
  for (int64_t i = 0; i < want.numElements(); ++i)
    if (!close(got.elementAsDouble(i), want.elementAsDouble(i)))
      return "element " + std::to_string(i) + " is " + std::to_string(got.elementAsDouble(i)) + ", expected " +
             std::to_string(want.elementAsDouble(i));
  return "";
}

bool unsupported(const Status& s) {
  const std::string& m = s.message();
  return s.code() == ErrorCode::kUnimplemented || m.find("not supported") != std::string::npos ||
         m.find("is not a tensor") != std::string::npos;
}

Result failure(const Status& s) { return {unsupported(s) ? Outcome::kUnsupported : Outcome::kFailed, s.message()}; }

// A sequence value of the test data (SequenceProto of tensors); optionals and maps are not read.
Expected<std::vector<Tensor>> readSequence(const fs::path& path) {
  onnx::SequenceProto proto;
  if (!proto.ParseFromString(readAll(path)) || proto.elem_type() != onnx::SequenceProto::TENSOR)
    return unimplemented(path.filename().string() + " is not a sequence of tensors (optional values are not fed)");
  std::vector<Tensor> elements;
  for (const auto& t : proto.tensor_values()) {
    auto element = tensorFromOnnx(t, ExternalDataRoot{path.parent_path().string()});
    if (!element) return element.status();
    elements.push_back(std::move(element).value());
  }
  return elements;
}

// An optional value of the test data: none, or a tensor or sequence (made a TensorList of the runner's).
Expected<std::vector<Tensor>> readOptional(const fs::path& path, ModelRunner& runner) {
  onnx::OptionalProto proto;
  if (!proto.ParseFromString(readAll(path))) return unimplemented(path.filename().string() + " is not an optional");
  const ExternalDataRoot root{path.parent_path().string()};
  if (proto.has_tensor_value()) {
    FS_ASSIGN_OR_RETURN(Tensor t, tensorFromOnnx(proto.tensor_value(), root));
    return std::vector<Tensor>{t};
  }
  if (!proto.has_sequence_value()) return std::vector<Tensor>{};
  onnx::SequenceProto sequence = proto.sequence_value();
  std::vector<Tensor> elements;
  for (const auto& t : sequence.tensor_values()) {
    FS_ASSIGN_OR_RETURN(Tensor element, tensorFromOnnx(t, root));
    elements.push_back(std::move(element));
  }
  return std::vector<Tensor>{ResourceManager::variantTensor(runner.resources().newTensorList(std::move(elements)))};
}

// An input as the model takes it: a tensor, or a sequence or optional made a list of the runner's.
Expected<Tensor> readInput(const fs::path& path, const Model& model, const TensorSpecInfo& input, ModelRunner& runner) {
  if (input.dtype != DType::kVariant) {
    FS_ASSIGN_OR_RETURN(Tensor t, readTensor(path));
    return asBFloat16Where(t, input.dtype);
  }
  const Node* placeholder = model.graph.findNode(input.tensorName.substr(0, input.tensorName.rfind(':')));
  const AttrValue* type = placeholder ? placeholder->attr(kOnnxTypeAttr) : nullptr;
  if (type && type->s().rfind("optional(", 0) == 0) {
    FS_ASSIGN_OR_RETURN(std::vector<Tensor> noneOrOne, readOptional(path, runner));
    return ResourceManager::variantTensor(runner.resources().newOptional(std::move(noneOrOne)));
  }
  FS_ASSIGN_OR_RETURN(std::vector<Tensor> elements, readSequence(path));
  return ResourceManager::variantTensor(runner.resources().newTensorList(std::move(elements)));
}

std::string compareSequence(const std::vector<Tensor>& got, const std::vector<Tensor>& want) {
  if (got.size() != want.size())
    return "a sequence of " + std::to_string(got.size()) + ", expected " + std::to_string(want.size());
  for (size_t i = 0; i < got.size(); ++i)
    if (std::string diff = compare(got[i], want[i]); !diff.empty()) return "element " + std::to_string(i) + ": " + diff;
  return "";
}

// An optional output: the same presence, and an equal tensor or sequence.
std::string compareOptional(const std::vector<Tensor>& got, const fs::path& path, ModelRunner& runner) {
  auto want = readOptional(path, runner);
  if (!want) return want.status().message();
  if (got.size() != want->size()) return got.empty() ? "no value, expected one" : "a value, expected none";
  if (got.empty()) return "";
  auto inner = runner.sequenceOf(got[0]), wanted = runner.sequenceOf((*want)[0]);
  return inner && wanted ? compareSequence(*inner, *wanted) : compare(got[0], (*want)[0]);
}

std::string compareOutput(const Tensor& got, const fs::path& path, ModelRunner& runner) {
  if (got.dtype() != DType::kVariant) {
    auto want = readTensor(path);
    return want ? compare(got, asBFloat16Where(*want, got.dtype())) : want.status().message();
  }
  auto list = runner.sequenceOf(got);
  if (!list) return "not a sequence or optional";
  if (ModelRunner::isOptional(got)) return compareOptional(*list, path, runner);
  auto want = readSequence(path);
  return want ? compareSequence(*list, *want) : want.status().message();
}

Result runCase(const fs::path& dir) {
  auto loaded = loadModel((dir / "model.onnx").string());
  if (!loaded) return failure(loaded.status());
  auto model = std::make_shared<const Model>(std::move(loaded).value());
  const Signature& sig = model->signatures[0];
  const fs::path data = dir / "test_data_set_0";
  RunnerOptions options;
  options.intraOpThreads = 1;
  ModelRunner runner(model, options);
  std::vector<std::pair<std::string, Tensor>> feeds;
  for (size_t k = 0; k < sig.inputs.size(); ++k) {
    auto t = readInput(data / ("input_" + std::to_string(k) + ".pb"), *model, sig.inputs[k], runner);
    if (!t) return failure(t.status());
    feeds.emplace_back(sig.inputs[k].tensorName, std::move(t).value());
  }
  std::vector<std::string> fetches;
  for (const auto& o : sig.outputs) fetches.push_back(o.tensorName);
  auto out = runner.run(feeds, fetches);
  if (!out) return failure(out.status());
  for (size_t k = 0; k < fetches.size(); ++k) {
    std::string diff = compareOutput((*out)[k], data / ("output_" + std::to_string(k) + ".pb"), runner);
    if (!diff.empty()) return {Outcome::kFailed, "output " + std::to_string(k) + ": " + diff};
  }
  return {Outcome::kPassed, ""};
}

// The operator a node test tests: its one node's type; "(expanded)" for tests written as several nodes.
std::string operatorOf(const fs::path& dir) {
  onnx::ModelProto m;
  if (!m.ParseFromString(readAll(dir / "model.onnx")) || m.graph().node_size() == 0) return "(unreadable)";
  const std::string name = dir.filename().string();
  if (name.size() > 9 && name.substr(name.size() - 9) == "_expanded") return "(expanded)";
  return m.graph().node(m.graph().node_size() - 1).op_type();
}

}  // namespace

class TestOnnxConformance : public QObject {
  Q_OBJECT

 private slots:
  void nodeTests() {
    const fs::path root = FLOWSCOPE_ONNX_TESTDATA;
    if (!fs::exists(root)) QSKIP("libonnx-testdata is not installed");
    std::vector<fs::path> cases;
    for (const auto& entry : fs::directory_iterator(root)) cases.push_back(entry.path());
    std::sort(cases.begin(), cases.end());
    std::map<std::string, std::array<int, 3>> perOp;
    std::vector<std::string> failures;
    std::vector<std::string> unexplained;
    std::vector<std::string> stale;  // explained as failing, yet passed
    int listedPassed = 0, listedTotal = 0;
    for (const auto& dir : cases) {
      const std::string op = operatorOf(dir), name = dir.filename().string();
      Result r = runCase(dir);
      perOp[op][static_cast<size_t>(r.outcome)]++;
      if (kListed.count(op)) {
        ++listedTotal;
        listedPassed += r.outcome == Outcome::kPassed;
        if (r.outcome != Outcome::kPassed && !kExplained.count(name)) unexplained.push_back(name);
      }
      if (r.outcome == Outcome::kPassed && kExplained.count(name)) stale.push_back(name);
      if (r.outcome != Outcome::kPassed)
        failures.push_back(std::string(r.outcome == Outcome::kFailed ? "FAILED " : "unsupported ") + name + ": " +
                           r.why.substr(0, 240) + (kExplained.count(name) ? " [" + kExplained.at(name) + "]" : ""));
    }
    int passed = 0, failed = 0, notSupported = 0;
    std::printf("%-28s %6s %6s %11s\n", "operator", "passed", "failed", "unsupported");
    for (const auto& [op, counts] : perOp) {
      std::printf("%-28s %6d %6d %11d\n", op.c_str(), counts[0], counts[1], counts[2]);
      passed += counts[0];
      failed += counts[1];
      notSupported += counts[2];
    }
    for (const auto& f : failures) std::printf("%s\n", f.c_str());
    const double listedRate = listedTotal ? static_cast<double>(listedPassed) / listedTotal : 0;
    std::printf("all node tests: %d passed, %d failed, %d not supported of %zu\n", passed, failed, notSupported,
                cases.size());
    std::printf("operators of real models: %d of %d passed (%.1f%%; target 90%%)\n", listedPassed, listedTotal,
                100 * listedRate);
    for (const auto& name : unexplained) std::printf("unexplained failure of a listed operator: %s\n", name.c_str());
    for (const auto& name : stale) std::printf("passes, yet kExplained says why it fails: %s\n", name.c_str());
    QVERIFY2(unexplained.empty(), "a listed operator's node test fails without an explanation in kExplained");
    QVERIFY2(stale.empty(), "kExplained explains a failure that no longer happens");
    QVERIFY2(listedPassed >= kListedPassedFloor, "the pass rate of the listed operators fell below the measured floor");
    QVERIFY2(passed >= kAllPassedFloor, "fewer node tests pass than were measured to");
  }

  // ONNX's "simple" models of sequence ops (SequenceEmpty/Construct/Insert/Erase/At/Length, SplitToSequence,
  // ConcatFromSequence) between tensor inputs and outputs: all of them run and match.
  void sequenceModels() {
    const fs::path root = fs::path(FLOWSCOPE_ONNX_TESTDATA).parent_path() / "simple";
    if (!fs::exists(root)) QSKIP("libonnx-testdata is not installed");
    int cases = 0;
    for (const auto& entry : fs::directory_iterator(root)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("test_sequence_model", 0) != 0) continue;
      ++cases;
      const Result r = runCase(entry.path());
      QVERIFY2(r.outcome == Outcome::kPassed, qPrintable(QString::fromStdString(name + ": " + r.why)));
    }
    QCOMPARE(cases, 8);
  }

 private:
  // Every node test: 589 with sequences, optionals, SequenceMap and GatherND; 643 with ConvTranspose, PRelu,
  // InstanceNormalization, the other five Reduce ops and float16 Max, Min and Mod; 728 with TopK, NonZero, OneHot,
  // Hardmax, Trilu, EyeLike, CumSum, Xor, BitShift, IsInf, Shrink, CastLike, the scatters and DepthToSpace; 741 with
  // NonMaxSuppression, LRN, MeanVarianceNormalization and Pad's edge mode; 748 with RNN, Upsample and layout=1; 755
  // with DynamicQuantizeLinear, MatMulInteger and ConvInteger; 760 with Einsum; 774 with the signal windows,
  // Compress, ReverseSequence and Det; 860 with NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss; 873 with
  // GridSample and Unique; 877 with MaxPool's dilations, integer inputs and Indices; 895 with the batched integer
  // matmuls, string casts, DFT, STFT, MelWeightMatrix, RoiAlign, MaxUnpool and training-mode BatchNormalization; 909
  // with StringNormalizer, TfIdfVectorizer and bfloat16 read from the test data's uint16.
  static constexpr int kAllPassedFloor = 909;
  // The listed operators: 413 of 433 (95.4%) before ConvTranspose and the rest joined them; 501 of 512 (97.9%), then
  // 506; 507 of 512 (99.0%) now.
  static constexpr int kListedPassedFloor = 507;
};

QTEST_GUILESS_MAIN(TestOnnxConformance)
#include "tst_onnx_conformance.moc"
