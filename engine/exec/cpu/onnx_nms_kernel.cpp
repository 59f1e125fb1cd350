// ONNX NonMaxSuppression: per batch and class, the boxes above score_threshold in descending score order (the lower
// index first on ties), each kept unless its IoU with a kept one exceeds iou_threshold, at most
// max_output_boxes_per_class of them; the result is int64 [selected, 3] of (batch, class, box) rows.
#include <algorithm>
#include <array>
#include <vector>

#include "exec/cpu/box_iou.h"
#include "exec/cpu/onnx_kernels.h"

namespace flowscope {
namespace {

struct NmsLimits {
  int64_t maxPerClass = 0;
  float iou = 0, score = 0;
  bool filterScores = false;
};

// Box b as [y0, x0, y1, x1] (boxIou's corners) from either of ONNX's encodings.
std::array<float, 4> corners(const float* b, bool centerPoint) {
  if (!centerPoint) return {b[0], b[1], b[2], b[3]};
  return {b[1] - b[3] / 2, b[0] - b[2] / 2, b[1] + b[3] / 2, b[0] + b[2] / 2};  // [x, y, width, height]
}

// The kept boxes of one batch and class, in the order they were kept.
std::vector<int64_t> keep(const std::vector<std::array<float, 4>>& boxes, const float* scores, const NmsLimits& l) {
  std::vector<int64_t> order;
  for (int64_t i = 0; i < static_cast<int64_t>(boxes.size()); ++i)
    if (!l.filterScores || scores[i] > l.score) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return scores[a] > scores[b]; });
  std::vector<int64_t> kept;
  for (int64_t i : order) {
    if (static_cast<int64_t>(kept.size()) >= l.maxPerClass) break;
    const bool overlaps = std::any_of(kept.begin(), kept.end(), [&](int64_t k) {
      return boxIou(boxes[static_cast<size_t>(i)].data(), boxes[static_cast<size_t>(k)].data()) > l.iou;
    });
    if (!overlaps) kept.push_back(i);
  }
  return kept;
}

Status nonMaxSuppression(KernelContext& ctx) {
  const Tensor& boxes = ctx.inputs[0];
  const Tensor& scores = ctx.inputs[1];
  if (boxes.dtype() != DType::kFloat || scores.dtype() != DType::kFloat || boxes.shape().rank() != 3 ||
      boxes.shape().dim(2) != 4 || scores.shape().rank() != 3 || scores.shape().dim(0) != boxes.shape().dim(0) ||
      scores.shape().dim(2) != boxes.shape().dim(1))
    return ctx.error("expects float32 boxes [batches, boxes, 4] and scores [batches, classes, boxes], got " +
                     boxes.shape().toString() + " and " + scores.shape().toString());
  NmsLimits limits;
  if (const Tensor* t = onnxInput(ctx, 2); t && t->numElements() > 0) limits.maxPerClass = intValues(*t)[0];
  if (const Tensor* t = onnxInput(ctx, 3); t && t->numElements() > 0) limits.iou = elementAsFloat(*t, 0);
  if (const Tensor* t = onnxInput(ctx, 4); t && t->numElements() > 0) {
    limits.score = elementAsFloat(*t, 0);
    limits.filterScores = true;
  }
  const bool centerPoint = attrInt(ctx.node, "center_point_box", 0) != 0;
  const int64_t batches = boxes.shape().dim(0), count = boxes.shape().dim(1), classes = scores.shape().dim(1);
  std::vector<int64_t> rows;
  for (int64_t b = 0; b < batches; ++b) {
    std::vector<std::array<float, 4>> batchBoxes;
    for (int64_t i = 0; i < count; ++i)
      batchBoxes.push_back(corners(boxes.data<float>() + (b * count + i) * 4, centerPoint));
    for (int64_t c = 0; c < classes; ++c)
      for (int64_t i : keep(batchBoxes, scores.data<float>() + (b * classes + c) * count, limits))
        rows.insert(rows.end(), {b, c, i});
  }
  Tensor out(DType::kInt64, Shape{static_cast<int64_t>(rows.size() / 3), 3});
  std::copy(rows.begin(), rows.end(), out.data<int64_t>());
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxNmsKernel(KernelTable& r) { r.add("onnx::NonMaxSuppression", withInputs(2, nonMaxSuppression)); }

}  // namespace flowscope
