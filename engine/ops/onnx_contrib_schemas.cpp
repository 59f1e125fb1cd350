// ONNX Runtime's contrib ops (domain com.microsoft) that libonnx does not know: the quantized ops of quantized models
// (onnxruntime.quantization writes QLinearAdd and QLinearGlobalAveragePool) and the fused ops the optimizer writes
// (FusedConv, FusedGemm: ONNX Runtime runs a model Flowscope optimized). Written from ONNX Runtime's ContribOperators
// documentation.
#include "ops/onnx_op_set.h"
#include "ops/onnx_schemas.h"

namespace flowscope {
namespace {

struct ContribRow {
  const char* name;
  OpCategory category;
  std::vector<OnnxFormal> inputs;
  std::vector<OnnxFormal> outputs;
  std::vector<AttrDef> attrs;
  const char* doc;
};

constexpr auto kOptional = OnnxFormal::Option::kOptional;

AttrDef attr(const char* name, const char* type, std::optional<AttrValue> value, const char* description) {
  AttrDef a;
  a.name = name;
  a.type = type;
  a.defaultValue = std::move(value);
  a.description = description;
  return a;
}

std::vector<AttrDef> convAttrs() {
  return {attr("auto_pad", "string", AttrValue::fromString("NOTSET"), "NOTSET, SAME_UPPER, SAME_LOWER or VALID"),
          attr("dilations", "list(int)", std::nullopt, "dilation along each spatial axis"),
          attr("group", "int", AttrValue::fromInt(1), "number of groups input and output channels are divided into"),
          attr("kernel_shape", "list(int)", std::nullopt, "the shape of the kernel"),
          attr("pads", "list(int)", std::nullopt, "padding at the beginning and end of each spatial axis"),
          attr("strides", "list(int)", std::nullopt, "stride along each spatial axis")};
}

std::vector<AttrDef> activationAttrs(std::vector<AttrDef> attrs) {
  attrs.push_back(attr("activation", "string", std::nullopt,
                       "Relu, Tanh, Sigmoid, LeakyRelu, Clip or HardSigmoid, applied to the result"));
  attrs.push_back(attr("activation_params", "list(float)", std::nullopt,
                       "the activation's parameters: LeakyRelu alpha; Clip min, max; HardSigmoid alpha, beta"));
  return attrs;
}

std::vector<ContribRow> contribRows() {
  const std::vector<OnnxFormal> qBinary = {{"A", "T", {}, "first operand"},
                                           {"A_scale", "tensor(float)", {}, "A's scale"},
                                           {"A_zero_point", "T", kOptional, "A's zero point"},
                                           {"B", "T", {}, "second operand"},
                                           {"B_scale", "tensor(float)", {}, "B's scale"},
                                           {"B_zero_point", "T", kOptional, "B's zero point"},
                                           {"C_scale", "tensor(float)", {}, "C's scale"},
                                           {"C_zero_point", "T", kOptional, "C's zero point"}};
  const std::vector<OnnxFormal> gemmAttrsInputs = {
      {"A", "T", {}, "input A"}, {"B", "T", {}, "input B"}, {"C", "T", kOptional, "input C"}};
  std::vector<AttrDef> gemmAttrs = {attr("alpha", "float", AttrValue::fromFloat(1), "scale of A * B"),
                                    attr("beta", "float", AttrValue::fromFloat(1), "scale of C"),
                                    attr("transA", "int", AttrValue::fromInt(0), "transpose A"),
                                    attr("transB", "int", AttrValue::fromInt(0), "transpose B")};
  return {
      {"QLinearAdd",
       OpCategory::kElementwise,
       qBinary,
       {{"C", "T", {}, "the quantized sum"}},
       {},
       "Adds two quantized tensors with NumPy broadcasting: C = quantize(dequantize(A) + dequantize(B))."},
      {"QLinearMul",
       OpCategory::kElementwise,
       qBinary,
       {{"C", "T", {}, "the quantized product"}},
       {},
       "Multiplies two quantized tensors with NumPy broadcasting: C = quantize(dequantize(A) * dequantize(B))."},
      {"QLinearGlobalAveragePool",
       OpCategory::kPooling,
       {{"X", "T", {}, "quantized input"},
        {"x_scale", "tensor(float)", {}, "X's scale"},
        {"x_zero_point", "T", {}, "X's zero point"},
        {"y_scale", "tensor(float)", {}, "Y's scale"},
        {"y_zero_point", "T", {}, "Y's zero point"}},
       {{"Y", "T", {}, "the quantized mean over the spatial axes"}},
       {attr("channels_last", "int", AttrValue::fromInt(0), "1: the input is NHWC")},
       "Global average pooling of a quantized tensor: the mean over the spatial axes, requantized."},
      {"FusedConv",
       OpCategory::kConvolution,
       {{"X", "T", {}, "input"},
        {"W", "T", {}, "weights"},
        {"B", "T", kOptional, "bias"},
        {"Z", "T", kOptional, "added to the result before the activation"}},
       {{"Y", "T", {}, "output"}},
       activationAttrs(convAttrs()),
       "Conv followed by an activation, computed in one pass."},
      {"FusedGemm",
       OpCategory::kMatMul,
       gemmAttrsInputs,
       {{"Y", "T", {}, "output"}},
       activationAttrs(gemmAttrs),
       "Gemm followed by an activation, computed in one pass."},
  };
}

}  // namespace

std::vector<OpSchema> onnxContribSchemas() {
  std::vector<OpSchema> schemas;
  for (auto& row : contribRows()) {
    OpSchema schema;
    schema.category = row.category;
    schema.def.name = onnxOpName("com.microsoft", row.name);
    addOnnxSignature(schema.def);
    for (auto& a : row.attrs) schema.def.attrs.push_back(std::move(a));
    schema.def.summary = row.doc;
    schema.def.description = row.doc;
    auto info = std::make_shared<OnnxSchemaInfo>();
    info->domain = "com.microsoft";
    info->opType = row.name;
    info->inputs = std::move(row.inputs);
    info->outputs = std::move(row.outputs);
    info->typeConstraints = {row.category == OpCategory::kConvolution || row.category == OpCategory::kMatMul
                                 ? "T: tensor(float)"
                                 : "T: tensor(uint8), tensor(int8)"};
    schema.onnx = std::move(info);
    schemas.push_back(std::move(schema));
  }
  return schemas;
}

}  // namespace flowscope
