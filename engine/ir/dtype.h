// DType: TensorFlow's DataType numbering, names and element sizes (tf-compat.md §1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace flowscope {

/// Element types with TensorFlow's enum values; `_REF` twins (value + 100) are mapped to their base on load.
enum class DType : int32_t {
  kInvalid = 0,
  kFloat = 1,
  kDouble = 2,
  kInt32 = 3,
  kUInt8 = 4,
  kInt16 = 5,
  kInt8 = 6,
  kString = 7,
  kComplex64 = 8,
  kInt64 = 9,
  kBool = 10,
  kQInt8 = 11,
  kQUInt8 = 12,
  kQInt32 = 13,
  kBFloat16 = 14,
  kQInt16 = 15,
  kQUInt16 = 16,
  kUInt16 = 17,
  kComplex128 = 18,
  kHalf = 19,
  kResource = 20,
  kVariant = 21,
  kUInt32 = 22,
  kUInt64 = 23,
  kFloat8E5M2 = 24,
  kFloat8E4M3FN = 25,
  kFloat8E4M3FNUZ = 26,
  kFloat8E4M3B11FNUZ = 27,
  kFloat8E5M2FNUZ = 28,
  kInt4 = 29,
  kUInt4 = 30,
  kInt2 = 31,
  kUInt2 = 32,
  kFloat4E2M1FN = 33,
};

constexpr int32_t kMaxDTypeValue = 33;
constexpr int32_t kRefOffset = 100;

/// Maps a wire value (including `_REF` types) to a DType; nullopt for values TensorFlow does not define.
std::optional<DType> dtypeFromWire(int32_t value);
/// Short user-facing name as TensorFlow prints it: "float32", "int64", "bool", "resource".
std::string_view dtypeName(DType dtype);
/// Enum name used by the text format: "DT_FLOAT".
std::string dtypeEnumName(DType dtype);
/// Accepts "float32", "float", "DT_FLOAT", "int32", ... Case-sensitive like TensorFlow.
std::optional<DType> parseDType(std::string_view text);
/// Bytes per element; 0 for types without a fixed size (string, resource, variant) and sub-byte types.
int dtypeSize(DType dtype);
bool isFloating(DType dtype);
bool isInteger(DType dtype);
bool isQuantized(DType dtype);
bool isComplex(DType dtype);

}  // namespace flowscope
