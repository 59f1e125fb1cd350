// Conv2D, DepthwiseConv2dNative and their fused forms on oneDNN (NHWC activations, HWIO filters; bias and
// activation as post-ops, weights reordered once into oneDNN's preferred layout and cached).
// A node with `_winograd` set (the ONNX channels-last pass sets it on 3x3 stride-1 convolutions) runs as oneDNN's
// Winograd convolution where oneDNN has one for the shape (F(2x2, 3x3) or F(4x4, 3x3)): up to twice as fast as the
// direct one here, on its blocked layout: the activations are reordered into it and back around the call, unless
// the CPU placement keeps them blocked (blocked_layout.h: a 5-D input, kBlockedOutputAttr for the output).
// Where oneDNN has no Winograd kernel (it needs AVX-512), they run on our own F(4x4, 3x3) (winograd_nhwc.h) on NHWC,
// F(2x2, 3x3) below 28x28 outputs.
// Square 3x3 and 5x5 depthwise windows run on depthwise_nhwc's AVX-512 kernel where the machine has it.
// 3x3 convolutions with 7-wide outputs and weights larger than the L2 cache (ResNet's last stage) run on
// small_image_conv's AVX-512 kernel where the machine has it, and 1x1 convolutions over at most 64 pixels with weights
// of 256 KiB or more (MobileNetV2's 7x7 blocks) on streamed_pointwise's.
// A fused Add (the remapper's residual fusion) is oneDNN's sum post-op, before the activation.
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>

#include "base/settings.h"
#include "base/thread_pool.h"
#include "exec/cpu/blocked_layout.h"
#include "exec/cpu/conv_window.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/depthwise_nhwc.h"
#include "exec/cpu/dnnl_util.h"
#include "exec/cpu/fused_epilogue.h"
#include "exec/cpu/small_image_conv.h"
#include "exec/cpu/streamed_pointwise.h"
#include "exec/cpu/winograd_nhwc.h"
#include "exec/kernel_util.h"
#include "ops/shape_functions.h"

