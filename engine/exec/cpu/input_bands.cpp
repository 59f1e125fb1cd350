#include "exec/cpu/input_bands.h"

#include <algorithm>
#include <cstring>

namespace flowscope {

std::vector<InputBand> inputBandsOf(const DepthwiseShape& d, int64_t begin, int64_t end, int64_t perBand) {
  std::vector<InputBand> bands;
  for (int64_t row = begin; row < end;) {
    const int64_t image = row / d.oh, rowEnd = std::min({end, row + perBand, (image + 1) * d.oh});
    const int64_t top = (row - image * d.oh) * d.sh - d.padTop, bottom = top + (rowEnd - row - 1) * d.sh + d.k;
    const int64_t first = image * d.h + std::max<int64_t>(0, top);
    InputBand band{row, rowEnd, first, std::max(first, image * d.h + std::min(d.h, bottom)), 0, 0};
    if (!bands.empty() && bands.back().inEnd > band.inBegin) {
      band.kept = bands.back().inEnd - band.inBegin;
      band.keptFrom = band.inBegin - bands.back().inBegin;
    }
    bands.push_back(band);
    row = rowEnd;
  }
  return bands;
}

int64_t outputRowsPerBand(const DepthwiseShape& d, int64_t bytes) {
  return std::max<int64_t>(1, (bytes / (d.w * d.c * int64_t{sizeof(float)}) - d.k) / d.sh + 1);
}

float* keepSharedRows(const InputBand& band, float* buffer, int64_t rowFloats) {
  if (band.kept > 0)
    std::memmove(buffer, buffer + band.keptFrom * rowFloats,
                 static_cast<size_t>(band.kept * rowFloats) * sizeof(float));
  return buffer + band.kept * rowFloats;
}

}  // namespace flowscope
