// The fused convolution + max pool kernel (conv_max_pool.h). The pooled rows are split among the intra-op threads
// in contiguous ranges, and each thread walks its range in bands of a few pooled rows: oneDNN's direct convolution
// (bias and activation as post-ops) writes the convolution rows that the band's windows reach into the thread's
// buffer of about 512 KiB, and the pool reads them there while they are in cache. Rows that two bands share are
// kept, not computed again; only where two threads' ranges meet is a row computed twice.
//
// oneDNN sees each band as a convolution of its own: the input rows it reaches, with the image's padding where the
// band meets the image's top or bottom. The few band shapes a run has are built once per input shape and thread
// count, each with the weights in the layout it wants, reordered once per filter tensor. Where oneDNN has only its
// reference kernel for a band shape, the two nodes run apart.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "base/thread_pool.h"
#include "exec/cpu/band_convolutions.h"
#include "exec/cpu/blocked_layout.h"
#include "exec/cpu/conv_max_pool.h"
#include "exec/cpu/conv_window.h"
#include "exec/cpu/dnnl_util.h"
#include "exec/cpu/fused_epilogue.h"
#include "exec/cpu/fused_pair.h"
#include "exec/cpu/pool_nhwc.h"
#include "exec/kernel_util.h"

namespace flowscope {
namespace {

// A band's convolution rows, well inside a core's L2. On ResNet-18's stem (a 7x7 stride-2 convolution to 112x112x64,
// then a 3x3 stride-2 max pool) at 1 thread, the pair took 1.70-1.73 ms with 512 KiB or 1 MiB bands, 1.74 ms with
// 256 KiB, 1.84 ms with 128 KiB, and 1.86 ms as two kernels, in alternating runs on one Xeon core.
constexpr int64_t kBandBytes = 512 * 1024;

// A band's convolution as oneDNN sees it: `rows` output rows from `inRows` input rows with these pads.
struct BandShape {
  int64_t rows = 0, inRows = 0, padTop = 0, padBottom = 0;
  auto operator<=>(const BandShape&) const = default;
};

// One band of a thread's range: pooled rows [poolBegin, poolEnd) of `image`, reading convolution rows
// [first, end). Rows [first, computeFrom) come from the band before, `shift` rows into its buffer.
struct Band {
  int64_t image = 0, poolBegin = 0, poolEnd = 0, first = 0, end = 0, computeFrom = 0, shift = 0;
  int64_t inTop = 0;  // the first input row of the convolution of rows [computeFrom, end)
  BandShape shape;
};

// The sizes of one run: the input [n, h, w, c], the convolution's window over it, the pool's over its output.
struct Geometry {
  int64_t n = 0, h = 0, w = 0, c = 0, oc = 0;
  Window conv, pool;
};

// The convolution rows [from, end) as a band convolution, and the first input row it reads.
BandShape bandShape(const Geometry& g, int64_t from, int64_t end, int64_t* inTop) {
  const Window& w = g.conv;
  const int64_t lo = from * w.sh - w.padTop, hi = (end - 1) * w.sh - w.padTop + (w.kh - 1) * w.dh + 1;
  *inTop = std::clamp<int64_t>(lo, 0, g.h);
  const int64_t inBottom = std::clamp<int64_t>(hi, *inTop, g.h);
  return {end - from, inBottom - *inTop, *inTop - lo, hi - inBottom};
}

// The bands of pooled rows [begin, end) (counted over all images, n * pool.oh), `bandRows` pooled rows each.
std::vector<Band> bandsOf(const Geometry& g, int64_t begin, int64_t end, int64_t bandRows) {
  std::vector<Band> bands;
  const Window& p = g.pool;
  for (int64_t r = begin; r < end;) {
    const int64_t image = r / p.oh, last = std::min(end, (image + 1) * p.oh) - image * p.oh;
    int64_t keptFirst = 0, keptEnd = -1;  // the convolution rows the buffer holds
    for (int64_t q = r - image * p.oh; q < last; q += bandRows) {
      Band b;
      b.image = image;
      b.poolBegin = q;
      b.poolEnd = std::min(q + bandRows, last);
      b.first = std::clamp<int64_t>(q * p.sh - p.padTop, 0, g.conv.oh);
      b.end = std::clamp<int64_t>((b.poolEnd - 1) * p.sh - p.padTop + (p.kh - 1) * p.dh + 1, b.first, g.conv.oh);
      const bool keeps = keptFirst <= b.first && b.first < keptEnd;
      b.computeFrom = keeps ? std::min(keptEnd, b.end) : b.first;
      b.shift = keeps ? b.first - keptFirst : 0;
      if (b.computeFrom < b.end) b.shape = bandShape(g, b.computeFrom, b.end, &b.inTop);
      keptFirst = b.first;
      keptEnd = b.end;
      bands.push_back(b);
    }
    r = (image + 1) * p.oh;
  }
  return bands;
}

// What one thread's range needs: its bands, and the oneDNN memories of each band shape.
struct Part {
  std::vector<Band> bands;
  int64_t bufferRows = 0;
  std::map<BandShape, BandMemories> memories;
};

class ConvMaxPoolKernel : public OpKernel {
 public:
  ConvMaxPoolKernel(const Node& conv, const Node& pool)
      : m_conv(conv), m_pool(pool), m_blockedOutput(attrBool(pool, kBlockedOutputAttr, false)) {
    m_setup = setUp();
  }

