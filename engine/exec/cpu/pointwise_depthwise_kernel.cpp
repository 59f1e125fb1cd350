// The fused 1x1 + depthwise kernel (pointwise_depthwise.h): oneDNN's 1x1 convolution with the bias and activation
// of the 1x1 node, then a depthwise post-op with the depthwise node's filter and bias, then its activation. The
// primitive is built once per input shape; filters are reordered into oneDNN's layouts once per filter tensor.
#include <memory>

#include "exec/cpu/conv_window.h"
#include "exec/cpu/dnnl_util.h"
#include "exec/cpu/fused_epilogue.h"
#include "exec/cpu/fused_pair.h"
#include "exec/cpu/pointwise_depthwise.h"

namespace flowscope {
namespace {

std::vector<int64_t> nhwcStrides(int64_t c, int64_t h, int64_t w) { return {h * w * c, 1, w * c, c}; }

// One oneDNN primitive for one input shape; `usable` false where oneDNN cannot fuse it.
struct FusedPrimitive {
  Shape input = Shape::unknownRank(), pwFilter = Shape::unknownRank(), dwFilter = Shape::unknownRank();
  bool usable = false;
  dnnl::convolution_forward primitive;
  dnnl::memory src, dst, pwBias, dwBias, scratchpad;
  dnnl::memory pwWeights, pwUserWeights, dwWeights, dwUserWeights;
  PackedBytes pwWeightBytes, dwWeightBytes;  // under pwWeights and dwWeights
  dnnl::reorder pwReorder, dwReorder;
  dnnl_util::BlockedIo blocked;  // src and dst go through oneDNN's blocked layout
  Tensor pwFrom, dwFrom;  // the filters the weights were reordered from (kept alive so their addresses stay theirs)
};

class PointwiseDepthwiseKernel : public OpKernel {
 public:
  PointwiseDepthwiseKernel(const Node& pointwise, const Node& depthwise)
      : m_pointwise(pointwise), m_depthwise(depthwise), m_pwArgs(pointwise.inputs.size() - 2) {
    m_setup = setUp();
  }

  Status compute(KernelContext& ctx) override {
    FS_RETURN_IF_ERROR(m_setup);
    const Tensor& x = ctx.inputs[0];
    const Tensor& pwFilter = ctx.inputs[1];
    const Tensor& dwFilter = ctx.inputs[2 + m_pwArgs];
    if (prepare(x, pwFilter, dwFilter)) return runFused(ctx);
    return runOneAfterTheOther(ctx);
  }

 private:
  Status setUp() {
    FS_ASSIGN_OR_RETURN(m_pwSpec, parseFusedOps(m_pointwise));
    FS_ASSIGN_OR_RETURN(m_dwSpec, parseFusedOps(m_depthwise));
    return m_pair.make(m_pointwise, m_depthwise);
  }

  Status runOneAfterTheOther(KernelContext& ctx) { return m_pair.run(ctx, 2 + m_pwArgs); }

  Status runFused(KernelContext& ctx) {
    FusedPrimitive& p = m_cache;
    const int64_t oc = p.pwFilter.dim(3);
    const Tensor& pwBias = ctx.inputs[2];
    const Tensor& dwBias = ctx.inputs[3 + m_pwArgs];
    if (pwBias.numElements() != oc || dwBias.numElements() != oc || pwBias.dtype() != DType::kFloat ||
        dwBias.dtype() != DType::kFloat)
      return runOneAfterTheOther(ctx);  // the kernels say what is wrong with them
    reorderFilter(p.pwUserWeights, p.pwWeights, p.pwReorder, ctx.inputs[1], p.pwFrom);
    reorderFilter(p.dwUserWeights, p.dwWeights, p.dwReorder, ctx.inputs[2 + m_pwArgs], p.dwFrom);
    Tensor out = Tensor::uninitialized(DType::kFloat, outputShape());
    p.src.set_data_handle(const_cast<float*>(ctx.inputs[0].data<float>()));
    p.dst.set_data_handle(out.data<float>());
    p.pwBias.set_data_handle(const_cast<float*>(pwBias.data<float>()));
    p.dwBias.set_data_handle(const_cast<float*>(dwBias.data<float>()));
    dnnl_util::bindThreadScratchpad(p.scratchpad);
    dnnl_util::ExecArgs{{DNNL_ARG_SRC, p.blocked.sourceFor(p.src)},
                        {DNNL_ARG_WEIGHTS, p.pwWeights},
                        {DNNL_ARG_BIAS, p.pwBias},
                        {DNNL_ARG_DST, p.blocked.destinationFor(p.dst)},
                        {DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS, p.dwWeights},
                        {DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS, p.dwBias},
                        {DNNL_ARG_SCRATCHPAD, p.scratchpad}}
        .run(p.primitive);
    p.blocked.finish(p.dst);
    dnnl_util::stream().wait();
    ctx.outputs[0] = std::move(out);
    return Status::ok();
  }

