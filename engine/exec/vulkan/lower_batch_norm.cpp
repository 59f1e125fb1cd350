// FusedBatchNorm / V2 / V3 in inference on Vulkan (is_training false): y from batch_norm.comp; the other outputs
// are the mean and variance inputs, copied, as the CPU kernel returns them.
#include "exec/vulkan/lowering_util.h"

namespace flowscope::vk {

Expected<LoweredNode> lowerFusedBatchNorm(const NodeView& v) {
  if (attrBool(v.node, "is_training", true)) return fail(v, "only inference FusedBatchNorm runs on Vulkan");
  const Shape& x = v.inputShapes[0];
  const std::string format = attrString(v.node, "data_format", "NHWC");
  const bool nchw = format == "NCHW";
  if (x.rank() != 4 || (!nchw && format != "NHWC")) return fail(v, "expects a 4-D NHWC or NCHW input");
  const int64_t c = nchw ? x.dim(1) : x.dim(3), inner = nchw ? x.dim(2) * x.dim(3) : 1;
  for (size_t k = 1; k < 5; ++k)
    if (v.inputShapes[k].numElements() != c)
      return fail(v, "input " + std::to_string(k) + " must have " + std::to_string(c) + " values");
  Dispatch d = make(ShaderId::kBatchNorm, {in(0), in(1), in(2), in(3), in(4), out(0)},
                    {static_cast<uint32_t>(x.numElements()), static_cast<uint32_t>(c), static_cast<uint32_t>(inner),
                     bitsOf(attrFloat(v.node, "epsilon", 1e-4f))});
  spread(d, static_cast<uint64_t>(x.numElements()), 256);
  LoweredNode lowered{{x}, {d}};
  const size_t outputs = v.node.op == "FusedBatchNormV3" ? 6 : 5;
  for (size_t k = 1; k < outputs; ++k) {
    lowered.outputShapes.push_back(Shape{c});
    Dispatch copy =
        make(ShaderId::kUnary, {in(k % 2 ? 3 : 4), out(static_cast<int>(k))}, {25u, static_cast<uint32_t>(c), 0u});
    spread(copy, static_cast<uint64_t>(c), 256);
    lowered.dispatches.push_back(copy);
  }
  return lowered;
}

}  // namespace flowscope::vk