namespace flowscope {
namespace {

std::vector<int64_t> nhwcStrides(int64_t c, int64_t h, int64_t w) { return {h * w * c, 1, w * c, c}; }

// The layouts of one run's tensors: NHWC, or blocked (blocked_layout.h) where the placement chose it.
struct ConvLayouts {
  bool input = false, output = false, addend = false;
  bool operator==(const ConvLayouts&) const = default;
};

struct ConvPrimitive {
  Shape input, filter;  // input: NHWC dims
  bool withBias = false;
  dnnl::convolution_forward primitive;
  dnnl::memory src, dst, bias;
  dnnl::memory scratchpad;  // bound to the running thread's (dnnl_util::bindThreadScratchpad)
  dnnl::memory weights;     // in oneDNN's layout, over weightBytes
  PackedBytes weightBytes;
  dnnl::memory userWeights;  // our HWIO view
  dnnl::reorder weightReorder;
  Tensor reorderedFrom;          // the filter tensor `weights` was made from (kept alive so its address is stable)
  dnnl_util::BlockedIo blocked;  // where the primitive's src and dst layouts are not the tensors'
  ConvLayouts layouts;
  dnnl::memory addend;  // a sum post-op's addend in a layout other than the output's: reordered in
  dnnl::reorder addendReorder;
  bool addendCopies = false;  // the addend is in the primitive's destination layout already
  int64_t winogradTile = 0;   // 4 or 2 where oneDNN chose a Winograd kernel, F(4x4, 3x3) or F(2x2, 3x3)
};

// oneDNN has two Winograd kernels: F(2x2, 3x3), first in its list, and F(4x4, 3x3), which does a quarter less work
// here when its weights are in cache. Those are 36/9 of the direct ones and come from memory on every run of a model
// larger than the caches, so it is taken where they are at most 1 MiB (64 x 64 channels), and not with a fused Add.
// With the Add (a sum post-op) F(4x4, 3x3) measured faster alone (ResNet-18's 56x56 layer, 1 thread: 0.73-0.78 ms
// against 0.85) and in a profile (0.74 and 0.97 ms per node against 0.88 and 1.06), but ResNet-18 was no faster in
// paired runs against this rule (1.003-1.017 of its time in four runs of 32-48 pairs), so the rule stays.
bool preferFourByFour(const dnnl::memory::desc& weights, bool withSum) {
  const auto d = weights.dims();
  return !withSum && d[0] * d[1] * 36 * int64_t{sizeof(float)} <= (int64_t{1} << 20);
}

// The primitive descriptor: Winograd on oneDNN's chosen layouts when asked and available, else direct on ours.
dnnl::convolution_forward::primitive_desc convolutionDesc(bool winograd, const dnnl::memory::desc& src,
                                                          const dnnl::memory::desc& weights,
                                                          const dnnl::memory::desc* bias, const dnnl::memory::desc& dst,
                                                          const Window& w, const dnnl::primitive_attr& attr,
                                                          bool withSum) {
  dnnl::memory::dims strides{w.sh, w.sw}, dilates{w.dh - 1, w.dw - 1}, padL{w.padTop, w.padLeft},
      padR{w.padBottom, w.padRight};
  auto opDesc = [&](dnnl::algorithm algo, const dnnl::memory::desc& s, const dnnl::memory::desc& d) {
    const auto kind = dnnl::prop_kind::forward_inference;
    return bias ? dnnl::convolution_forward::desc(kind, algo, s, weights, *bias, d, strides, dilates, padL, padR)
                : dnnl::convolution_forward::desc(kind, algo, s, weights, d, strides, dilates, padL, padR);
  };
  if (winograd && winogradWindow(w)) {
    try {
      auto any = [](const dnnl::memory::desc& m) {
        return dnnl::memory::desc(m.dims(), m.data_type(), dnnl::memory::format_tag::any);
      };
      // The implementation iterator reads the op descriptor: it must outlive the next_impl() calls.
      const auto desc = opDesc(dnnl::algorithm::convolution_winograd, any(src), any(dst));
      dnnl::convolution_forward::primitive_desc pd(desc, attr, dnnl_util::engine());
      if (!preferFourByFour(weights, withSum)) return pd;
      const dnnl::convolution_forward::primitive_desc first(desc, attr, dnnl_util::engine());
      do {
        if (std::string_view(pd.impl_info_str()).find("wino_4x3") != std::string_view::npos) return pd;
      } while (pd.next_impl());
      return first;
    } catch (const dnnl::error&) {  // no Winograd kernel for this shape or machine: direct
    }
  }
  return dnnl::convolution_forward::primitive_desc(opDesc(dnnl::algorithm::convolution_direct, src, dst), attr,
                                                   dnnl_util::engine());
}

class ConvKernel : public OpKernel {
 public:
  ConvKernel(bool depthwise, FusedSpec fused, bool winograd, bool blockedOutput)
      : m_depthwise(depthwise), m_winograd(winograd), m_blockedOutput(blockedOutput), m_fused(std::move(fused)) {}

