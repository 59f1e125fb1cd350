// The 1x1 + depthwise pair in bands of rows (pointwise_depthwise.h). The output rows are split among the intra-op
// threads in contiguous ranges, and each thread walks its range in bands: oneDNN's 1x1 convolution writes the 1x1
// rows that the band's windows read into the thread's buffer, and a depthwise kernel (depthwise_band_rows.h: ours,
// or oneDNN's where ours does not run) reads them there while they are in cache (input_bands.h). Neither the expanded
// tensor nor a blocked copy of the input and output (oneDNN's fused primitive reorders both) goes through memory.
#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include "base/thread_pool.h"
#include "exec/cpu/band_convolutions.h"
#include "exec/cpu/conv_window.h"
#include "exec/cpu/depthwise_band_rows.h"
#include "exec/cpu/fused_pair.h"
#include "exec/cpu/input_bands.h"
#include "exec/cpu/pointwise_depthwise.h"

namespace flowscope {
namespace {

// A band's 1x1 rows, well inside a core's L2.
constexpr int64_t kBandBytes = 256 * 1024;

// The fused node's inputs: the 1x1 node's, then the depthwise node's after its first.
constexpr size_t kInput = 0, kPwFilter = 1, kPwBias = 2, kDwFilter = 3, kDwBias = 4, kInputs = 5;

// One thread's bands and its oneDNN memories per size in pixels of the rows a band computes.
struct Part {
  std::vector<InputBand> bands;
  std::map<int64_t, BandMemories> memories;
  DepthwiseBandRows::ThreadMemories depthwise;
};

class BandedPointwiseDepthwiseKernel : public OpKernel {
 public:
  BandedPointwiseDepthwiseKernel(const Node& pointwise, const Node& depthwise, std::unique_ptr<OpKernel> otherwise)
      : m_pw(pointwise), m_dw(depthwise), m_otherwise(std::move(otherwise)) {
    m_setup = setUp();
  }

  Status compute(KernelContext& ctx) override {
    if (!m_setup.isOk() || ctx.inputs.size() != kInputs || !prepare(ctx.inputs)) return m_otherwise->compute(ctx);
    const std::vector<Tensor>& in = ctx.inputs;
    const DepthwiseShape& d = m_dwShape;
    m_convolutions.load(in[kPwFilter], in[kPwBias]);
    m_depthwise.load(in[kDwFilter], in[kDwBias]);
    Tensor out = Tensor::uninitialized(DType::kFloat, Shape{d.n, d.oh, d.ow, d.c});
    parallelFor(static_cast<int64_t>(m_parts.size()), int64_t{1} << 30, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) runPart(m_parts[static_cast<size_t>(p)], in, out.data<float>());
    });
    const int64_t middle = d.n * d.h * d.w * d.c, outputs = d.n * d.oh * d.ow * d.c;
    ctx.flops = middle * (2 * m_c + 1) + outputs * (2 * d.k * d.k + 1);
    ctx.outputs[0] = std::move(out);
    return Status::ok();
  }

 private:
  Status setUp() {
    FS_ASSIGN_OR_RETURN(m_pwSpec, parseFusedOps(m_pw));
    FS_ASSIGN_OR_RETURN(m_dwSpec, parseFusedOps(m_dw));
    return Status::ok();
  }

  void runPart(Part& part, const std::vector<Tensor>& in, float* out) const {
    const DepthwiseShape& d = m_dwShape;
    const int64_t rowFloats = d.w * d.c;
    float* buffer = threadBandBuffer(static_cast<size_t>(m_bufferRows * rowFloats));
    const float* x = in[kInput].data<float>();
    for (const InputBand& b : part.bands) {
      float* newRows = keepSharedRows(b, buffer, rowFloats);
      const int64_t first = b.inBegin + b.kept, pixels = (b.inEnd - first) * d.w;
      if (pixels > 0) m_convolutions.run(pixels, part.memories.at(pixels), x + first * d.w * m_c, newRows);
      m_depthwise.run(b, part.depthwise, buffer, b.inBegin, out + b.outBegin * d.ow * d.c);
    }
  }

  // True when the banded kernel runs these inputs (its primitives built on the first call with their shapes).
  bool prepare(const std::vector<Tensor>& in) {
    const int threads = intraOpThreads();
    if (m_input != in[kInput].shape() || m_pwFilter != in[kPwFilter].shape() || m_dwFilter != in[kDwFilter].shape() ||
        m_threads != threads) {
      m_input = in[kInput].shape();
      m_pwFilter = in[kPwFilter].shape();
      m_dwFilter = in[kDwFilter].shape();
      m_threads = threads;
      m_usable = geometry(in) && build(threads);
    }
    const Tensor &pwBias = in[kPwBias], &dwBias = in[kDwBias];
    return m_usable && pwBias.dtype() == DType::kFloat && pwBias.numElements() == m_dwShape.c &&
           dwBias.dtype() == DType::kFloat && dwBias.numElements() == m_dwShape.c;
  }

