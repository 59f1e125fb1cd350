// Bands of a depthwise convolution's output rows and the input rows each band's windows read, for a kernel that
// makes those input rows band by band in a per-thread buffer (pointwise_depthwise.h, row_chain.h): the rows two bands
// share (two at stride 1, one at stride 2 under a 3x3 window) move to the buffer's start instead of being made again.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/cpu/depthwise_nhwc.h"

namespace flowscope {

/// Output rows [outBegin, outEnd) (counted over the batch) read the input rows [inBegin, inEnd) (counted over the
/// batch too); the first `kept` of those are the previous band's, `keptFrom` rows into its buffer.
struct InputBand {
  int64_t outBegin = 0, outEnd = 0, inBegin = 0, inEnd = 0, kept = 0, keptFrom = 0;
};

/// The bands of output rows [begin, end), at most `perBand` rows each; none crosses an image's end.
std::vector<InputBand> inputBandsOf(const DepthwiseShape& shape, int64_t begin, int64_t end, int64_t perBand);

/// The output rows per band whose input rows fit in `bytes` (at least one).
int64_t outputRowsPerBand(const DepthwiseShape& shape, int64_t bytes);

/// Moves `band`'s kept rows to the start of `buffer` (rows of `rowFloats`); returns where its new rows go.
float* keepSharedRows(const InputBand& band, float* buffer, int64_t rowFloats);

}  // namespace flowscope
