#include "exec/cpu/onednn_conv_bands.h"

#include <algorithm>

namespace flowscope {

void OneDnnConvBands::reset(const ConvBandShape& s, DepthwiseClamp clamp) {
  m_shape = s;
  m_clamp = clamp;
  using dnnl_util::desc;
  const int64_t kh = s.kh, kw = s.kw, c = s.c, oc = s.oc;
  if (s.depthwise)  // our filter [kh, kw, c, 1] as oneDNN's grouped goihw [c, 1, 1, kh, kw]
    m_convolutions.reset(desc({c, 1, 1, kh, kw}, DType::kFloat, {1, kh * kw * c, kh * kw * c, kw * c, c}), c);
  else  // our HWIO [kh, kw, c, oc] as oneDNN's oihw
    m_convolutions.reset(desc({oc, c, kh, kw}, DType::kFloat, {1, oc, kw * c * oc, c * oc}), oc);
}

OneDnnConvBands::Key OneDnnConvBands::keyOf(const InputBand& band) const {
  const int64_t firstRow = band.outBegin % m_shape.oh * m_shape.sh - m_shape.padTop;
  return {band.inEnd - band.inBegin, band.outEnd - band.outBegin, std::max<int64_t>(0, -firstRow)};
}

dnnl::convolution_forward::primitive_desc OneDnnConvBands::descFor(const Key& key) const {
  using namespace dnnl_util;
  const ConvBandShape& s = m_shape;
  const auto [inRows, outRows, padTop] = key;
  const int64_t padBottom = std::max<int64_t>(0, (outRows - 1) * s.sh + s.kh - inRows - padTop);
  const int64_t padRight = (s.ow - 1) * s.sw + s.kw - s.w - s.padLeft;
  const auto src = desc({1, s.c, inRows, s.w}, DType::kFloat, {inRows * s.w * s.c, 1, s.w * s.c, s.c});
  const auto dst = desc({1, s.oc, outRows, s.ow}, DType::kFloat, {outRows * s.ow * s.oc, 1, s.ow * s.oc, s.oc});
  const auto any = dnnl::memory::format_tag::any;
  const auto f32 = dnnl::memory::data_type::f32;
  const dnnl::memory::desc weights = s.depthwise ? dnnl::memory::desc({s.c, 1, 1, s.kh, s.kw}, f32, any)
                                                 : dnnl::memory::desc({s.oc, s.c, s.kh, s.kw}, f32, any);
  dnnl::post_ops ops;
  if (m_clamp == DepthwiseClamp::kRelu) activationPostOp("Relu", 0.0f, &ops);
  if (m_clamp == DepthwiseClamp::kRelu6) activationPostOp("Relu6", 0.0f, &ops);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);  // see dnnl_util.h
  const dnnl::convolution_forward::desc op(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src,
                                           weights, dense({s.oc}, DType::kFloat), dst, {s.sh, s.sw},
                                           {padTop, s.padLeft}, {padBottom, padRight});
  return dnnl::convolution_forward::primitive_desc(op, attr, engine());
}

bool OneDnnConvBands::add(const InputBand& band, ThreadMemories& memories, bool orReference) {
  const Key key = keyOf(band);
  if (memories.count(key)) return true;
  try {
    if (!m_convolutions.has(key) && !m_convolutions.add(key, descFor(key), orReference)) return false;
  } catch (const dnnl::error&) {
    return false;
  }
  memories[key] = m_convolutions.memoriesFor(key);
  return true;
}

void OneDnnConvBands::run(const InputBand& band, ThreadMemories& memories, const float* bandInput, float* out) const {
  const Key key = keyOf(band);
  m_convolutions.run(key, memories.at(key), bandInput, out);
}

}  // namespace flowscope
