// Object detectors' non-max suppression with TensorFlow's semantics: NonMaxSuppression (V1 to V5: score threshold,
// padding, soft-NMS with selected_scores) and CombinedNonMaxSuppression (per batch and class, then the best overall).
#include <algorithm>
#include <cmath>
#include <queue>
#include <string>
#include <vector>

#include "exec/cpu/box_iou.h"
#include "exec/cpu/cpu_kernels.h"
#include "exec/kernel_util.h"

namespace flowscope {
namespace {

std::vector<float> floats(const Tensor& t) {
  std::vector<float> v(static_cast<size_t>(t.numElements()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(t.elementAsDouble(static_cast<int64_t>(i)));
  return v;
}

struct NmsParams {
  int64_t maxOut = 0;
  float iouThreshold = 0.5f, scoreThreshold = -INFINITY, sigma = 0;
};

struct NmsResult {
  std::vector<int32_t> indices;
  std::vector<float> scores;
};

struct Candidate {
  int32_t index;
  float score;
  size_t checkedUpTo;  ///< selected boxes [0, checkedUpTo) already suppressed this candidate's score
};

// TensorFlow's DoNonMaxSuppressionOp: best score first (ties: the lower index); a candidate is compared with the
// boxes selected since it was last looked at. Hard NMS drops it above the IoU threshold; soft-NMS (sigma > 0) scales
// its score by exp(-iou^2 / (2 sigma)) and puts it back while it stays above the score threshold.
NmsResult nonMaxSuppress(const std::vector<float>& boxes, const std::vector<float>& scores, const NmsParams& p) {
  auto lower = [](const Candidate& a, const Candidate& b) {
    return a.score < b.score || (a.score == b.score && a.index > b.index);
  };
  std::priority_queue<Candidate, std::vector<Candidate>, decltype(lower)> queue(lower);
  for (size_t i = 0; i < scores.size(); ++i)
    if (scores[i] > p.scoreThreshold) queue.push({static_cast<int32_t>(i), scores[i], 0});
  const bool soft = p.sigma > 0;
  const float scale = soft ? -0.5f / p.sigma : 0.0f;
  NmsResult r;
  while (static_cast<int64_t>(r.indices.size()) < p.maxOut && !queue.empty()) {
    Candidate c = queue.top();
    queue.pop();
    const float original = c.score;
    bool suppressed = false;
    for (auto j = static_cast<int64_t>(r.indices.size()) - 1; j >= static_cast<int64_t>(c.checkedUpTo); --j) {
      const float sim = boxIou(&boxes[4 * static_cast<size_t>(c.index)], &boxes[4 * static_cast<size_t>(r.indices[j])]);
      c.score *= soft || sim <= p.iouThreshold ? std::exp(scale * sim * sim) : 0.0f;
      if (!soft && sim > p.iouThreshold) {
        suppressed = true;
        break;
      }
      if (c.score <= p.scoreThreshold) break;
    }
    c.checkedUpTo = r.indices.size();
    if (suppressed) continue;
    if (c.score == original) {
      r.indices.push_back(c.index);
      r.scores.push_back(c.score);
    } else if (c.score > p.scoreThreshold) {
      queue.push(c);
    }
  }
  return r;
}

bool isScalarFloat(const Tensor& t) {
  return (t.dtype() == DType::kFloat || t.dtype() == DType::kHalf) && t.numElements() == 1;
}

// Inputs common to V1..V5: boxes [n, 4], scores [n], max_output_size; thresholds from input 3 on (V1: an attr).
Status readNms(const KernelContext& ctx, int version, NmsParams* p) {
  const Tensor& boxes = ctx.inputs[0];
  const Tensor& scores = ctx.inputs[1];
  if (boxes.shape().rank() != 2 || boxes.shape().dim(1) != 4)
    return ctx.error("boxes must be 2-D [n, 4], got " + boxes.shape().toString());
  if (scores.shape().rank() != 1 || scores.shape().dim(0) != boxes.shape().dim(0))
    return ctx.error("scores must be 1-D, one per box: " + std::to_string(boxes.shape().dim(0)) + " boxes but " +
                     scores.shape().toString() + " scores");
  if (!isFloating(boxes.dtype()) || !isFloating(scores.dtype())) return ctx.error("boxes and scores must be floats");
  if (ctx.inputs[2].shape().rank() != 0 || !scalarInt(ctx.inputs[2], &p->maxOut))
    return ctx.error("max_output_size must be 0-D, got " + ctx.inputs[2].shape().toString());
  const size_t thresholds = version == 1 ? 0 : version == 2 ? 1 : version <= 4 ? 2 : 3;
  for (size_t k = 3; k < 3 + thresholds; ++k)
    if (!isScalarFloat(ctx.inputs[k])) return ctx.error("thresholds must be float scalars");
  p->iouThreshold =
      version == 1 ? attrFloat(ctx.node, "iou_threshold", 0.5f) : static_cast<float>(ctx.inputs[3].elementAsDouble(0));
  if (thresholds >= 2) p->scoreThreshold = static_cast<float>(ctx.inputs[4].elementAsDouble(0));
  if (thresholds >= 3) p->sigma = static_cast<float>(ctx.inputs[5].elementAsDouble(0));
  if (p->iouThreshold < 0 || p->iouThreshold > 1) return ctx.error("iou_threshold must be in [0, 1]");
  if (p->sigma < 0) return ctx.error("soft_nms_sigma must be non-negative");
  return Status::ok();
}

template <int Version>
Status nonMaxSuppressionOp(KernelContext& ctx) {
  FS_RETURN_IF_ERROR(expectInputs(ctx, Version == 1 ? 3 : Version == 2 ? 4 : Version <= 4 ? 5 : 6));
  NmsParams p;
  FS_RETURN_IF_ERROR(readNms(ctx, Version, &p));
  NmsResult r = nonMaxSuppress(floats(ctx.inputs[0]), floats(ctx.inputs[1]), p);
  const auto valid = static_cast<int64_t>(r.indices.size());
  const bool pad = Version >= 4 && attrBool(ctx.node, "pad_to_max_output_size", false);
  const int64_t len = pad ? std::max(p.maxOut, valid) : valid;
  Tensor indices(DType::kInt32, Shape{len});
  std::copy(r.indices.begin(), r.indices.end(), indices.data<int32_t>());
  ctx.outputs[0] = std::move(indices);
  if constexpr (Version == 5) {
    const DType t = ctx.inputs[1].dtype();
    Tensor scores(t, Shape{len});
    for (int64_t i = 0; i < valid; ++i) {
      const float s = r.scores[static_cast<size_t>(i)];
      if (t == DType::kHalf)
        scores.data<uint16_t>()[i] = floatToHalf(s);
      else
        scores.data<float>()[i] = s;
    }
    ctx.outputs[1] = std::move(scores);
  }
  if constexpr (Version >= 4)
    ctx.outputs[Version == 5 ? 2 : 1] = Tensor::scalar<int32_t>(DType::kInt32, static_cast<int32_t>(valid));
  return Status::ok();
}

}  // namespace

void registerDetectionKernels(KernelTable& r) {
  r.addFn("NonMaxSuppression", nonMaxSuppressionOp<1>);
  r.addFn("NonMaxSuppressionV2", nonMaxSuppressionOp<2>);
  r.addFn("NonMaxSuppressionV3", nonMaxSuppressionOp<3>);
  r.addFn("NonMaxSuppressionV4", nonMaxSuppressionOp<4>);
  r.addFn("NonMaxSuppressionV5", nonMaxSuppressionOp<5>);
}

}  // namespace flowscope
