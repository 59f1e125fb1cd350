// The shape-function table, the context helpers and the elementwise families.
#include "ops/shape_functions.h"

#include <string_view>
#include <unordered_map>

namespace flowscope {

const Shape& ShapeContext::in(size_t i) const {
  static const Shape kUnknown = Shape::unknownRank();
  return i < inputs.size() ? inputs[i].shape : kUnknown;
}

std::optional<std::vector<int64_t>> ShapeContext::constInts(size_t i) const {
  if (i >= constants.size() || !constants[i]) return std::nullopt;
  const Tensor& t = *constants[i];
  if (t.dtype() != DType::kInt32 && t.dtype() != DType::kInt64) return std::nullopt;
  std::vector<int64_t> values(static_cast<size_t>(t.numElements()));
  for (size_t k = 0; k < values.size(); ++k)
    values[k] = t.dtype() == DType::kInt32 ? t.data<int32_t>()[k] : t.data<int64_t>()[k];
  return values;
}

int64_t ShapeContext::intAttr(const char* name, int64_t fallback) const {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kInt ? v->i() : fallback;
}

bool ShapeContext::boolAttr(const char* name, bool fallback) const {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kBool ? v->b() : fallback;
}

std::string ShapeContext::stringAttr(const char* name, const std::string& fallback) const {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kString ? v->s() : fallback;
}

std::vector<int64_t> ShapeContext::intsAttr(const char* name) const {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kList ? v->list().i : std::vector<int64_t>{};
}

namespace {

using ShapeFn = void (*)(ShapeContext&);

void sameAsFirst(ShapeContext& ctx) { ctx.setAll(ctx.in(0)); }

void broadcastAll(ShapeContext& ctx) {
  Shape out = ctx.in(0);
  for (size_t i = 1; i < ctx.inputs.size(); ++i)
    if (!broadcastShapes(out, ctx.in(i), &out)) return;  // incompatible: leave unknown
  ctx.setAll(out);
}

void scalarOutputs(ShapeContext& ctx) { ctx.setAll(Shape{}); }

void fromShapeAttr(ShapeContext& ctx) {
  const AttrValue* s = ctx.node.attr("shape");
  if (s && s->kind() == AttrValue::Kind::kShape)
    ctx.set(0, s->shape());
  else if (!ctx.inputs.empty())
    ctx.set(0, ctx.in(0));
}

void constShape(ShapeContext& ctx) {
  const AttrValue* v = ctx.node.attr("value");
  if (v && v->kind() == AttrValue::Kind::kTensor) {
    ctx.set(0, v->tensor().shape());
    ctx.constantOutputs = {v->tensor()};
  }
}

void mergeShape(ShapeContext& ctx) {
  ctx.set(0, ctx.in(0));
  ctx.set(1, Shape{});
}

void selectShape(ShapeContext& ctx) { ctx.setAll(ctx.in(1)); }

void addNShape(ShapeContext& ctx) {
  for (size_t i = 0; i < ctx.inputs.size(); ++i)
    if (!ctx.in(i).hasUnknownRank()) return ctx.setAll(ctx.in(i));
}

void eachInput(ShapeContext& ctx) {
  for (size_t k = 0; k < ctx.outputs.size() && k < ctx.inputs.size(); ++k) ctx.set(k, ctx.in(k));
}

void whereShape(ShapeContext& ctx) {
  int rank = ctx.in(0).rank();
  ctx.set(0, rank < 0 ? Shape::unknownRank() : Shape{-1, rank});
}

const std::unordered_map<std::string_view, ShapeFn>& table() {
  static const std::unordered_map<std::string_view, ShapeFn> fns = [] {
    std::unordered_map<std::string_view, ShapeFn> t;
    for (const char* op : {"Identity",  "StopGradient",  "PreventGradient",
                           "Snapshot",  "CheckNumerics", "Neg",
                           "Abs",       "Exp",           "Expm1",
                           "Log",       "Log1p",         "Sqrt",
                           "Rsqrt",     "Square",        "Reciprocal",
                           "Inv",       "Tanh",          "Sigmoid",
                           "Erf",       "Floor",         "Ceil",
                           "Round",     "Sign",          "Sin",
                           "Cos",       "Tan",           "Atan",
                           "ZerosLike", "OnesLike",      "IsNan",
                           "IsFinite",  "LogicalNot",    "Relu",
                           "Relu6",     "Elu",           "Selu",
                           "Softplus",  "Softsign",      "LeakyRelu",
                           "Softmax",   "LogSoftmax",    "Cast",
                           "BiasAdd",   "LRN",           "ClipByValue",
                           "Enter",     "Exit",          "NextIteration",
                           "LoopCond",  "Switch",        "Cumsum",
                           "ReverseV2"})
      t[op] = sameAsFirst;
    for (const char* op : {"Add",          "AddV2",    "Sub",       "Mul",
                           "RealDiv",      "Div",      "DivNoNan",  "TruncateDiv",
                           "FloorDiv",     "FloorMod", "Mod",       "TruncateMod",
                           "Maximum",      "Minimum",  "Pow",       "SquaredDifference",
                           "Atan2",        "Less",     "LessEqual", "Greater",
                           "GreaterEqual", "Equal",    "NotEqual",  "LogicalAnd",
                           "LogicalOr",    "SelectV2"})
      t[op] = broadcastAll;
    // ONNX's elementwise ops, whose shapes the channels-last pass no longer declares once they carry NHWC values.
    for (const char* op : {"onnx::Relu",     "onnx::Sigmoid",     "onnx::Tanh",      "onnx::Abs",        "onnx::Neg",
                           "onnx::Exp",      "onnx::Log",         "onnx::Sqrt",      "onnx::Reciprocal", "onnx::Floor",
                           "onnx::Ceil",     "onnx::Erf",         "onnx::LeakyRelu", "onnx::Elu",        "onnx::Selu",
                           "onnx::Softplus", "onnx::HardSigmoid", "onnx::HardSwish", "onnx::Identity",   "onnx::Sin",
                           "onnx::Cos",      "onnx::Sign",        "onnx::Round",     "onnx::Not",        "onnx::Cast",
                           "onnx::Clip"})
      t[op] = sameAsFirst;
    for (const char* op : {"onnx::Add", "onnx::Sub", "onnx::Mul", "onnx::Div", "onnx::Pow", "onnx::Equal", "onnx::Less",
                           "onnx::Greater", "onnx::LessOrEqual", "onnx::GreaterOrEqual", "onnx::And", "onnx::Or",
                           "onnx::Xor", "onnx::Where", "onnx::Max", "onnx::Min", "onnx::Sum", "onnx::Mean"})
      t[op] = broadcastAll;
    for (const char* op : {"Size", "Rank", "VarHandleOp", "VarIsInitializedOp", "TensorListReserve",
                           "TensorListFromTensor", "TensorListSetItem"})
      t[op] = scalarOutputs;
    t["Placeholder"] = fromShapeAttr;
    t["PlaceholderWithDefault"] = fromShapeAttr;
    t["Const"] = constShape;
    t["Merge"] = mergeShape;
    t["Select"] = selectShape;
    t["AddN"] = addNShape;
    t["Where"] = whereShape;
    t["IdentityN"] = eachInput;
    for (const char* op : {"RandomUniform", "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt"})
      t[op] = shapeFill;  // the shape is the (constant) first input, like Fill's dims
    t["MatMul"] = shapeMatMul;
    t["_FusedMatMul"] = shapeMatMul;
    t["BatchMatMul"] = shapeBatchMatMul;
    t["BatchMatMulV2"] = shapeBatchMatMul;
    t["BatchMatMulV3"] = shapeBatchMatMul;
    t["Conv2D"] = shapeConv2D;
    t["_FusedConv2D"] = shapeConv2D;
    t["DepthwiseConv2dNative"] = shapeDepthwiseConv2D;
    t["_FusedDepthwiseConv2dNative"] = shapeDepthwiseConv2D;
    t["FusedDepthwiseConv2dNative"] = shapeDepthwiseConv2D;
    t["MaxPool"] = shapePool;
    t["AvgPool"] = shapePool;
    t["FusedBatchNorm"] = shapeFusedBatchNorm;
    t["FusedBatchNormV2"] = shapeFusedBatchNorm;
    t["FusedBatchNormV3"] = shapeFusedBatchNorm;
    t["ResizeBilinear"] = shapeResize;
    t["ResizeNearestNeighbor"] = shapeResize;
    t["DecodeWav"] = shapeDecodeWav;
    t["AudioSpectrogram"] = shapeAudioSpectrogram;
    t["Mfcc"] = shapeMfcc;
    t["Reshape"] = shapeReshape;
    t["Squeeze"] = shapeSqueeze;
    t["ExpandDims"] = shapeExpandDims;
    t["Shape"] = shapeShape;
    t["Transpose"] = shapeTranspose;
    t["ConcatV2"] = shapeConcat;
    t["Concat"] = shapeConcat;
    t["Pack"] = shapePack;
    t["Unpack"] = shapeUnpack;
    t["Split"] = shapeSplit;
    t["SplitV"] = shapeSplit;
    t["Slice"] = shapeSlice;
    t["StridedSlice"] = shapeStridedSlice;
    t["Tile"] = shapeTile;
    t["Fill"] = shapeFill;
    t["BroadcastTo"] = shapeFill;
    t["Pad"] = shapePad;
    t["PadV2"] = shapePad;
    t["MirrorPad"] = shapePad;
    for (const char* op : {"Sum", "Mean", "Max", "Min", "Prod", "All", "Any"}) t[op] = shapeReduction;
    t["ArgMax"] = shapeArgMax;
    t["ArgMin"] = shapeArgMax;
    t["GatherV2"] = shapeGather;
    t["Gather"] = shapeGather;
    t["Range"] = shapeRange;
    t["TopKV2"] = shapeTopK;
    t["OneHot"] = shapeOneHot;
    for (const char* op : {"NonMaxSuppression", "NonMaxSuppressionV2", "NonMaxSuppressionV3", "NonMaxSuppressionV4",
                           "NonMaxSuppressionV5"})
      t[op] = shapeNms;
    t["CombinedNonMaxSuppression"] = shapeCombinedNms;
    t["ParseExample"] = shapeParseExample;
    t["ParseExampleV2"] = shapeParseExample;
    return t;
  }();
  return fns;
}

}  // namespace

void runShapeFunction(ShapeContext& ctx) {
  auto it = table().find(ctx.node.op);
  if (it != table().end()) it->second(ctx);
}

int64_t convOutputSize(int64_t in, int64_t kernel, int64_t stride, int64_t dilation, const std::string& padding,
                       int64_t padBefore, int64_t padAfter) {
  if (in < 0 || kernel < 0 || stride <= 0) return -1;
  int64_t effective = (kernel - 1) * dilation + 1;
  if (padding == "SAME") return (in + stride - 1) / stride;
  if (padding == "EXPLICIT") in += padBefore + padAfter;
  if (in < effective) return 0;
  return (in - effective) / stride + 1;
}

}  // namespace flowscope
