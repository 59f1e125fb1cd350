// CombinedNonMaxSuppression as TensorFlow computes it: greedy NMS per batch and class (boxes [batch, n, q, 4] with q
// 1 or one box per class, scores [batch, n, classes]), then the best max_total_size of all classes per batch,
// optionally clipped to [0, 1], padded with zeros.
#include <algorithm>
#include <queue>
#include <string>
#include <vector>

#include "exec/cpu/box_iou.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/kernel_util.h"

namespace flowscope {
namespace {

struct Dims {
  int64_t batch = 0, boxes = 0, q = 0, classes = 0;
  int64_t perClass = 0, total = 0;
  float iouThreshold = 0, scoreThreshold = 0;
};

struct Detection {
  float score;
  int64_t cls;
  const float* box;
};

// One class of one batch: candidates above the threshold best first (ties: the lower box), kept when they overlap
// no kept box of the class by more than the IoU threshold, at most perClass of them.
void nmsOneClass(const Dims& d, const float* boxes, const float* scores, int64_t cls, std::vector<Detection>& out) {
  using Entry = std::pair<float, int64_t>;
  auto lower = [](const Entry& a, const Entry& b) {
    return a.first < b.first || (a.first == b.first && a.second > b.second);
  };
  std::priority_queue<Entry, std::vector<Entry>, decltype(lower)> queue(lower);
  for (int64_t i = 0; i < d.boxes; ++i)
    if (scores[i * d.classes + cls] > d.scoreThreshold) queue.emplace(scores[i * d.classes + cls], i);
  const int64_t boxClass = d.q > 1 ? cls : 0;
  std::vector<const float*> kept;
  while (static_cast<int64_t>(kept.size()) < std::min(d.perClass, d.boxes) && !queue.empty()) {
    const auto [score, i] = queue.top();
    queue.pop();
    const float* box = boxes + (i * d.q + boxClass) * 4;
    bool keep = true;
    for (auto j = kept.rbegin(); j != kept.rend() && keep; ++j) keep = boxIou(box, *j) <= d.iouThreshold;
    if (!keep) continue;
    kept.push_back(box);
    out.push_back({score, cls, box});
  }
}

Status readDims(const KernelContext& ctx, Dims* d) {
  const Shape& b = ctx.inputs[0].shape();
  const Shape& s = ctx.inputs[1].shape();
  if (ctx.inputs[0].dtype() != DType::kFloat || ctx.inputs[1].dtype() != DType::kFloat)
    return ctx.error("boxes and scores must be float32");
  if (b.rank() != 4 || b.dim(3) != 4) return ctx.error("boxes must be 4-D [batch, boxes, q, 4], got " + b.toString());
  if (s.rank() != 3 || s.dim(0) != b.dim(0) || s.dim(1) != b.dim(1))
    return ctx.error("scores must be 3-D [batch, boxes, classes] matching boxes " + b.toString() + ", got " +
                     s.toString());
  *d = Dims{b.dim(0), b.dim(1), b.dim(2), s.dim(2)};
  if (d->q != 1 && d->q != d->classes) return ctx.error("third dimension of boxes must be either 1 or num classes");
  for (int k = 2; k < 4; ++k)
    if (ctx.inputs[k].shape().rank() != 0) return ctx.error("max sizes must be 0-D");
  if (!scalarInt(ctx.inputs[2], &d->perClass) || !scalarInt(ctx.inputs[3], &d->total))
    return ctx.error("max_output_size_per_class and max_total_size must be int32 scalars");
  if (d->total <= 0) return ctx.error("max_total_size must be > 0");
  d->perClass = std::max<int64_t>(d->perClass, 0);
  for (int k = 4; k < 6; ++k)
    if (ctx.inputs[k].dtype() != DType::kFloat || ctx.inputs[k].numElements() != 1)
      return ctx.error("iou_threshold and score_threshold must be float32 scalars");
  d->iouThreshold = ctx.inputs[4].data<float>()[0];
  d->scoreThreshold = ctx.inputs[5].data<float>()[0];
  if (d->iouThreshold < 0 || d->iouThreshold > 1) return ctx.error("iou_threshold must be in [0, 1]");
  return Status::ok();
}

// The best `width` detections of one batch (by score; ties keep class order) into row `b` of the outputs.
int32_t writeBatch(std::vector<Detection>& found, int64_t b, int64_t width, bool clip, std::vector<Tensor>& out) {
  std::stable_sort(found.begin(), found.end(),
                   [](const Detection& x, const Detection& y) { return x.score > y.score; });
  const int64_t count = std::min(width, static_cast<int64_t>(found.size()));
  for (int64_t k = 0; k < count; ++k) {
    const Detection& det = found[static_cast<size_t>(k)];
    float* box = out[0].data<float>() + (b * width + k) * 4;
    for (int c = 0; c < 4; ++c) box[c] = clip ? std::clamp(det.box[c], 0.0f, 1.0f) : det.box[c];
    out[1].data<float>()[b * width + k] = det.score;
    out[2].data<float>()[b * width + k] = static_cast<float>(det.cls);
  }
  return static_cast<int32_t>(count);
}

Status combinedNms(KernelContext& ctx) {
  FS_RETURN_IF_ERROR(expectInputs(ctx, 6));
  Dims d;
  FS_RETURN_IF_ERROR(readDims(ctx, &d));
  const bool padPerClass = attrBool(ctx.node, "pad_per_class", false);
  const bool clip = attrBool(ctx.node, "clip_boxes", true);
  const int64_t width = padPerClass ? std::min(d.total, d.perClass * d.classes) : d.total;
  std::vector<Tensor> out{Tensor(DType::kFloat, Shape{d.batch, width, 4}), Tensor(DType::kFloat, Shape{d.batch, width}),
                          Tensor(DType::kFloat, Shape{d.batch, width}), Tensor(DType::kInt32, Shape{d.batch})};
  const float* boxes = ctx.inputs[0].data<float>();
  const float* scores = ctx.inputs[1].data<float>();
  for (int64_t b = 0; b < d.batch; ++b) {
    std::vector<Detection> found;
    for (int64_t c = 0; c < d.classes; ++c)
      nmsOneClass(d, boxes + b * d.boxes * d.q * 4, scores + b * d.boxes * d.classes, c, found);
    out[3].data<int32_t>()[b] = writeBatch(found, b, width, clip, out);
  }
  for (size_t i = 0; i < 4; ++i) ctx.outputs[i] = std::move(out[i]);
  return Status::ok();
}

}  // namespace

void registerCombinedNmsKernels(KernelTable& r) { r.addFn("CombinedNonMaxSuppression", combinedNms); }

}  // namespace flowscope