  Status compute(KernelContext& ctx) override {
    const Tensor& x = ctx.inputs[0];
    const Tensor& f = ctx.inputs[1];
    const Shape in = logicalNhwc(x.shape());
    if (in.rank() != 4 || f.shape().rank() != 4)
      return ctx.error("expects a 4-D input and filter, got " + x.shape().toString() + " and " + f.shape().toString());
    if (x.dtype() != DType::kFloat || f.dtype() != DType::kFloat)
      return ctx.error("the CPU backend runs convolutions in float32, got " + std::string(dtypeName(x.dtype())));
    const int64_t c = in.dim(3);
    if (f.shape().dim(2) != c)
      return ctx.error("input depth " + std::to_string(c) + " does not match filter " + f.shape().toString());
    FS_ASSIGN_OR_RETURN(Window w, window(ctx.node, in, f.shape().dim(0), f.shape().dim(1)));
    const int64_t oc = m_depthwise ? c * f.shape().dim(3) : f.shape().dim(3);
    const Shape logicalOut{in.dim(0), w.oh, w.ow, oc};
    ConvLayouts layouts{isBlocked(x.shape()), m_blockedOutput && oc % kChannelBlock == 0, false};
    const Shape outShape = layouts.output ? blockedShape(logicalOut) : logicalOut;
    const bool dnnlBias = m_fused.bias && !m_fused.batchNorm && !m_fused.prelu;
    if (dnnlBias && (ctx.inputs.size() < 3 || ctx.inputs[2].numElements() != oc))
      return ctx.error("bias must have " + std::to_string(oc) + " values");
    const Tensor* addend = nullptr;
    if (m_fused.addend) {
      const size_t index = 2 + m_fused.addendArg;
      layouts.addend = index < ctx.inputs.size() && isBlocked(ctx.inputs[index].shape());
      auto a = fusedAddend(m_fused, ctx.inputs, 2, layouts.addend ? blockedShape(logicalOut) : logicalOut);
      if (!a) return ctx.error(a.status().message());
      addend = *a;
    }
    if ((layouts.input || layouts.output || layouts.addend) && (m_fused.batchNorm || m_fused.prelu || m_depthwise))
      return ctx.error("a blocked layout reaches a convolution that runs on NHWC only");
    FS_ASSIGN_OR_RETURN(bool ownWinograd, runOwnWinograd(ctx, x, f, w, oc, addend, dnnlBias, layouts));
    if (ownWinograd || runOwnSmallImage(ctx, x, f, w, oc, addend, dnnlBias, layouts) ||
        runOwnStreamedPointwise(ctx, x, f, w, oc, addend, dnnlBias, layouts))
      return Status::ok();
    const bool sumPostOp = addend && dnnlBias;  // else the epilogue after a batch norm adds it
    Tensor out = outputStartingAs(outShape, sumPostOp && layouts.addend == layouts.output ? addend : nullptr);
    if (m_depthwise && !addend && runOwnDepthwise(ctx, x, f, w, dnnlBias, out)) {
      ctx.outputs[0] = std::move(out);
      return Status::ok();
    }
    FS_RETURN_IF_ERROR(prepare(in, f, w, oc, dnnlBias, layouts));
    ConvPrimitive& p = m_cache;
    if (!p.reorderedFrom.isValid() || p.reorderedFrom.bytes().data() != f.bytes().data()) {
      p.userWeights.set_data_handle(const_cast<float*>(f.data<float>()));
      p.weightReorder.execute(dnnl_util::stream(), p.userWeights, p.weights);
      p.reorderedFrom = f;
    }
    p.src.set_data_handle(const_cast<float*>(x.data<float>()));
    p.dst.set_data_handle(out.data<float>());
    if (sumPostOp) loadAddend(*addend, layouts);
    dnnl_util::ExecArgs args{{DNNL_ARG_SRC, p.blocked.sourceFor(p.src)},
                             {DNNL_ARG_WEIGHTS, p.weights},
                             {DNNL_ARG_DST, p.blocked.destinationFor(p.dst)},
                             {DNNL_ARG_SCRATCHPAD, p.scratchpad}};
    if (dnnlBias) {
      p.bias.set_data_handle(const_cast<float*>(ctx.inputs[2].data<float>()));
      args.add(DNNL_ARG_BIAS, p.bias);
    }
    dnnl_util::bindThreadScratchpad(p.scratchpad);
    args.run(p.primitive);
    p.blocked.finish(p.dst);
    dnnl_util::stream().wait();
    if (m_fused.batchNorm || m_fused.prelu) {
      Status s = applyEpilogue(m_fused, ctx.inputs, 2, out, false);
      if (!s.isOk()) return ctx.error(s.message());
    }
    if (p.winogradTile)
      ctx.flops =
          winogradFlops({in.dim(0), in.dim(1), in.dim(2), c, oc, w.padTop, w.padLeft, w.oh, w.ow}, p.winogradTile);
    ctx.outputs[0] = std::move(out);
    return Status::ok();
  }

 private:
  // windowFor reads five attrs and works out the padding: once per input shape, not on every run.
  Expected<Window> window(const Node& node, const Shape& in, int64_t kh, int64_t kw) {
    if (in != m_windowInput || kh != m_window.kh || kw != m_window.kw) {
      FS_ASSIGN_OR_RETURN(m_window, windowFor(node, in, kh, kw));
      m_windowInput = in;
    }
    return m_window;
  }