  static void reorderFilter(dnnl::memory& user, dnnl::memory& reordered, dnnl::reorder& reorder, const Tensor& filter,
                            Tensor& from) {
    if (from.isValid() && from.bytes().data() == filter.bytes().data()) return;
    user.set_data_handle(const_cast<float*>(filter.data<float>()));
    reorder.execute(dnnl_util::stream(), user, reordered);
    from = filter;
  }

  Shape outputShape() const {
    const dnnl::memory::dims d = m_cache.primitive ? m_cache.dst.get_desc().dims() : dnnl::memory::dims{};
    return Shape{d[0], d[2], d[3], d[1]};
  }

  // True when the fused primitive runs these shapes (built on the first call with them).
  bool prepare(const Tensor& x, const Tensor& pwFilter, const Tensor& dwFilter) {
    FusedPrimitive& p = m_cache;
    if (p.input == x.shape() && p.pwFilter == pwFilter.shape() && p.dwFilter == dwFilter.shape()) return p.usable;
    p = FusedPrimitive{};
    p.input = x.shape();
    p.pwFilter = pwFilter.shape();
    p.dwFilter = dwFilter.shape();
    p.usable = fusable(x, pwFilter, dwFilter) && build();
    return p.usable;
  }

  bool fusable(const Tensor& x, const Tensor& pwFilter, const Tensor& dwFilter) {
    if (x.dtype() != DType::kFloat || pwFilter.dtype() != DType::kFloat || dwFilter.dtype() != DType::kFloat)
      return false;
    if (x.shape().rank() != 4 || pwFilter.shape().rank() != 4 || dwFilter.shape().rank() != 4) return false;
    const int64_t c = x.shape().dim(3), oc = pwFilter.shape().dim(3);
    if (pwFilter.shape() != Shape{1, 1, c, oc} || dwFilter.shape() != Shape{3, 3, oc, 1}) return false;
    if (!m_pwSpec.bias || !m_dwSpec.bias || m_pwSpec.batchNorm || m_dwSpec.batchNorm || m_pwSpec.prelu ||
        m_dwSpec.prelu)
      return false;
    auto pw = windowFor(m_pointwise, x.shape(), 1, 1);
    if (!pw || pw->sh != 1 || pw->sw != 1 || pw->oh != x.shape().dim(1) || pw->ow != x.shape().dim(2)) return false;
    auto dw = windowFor(m_depthwise, Shape{x.shape().dim(0), pw->oh, pw->ow, oc}, 3, 3);
    if (!dw || dw->sh != dw->sw || dw->sh > 2 || dw->dh != 1 || dw->dw != 1 || dw->padTop != dw->padLeft) return false;
    m_dwWindow = *dw;
    return true;
  }

