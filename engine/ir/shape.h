// Shape: a tensor shape that may have unknown dimensions (-1) or an unknown rank.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace flowscope {

/// Row-major dims, outermost first; -1 marks an unknown dim. Equal to TensorShapeProto minus dim names.
class Shape {
 public:
  static constexpr int64_t kUnknownDim = -1;

  Shape() = default;  ///< a scalar
  Shape(std::initializer_list<int64_t> dims) : m_dims(dims), m_elements(countElements()) {}
  explicit Shape(std::vector<int64_t> dims) : m_dims(std::move(dims)), m_elements(countElements()) {}
  static Shape unknownRank() {
    Shape shape;
    shape.m_unknownRank = true;
    shape.m_elements = -1;
    return shape;
  }

  bool hasUnknownRank() const { return m_unknownRank; }
  /// -1 when the rank is unknown.
  int rank() const { return m_unknownRank ? -1 : static_cast<int>(m_dims.size()); }
  const std::vector<int64_t>& dims() const { return m_dims; }
  int64_t dim(int i) const { return m_dims[static_cast<size_t>(i)]; }
  bool isFullyDefined() const;
  /// Product of dims; -1 when any dim or the rank is unknown, or when the product overflows int64.
  int64_t numElements() const { return m_elements; }
  /// "[2,?,3]", "[]" for a scalar, "<unknown>" for an unknown rank.
  std::string toString() const;
  /// True when every dim of `this` is compatible with `other` (unknowns match anything).
  bool isCompatibleWith(const Shape& other) const;

  bool operator==(const Shape& other) const = default;

 private:
  int64_t countElements() const;

  std::vector<int64_t> m_dims;
  bool m_unknownRank = false;
  int64_t m_elements = 1;  ///< numElements(), counted once: kernels ask for it many times per call
};

/// The most specific shape both fit: equal dims kept, differing dims unknown; a rank mismatch or an unknown rank
/// on either side gives an unknown rank (tf.function's relaxed shapes, and the shape of a cond's merged outputs).
Shape commonShape(const Shape& a, const Shape& b);

}  // namespace flowscope