  // The sum post-op's addend into the memory the primitive writes: there already when the output started as it,
  // else reordered from its own layout.
  void loadAddend(const Tensor& addend, const ConvLayouts& layouts) {
    ConvPrimitive& p = m_cache;
    if (layouts.addend == layouts.output) {
      p.blocked.loadDestination(p.dst);
      return;
    }
    dnnl::memory target = p.blocked.destinationFor(p.dst);
    if (p.addendCopies) {  // already in the primitive's layout (a reorder would copy it element by element)
      std::memcpy(target.get_data_handle(), addend.data<float>(), addend.byteSize());
      return;
    }
    p.addend.set_data_handle(const_cast<float*>(addend.data<float>()));
    dnnl_util::reorder(p.addendReorder, p.addend, target);
  }

  // Square, undilated depthwise windows with channel multiplier 1 and a ReLU / ReLU6 or no activation run on
  // depthwise_nhwc's kernel where the machine has it. False: oneDNN runs it.
  bool runOwnDepthwise(const KernelContext& ctx, const Tensor& x, const Tensor& f, const Window& w, bool withBias,
                       Tensor& out) const {
    const std::optional<DepthwiseClamp> clamp = depthwiseClampFor(m_fused.activation);
    if (m_fused.batchNorm || m_fused.prelu || !clamp) return false;
    if (w.kh != w.kw || w.dh != 1 || w.dw != 1 || f.shape().dim(3) != 1) return false;
    const DepthwiseShape shape = depthwiseShapeOf(x.shape(), w);
    if (!depthwiseNhwcRuns(shape)) return false;
    depthwiseNhwc(shape, x.data<float>(), f.data<float>(), withBias ? ctx.inputs[2].data<float>() : nullptr, *clamp,
                  out.data<float>());
    return true;
  }

  // Whether our own kernels (Winograd, small image) take this node's fusion and layouts: NHWC tensors, a bias and an
  // addend at most, ReLU or ReLU6.
  bool ownKernelFits(const ConvLayouts& layouts) const {
    return !m_depthwise && ownConvEpilogueRuns(m_fused) && !layouts.input && !layouts.output && !layouts.addend;
  }

  // Our own kernels' epilogue and output (the addend's buffer where no one else holds it).
  ConvEpilogue ownEpilogue(const KernelContext& ctx, const Tensor* addend, bool withBias) const {
    ConvEpilogue epilogue;
    epilogue.bias = withBias ? ctx.inputs[2].data<float>() : nullptr;
    epilogue.addend = addend ? addend->data<float>() : nullptr;
    epilogue.clamp = !m_fused.activation.empty();
    epilogue.lo = 0;
    epilogue.hi = m_fused.activation == "Relu6" ? 6.0f : std::numeric_limits<float>::infinity();
    return epilogue;
  }
  static Tensor ownOutput(const Shape& shape, const Tensor* addend) {
    return addend && addend->ownsBufferAlone() ? *addend : Tensor::uninitialized(DType::kFloat, shape);
  }

  // A convolution marked `_winograd` where oneDNN has no Winograd kernel: our own F(4x4, 3x3), or F(2x2, 3x3) below
  // 28x28 outputs, on NHWC, with its bias, a fused Add and ReLU / ReLU6 in the output transform. False: oneDNN runs it
  // (FLOWSCOPE_OWN_WINOGRAD=0 makes that so everywhere, for comparisons).
  Expected<bool> runOwnWinograd(KernelContext& ctx, const Tensor& x, const Tensor& f, const Window& w, int64_t oc,
                                const Tensor* addend, bool withBias, const ConvLayouts& layouts) {
    static const bool enabled = settingOn("FLOWSCOPE_OWN_WINOGRAD");
    if (!enabled || !m_winograd || !winograd3x3(w) || !ownKernelFits(layouts)) return false;
    const WinogradShape shape = winogradShapeOf(x.shape(), oc, w);
    if (!winogradNhwcRuns(shape) || (winogradRunsBlocked() && !winogradStreamsProducts(shape))) return false;
    if (!m_ownWinograd) m_ownWinograd = std::make_unique<WinogradNhwc>();
    Status prepared = m_ownWinograd->prepare(shape, f.data<float>());
    if (!prepared.isOk()) return ctx.error(prepared.message());
    m_ownFilter = f;
    Tensor out = ownOutput(Shape{shape.n, shape.oh, shape.ow, oc}, addend);
    m_ownWinograd->run(x.data<float>(), ownEpilogue(ctx, addend, withBias), out.data<float>());
    ctx.flops = winogradFlops(shape, m_ownWinograd->tile());
    ctx.outputs[0] = std::move(out);
    return true;
  }

