// The fused NCHW-input transpose + convolution kernel (transpose_conv.h): nchw_input_conv.h on the transpose's
// input, with the convolution's window, bias and activation; where that kernel does not run (no AVX-512), oneDNN's
// convolution band by band, each band's input rows transposed into the thread's buffer first (onednn_conv_bands.h).
#include <algorithm>
#include <mutex>
#include <optional>
#include <vector>

#include "base/thread_pool.h"

#include "exec/cpu/conv_window.h"
#include "exec/cpu/depthwise_band_rows.h"
#include "exec/cpu/fused_epilogue.h"
#include "exec/cpu/fused_pair.h"
#include "exec/cpu/nchw_input_conv.h"
#include "exec/cpu/onednn_conv_bands.h"
#include "exec/cpu/row_chain.h"
#include "exec/cpu/transpose_conv.h"
#include "exec/kernel_util.h"
#include "profile/flops.h"

namespace flowscope {
namespace {

// The fused node's inputs: the transpose's, then the convolution's after its first.
constexpr size_t kInput = 0, kPerm = 1, kFilter = 2, kBias = 3;

// Output rows per band where the kernel runs on its own in oneDNN bands.
constexpr int64_t kBandRows = 8;

// The thread buffer a band's transposed input rows go into (the row chain's consumer has the first two).
constexpr size_t kTransposedRowsSlot = 2;

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
    if (m_ours) {
      nchwInputConv(s, in[kInput].data<float>(), in[kFilter].data<float>(), in[kBias].data<float>(), *m_clamp,
                    out.data<float>());
    } else {
      float* data = out.data<float>();
      parallelFor(s.n * s.oh, s.ow * s.oc * s.c * s.kh * s.kw, [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end;) {  // bands inside one image
          const int64_t bandEnd = std::min({end, row + kBandRows, (row / s.oh + 1) * s.oh});
          produceRows(in, row, bandEnd, data + row * s.ow * s.oc);
          row = bandEnd;
        }
      });
    }
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
    if (m_ours) {
      nchwInputConvRows(m_shape, in[kInput].data<float>(), in[kFilter].data<float>(), in[kBias].data<float>(), *m_clamp,
                        begin, end, out);
      return;
    }
    for (int64_t row = begin; row < end;) {  // oneDNN's bands do not cross an image's end
      const int64_t imageEnd = std::min(end, (row / m_shape.oh + 1) * m_shape.oh);
      oneDnnBand(in[kInput].data<float>(), row, imageEnd, out + (row - begin) * m_shape.ow * m_shape.oc);
      row = imageEnd;
    }
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
    if (!m_usable || bias.numElements() != m_shape.oc) return false;
    if (!m_ours) m_bands.load(filter, bias);
    return true;
  }

  bool geometry() {
    const auto& d = m_input.dims();
    const auto& f = m_filter.dims();
    if (f[2] != d[1]) return false;
    Expected<Window> w = windowFor(m_conv, Shape{d[0], d[2], d[3], d[1]}, f[0], f[1]);
    if (!w || w->dh != 1 || w->dw != 1) return false;
    m_shape = {d[0], d[1], d[2], d[3], w->kh, w->kw, w->sh, w->sw, w->padTop, w->padLeft, w->oh, w->ow, f[3]};
    m_ours = nchwInputConvRuns(m_shape);
    return m_ours || oneDnnRuns();
  }

  // True where oneDNN has a fast kernel for the convolution in bands (unless FLOWSCOPE_DNNL_BANDS=0): a band of the
  // whole image stands for the others.
  bool oneDnnRuns() {
    const NchwInputConvShape& s = m_shape;
    if (!DepthwiseBandRows::runsHere() || s.padTop < 0 || s.padLeft < 0 || s.oh <= 0 || s.ow <= 0) return false;
    m_bands.reset({s.h, s.w, s.c, s.kh, s.kw, s.sh, s.sw, s.padTop, s.padLeft, s.oh, s.ow, s.oc, false}, *m_clamp);
    m_spare.clear();
    OneDnnConvBands::ThreadMemories memories;
    return m_bands.add(InputBand{0, s.oh, 0, s.h}, memories);
  }

  // Output rows [begin, end) of one image into `out`: its input rows transposed into the thread's buffer, then
  // oneDNN's convolution of the band (built on first use, under the lock, as the memories a thread takes).
  void oneDnnBand(const float* x, int64_t begin, int64_t end, float* out) const {
    const NchwInputConvShape& s = m_shape;
    const int64_t image = begin / s.oh;
    const int64_t first = std::max<int64_t>(0, begin % s.oh * s.sh - s.padTop);
    const int64_t last = std::min(s.h, ((end - 1) % s.oh) * s.sh - s.padTop + s.kh);
    float* rows =
        threadBandBuffer(static_cast<size_t>(std::max<int64_t>(1, last - first) * s.w * s.c), kTransposedRowsSlot);
    const float* planes = x + image * s.c * s.h * s.w;
    for (int64_t y = first; y < last; ++y)
      for (int64_t c = 0; c < s.c; ++c) {
        const float* from = planes + (c * s.h + y) * s.w;
        float* to = rows + (y - first) * s.w * s.c + c;
        for (int64_t col = 0; col < s.w; ++col) to[col * s.c] = from[col];
      }
    const InputBand band{begin, end, image * s.h + first, image * s.h + last};
    OneDnnConvBands::ThreadMemories memories;
    {
      std::lock_guard<std::mutex> lock(m_bandsMutex);
      if (!m_spare.empty()) {
        memories = std::move(m_spare.back());
        m_spare.pop_back();
      }
      m_bands.add(band, memories, true);  // a geometry oneDNN has only a reference kernel for still computes
    }
    m_bands.run(band, memories, rows, out);
    std::lock_guard<std::mutex> lock(m_bandsMutex);
    m_spare.push_back(std::move(memories));
  }

  Node m_conv;
  KernelPair m_pair;
  Status m_setup;
  std::optional<DepthwiseClamp> m_clamp;  ///< the convolution's activation; none for one the kernel does not fuse
  Shape m_input = Shape::unknownRank(), m_filter = Shape::unknownRank();
  bool m_usable = false;
  bool m_ours = false;  // nchw_input_conv runs the shape; else oneDNN's bands
  NchwInputConvShape m_shape;
  mutable std::mutex m_bandsMutex;
  mutable OneDnnConvBands m_bands;                               // by band geometry, built as bands ask
  mutable std::vector<OneDnnConvBands::ThreadMemories> m_spare;  // the memories no thread holds now
};

}  // namespace

std::unique_ptr<OpKernel> makeTransposeConvKernel(const Node& transpose, const Node& conv) {
  return std::make_unique<TransposeConvKernel>(transpose, conv);
}

}  // namespace flowscope
