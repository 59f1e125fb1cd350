// MaxPool and AvgPool: an NHWC input on our own loop (pool_nhwc.h), which writes NHWC or, where kBlockedOutputAttr
// asks for it, the blocked layout (blocked_layout.h); a blocked (5-D) input on oneDNN, pooled in its own layout and
// reordered where the output's differs. ResNet-18's max pool (112x112x64 NHWC in, blocked out) took 270-290 us on our
// loop against 440-510 us as oneDNN's AVX-512 pooling and a reorder, on one Xeon core.
#include "exec/cpu/blocked_layout.h"
#include "exec/cpu/conv_window.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/dnnl_util.h"
#include "exec/cpu/pool_nhwc.h"
#include "exec/kernel_util.h"

namespace flowscope {
namespace {

dnnl::memory::desc activationDesc(const dnnl::memory::dims& nchw, bool blocked) {
  const auto tag = blocked ? dnnl::memory::format_tag::nChw16c : dnnl::memory::format_tag::nhwc;
  return dnnl::memory::desc(nchw, dnnl::memory::data_type::f32, tag);
}

class PoolKernel : public OpKernel {
 public:
  PoolKernel(bool max, bool blockedOutput) : m_max(max), m_blockedOutput(blockedOutput) {}

  Status compute(KernelContext& ctx) override {
    const Tensor& x = ctx.inputs[0];
    const Shape in = logicalNhwc(x.shape());
    if (in.rank() != 4 || x.dtype() != DType::kFloat)
      return ctx.error("expects a 4-D float32 input, got " + std::string(dtypeName(x.dtype())) + " " +
                       x.shape().toString());
    auto ksize = attrInts(ctx.node, "ksize");
    if (ksize.size() != 4 || ksize[0] != 1 || ksize[3] != 1)
      return ctx.error("pooling over batch or depth is not supported");
    FS_ASSIGN_OR_RETURN(Window w, windowFor(ctx.node, in, ksize[1], ksize[2]));
    const int64_t n = in.dim(0), c = in.dim(3);
    const Shape logicalOut{n, w.oh, w.ow, c};
    const bool blockedOut = m_blockedOutput && c % kChannelBlock == 0;
    Tensor out = Tensor::uninitialized(DType::kFloat, blockedOut ? blockedShape(logicalOut) : logicalOut);
    if (!isBlocked(x.shape())) {
      poolNhwc(m_max, x.data<float>(), n, in.dim(1), in.dim(2), c, w, out.data<float>(), blockedOut);
      ctx.outputs[0] = std::move(out);
      return Status::ok();
    }
    if (m_input != x.shape() || m_output != out.shape()) {
      try {
        prepare(in, w, blockedOut);
      } catch (const dnnl::error& e) {
        return ctx.error(std::string("oneDNN could not create the pooling: ") + e.what());
      }
      m_input = x.shape();
      m_output = out.shape();
    }
    m_src.set_data_handle(const_cast<float*>(x.data<float>()));
    m_dst.set_data_handle(out.data<float>());
    dnnl_util::ExecArgs{{DNNL_ARG_SRC, m_src}, {DNNL_ARG_DST, m_io.destinationFor(m_dst)}}.run(m_primitive);
    m_io.finish(m_dst);
    dnnl_util::stream().wait();
    ctx.outputs[0] = std::move(out);
    return Status::ok();
  }

 private:
  // The primitive pools a blocked input in that layout (NHWC inputs take poolNhwc); the output is reordered where it
  // is wanted in NHWC.
  void prepare(const Shape& in, const Window& w, bool blockedOut) {
    using namespace dnnl_util;
    const int64_t n = in.dim(0), h = in.dim(1), wd = in.dim(2), c = in.dim(3);
    const auto srcDesc = activationDesc({n, c, h, wd}, true);
    const auto poolDst = activationDesc({n, c, w.oh, w.ow}, true);
    dnnl::pooling_forward::desc opDesc(
        dnnl::prop_kind::forward_inference,
        m_max ? dnnl::algorithm::pooling_max : dnnl::algorithm::pooling_avg_exclude_padding, srcDesc, poolDst,
        {w.sh, w.sw}, {w.kh, w.kw}, {w.padTop, w.padLeft}, {w.padBottom, w.padRight});
    dnnl::pooling_forward::primitive_desc pd(opDesc, engine());
    m_primitive = dnnl::pooling_forward(pd);
    m_src = dnnl::memory(srcDesc, engine(), nullptr);
    m_dst = dnnl::memory(activationDesc({n, c, w.oh, w.ow}, blockedOut), engine(), nullptr);
    m_io = dnnl_util::BlockedIo{};
    m_io.prepare(m_src, m_dst, pd.src_desc(), pd.dst_desc());
  }

  bool m_max, m_blockedOutput;
  Shape m_input = Shape::unknownRank(), m_output = Shape::unknownRank();
  dnnl::pooling_forward m_primitive;
  dnnl::memory m_src, m_dst;
  dnnl_util::BlockedIo m_io;
};

template <bool Max>
Expected<std::unique_ptr<OpKernel>> makePool(const Node& node) {
  const AttrValue* blocked = node.attr(kBlockedOutputAttr);
  const bool blockedOutput = blocked && blocked->kind() == AttrValue::Kind::kBool && blocked->b();
  return std::unique_ptr<OpKernel>(std::make_unique<PoolKernel>(Max, blockedOutput));
}

}  // namespace

void registerPoolKernels(KernelTable& r) {
  r.add("MaxPool", makePool<true>);
  r.add("AvgPool", makePool<false>);
}

}  // namespace flowscope
