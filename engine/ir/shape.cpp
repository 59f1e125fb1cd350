// Shape helpers.
#include "ir/shape.h"

#include <limits>

namespace flowscope {

bool Shape::isFullyDefined() const {
  if (m_unknownRank) return false;
  for (int64_t d : m_dims)
    if (d < 0) return false;
  return true;
}

int64_t Shape::countElements() const {
  if (!isFullyDefined()) return -1;
  int64_t product = 1;
  for (int64_t d : m_dims) {
    if (d != 0 && product > std::numeric_limits<int64_t>::max() / d) return -1;
    product *= d;
  }
  return product;
}

std::string Shape::toString() const {
  if (m_unknownRank) return "<unknown>";
  std::string out = "[";
  for (size_t i = 0; i < m_dims.size(); ++i) {
    if (i) out += ",";
    out += m_dims[i] < 0 ? "?" : std::to_string(m_dims[i]);
  }
  return out + "]";
}

bool Shape::isCompatibleWith(const Shape& other) const {
  if (m_unknownRank || other.m_unknownRank) return true;
  if (m_dims.size() != other.m_dims.size()) return false;
  for (size_t i = 0; i < m_dims.size(); ++i)
    if (m_dims[i] >= 0 && other.m_dims[i] >= 0 && m_dims[i] != other.m_dims[i]) return false;
  return true;
}

Shape commonShape(const Shape& a, const Shape& b) {
  if (a.hasUnknownRank() || b.hasUnknownRank() || a.rank() != b.rank()) return Shape::unknownRank();
  std::vector<int64_t> dims;
  for (int i = 0; i < a.rank(); ++i) dims.push_back(a.dim(i) == b.dim(i) ? a.dim(i) : -1);
  return Shape(dims);
}

}  // namespace flowscope
