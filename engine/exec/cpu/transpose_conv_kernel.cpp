// The fused NCHW-input transpose + convolution kernel (transpose_conv.h): nchw_input_conv.h on the transpose's
// input, with the convolution's window, bias and activation.
#include <optional>

#include "exec/cpu/conv_window.h"
#include "exec/cpu/fused_epilogue.h"
#include "exec/cpu/fused_pair.h"
#include "exec/cpu/nchw_input_conv.h"
#include "exec/cpu/row_chain.h"
#include "exec/cpu/transpose_conv.h"
#include "exec/kernel_util.h"
#include "profile/flops.h"

namespace flowscope {
namespace {

// The fused node's inputs: the transpose's, then the convolution's after its first.
constexpr size_t kInput = 0, kPerm = 1, kFilter = 2, kBias = 3;

class TransposeConvKernel : public OpKernel, public RowProducer {
 public:
  TransposeConvKernel(const Node& transpose, const Node& conv) : m_conv(conv) {
    m_setup = m_pair.make(transpose, conv);
    if (m_setup.isOk()) {
      auto spec = parseFusedOps(conv);
      if (spec) m_clamp = depthwiseClampFor(spec->activation);
    }
  }

  Status compute(KernelContext& ctx) override {
    FS_RETURN_IF_ERROR(m_setup);
    const std::vector<Tensor>& in = ctx.inputs;
    if (in.size() != kBias + 1 || !prepare(in)) return m_pair.run(ctx, kFilter);
    const NchwInputConvShape& s = m_shape;
    Tensor out = Tensor::uninitialized(DType::kFloat, Shape{s.n, s.oh, s.ow, s.oc});
    nchwInputConv(s, in[kInput].data<float>(), in[kFilter].data<float>(), in[kBias].data<float>(), *m_clamp,
                  out.data<float>());
    // Reported by the kernel, as the other fused kernels do, so a profile tells this path from the two kernels'.
    ctx.flops = producedFlops();
    ctx.outputs[0] = std::move(out);
    return Status::ok();
  }

  std::optional<Shape> producedShape(const std::vector<Tensor>& in) override {
    if (!m_setup.isOk() || in.size() != kBias + 1 || !prepare(in)) return std::nullopt;
    return Shape{m_shape.n, m_shape.oh, m_shape.ow, m_shape.oc};
  }

  void produceRows(const std::vector<Tensor>& in, int64_t begin, int64_t end, float* out) const override {
    nchwInputConvRows(m_shape, in[kInput].data<float>(), in[kFilter].data<float>(), in[kBias].data<float>(), *m_clamp,
                      begin, end, out);
  }

  int64_t producedFlops() const override {
    const NchwInputConvShape& s = m_shape;
    const Shape nhwc{s.n, s.h, s.w, s.c};
    return estimateFlops(m_conv, {&nhwc, &m_filter}, Shape{s.n, s.oh, s.ow, s.oc});
  }

 private:
  // True when nchw_input_conv runs these inputs; the shape is worked out once per input and filter shape.
  bool prepare(const std::vector<Tensor>& in) {
    const Tensor &x = in[kInput], &filter = in[kFilter], &bias = in[kBias];
    if (!m_clamp || x.dtype() != DType::kFloat || filter.dtype() != DType::kFloat || bias.dtype() != DType::kFloat ||
        x.shape().rank() != 4 || filter.shape().rank() != 4 || intValues(in[kPerm]) != std::vector<int64_t>{0, 2, 3, 1})
      return false;
    if (x.shape() != m_input || filter.shape() != m_filter) {
      m_input = x.shape();
      m_filter = filter.shape();
      m_usable = geometry();
    }
    return m_usable && bias.numElements() == m_shape.oc;
  }

  bool geometry() {
    const auto& d = m_input.dims();
    const auto& f = m_filter.dims();
    if (f[2] != d[1]) return false;
    Expected<Window> w = windowFor(m_conv, Shape{d[0], d[2], d[3], d[1]}, f[0], f[1]);
    if (!w || w->dh != 1 || w->dw != 1) return false;
    m_shape = {d[0], d[1], d[2], d[3], w->kh, w->kw, w->sh, w->sw, w->padTop, w->padLeft, w->oh, w->ow, f[3]};
    return nchwInputConvRuns(m_shape);
  }

  Node m_conv;
  KernelPair m_pair;
  Status m_setup;
  std::optional<DepthwiseClamp> m_clamp;  ///< the convolution's activation; none for one the kernel does not fuse
  Shape m_input = Shape::unknownRank(), m_filter = Shape::unknownRank();
  bool m_usable = false;
  NchwInputConvShape m_shape;
};

}  // namespace

std::unique_ptr<OpKernel> makeTransposeConvKernel(const Node& transpose, const Node& conv) {
  return std::make_unique<TransposeConvKernel>(transpose, conv);
}

}  // namespace flowscope
