// ONNX element type codes.
#include "ops/onnx_dtypes.h"

#include <string>

namespace flowscope {
namespace {

struct TypePair {
  int32_t code;
  DType dtype;
};

// TensorProto.DataType of onnx.proto (IR version 8).
constexpr TypePair kTypes[] = {
    {1, DType::kFloat},   {2, DType::kUInt8},      {3, DType::kInt8},        {4, DType::kUInt16},
    {5, DType::kInt16},   {6, DType::kInt32},      {7, DType::kInt64},       {8, DType::kString},
    {9, DType::kBool},    {10, DType::kHalf},      {11, DType::kDouble},     {12, DType::kUInt32},
    {13, DType::kUInt64}, {14, DType::kComplex64}, {15, DType::kComplex128}, {16, DType::kBFloat16},
};

}  // namespace

std::optional<DType> dtypeFromOnnxCode(int64_t code) {
  for (const auto& pair : kTypes)
    if (pair.code == code) return pair.dtype;
  return std::nullopt;
}

int32_t onnxCodeOf(DType dtype) {
  for (const auto& pair : kTypes)
    if (pair.dtype == dtype) return pair.code;
  return 0;
}

Expected<DType> onnxDTypeAttr(const Node& node, const char* name) {
  const AttrValue* v = node.attr(name);
  if (!v || v->kind() != AttrValue::Kind::kInt)
    return invalidArgument(std::string("needs the int attr '") + name + "'");
  auto dtype = dtypeFromOnnxCode(v->i());
  if (!dtype)
    return invalidArgument("attr '" + std::string(name) + "' = " + std::to_string(v->i()) +
                           " is not an ONNX element type");
  return *dtype;
}

}  // namespace flowscope
