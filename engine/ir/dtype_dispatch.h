// Dtype dispatch for kernels: calls f.template operator()<T>() for the C++ type of a runtime dtype.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ir/dtype.h"

namespace flowscope {

/// Type tag passed to dispatch lambdas: `[&](auto tag) { using T = typename decltype(tag)::type; ... }`.
template <typename T>
struct TypeTag {
  using type = T;
};

/// Bool is stored as uint8 (0 or 1). Returns false when the dtype has no numeric C++ type here.
template <typename F>
bool dispatchNumeric(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kFloat:
      f(TypeTag<float>{});
      return true;
    case DType::kDouble:
      f(TypeTag<double>{});
      return true;
    case DType::kInt32:
      f(TypeTag<int32_t>{});
      return true;
    case DType::kInt64:
      f(TypeTag<int64_t>{});
      return true;
    case DType::kUInt8:
      f(TypeTag<uint8_t>{});
      return true;
    case DType::kInt8:
      f(TypeTag<int8_t>{});
      return true;
    case DType::kInt16:
      f(TypeTag<int16_t>{});
      return true;
    case DType::kUInt16:
      f(TypeTag<uint16_t>{});
      return true;
    case DType::kUInt32:
      f(TypeTag<uint32_t>{});
      return true;
    case DType::kUInt64:
      f(TypeTag<uint64_t>{});
      return true;
    case DType::kBool:
      f(TypeTag<bool>{});
      return true;
    default:
      return false;
  }
}

/// Floating types only.
template <typename F>
bool dispatchFloat(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kFloat:
      f(TypeTag<float>{});
      return true;
    case DType::kDouble:
      f(TypeTag<double>{});
      return true;
    default:
      return false;
  }
}

/// Index types (int32 / int64).
template <typename F>
bool dispatchIndex(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kInt32:
      f(TypeTag<int32_t>{});
      return true;
    case DType::kInt64:
      f(TypeTag<int64_t>{});
      return true;
    default:
      return false;
  }
}

/// A 16-byte element (complex128) moved as raw bytes.
struct Bytes16 {
  uint64_t lo, hi;
};

/// Copies elements by size only (for data movement kernels that do not look at values).
template <typename F>
bool dispatchBySize(DType dtype, F&& f) {
  switch (dtypeSize(dtype)) {
    case 1:
      f(TypeTag<uint8_t>{});
      return true;
    case 2:
      f(TypeTag<uint16_t>{});
      return true;
    case 4:
      f(TypeTag<uint32_t>{});
      return true;
    case 8:
      f(TypeTag<uint64_t>{});
      return true;
    case 16:
      f(TypeTag<Bytes16>{});
      return true;
    default:
      return false;
  }
}

}  // namespace flowscope