  Status compute(KernelContext& ctx) override {
    FS_RETURN_IF_ERROR(m_setup);
    const Tensor& x = ctx.inputs[0];
    const Tensor& filter = ctx.inputs[1];
    if (!prepare(x, filter, ctx.inputs[2])) return m_pair.run(ctx, 3);
    m_convolutions.load(filter, ctx.inputs[2]);
    const Geometry& g = m_geometry;
    const Shape logicalOut{g.n, g.pool.oh, g.pool.ow, g.oc};
    Tensor out = Tensor::uninitialized(DType::kFloat, outputBlocked() ? blockedShape(logicalOut) : logicalOut);
    const int64_t parts = static_cast<int64_t>(m_parts.size());
    parallelFor(parts, int64_t{1} << 30, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p)
        runPart(m_parts[static_cast<size_t>(p)], x.data<float>(), out.data<float>());
    });
    ctx.flops = flops();
    ctx.outputs[0] = std::move(out);
    return Status::ok();
  }

 private:
  Status setUp() {
    FS_ASSIGN_OR_RETURN(m_spec, parseFusedOps(m_conv));
    return m_pair.make(m_conv, m_pool);
  }

  bool outputBlocked() const { return m_blockedOutput && m_geometry.oc % kChannelBlock == 0; }

  int64_t flops() const {
    const Geometry& g = m_geometry;
    const int64_t convOut = g.n * g.conv.oh * g.conv.ow * g.oc;
    return convOut * (2 * g.conv.kh * g.conv.kw * g.c + 1) + g.n * g.pool.oh * g.pool.ow * g.oc * g.pool.kh * g.pool.kw;
  }

  // One thread's range, band by band.
  void runPart(Part& part, const float* x, float* out) const {
    const Geometry& g = m_geometry;
    const int64_t rowFloats = g.conv.ow * g.oc;
    float* buffer = threadBandBuffer(static_cast<size_t>(part.bufferRows * rowFloats));
    for (const Band& b : part.bands) {
      if (b.computeFrom > b.first)
        std::memmove(buffer, buffer + b.shift * rowFloats,
                     static_cast<size_t>((b.computeFrom - b.first) * rowFloats) * sizeof(float));
      if (b.computeFrom < b.end)
        m_convolutions.run(b.shape, part.memories.at(b.shape), x + (b.image * g.h + b.inTop) * g.w * g.c,
                           buffer + (b.computeFrom - b.first) * rowFloats);
      const PoolBand rows{buffer, b.first, g.conv.oh, g.conv.ow, g.oc};
      poolNhwcRows(true, rows, g.pool, b.poolBegin, b.poolEnd, out + b.image * g.pool.oh * g.pool.ow * g.oc,
                   outputBlocked());
    }
  }

  // True when the banded kernel runs these shapes (its primitives built on the first call with them).
  bool prepare(const Tensor& x, const Tensor& filter, const Tensor& bias) {
    const int threads = intraOpThreads();
    if (m_input == x.shape() && m_filter == filter.shape() && m_threads == threads) return m_usable;
    m_input = x.shape();
    m_filter = filter.shape();
    m_threads = threads;
    m_usable = geometry(x, filter, bias) && build(threads);
    return m_usable;
  }

