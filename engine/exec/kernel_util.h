// Helpers shared by every backend's kernels: attrs, integer inputs, axis normalization, strides.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "exec/kernel.h"

namespace flowscope {

/// The largest tensor a kernel makes from sizes it reads out of a model's tensors (OneHot's depth, a window's size, a
/// random op's shape).
inline constexpr size_t kMaxComputedBytes = size_t{1} << 34;

/// A shape split around one axis (in range): `outer` slices of `length` elements `inner` apart.
struct AxisSplit {
  int64_t outer = 1, length = 1, inner = 1;
};
inline AxisSplit splitAt(const Shape& shape, int64_t axis) {
  AxisSplit s;
  for (int i = 0; i < shape.rank(); ++i) (i < axis ? s.outer : (i == axis ? s.length : s.inner)) *= shape.dim(i);
  return s;
}

int64_t attrInt(const Node& node, const char* name, int64_t fallback);
float attrFloat(const Node& node, const char* name, float fallback);
bool attrBool(const Node& node, const char* name, bool fallback);
std::string attrString(const Node& node, const char* name, const std::string& fallback);
std::vector<int64_t> attrInts(const Node& node, const char* name);
DType attrType(const Node& node, const char* name, DType fallback);

/// The values of an int32 or int64 tensor (shape arguments, axes, indices given as tensors).
std::vector<int64_t> intValues(const Tensor& t);
/// A 1-element int32/int64 tensor as a number; false when the tensor is not one.
bool scalarInt(const Tensor& t, int64_t* out);
/// Axis in [-rank, rank) -> [0, rank); false when out of range.
bool normalizeAxis(int64_t axis, int rank, int64_t* out);
/// Checks the input count; an error naming the node otherwise.
Status expectInputs(const KernelContext& ctx, size_t count);
/// Row-major strides of a shape (elements).
std::vector<int64_t> stridesOf(const Shape& shape);

}  // namespace flowscope
