// The fused depthwise + 1x1 kernel (depthwise_pointwise.h). The output rows are split among the intra-op threads
// in contiguous ranges, and each thread walks its range in bands of rows: a depthwise kernel (depthwise_band_rows.h:
// ours, or oneDNN's where ours does not run) writes the band's depthwise rows into the thread's buffer, and oneDNN's
// 1x1 convolution (bias, the fused Add as a sum post-op, activation) reads them there and writes the band's output
// rows. A 1x1 convolution is the same for every pixel, so oneDNN sees a band as one row of rows * width pixels: the few
// band sizes a run has are built once per input shape and thread count, with the weights reordered once per filter
// tensor into each layout they want.
#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include "base/thread_pool.h"
#include "exec/cpu/band_convolutions.h"
#include "exec/cpu/conv_window.h"
#include "exec/cpu/depthwise_band_rows.h"
#include "exec/cpu/depthwise_pointwise.h"
#include "exec/cpu/dnnl_util.h"
#include "exec/cpu/fused_epilogue.h"
#include "exec/cpu/fused_pair.h"
#include "exec/cpu/input_bands.h"
#include "exec/cpu/row_chain.h"
#include "exec/kernel_util.h"

namespace flowscope {
namespace {

// A band's depthwise rows, well inside a core's L2.
constexpr int64_t kBandBytes = 256 * 1024;

// The fused node's inputs: the depthwise node's, then the 1x1 node's after its first.
constexpr size_t kInput = 0, kDwFilter = 1, kDwBias = 2, kPwFilter = 3, kPwBias = 4;

// One thread's bands of output rows (counted over the batch) and its oneDNN memories per band size in pixels.
struct Part {
  std::vector<InputBand> bands;
  std::map<int64_t, BandMemories> memories;
  DepthwiseBandRows::ThreadMemories depthwise;
};

// Where the input's rows come from when a RowProducer makes them (row_chain.h).
struct Pull {
  const RowProducer& producer;
  const std::vector<Tensor>& inputs;  // the producer's
};

class DepthwisePointwiseKernel : public OpKernel, public RowConsumer {
 public:
  DepthwisePointwiseKernel(const Node& depthwise, const Node& pointwise) : m_dw(depthwise), m_pw(pointwise) {
    m_setup = setUp();
  }

  Status compute(KernelContext& ctx) override {
    FS_RETURN_IF_ERROR(m_setup);
    const std::vector<Tensor>& in = ctx.inputs;
    if (in.size() < kPwBias + 1 || in[kInput].dtype() != DType::kFloat || !prepare(in, in[kInput].shape()) ||
        !run(ctx, in, nullptr))
      return m_pair.run(ctx, kPwFilter);
    return Status::ok();
  }

  bool computeFrom(KernelContext& ctx, const std::vector<Tensor>& producerInputs, RowProducer& producer,
                   const Shape& produced) override {
    if (!m_setup.isOk() || ctx.inputs.size() < producerInputs.size() + kPwBias) return false;
    std::vector<Tensor> in(1);  // the input the producer makes, then this kernel's others
    in.insert(in.end(), ctx.inputs.begin() + static_cast<ptrdiff_t>(producerInputs.size()), ctx.inputs.end());
    const Pull pull{producer, producerInputs};
    if (!prepare(in, produced) || !run(ctx, in, &pull)) return false;
    ctx.flops += producer.producedFlops();
    return true;
  }

 private:
  Status setUp() {
    FS_ASSIGN_OR_RETURN(m_dwSpec, parseFusedOps(m_dw));
    FS_ASSIGN_OR_RETURN(m_pwSpec, parseFusedOps(m_pw));
    return m_pair.make(m_dw, m_pw);
  }

