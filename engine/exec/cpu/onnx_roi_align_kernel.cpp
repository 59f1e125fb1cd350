// ONNX's RoiAlign (Mask R-CNN's region features): for each region of interest, output_height x output_width bins,
// each the average (or maximum) of sampling_ratio^2 bilinear samples of the region's image, as ONNX Runtime computes
// them. half_pixel shifts the region by half a pixel (opset 16's default); output_half_pixel, the older behaviour,
// does not and makes every region at least one pixel wide.
#include <algorithm>
#include <cmath>
#include <vector>

#include "exec/cpu/onnx_kernels.h"
#include "ir/dtype_dispatch.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

struct RoiAlignParams {
  int64_t outH = 1, outW = 1, samplingRatio = 0;
  double scale = 1;
  bool halfPixel = true, max = false;
};

Expected<RoiAlignParams> roiAlignParams(const KernelContext& ctx) {
  RoiAlignParams p;
  p.outH = attrInt(ctx.node, "output_height", 1);
  p.outW = attrInt(ctx.node, "output_width", 1);
  p.samplingRatio = attrInt(ctx.node, "sampling_ratio", 0);
  p.scale = attrFloat(ctx.node, "spatial_scale", 1.0f);
  const std::string mode = attrString(ctx.node, "mode", "avg");
  const std::string transform = attrString(ctx.node, "coordinate_transformation_mode",
                                           onnxOpset(ctx.node, 16) >= 16 ? "half_pixel" : "output_half_pixel");
  if (p.outH < 1 || p.outW < 1 || p.samplingRatio < 0)
    return ctx.error("output_height and output_width must be positive, sampling_ratio not negative");
  if (mode != "avg" && mode != "max") return ctx.error("mode '" + mode + "' is not avg or max");
  if (transform != "half_pixel" && transform != "output_half_pixel")
    return ctx.error("coordinate_transformation_mode '" + transform + "' is not half_pixel or output_half_pixel");
  p.max = mode == "max";
  p.halfPixel = transform == "half_pixel";
  return p;
}

// One bilinear sample at (y, x) of an h x w plane: its four corners and their weights (all zero outside the plane's
// one-pixel margin).
struct Sample {
  int64_t at[4] = {0, 0, 0, 0};
  double weight[4] = {0, 0, 0, 0};
};

Sample sampleAt(double y, double x, int64_t h, int64_t w) {
  Sample s;
  if (y < -1.0 || y > static_cast<double>(h) || x < -1.0 || x > static_cast<double>(w)) return s;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  auto y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1 = y0 + 1, x1 = x0 + 1;
  if (y0 >= h - 1) y = static_cast<double>(y0 = y1 = h - 1);
  if (x0 >= w - 1) x = static_cast<double>(x0 = x1 = w - 1);
  const double ly = y - static_cast<double>(y0), lx = x - static_cast<double>(x0), hy = 1 - ly, hx = 1 - lx;
  s = {{y0 * w + x0, y0 * w + x1, y1 * w + x0, y1 * w + x1}, {hy * hx, hy * lx, ly * hx, ly * lx}};
  return s;
}

// Where one region's bins and their samples lie: its corner, each bin's size, and the samples per bin on each axis
// (sampling_ratio, or about one per pixel of the bin, ceil(bin), when it is 0).
struct RegionGrid {
  double y0 = 0, x0 = 0, binH = 0, binW = 0, gridH = 0, gridW = 0;
};

// More samples per bin than this is not a region of an image but a malformed file: an error, not hours of sampling.
constexpr double kMaxSamplesPerBin = double(1 << 24);

RegionGrid regionGrid(const double* box, const RoiAlignParams& p) {
  const double offset = p.halfPixel ? 0.5 : 0.0;
  RegionGrid g;
  g.y0 = box[1] * p.scale - offset;
  g.x0 = box[0] * p.scale - offset;
  double height = box[3] * p.scale - offset - g.y0, width = box[2] * p.scale - offset - g.x0;
  if (!p.halfPixel) height = std::max(height, 1.0), width = std::max(width, 1.0);
  g.binH = height / static_cast<double>(p.outH);
  g.binW = width / static_cast<double>(p.outW);
  g.gridH = p.samplingRatio > 0 ? static_cast<double>(p.samplingRatio) : std::max(std::ceil(g.binH), 0.0);
  g.gridW = p.samplingRatio > 0 ? static_cast<double>(p.samplingRatio) : std::max(std::ceil(g.binW), 0.0);
  return g;
}