  bool build() {
    using namespace dnnl_util;
    FusedPrimitive& p = m_cache;
    const int64_t n = p.input.dim(0), h = p.input.dim(1), w = p.input.dim(2), c = p.input.dim(3);
    const int64_t oc = p.pwFilter.dim(3), oh = m_dwWindow.oh, ow = m_dwWindow.ow;
    dnnl::post_ops ops;
    activationPostOp(m_pwSpec.activation, m_pwSpec.leakyAlpha, &ops);
    const auto f32 = dnnl::memory::data_type::f32;
    ops.append_dw(f32, f32, f32, 3, m_dwWindow.sh, m_dwWindow.padTop, 0, {});  // mask 0, no scales: float
    activationPostOp(m_dwSpec.activation, m_dwSpec.leakyAlpha, &ops);
    dnnl::primitive_attr attr;
    attr.set_post_ops(ops);
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);  // see dnnl_util.h
    const auto srcDesc = desc({n, c, h, w}, DType::kFloat, nhwcStrides(c, h, w));
    const auto dstDesc = desc({n, oc, oh, ow}, DType::kFloat, nhwcStrides(oc, oh, ow));
    // oneDNN picks the layouts: its fused 1x1 kernel (jit_1x1) computes wrong values on NHWC in oneDNN 2.6 (every
    // MobileNetV2 block checked) and right ones on its blocked layout, so activations are reordered around it.
    const auto any = dnnl::memory::format_tag::any;
    const dnnl::memory::desc anySrc({n, c, h, w}, f32, any), anyMiddle({n, oc, h, w}, f32, any);
    const dnnl::memory::desc anyWeights({oc, c, 1, 1}, f32, any);
    const auto biasDesc = dense({oc}, DType::kFloat);
    try {
      dnnl::convolution_forward::desc opDesc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                             anySrc, anyWeights, biasDesc, anyMiddle, {1, 1}, {0, 0}, {0, 0});
      dnnl::convolution_forward::primitive_desc pd(opDesc, attr, engine());
      if (pd.dst_desc().dims() != dstDesc.dims()) return false;  // oneDNN's pads give another size
      p.primitive = dnnl::convolution_forward(pd);
      p.scratchpad = dnnl::memory(pd.scratchpad_desc(), engine(), nullptr);
      p.src = dnnl::memory(srcDesc, engine(), nullptr);
      p.dst = dnnl::memory(dstDesc, engine(), nullptr);
      p.blocked.prepare(p.src, p.dst, pd.src_desc(), pd.dst_desc());
      p.pwBias = dnnl::memory(biasDesc, engine(), nullptr);
      p.dwBias = dnnl::memory(biasDesc, engine(), nullptr);
      p.pwUserWeights = dnnl::memory(desc({oc, c, 1, 1}, DType::kFloat, {1, oc, c * oc, c * oc}), engine(), nullptr);
      p.pwWeights = packedMemory(pd.weights_desc(), &p.pwWeightBytes);
      p.pwReorder = dnnl::reorder(p.pwUserWeights, p.pwWeights);
      // The depthwise filter [3, 3, oc, 1] as oneDNN's groups x 1 x 1 x 3 x 3.
      p.dwUserWeights = dnnl::memory(desc({oc, 1, 1, 3, 3}, DType::kFloat, {1, 1, 1, 3 * oc, oc}), engine(), nullptr);
      p.dwWeights = packedMemory(pd.query_md(dnnl::query::exec_arg_md, DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS),
                                 &p.dwWeightBytes);
      p.dwReorder = dnnl::reorder(p.dwUserWeights, p.dwWeights);
    } catch (const dnnl::error&) {  // no fused kernel for this shape or machine
      return false;
    }
    return true;
  }

  Node m_pointwise, m_depthwise;
  size_t m_pwArgs;
  Status m_setup;
  FusedSpec m_pwSpec, m_dwSpec;
  KernelPair m_pair;
  Window m_dwWindow;
  FusedPrimitive m_cache;
};

}  // namespace

std::unique_ptr<OpKernel> makePointwiseDepthwiseKernel(const Node& pointwise, const Node& depthwise) {
  return makeBandedPointwiseDepthwiseKernel(pointwise, depthwise,
                                            std::make_unique<PointwiseDepthwiseKernel>(pointwise, depthwise));
}

}  // namespace flowscope