  bool supportedEpilogues() {
    const FusedSpec &pw = m_pwSpec, &dw = m_dwSpec;
    if (!pw.bias || pw.batchNorm || pw.prelu || pw.addend || !depthwiseClampFor(pw.activation)) return false;
    if (!dw.bias || dw.batchNorm || dw.prelu || dw.addend) return false;
    const std::optional<DepthwiseClamp> clamp = depthwiseClampFor(dw.activation);
    if (clamp) m_clamp = *clamp;
    return clamp.has_value();
  }

  bool geometry(const std::vector<Tensor>& in) {
    const Tensor &x = in[kInput], &pwFilter = in[kPwFilter], &dwFilter = in[kDwFilter];
    if (!supportedEpilogues() || x.dtype() != DType::kFloat || pwFilter.dtype() != DType::kFloat ||
        dwFilter.dtype() != DType::kFloat || x.shape().rank() != 4 || pwFilter.shape().rank() != 4 ||
        dwFilter.shape().rank() != 4)
      return false;
    m_c = x.shape().dim(3);
    const int64_t oc = pwFilter.shape().dim(3), k = dwFilter.shape().dim(0);
    if (pwFilter.shape() != Shape{1, 1, m_c, oc} || dwFilter.shape() != Shape{k, k, oc, 1} || oc <= 0) return false;
    auto pw = windowFor(m_pw, x.shape(), 1, 1);
    if (!pw || pw->sh != 1 || pw->sw != 1 || pw->oh != x.shape().dim(1) || pw->ow != x.shape().dim(2)) return false;
    auto dw = windowFor(m_dw, Shape{x.shape().dim(0), pw->oh, pw->ow, oc}, k, k);
    if (!dw || dw->dh != 1 || dw->dw != 1 || dw->oh <= 0 || dw->ow <= 0) return false;
    m_dwShape = depthwiseShapeOf(Shape{x.shape().dim(0), pw->oh, pw->ow, oc}, *dw);
    return m_dwShape.n > 0 && m_depthwise.reset(m_dwShape, m_clamp);
  }

  // The parts, their bands, primitives and memories; false where oneDNN has only its reference kernel for a band.
  bool build(int threads) {
    const DepthwiseShape& d = m_dwShape;
    const int64_t rows = d.n * d.oh, parts = std::min<int64_t>(threads, rows);
    m_parts.assign(static_cast<size_t>(parts), Part{});
    m_bufferRows = 1;
    try {
      m_convolutions.reset(dnnl_util::desc({d.c, m_c, 1, 1}, DType::kFloat, {1, d.c, m_c * d.c, m_c * d.c}), d.c);
      for (int64_t p = 0; p < parts; ++p) {
        Part& part = m_parts[static_cast<size_t>(p)];
        part.bands = inputBandsOf(d, rows * p / parts, rows * (p + 1) / parts, outputRowsPerBand(d, kBandBytes));
        for (const InputBand& band : part.bands) {
          m_bufferRows = std::max(m_bufferRows, band.inEnd - band.inBegin);
          if (!m_depthwise.add(band, part.depthwise)) return false;
          const int64_t pixels = (band.inEnd - band.inBegin - band.kept) * d.w;
          if (pixels == 0 || part.memories.count(pixels)) continue;
          if (!m_convolutions.has(pixels) && !m_convolutions.add(pixels, pointwiseBandDesc(pixels, m_c, d.c, m_pwSpec)))
            return false;
          part.memories[pixels] = m_convolutions.memoriesFor(pixels);
        }
      }
    } catch (const dnnl::error&) {
      return false;
    }
    return true;
  }

  Node m_pw, m_dw;
  std::unique_ptr<OpKernel> m_otherwise;
  Status m_setup;
  FusedSpec m_pwSpec, m_dwSpec;
  Shape m_input = Shape::unknownRank(), m_pwFilter = Shape::unknownRank(), m_dwFilter = Shape::unknownRank();
  int m_threads = 0;
  bool m_usable = false;
  DepthwiseShape m_dwShape;  // over the 1x1 output
  DepthwiseClamp m_clamp = DepthwiseClamp::kNone;
  int64_t m_c = 0;  // the 1x1 input's channels
  int64_t m_bufferRows = 1;
  std::vector<Part> m_parts;
  BandConvolutions<int64_t> m_convolutions;  // by the pixels a band computes
  DepthwiseBandRows m_depthwise;
};

}  // namespace

std::unique_ptr<OpKernel> makeBandedPointwiseDepthwiseKernel(const Node& pointwise, const Node& depthwise,
                                                             std::unique_ptr<OpKernel> otherwise) {
  return std::make_unique<BandedPointwiseDepthwiseKernel>(pointwise, depthwise, std::move(otherwise));
}

}  // namespace flowscope