// The bins of one region over one channel plane.
template <typename T>
void alignRegion(const T* plane, int64_t h, int64_t w, const RegionGrid& g, const RoiAlignParams& p, T* out) {
  const auto gridH = static_cast<int64_t>(g.gridH), gridW = static_cast<int64_t>(g.gridW);
  const double count = std::max(g.gridH * g.gridW, 1.0);
  for (int64_t ph = 0; ph < p.outH; ++ph)
    for (int64_t pw = 0; pw < p.outW; ++pw) {
      double sum = 0, best = 0;
      for (int64_t iy = 0; iy < gridH; ++iy)
        for (int64_t ix = 0; ix < gridW; ++ix) {
          const double y = g.y0 + static_cast<double>(ph) * g.binH + (static_cast<double>(iy) + 0.5) * g.binH / g.gridH;
          const double x = g.x0 + static_cast<double>(pw) * g.binW + (static_cast<double>(ix) + 0.5) * g.binW / g.gridW;
          const Sample s = sampleAt(y, x, h, w);
          double value = 0, peak = 0;
          for (int c = 0; c < 4; ++c) {
            const double term = s.weight[c] * static_cast<double>(plane[s.at[c]]);
            value += term;
            peak = c == 0 ? term : std::max(peak, term);
          }
          sum += value;
          best = iy == 0 && ix == 0 ? peak : std::max(best, peak);
        }
      out[ph * p.outW + pw] = static_cast<T>(p.max ? best : sum / count);
    }
}

Status roiAlign(KernelContext& ctx) {
  const Tensor &x = ctx.inputs[0], &rois = ctx.inputs[1], &batch = ctx.inputs[2];
  if (x.shape().rank() != 4) return ctx.error("expects X (N, C, H, W), got " + x.shape().toString());
  const int64_t regions = rois.shape().rank() == 2 ? rois.shape().dim(0) : -1;
  if (rois.dtype() != x.dtype() || regions < 0 || rois.shape().dim(1) != 4)
    return ctx.error("rois must be X's dtype, [num_rois, 4], got " + rois.shape().toString());
  if (!isInteger(batch.dtype()) || batch.numElements() != regions)
    return ctx.error("batch_indices must hold an integer for each of the " + std::to_string(regions) + " rois");
  FS_ASSIGN_OR_RETURN(const RoiAlignParams p, roiAlignParams(ctx));
  const int64_t c = x.shape().dim(1), h = x.shape().dim(2), w = x.shape().dim(3);
  const std::vector<int64_t> images = intValues(batch);
  for (int64_t r = 0; r < regions; ++r)
    if (images[static_cast<size_t>(r)] < 0 || images[static_cast<size_t>(r)] >= x.shape().dim(0))
      return ctx.error("batch index " + std::to_string(images[static_cast<size_t>(r)]) + " of roi " +
                       std::to_string(r) + " is outside X's batch of " + std::to_string(x.shape().dim(0)));
  std::vector<RegionGrid> grids;
  for (int64_t r = 0; r < regions; ++r) {
    const double box[4] = {rois.elementAsDouble(r * 4), rois.elementAsDouble(r * 4 + 1),
                           rois.elementAsDouble(r * 4 + 2), rois.elementAsDouble(r * 4 + 3)};
    grids.push_back(regionGrid(box, p));
    const RegionGrid& g = grids.back();
    if (!std::isfinite(g.binH * g.binW) || g.gridH * g.gridW > kMaxSamplesPerBin)
      return ctx.error("roi " + std::to_string(r) + " needs more than 2^24 samples per bin (or is not finite)");
  }
  const Shape shape{regions, c, p.outH, p.outW};
  if (auto bytes = Tensor::checkedByteSize(x.dtype(), shape, kMaxComputedBytes); !bytes)
    return ctx.error(bytes.status().message());
  Tensor out = Tensor::uninitialized(x.dtype(), shape);
  const bool ok = dispatchFloat(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t r = 0; r < regions; ++r)
      for (int64_t ch = 0; ch < c; ++ch)
        alignRegion(x.data<T>() + (images[static_cast<size_t>(r)] * c + ch) * h * w, h, w,
                    grids[static_cast<size_t>(r)], p, out.data<T>() + (r * c + ch) * p.outH * p.outW);
  });
  if (!ok) return ctx.error("runs float32 and float64, got " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxRoiAlignKernel(KernelTable& r) { r.add("onnx::RoiAlign", withInputs(3, roiAlign)); }

}  // namespace flowscope