  // The banded run on inputs `prepare` took; false, with nothing written, where the fused Add's addend does not fit.
  bool run(KernelContext& ctx, const std::vector<Tensor>& in, const Pull* pull) {
    const Shape outShape{m_dwShape.n, m_dwShape.oh, m_dwShape.ow, m_oc};
    const Tensor* addend = nullptr;
    if (m_pwSpec.addend) {
      auto found = fusedAddend(m_pwSpec, in, kPwBias, outShape);
      if (!found) return false;  // the 1x1 kernel says what is wrong with it
      addend = *found;
    }
    m_convolutions.load(in[kPwFilter], in[kPwBias]);
    m_depthwise.load(in[kDwFilter], in[kDwBias]);
    Tensor out = outputStartingAs(outShape, addend);
    const int64_t parts = static_cast<int64_t>(m_parts.size());
    parallelFor(parts, int64_t{1} << 30, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) runPart(m_parts[static_cast<size_t>(p)], in, pull, out.data<float>());
    });
    ctx.flops = flops();
    ctx.outputs[0] = std::move(out);
    return true;
  }

  int64_t flops() const {
    const DepthwiseShape& d = m_dwShape;
    const int64_t middle = d.n * d.oh * d.ow * d.c, out = middle / d.c * m_oc;
    return middle * (2 * d.k * d.k + 1) + out * (2 * d.c + 1 + (m_pwSpec.addend ? 1 : 0));
  }

  // One thread's bands: the depthwise rows into the thread's buffer, from the input tensor or from the rows the
  // producer makes into a second buffer, then the 1x1 convolution from there into the output.
  void runPart(Part& part, const std::vector<Tensor>& in, const Pull* pull, float* out) const {
    const DepthwiseShape& d = m_dwShape;
    float* buffer = threadBandBuffer(static_cast<size_t>(m_bandRows * d.ow * d.c));
    const int64_t inRowFloats = d.w * d.c;
    float* rows = pull ? threadBandBuffer(static_cast<size_t>(m_inputRows * inRowFloats), 1) : nullptr;
    for (const InputBand& b : part.bands) {
      if (pull)
        pull->producer.produceRows(pull->inputs, b.inBegin + b.kept, b.inEnd, keepSharedRows(b, rows, inRowFloats));
      m_depthwise.run(b, part.depthwise, pull ? rows : in[kInput].data<float>(), pull ? b.inBegin : 0, buffer);
      const int64_t pixels = (b.outEnd - b.outBegin) * d.ow;
      m_convolutions.run(pixels, part.memories.at(pixels), buffer, out + b.outBegin * d.ow * m_oc);
    }
  }

  // True when the banded kernel runs these inputs, its input of shape `x` (its primitives built on the first call
  // with their shapes).
  bool prepare(const std::vector<Tensor>& in, const Shape& x) {
    const int threads = intraOpThreads();
    if (m_input != x || m_dwFilter != in[kDwFilter].shape() || m_pwFilter != in[kPwFilter].shape() ||
        m_threads != threads) {
      m_input = x;
      m_dwFilter = in[kDwFilter].shape();
      m_pwFilter = in[kPwFilter].shape();
      m_threads = threads;
      m_usable = geometry(in, x) && build(threads);
    }
    return m_usable && biasesFit(in);
  }

  bool biasesFit(const std::vector<Tensor>& in) const {
    const Tensor &dwBias = in[kDwBias], &pwBias = in[kPwBias];
    return dwBias.dtype() == DType::kFloat && dwBias.numElements() == m_dwShape.c && pwBias.dtype() == DType::kFloat &&
           pwBias.numElements() == m_oc;
  }

