#include "exec/cpu/depthwise_band_rows.h"

#include <algorithm>

#include "base/settings.h"
#include "exec/cpu/cpu_features.h"

namespace flowscope {

bool DepthwiseBandRows::runsHere() {
  static const bool runs = cpuHasAvx512() || settingOn("FLOWSCOPE_BANDED_DNNL_DEPTHWISE");
  return runs;
}

bool DepthwiseBandRows::reset(const DepthwiseShape& shape, DepthwiseClamp clamp, bool oneDnnOnly) {
  m_shape = shape;
  m_clamp = clamp;
  m_ours = !oneDnnOnly && depthwiseNhwcRuns(shape);
  const int64_t k = shape.k, c = shape.c;
  if (!m_ours)  // our filter [k, k, c, 1] as oneDNN's grouped goihw [c, 1, 1, k, k]
    m_dnnl.reset(dnnl_util::desc({c, 1, 1, k, k}, DType::kFloat, {1, k * k * c, k * k * c, k * c, c}), c);
  return (runsHere() || oneDnnOnly) && shape.k > 0 && shape.c > 0 && shape.sh > 0 && shape.sw > 0;
}

std::array<int64_t, 3> DepthwiseBandRows::keyOf(const InputBand& band) const {
  const int64_t firstRow = band.outBegin % m_shape.oh * m_shape.sh - m_shape.padTop;
  return {band.inEnd - band.inBegin, band.outEnd - band.outBegin, std::max<int64_t>(0, -firstRow)};
}

dnnl::convolution_forward::primitive_desc DepthwiseBandRows::bandDesc(const std::array<int64_t, 3>& key) const {
  using namespace dnnl_util;
  const DepthwiseShape& d = m_shape;
  const auto [inRows, outRows, padTop] = key;
  const int64_t padBottom = (outRows - 1) * d.sh + d.k - inRows - padTop;
  const int64_t padRight = (d.ow - 1) * d.sw + d.k - d.w - d.padLeft;
  const auto src = desc({1, d.c, inRows, d.w}, DType::kFloat, {inRows * d.w * d.c, 1, d.w * d.c, d.c});
  const auto dst = desc({1, d.c, outRows, d.ow}, DType::kFloat, {outRows * d.ow * d.c, 1, d.ow * d.c, d.c});
  const dnnl::memory::desc weights({d.c, 1, 1, d.k, d.k}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::any);
  dnnl::post_ops ops;
  if (m_clamp == DepthwiseClamp::kRelu) activationPostOp("Relu", 0.0f, &ops);
  if (m_clamp == DepthwiseClamp::kRelu6) activationPostOp("Relu6", 0.0f, &ops);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);  // see dnnl_util.h
  const dnnl::convolution_forward::desc op(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src,
                                           weights, dense({d.c}, DType::kFloat), dst, {d.sh, d.sw}, {padTop, d.padLeft},
                                           {std::max<int64_t>(0, padBottom), padRight});
  return dnnl::convolution_forward::primitive_desc(op, attr, engine());
}

bool DepthwiseBandRows::add(const InputBand& band, ThreadMemories& memories) {
  if (m_ours) return true;
  const std::array<int64_t, 3> key = keyOf(band);
  if (memories.count(key)) return true;
  try {
    if (!m_dnnl.has(key) && !m_dnnl.add(key, bandDesc(key))) return false;
  } catch (const dnnl::error&) {
    return false;
  }
  memories[key] = m_dnnl.memoriesFor(key);
  return true;
}

void DepthwiseBandRows::load(const Tensor& filter, const Tensor& bias) {
  m_filter = filter.data<float>();
  m_bias = bias.data<float>();
  if (!m_ours) m_dnnl.load(filter, bias);
}

void DepthwiseBandRows::run(const InputBand& band, ThreadMemories& memories, const float* in, int64_t inFirstRow,
                            float* out) const {
  if (m_ours) {
    depthwiseNhwcRows(m_shape, in, m_filter, m_bias, m_clamp, band.outBegin, band.outEnd, out, inFirstRow);
    return;
  }
  const std::array<int64_t, 3> key = keyOf(band);
  m_dnnl.run(key, memories.at(key), in + (band.inBegin - inFirstRow) * m_shape.w * m_shape.c, out);
}

}  // namespace flowscope