  // A 3x3 convolution with 7-wide outputs and weights larger than the L2 cache: our small-image kernel. False: oneDNN
  // runs it (FLOWSCOPE_SMALL_IMAGE_CONV=0 makes that so everywhere, for comparisons).
  bool runOwnSmallImage(KernelContext& ctx, const Tensor& x, const Tensor& f, const Window& w, int64_t oc,
                        const Tensor* addend, bool withBias, const ConvLayouts& layouts) {
    static const bool enabled = settingOn("FLOWSCOPE_SMALL_IMAGE_CONV");
    if (!enabled || !ownKernelFits(layouts) || w.kh != 3 || w.kw != 3 || w.dh != 1 || w.dw != 1 || w.sh != w.sw)
      return false;
    const Shape& in = x.shape();
    const SmallImageConvShape shape{in.dim(0), in.dim(1), in.dim(2), in.dim(3), oc,
                                    w.sh,      w.padTop,  w.padLeft, w.oh,      w.ow};
    if (!smallImageConvRuns(shape)) return false;
    if (!m_smallImage) m_smallImage = std::make_unique<SmallImageConv>();
    m_smallImage->prepare(shape, f.data<float>());
    m_ownFilter = f;
    Tensor out = ownOutput(Shape{shape.n, shape.oh, shape.ow, oc}, addend);
    m_smallImage->run(x.data<float>(), ownEpilogue(ctx, addend, withBias), out.data<float>());
    ctx.outputs[0] = std::move(out);
    return true;
  }

  // A 1x1 convolution over few pixels whose weights come from memory on every run: our streamed kernel. False:
  // oneDNN runs it (FLOWSCOPE_STREAMED_POINTWISE=0 makes that so everywhere, for comparisons).
  bool runOwnStreamedPointwise(KernelContext& ctx, const Tensor& x, const Tensor& f, const Window& w, int64_t oc,
                               const Tensor* addend, bool withBias, const ConvLayouts& layouts) {
    static const bool enabled = settingOn("FLOWSCOPE_STREAMED_POINTWISE");
    if (!enabled || !ownKernelFits(layouts) || w.kh != 1 || w.kw != 1 || w.sh != 1 || w.sw != 1 || w.padTop != 0 ||
        w.padLeft != 0 || w.oh != x.shape().dim(1) || w.ow != x.shape().dim(2))
      return false;
    const Shape& in = x.shape();
    const StreamedPointwiseShape shape{in.dim(0) * in.dim(1) * in.dim(2), in.dim(3), oc};
    if (!streamedPointwiseRuns(shape)) return false;
    if (!m_streamed) m_streamed = std::make_unique<StreamedPointwise>();
    m_streamed->prepare(shape, f.data<float>(), intraOpThreads());
    m_ownFilter = f;
    Tensor out = ownOutput(Shape{in.dim(0), in.dim(1), in.dim(2), oc}, addend);
    m_streamed->run(x.data<float>(), ownEpilogue(ctx, addend, withBias), out.data<float>());
    ctx.outputs[0] = std::move(out);
    return true;
  }

