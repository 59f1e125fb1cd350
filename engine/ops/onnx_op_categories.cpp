// Canvas categories of ONNX ops: the same colours as the TensorFlow ops that do the same work.
#include <algorithm>
#include <array>
#include <utility>

#include "ops/onnx_schemas.h"

namespace flowscope {
namespace {

using Row = std::pair<std::string_view, OpCategory>;

// clang-format off
constexpr auto kCategories = std::to_array<Row>({
    {"Abs", OpCategory::kElementwise}, {"Acos", OpCategory::kElementwise}, {"Acosh", OpCategory::kElementwise},
    {"Add", OpCategory::kElementwise}, {"And", OpCategory::kElementwise}, {"ArgMax", OpCategory::kReduction},
    {"ArgMin", OpCategory::kReduction}, {"Asin", OpCategory::kElementwise}, {"Asinh", OpCategory::kElementwise},
    {"Atan", OpCategory::kElementwise}, {"Atanh", OpCategory::kElementwise}, {"AveragePool", OpCategory::kPooling},
    {"BatchNormalization", OpCategory::kNormalization}, {"Bernoulli", OpCategory::kRandom},
    {"BitShift", OpCategory::kElementwise}, {"Cast", OpCategory::kElementwise}, {"CastLike", OpCategory::kElementwise},
    {"Ceil", OpCategory::kElementwise}, {"Celu", OpCategory::kActivation}, {"Clip", OpCategory::kActivation},
    {"Compress", OpCategory::kShape}, {"Concat", OpCategory::kShape}, {"Constant", OpCategory::kConstant},
    {"ConstantOfShape", OpCategory::kConstant}, {"Conv", OpCategory::kConvolution},
    {"ConvInteger", OpCategory::kConvolution}, {"ConvTranspose", OpCategory::kConvolution},
    {"Cos", OpCategory::kElementwise}, {"Cosh", OpCategory::kElementwise}, {"CumSum", OpCategory::kReduction},
    {"DepthToSpace", OpCategory::kShape}, {"DequantizeLinear", OpCategory::kElementwise},
    {"Div", OpCategory::kElementwise}, {"Dropout", OpCategory::kIdentity},
    {"DynamicQuantizeLinear", OpCategory::kElementwise}, {"Einsum", OpCategory::kMatMul},
    {"Elu", OpCategory::kActivation}, {"Equal", OpCategory::kElementwise}, {"Erf", OpCategory::kElementwise},
    {"Exp", OpCategory::kElementwise}, {"Expand", OpCategory::kShape}, {"EyeLike", OpCategory::kConstant},
    {"Flatten", OpCategory::kShape}, {"Floor", OpCategory::kElementwise}, {"FusedConv", OpCategory::kConvolution},
    {"FusedGemm", OpCategory::kMatMul}, {"GRU", OpCategory::kMatMul}, {"Gather", OpCategory::kShape},
    {"GatherElements", OpCategory::kShape}, {"GatherND", OpCategory::kShape}, {"Gemm", OpCategory::kMatMul},
    {"GlobalAveragePool", OpCategory::kPooling}, {"GlobalLpPool", OpCategory::kPooling},
    {"GlobalMaxPool", OpCategory::kPooling}, {"Greater", OpCategory::kElementwise},
    {"GreaterOrEqual", OpCategory::kElementwise}, {"GridSample", OpCategory::kImage},
    {"HardSigmoid", OpCategory::kActivation}, {"HardSwish", OpCategory::kActivation},
    {"Hardmax", OpCategory::kActivation}, {"Identity", OpCategory::kIdentity}, {"If", OpCategory::kControlFlow},
    {"InstanceNormalization", OpCategory::kNormalization}, {"IsInf", OpCategory::kElementwise},
    {"IsNaN", OpCategory::kElementwise}, {"LRN", OpCategory::kNormalization}, {"LSTM", OpCategory::kMatMul},
    {"LayerNormalization", OpCategory::kNormalization}, {"LeakyRelu", OpCategory::kActivation},
    {"Less", OpCategory::kElementwise}, {"LessOrEqual", OpCategory::kElementwise}, {"Log", OpCategory::kElementwise},
    {"LogSoftmax", OpCategory::kActivation}, {"Loop", OpCategory::kControlFlow},
    {"LpNormalization", OpCategory::kNormalization}, {"LpPool", OpCategory::kPooling},
    {"MatMul", OpCategory::kMatMul}, {"MatMulInteger", OpCategory::kMatMul}, {"Max", OpCategory::kElementwise},
    {"MaxPool", OpCategory::kPooling}, {"MaxRoiPool", OpCategory::kPooling}, {"MaxUnpool", OpCategory::kPooling},
    {"Mean", OpCategory::kElementwise}, {"MeanVarianceNormalization", OpCategory::kNormalization},
    {"Min", OpCategory::kElementwise}, {"Mod", OpCategory::kElementwise}, {"Mul", OpCategory::kElementwise},
    {"Multinomial", OpCategory::kRandom}, {"Neg", OpCategory::kElementwise},
    {"NonMaxSuppression", OpCategory::kImage}, {"NonZero", OpCategory::kShape}, {"Not", OpCategory::kElementwise},
    {"OneHot", OpCategory::kShape}, {"Or", OpCategory::kElementwise}, {"PRelu", OpCategory::kActivation},
    {"Pad", OpCategory::kShape}, {"Pow", OpCategory::kElementwise}, {"QLinearAdd", OpCategory::kElementwise},
    {"QLinearConv", OpCategory::kConvolution}, {"QLinearGlobalAveragePool", OpCategory::kPooling},
    {"QLinearMatMul", OpCategory::kMatMul}, {"QLinearMul", OpCategory::kElementwise},
    {"QuantizeLinear", OpCategory::kElementwise}, {"RNN", OpCategory::kMatMul},
    {"RandomNormal", OpCategory::kRandom}, {"RandomNormalLike", OpCategory::kRandom},
    {"RandomUniform", OpCategory::kRandom}, {"RandomUniformLike", OpCategory::kRandom},
    {"Range", OpCategory::kShape}, {"Reciprocal", OpCategory::kElementwise}, {"ReduceL1", OpCategory::kReduction},
    {"ReduceL2", OpCategory::kReduction}, {"ReduceLogSum", OpCategory::kReduction},
    {"ReduceLogSumExp", OpCategory::kReduction}, {"ReduceMax", OpCategory::kReduction},
    {"ReduceMean", OpCategory::kReduction}, {"ReduceMin", OpCategory::kReduction},
    {"ReduceProd", OpCategory::kReduction}, {"ReduceSum", OpCategory::kReduction},
    {"ReduceSumSquare", OpCategory::kReduction}, {"Relu", OpCategory::kActivation},
    {"Reshape", OpCategory::kShape}, {"Resize", OpCategory::kImage}, {"ReverseSequence", OpCategory::kShape},
    {"RoiAlign", OpCategory::kImage}, {"Round", OpCategory::kElementwise}, {"Scan", OpCategory::kControlFlow},
    {"Scatter", OpCategory::kShape}, {"ScatterElements", OpCategory::kShape}, {"ScatterND", OpCategory::kShape},
    {"Selu", OpCategory::kActivation}, {"SequenceMap", OpCategory::kControlFlow}, {"Shape", OpCategory::kShape},
    {"Shrink", OpCategory::kActivation}, {"Sigmoid", OpCategory::kActivation}, {"Sign", OpCategory::kElementwise},
    {"Sin", OpCategory::kElementwise}, {"Sinh", OpCategory::kElementwise}, {"Size", OpCategory::kShape},
    {"Slice", OpCategory::kShape}, {"Softmax", OpCategory::kActivation}, {"Softplus", OpCategory::kActivation},
    {"Softsign", OpCategory::kActivation}, {"SpaceToDepth", OpCategory::kShape}, {"Split", OpCategory::kShape},
    {"Sqrt", OpCategory::kElementwise}, {"Squeeze", OpCategory::kShape}, {"Sub", OpCategory::kElementwise},
    {"Sum", OpCategory::kElementwise}, {"Tan", OpCategory::kElementwise}, {"Tanh", OpCategory::kActivation},
    {"ThresholdedRelu", OpCategory::kActivation}, {"Tile", OpCategory::kShape}, {"TopK", OpCategory::kReduction},
    {"Transpose", OpCategory::kShape}, {"Trilu", OpCategory::kShape}, {"Unique", OpCategory::kShape},
    {"Unsqueeze", OpCategory::kShape}, {"Upsample", OpCategory::kImage}, {"Where", OpCategory::kElementwise},
    {"Xor", OpCategory::kElementwise},
});
// clang-format on

}  // namespace

OpCategory onnxCategory(std::string_view domain, std::string_view opType) {
  if (domain == "ai.onnx.ml") return OpCategory::kOther;
  static_assert(std::is_sorted(kCategories.begin(), kCategories.end(),
                               [](const Row& a, const Row& b) { return a.first < b.first; }));
  auto it = std::lower_bound(kCategories.begin(), kCategories.end(), opType,
                             [](const Row& row, std::string_view key) { return row.first < key; });
  if (it != kCategories.end() && it->first == opType) return it->second;
  if (opType.find("Sequence") != std::string_view::npos || opType.find("Optional") != std::string_view::npos)
    return OpCategory::kControlFlow;
  return OpCategory::kOther;
}

}  // namespace flowscope
