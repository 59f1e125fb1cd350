// DType names, parsing and sizes.
#include "ir/dtype.h"

#include <array>

namespace flowscope {
namespace {

struct DTypeInfo {
  DType dtype;
  const char* name;      // TensorFlow's Python name
  const char* enumName;  // suffix after DT_
  int size;
};

constexpr std::array<DTypeInfo, kMaxDTypeValue + 1> kInfos = {{
    {DType::kInvalid, "invalid", "INVALID", 0},
    {DType::kFloat, "float32", "FLOAT", 4},
    {DType::kDouble, "float64", "DOUBLE", 8},
    {DType::kInt32, "int32", "INT32", 4},
    {DType::kUInt8, "uint8", "UINT8", 1},
    {DType::kInt16, "int16", "INT16", 2},
    {DType::kInt8, "int8", "INT8", 1},
    {DType::kString, "string", "STRING", 0},
    {DType::kComplex64, "complex64", "COMPLEX64", 8},
    {DType::kInt64, "int64", "INT64", 8},
    {DType::kBool, "bool", "BOOL", 1},
    {DType::kQInt8, "qint8", "QINT8", 1},
    {DType::kQUInt8, "quint8", "QUINT8", 1},
    {DType::kQInt32, "qint32", "QINT32", 4},
    {DType::kBFloat16, "bfloat16", "BFLOAT16", 2},
    {DType::kQInt16, "qint16", "QINT16", 2},
    {DType::kQUInt16, "quint16", "QUINT16", 2},
    {DType::kUInt16, "uint16", "UINT16", 2},
    {DType::kComplex128, "complex128", "COMPLEX128", 16},
    {DType::kHalf, "float16", "HALF", 2},
    {DType::kResource, "resource", "RESOURCE", 0},
    {DType::kVariant, "variant", "VARIANT", 0},
    {DType::kUInt32, "uint32", "UINT32", 4},
    {DType::kUInt64, "uint64", "UINT64", 8},
    {DType::kFloat8E5M2, "float8_e5m2", "FLOAT8_E5M2", 1},
    {DType::kFloat8E4M3FN, "float8_e4m3fn", "FLOAT8_E4M3FN", 1},
    {DType::kFloat8E4M3FNUZ, "float8_e4m3fnuz", "FLOAT8_E4M3FNUZ", 1},
    {DType::kFloat8E4M3B11FNUZ, "float8_e4m3b11fnuz", "FLOAT8_E4M3B11FNUZ", 1},
    {DType::kFloat8E5M2FNUZ, "float8_e5m2fnuz", "FLOAT8_E5M2FNUZ", 1},
    {DType::kInt4, "int4", "INT4", 0},
    {DType::kUInt4, "uint4", "UINT4", 0},
    {DType::kInt2, "int2", "INT2", 0},
    {DType::kUInt2, "uint2", "UINT2", 0},
    {DType::kFloat4E2M1FN, "float4_e2m1fn", "FLOAT4_E2M1FN", 0},
}};

const DTypeInfo& info(DType dtype) {
  auto index = static_cast<size_t>(dtype);
  return index < kInfos.size() ? kInfos[index] : kInfos[0];
}

}  // namespace

std::optional<DType> dtypeFromWire(int32_t value) {
  if (value > kRefOffset) value -= kRefOffset;
  if (value < 0 || value > kMaxDTypeValue) return std::nullopt;
  return static_cast<DType>(value);
}

std::string_view dtypeName(DType dtype) { return info(dtype).name; }

std::string dtypeEnumName(DType dtype) { return std::string("DT_") + info(dtype).enumName; }

std::optional<DType> parseDType(std::string_view text) {
  bool isEnum = text.substr(0, 3) == "DT_";
  std::string_view body = isEnum ? text.substr(3) : text;
  if (isEnum && body.size() > 4 && body.substr(body.size() - 4) == "_REF") body = body.substr(0, body.size() - 4);
  for (const auto& entry : kInfos) {
    if (entry.dtype == DType::kInvalid) continue;
    if (isEnum ? body == entry.enumName : body == entry.name) return entry.dtype;
  }
  if (!isEnum) {
    if (text == "float") return DType::kFloat;
    if (text == "double") return DType::kDouble;
    if (text == "half") return DType::kHalf;
  }
  return std::nullopt;
}

int dtypeSize(DType dtype) { return info(dtype).size; }

bool isFloating(DType dtype) {
  switch (dtype) {
    case DType::kFloat:
    case DType::kDouble:
    case DType::kHalf:
    case DType::kBFloat16:
      return true;
    default:
      return false;
  }
}

bool isInteger(DType dtype) {
  switch (dtype) {
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
    case DType::kInt64:
    case DType::kUInt8:
    case DType::kUInt16:
    case DType::kUInt32:
    case DType::kUInt64:
      return true;
    default:
      return false;
  }
}

bool isQuantized(DType dtype) {
  switch (dtype) {
    case DType::kQInt8:
    case DType::kQUInt8:
    case DType::kQInt16:
    case DType::kQUInt16:
    case DType::kQInt32:
      return true;
    default:
      return false;
  }
}

bool isComplex(DType dtype) { return dtype == DType::kComplex64 || dtype == DType::kComplex128; }

}  // namespace flowscope