  // The weights in our HWIO layout, and the dims oneDNN knows them by.
  std::pair<dnnl::memory::desc, dnnl::memory::dims> weightDescs(const Shape& f, int64_t c, int64_t oc) const {
    const int64_t kh = f.dim(0), kw = f.dim(1);
    if (m_depthwise) {  // filter [kh, kw, C, M] -> groups C, outputs M, inputs 1
      const int64_t mult = f.dim(3);
      return {dnnl_util::desc({c, mult, 1, kh, kw}, DType::kFloat, {mult, 1, 1, kw * c * mult, c * mult}),
              {c, mult, 1, kh, kw}};
    }
    return {dnnl_util::desc({oc, c, kh, kw}, DType::kFloat, {1, oc, kw * c * oc, c * oc}), {oc, c, kh, kw}};
  }

  dnnl::primitive_attr attributes() const {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::post_ops ops;
    if (!m_fused.batchNorm && !m_fused.prelu) {
      if (m_fused.addend) ops.append_sum(1.0f);
      dnnl_util::activationPostOp(m_fused.activation, m_fused.leakyAlpha, &ops);
      if (ops.len() > 0) attr.set_post_ops(ops);
    }
    return attr;
  }

  // The primitive for input `in` (NHWC dims), made on the first run with these shapes and layouts. The tensors'
  // layouts are `layouts`; the primitive's are NHWC for a direct convolution, oneDNN's choice for a Winograd one.
  Status prepare(const Shape& in, const Tensor& f, const Window& w, int64_t oc, bool withBias,
                 const ConvLayouts& layouts) {
    ConvPrimitive& p = m_cache;
    if (p.input == in && p.filter == f.shape() && p.withBias == withBias && p.layouts == layouts && p.src)
      return Status::ok();
    using namespace dnnl_util;
    const int64_t n = in.dim(0), h = in.dim(1), wd = in.dim(2), c = in.dim(3);
    auto srcDesc = desc({n, c, h, wd}, DType::kFloat, nhwcStrides(c, h, wd));
    auto dstDesc = desc({n, oc, w.oh, w.ow}, DType::kFloat, nhwcStrides(oc, w.oh, w.ow));
    const auto [userWeightDesc, weightDims] = weightDescs(f.shape(), c, oc);
    const dnnl::memory::desc anyWeights(weightDims, dnnl::memory::data_type::f32, dnnl::memory::format_tag::any);
    auto biasDesc = dense({oc}, DType::kFloat);
    auto tensorDesc = [](const dnnl::memory::desc& nhwc, bool blocked) {
      return blocked ? dnnl::memory::desc(nhwc.dims(), nhwc.data_type(), dnnl::memory::format_tag::nChw16c) : nhwc;
    };
    try {
      auto pd = convolutionDesc(m_winograd && !m_depthwise, srcDesc, anyWeights, withBias ? &biasDesc : nullptr,
                                dstDesc, w, attributes(), m_fused.addend);
      p = ConvPrimitive{};
      p.input = in;
      p.filter = f.shape();
      p.withBias = withBias;
      p.layouts = layouts;
      p.primitive = dnnl::convolution_forward(pd);
      const std::string_view impl = pd.impl_info_str();
      if (impl.find("wino") != std::string_view::npos)
        p.winogradTile = impl.find("2x3") != std::string_view::npos ? 2 : 4;
      p.scratchpad = dnnl::memory(pd.scratchpad_desc(), engine(), nullptr);
      p.src = dnnl::memory(tensorDesc(srcDesc, layouts.input), engine(), nullptr);
      p.dst = dnnl::memory(tensorDesc(dstDesc, layouts.output), engine(), nullptr);
      p.bias = dnnl::memory(biasDesc, engine(), nullptr);
      p.userWeights = dnnl::memory(userWeightDesc, engine(), nullptr);
      p.weights = packedMemory(pd.weights_desc(), &p.weightBytes);
      p.weightReorder = dnnl::reorder(p.userWeights, p.weights);
      p.blocked.prepare(p.src, p.dst, pd.src_desc(), pd.dst_desc());
      if (m_fused.addend && layouts.addend != layouts.output) {
        p.addend = dnnl::memory(tensorDesc(dstDesc, layouts.addend), engine(), nullptr);
        p.addendCopies = p.addend.get_desc() == pd.dst_desc();
        if (!p.addendCopies) p.addendReorder = dnnl::reorder({engine(), p.addend.get_desc(), engine(), pd.dst_desc()});
      }
    } catch (const dnnl::error& e) {
      return internalError(std::string("oneDNN could not create the convolution: ") + e.what());
    }
    return Status::ok();
  }