  bool geometry(const Tensor& x, const Tensor& filter, const Tensor& bias) {
    const FusedSpec& s = m_spec;
    if (!s.bias || s.batchNorm || s.prelu || s.addend ||
        (!s.activation.empty() && s.activation != "Relu" && s.activation != "Relu6"))
      return false;
    if (x.dtype() != DType::kFloat || filter.dtype() != DType::kFloat || bias.dtype() != DType::kFloat ||
        x.shape().rank() != 4 || filter.shape().rank() != 4 || filter.shape().dim(2) != x.shape().dim(3) ||
        bias.numElements() != filter.shape().dim(3))
      return false;
    Geometry& g = m_geometry;
    g.n = x.shape().dim(0), g.h = x.shape().dim(1), g.w = x.shape().dim(2), g.c = x.shape().dim(3);
    g.oc = filter.shape().dim(3);
    auto conv = windowFor(m_conv, x.shape(), filter.shape().dim(0), filter.shape().dim(1));
    const std::vector<int64_t> ksize = attrInts(m_pool, "ksize");
    if (!conv || conv->oh <= 0 || conv->ow <= 0 || ksize.size() != 4 || ksize[0] != 1 || ksize[3] != 1) return false;
    g.conv = *conv;
    auto pool = windowFor(m_pool, Shape{g.n, conv->oh, conv->ow, g.oc}, ksize[1], ksize[2]);
    if (!pool || pool->oh <= 0 || pool->ow <= 0) return false;
    g.pool = *pool;
    return g.n * g.h * g.w * g.c > 0 && g.oc > 0;
  }

  // The parts, their band primitives and memories, and the weights; false where oneDNN takes no band shape.
  bool build(int threads) {
    using namespace dnnl_util;
    const Geometry& g = m_geometry;
    const int64_t rowBytes = g.conv.ow * g.oc * int64_t{sizeof(float)};
    const int64_t bandRows = std::max<int64_t>(1, (kBandBytes / rowBytes - g.pool.kh) / g.pool.sh + 1);
    const int64_t rows = g.n * g.pool.oh, parts = std::min<int64_t>(threads, rows);
    m_parts.assign(static_cast<size_t>(parts), Part{});
    try {
      m_convolutions.reset(desc({g.oc, g.c, g.conv.kh, g.conv.kw}, DType::kFloat,
                                {1, g.oc, g.conv.kw * g.c * g.oc, g.c * g.oc}),  // our HWIO filter
                           g.oc);
      for (int64_t p = 0; p < parts; ++p) {
        Part& part = m_parts[static_cast<size_t>(p)];
        part.bands = bandsOf(g, rows * p / parts, rows * (p + 1) / parts, bandRows);
        for (const Band& b : part.bands) {
          part.bufferRows = std::max(part.bufferRows, b.end - b.first);
          if (b.computeFrom == b.end || part.memories.count(b.shape)) continue;
          if (!m_convolutions.has(b.shape) && !addPrimitive(b.shape)) return false;
          part.memories[b.shape] = m_convolutions.memoriesFor(b.shape);
        }
      }
    } catch (const dnnl::error&) {
      return false;
    }
    return true;
  }

  // The convolution of one band shape; false where oneDNN has only its reference kernel for it, or gives it another
  // height.
  bool addPrimitive(const BandShape& s) {
    using namespace dnnl_util;
    const Geometry& g = m_geometry;
    const Window& w = g.conv;
    const auto f32 = dnnl::memory::data_type::f32;
    const dnnl::memory::desc weights({g.oc, g.c, w.kh, w.kw}, f32, dnnl::memory::format_tag::any);
    const auto src = desc({1, g.c, s.inRows, g.w}, DType::kFloat, {s.inRows * g.w * g.c, 1, g.w * g.c, g.c});
    const auto dst = desc({1, g.oc, s.rows, w.ow}, DType::kFloat, {s.rows * w.ow * g.oc, 1, w.ow * g.oc, g.oc});
    dnnl::post_ops ops;
    activationPostOp(m_spec.activation, m_spec.leakyAlpha, &ops);
    dnnl::primitive_attr attr;
    attr.set_post_ops(ops);
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);  // see dnnl_util.h
    const dnnl::convolution_forward::desc op(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                             src, weights, dense({g.oc}, DType::kFloat), dst, {w.sh, w.sw},
                                             {w.dh - 1, w.dw - 1}, {s.padTop, w.padLeft}, {s.padBottom, w.padRight});
    dnnl::convolution_forward::primitive_desc pd(op, attr, engine());
    return pd.dst_desc().dims()[2] == s.rows && m_convolutions.add(s, pd);
  }

  Node m_conv, m_pool;
  bool m_blockedOutput = false;
  Status m_setup;
  FusedSpec m_spec;
  KernelPair m_pair;
  Shape m_input = Shape::unknownRank(), m_filter = Shape::unknownRank();
  int m_threads = 0;
  bool m_usable = false;
  Geometry m_geometry;
  std::vector<Part> m_parts;
  BandConvolutions<BandShape> m_convolutions;
};

}  // namespace

std::unique_ptr<OpKernel> makeConvMaxPoolKernel(const Node& conv, const Node& pool) {
  return std::make_unique<ConvMaxPoolKernel>(conv, pool);
}

}  // namespace flowscope
