#include "exec/cpu/depthwise_band_rows.h"

#include <algorithm>

#include "base/settings.h"
#include "exec/cpu/cpu_features.h"

namespace flowscope {

bool DepthwiseBandRows::runsHere() {
  static const bool runs = cpuHasAvx512() || settingOn("FLOWSCOPE_DNNL_BANDS");
  return runs;
}

bool DepthwiseBandRows::reset(const DepthwiseShape& shape, DepthwiseClamp clamp, bool oneDnnOnly) {
  m_shape = shape;
  m_clamp = clamp;
  m_ours = !oneDnnOnly && depthwiseNhwcRuns(shape);
  const DepthwiseShape& d = shape;
  if (!m_ours) m_dnnl.reset({d.h, d.w, d.c, d.k, d.k, d.sh, d.sw, d.padTop, d.padLeft, d.oh, d.ow, d.c, true}, clamp);
  return (runsHere() || oneDnnOnly) && shape.k > 0 && shape.c > 0 && shape.sh > 0 && shape.sw > 0;
}

bool DepthwiseBandRows::add(const InputBand& band, ThreadMemories& memories) {
  return m_ours || m_dnnl.add(band, memories);
}

void DepthwiseBandRows::load(const Tensor& filter, const Tensor& bias) {
  m_filter = filter.data<float>();
  m_bias = bias.data<float>();
  if (!m_ours) m_dnnl.load(filter, bias);
}

void DepthwiseBandRows::run(const InputBand& band, ThreadMemories& memories, const float* in, int64_t inFirstRow,
                            float* out) const {
  if (m_ours)
    depthwiseNhwcRows(m_shape, in, m_filter, m_bias, m_clamp, band.outBegin, band.outEnd, out, inFirstRow);
  else
    m_dnnl.run(band, memories, in + (band.inBegin - inFirstRow) * m_shape.w * m_shape.c, out);
}

}  // namespace flowscope
