#include "layout/shared_constants.h"

#include <algorithm>
#include <set>

namespace flowscope {

std::vector<bool> sharedConstants(const std::vector<bool>& constantSource, const std::vector<int>& from,
                                  const std::vector<int>& to) {
  std::vector<std::set<int>> readers(constantSource.size());
  for (size_t k = 0; k < from.size() && k < to.size(); ++k)
    if (constantSource[static_cast<size_t>(from[k])]) readers[static_cast<size_t>(from[k])].insert(to[k]);
  std::vector<bool> aside(constantSource.size(), false);
  for (size_t c = 0; c < aside.size(); ++c)
    aside[c] = constantSource[c] && static_cast<int>(readers[c].size()) >= kSharedConstantReaders;
  return aside;
}

constexpr double kStubLength = 18;

std::vector<Point> stubPoints(const Rect& reader, int k) {
  constexpr double kFirst = 7, kSpacing = 11;  // a label's height apart, so that each label fits
  const double y = reader.y + std::min(reader.h - 4, kFirst + kSpacing * k);
  return {Point{reader.x - kStubLength, y}, Point{reader.x, y}};
}

double stubMargin(size_t longestLabel) {
  constexpr double kCharWidth = 5.6;  // the canvas's 7 pt type
  return longestLabel == 0 ? 0 : kStubLength + 6 + kCharWidth * static_cast<double>(std::min<size_t>(longestLabel, 40));
}

}  // namespace flowscope