  bool geometry(const std::vector<Tensor>& in, const Shape& xShape) {
    const FusedSpec &dw = m_dwSpec, &pw = m_pwSpec;
    if (!dw.bias || dw.batchNorm || dw.prelu || dw.addend || !pw.bias || pw.batchNorm || pw.prelu) return false;
    const std::optional<DepthwiseClamp> clamp = depthwiseClampFor(dw.activation);
    if (!clamp) return false;
    const Tensor &dwFilter = in[kDwFilter], &pwFilter = in[kPwFilter];
    if (dwFilter.dtype() != DType::kFloat || pwFilter.dtype() != DType::kFloat || xShape.rank() != 4 ||
        dwFilter.shape().rank() != 4 || pwFilter.shape().rank() != 4)
      return false;
    const int64_t c = xShape.dim(3), k = dwFilter.shape().dim(0);
    if (dwFilter.shape() != Shape{k, k, c, 1} || pwFilter.shape().dim(0) != 1 || pwFilter.shape().dim(1) != 1 ||
        pwFilter.shape().dim(2) != c)
      return false;
    auto w = windowFor(m_dw, xShape, k, k);
    if (!w || w->dh != 1 || w->dw != 1 || w->oh <= 0 || w->ow <= 0) return false;
    m_dwShape = depthwiseShapeOf(xShape, *w);
    m_clamp = *clamp;
    m_oc = pwFilter.shape().dim(3);
    auto pwWindow = windowFor(m_pw, Shape{m_dwShape.n, w->oh, w->ow, c}, 1, 1);
    return m_depthwise.reset(m_dwShape, m_clamp) && m_oc > 0 && m_dwShape.n > 0 && pwWindow && pwWindow->oh == w->oh &&
           pwWindow->ow == w->ow && pwWindow->sh == 1 && pwWindow->sw == 1;
  }

  // The parts, their bands, band primitives and memories, and the weights; false where oneDNN takes no band size.
  bool build(int threads) {
    using namespace dnnl_util;
    const DepthwiseShape& d = m_dwShape;
    m_bandRows = std::max<int64_t>(1, kBandBytes / (d.ow * d.c * int64_t{sizeof(float)}));
    const int64_t rows = d.n * d.oh, parts = std::min<int64_t>(threads, rows);
    m_parts.assign(static_cast<size_t>(parts), Part{});
    m_inputRows = 1;
    try {
      m_convolutions.reset(desc({m_oc, d.c, 1, 1}, DType::kFloat, {1, m_oc, d.c * m_oc, d.c * m_oc}),  // our HWIO
                           m_oc);
      for (int64_t p = 0; p < parts; ++p) {
        Part& part = m_parts[static_cast<size_t>(p)];
        part.bands = inputBandsOf(d, rows * p / parts, rows * (p + 1) / parts, m_bandRows);
        for (const InputBand& band : part.bands) {
          m_inputRows = std::max(m_inputRows, band.inEnd - band.inBegin);
          if (!m_depthwise.add(band, part.depthwise)) return false;
          const int64_t pixels = (band.outEnd - band.outBegin) * d.ow;
          if (part.memories.count(pixels)) continue;
          if (!m_convolutions.has(pixels) && !addPrimitive(pixels)) return false;
          part.memories[pixels] = m_convolutions.memoriesFor(pixels);
        }
      }
    } catch (const dnnl::error&) {
      return false;
    }
    return true;
  }

  // The 1x1 convolution of a band of `pixels`, as one row; false where oneDNN has only its reference kernel for it.
  bool addPrimitive(int64_t pixels) {
    return m_convolutions.add(pixels, pointwiseBandDesc(pixels, m_dwShape.c, m_oc, m_pwSpec));
  }

  Node m_dw, m_pw;
  Status m_setup;
  FusedSpec m_dwSpec, m_pwSpec;
  KernelPair m_pair;
  Shape m_input = Shape::unknownRank(), m_dwFilter = Shape::unknownRank(), m_pwFilter = Shape::unknownRank();
  int m_threads = 0;
  bool m_usable = false;
  DepthwiseShape m_dwShape;
  DepthwiseClamp m_clamp = DepthwiseClamp::kNone;
  int64_t m_oc = 0, m_bandRows = 1;
  int64_t m_inputRows = 1;  // the most input rows a band reads
  std::vector<Part> m_parts;
  BandConvolutions<int64_t> m_convolutions;  // by band size in pixels
  DepthwiseBandRows m_depthwise;
};

}  // namespace

std::unique_ptr<OpKernel> makeDepthwisePointwiseKernel(const Node& depthwise, const Node& pointwise) {
  return std::make_unique<DepthwisePointwiseKernel>(depthwise, pointwise);
}

}  // namespace flowscope
