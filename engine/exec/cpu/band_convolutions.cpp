#include "exec/cpu/band_convolutions.h"

namespace flowscope {

dnnl::convolution_forward::primitive_desc pointwiseBandDesc(int64_t pixels, int64_t c, int64_t oc,
                                                            const FusedSpec& spec) {
  using namespace dnnl_util;
  const auto f32 = dnnl::memory::data_type::f32;
  const dnnl::memory::desc weights({oc, c, 1, 1}, f32, dnnl::memory::format_tag::any);
  const auto src = desc({1, c, 1, pixels}, DType::kFloat, {pixels * c, 1, pixels * c, c});
  const auto dst = desc({1, oc, 1, pixels}, DType::kFloat, {pixels * oc, 1, pixels * oc, oc});
  dnnl::post_ops ops;
  if (spec.addend) ops.append_sum(1.0f);
  activationPostOp(spec.activation, spec.leakyAlpha, &ops);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);  // see dnnl_util.h
  const dnnl::convolution_forward::desc op(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src,
                                           weights, dense({oc}, DType::kFloat), dst, {1, 1}, {0, 0}, {0, 0}, {0, 0});
  return dnnl::convolution_forward::primitive_desc(op, attr, engine());
}

}  // namespace flowscope
