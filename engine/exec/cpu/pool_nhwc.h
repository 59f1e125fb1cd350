// Max and average pooling on channels-last float32: each window adds whole pixels (their channels are contiguous),
// 16 channels at a time in SSE registers, the x86-64 baseline (plain C++ elsewhere). oneDNN 2.6's AVX2 pooling on NHWC
// took 1.9-2.5 ms for ResNet-18's 3x3 stride-2 max pool (112x112x64) on a Zen 3 core, a tenth of the memory's speed.
#pragma once

#include <cstdint>

#include "exec/cpu/conv_window.h"

namespace flowscope {

/// Some rows of one image's input: `data` holds its rows from `firstRow` on, of an image [h, width, c].
struct PoolBand {
  const float* data;
  int64_t firstRow, h, width, c;
};

/// Output rows [rowBegin, rowEnd) of one image (out: the image's output) from the input rows their windows reach in
/// `band`, on the calling thread, as poolNhwc pools them.
void poolNhwcRows(bool max, const PoolBand& band, const Window& w, int64_t rowBegin, int64_t rowEnd, float* out,
                  bool blockedOutput);

/// out [n, w.oh, w.ow, c] = the max, or the mean, of each window of in [n, h, width, c]; padding is left out of
/// both (TensorFlow's MaxPool and AvgPool): a window wholly in the padding gives the lowest float, or 0.
/// `blockedOutput`: out is in the blocked layout instead, [n, c / 16, w.oh, w.ow, 16] (c a multiple of 16).
void poolNhwc(bool max, const float* in, int64_t n, int64_t h, int64_t width, int64_t c, const Window& w, float* out,
              bool blockedOutput = false);

}  // namespace flowscope