  bool m_depthwise, m_winograd, m_blockedOutput;
  FusedSpec m_fused;
  ConvPrimitive m_cache;
  Shape m_windowInput = Shape::unknownRank();  ///< the input m_window is for
  Window m_window;
  std::unique_ptr<WinogradNhwc> m_ownWinograd;
  std::unique_ptr<SmallImageConv> m_smallImage;
  std::unique_ptr<StreamedPointwise> m_streamed;
  Tensor m_ownFilter;  // the filter our own kernels' weights were made from (kept alive: its address is stable)
};

template <bool Depthwise>
Expected<std::unique_ptr<OpKernel>> makeConv(const Node& node) {
  FS_ASSIGN_OR_RETURN(FusedSpec fused, parseFusedOps(node));
  const AttrValue* winograd = node.attr("_winograd");
  const AttrValue* blocked = node.attr(kBlockedOutputAttr);
  auto on = [](const AttrValue* v) { return v && v->kind() == AttrValue::Kind::kBool && v->b(); };
  return std::unique_ptr<OpKernel>(std::make_unique<ConvKernel>(Depthwise, fused, on(winograd), on(blocked)));
}

// Transposed convolution (the gradient of Conv2D with respect to its input), in plain C++: rare in inference
// graphs, so clarity wins over speed here.
Status conv2DBackpropInput(KernelContext& ctx) {
  std::vector<int64_t> sizes = intValues(ctx.inputs[0]);
  const Tensor& f = ctx.inputs[1];
  const Tensor& dy = ctx.inputs[2];
  if (sizes.size() != 4 || f.shape().rank() != 4 || dy.shape().rank() != 4 || f.dtype() != DType::kFloat ||
      dy.dtype() != DType::kFloat)
    return ctx.error("expects input_sizes [4], a float32 4-D filter and out_backprop");
  Shape inShape(sizes);
  FS_ASSIGN_OR_RETURN(Window w, windowFor(ctx.node, inShape, f.shape().dim(0), f.shape().dim(1)));
  const int64_t n = sizes[0], h = sizes[1], wd = sizes[2], c = sizes[3], oc = f.shape().dim(3);
  if (dy.shape() != Shape{n, w.oh, w.ow, oc} || f.shape().dim(2) != c)
    return ctx.error("out_backprop " + dy.shape().toString() + " does not match input " + inShape.toString() +
                     " and filter " + f.shape().toString());
  Tensor out(DType::kFloat, inShape);
  float* o = out.data<float>();
  const float* g = dy.data<float>();
  const float* k = f.data<float>();
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < w.oh; ++y)
      for (int64_t x = 0; x < w.ow; ++x)
        for (int64_t i = 0; i < w.kh; ++i)
          for (int64_t j = 0; j < w.kw; ++j) {
            int64_t iy = y * w.sh + i * w.dh - w.padTop, ix = x * w.sw + j * w.dw - w.padLeft;
            if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
            for (int64_t ci = 0; ci < c; ++ci) {
              float acc = 0;
              for (int64_t co = 0; co < oc; ++co)
                acc += g[((b * w.oh + y) * w.ow + x) * oc + co] * k[((i * w.kw + j) * c + ci) * oc + co];
              o[((b * h + iy) * wd + ix) * c + ci] += acc;
            }
          }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerConvKernels(KernelTable& r) {
  r.addFn("Conv2DBackpropInput", conv2DBackpropInput);
  r.add("Conv2D", makeConv<false>);
  r.add("_FusedConv2D", makeConv<false>);
  r.add("DepthwiseConv2dNative", makeConv<true>);
  r.add("_FusedDepthwiseConv2dNative", makeConv<true>);
  r.add("FusedDepthwiseConv2dNative", makeConv<true>);
}

}  // namespace flowscope
