// StridedSlice on Vulkan (begin, end and strides are Consts; every mask): planned by ops/strided_slice as on the CPU,
// then one strided gather. A negative stride is a negative input stride; new and shrunk axes only change the shape.
#include "exec/vulkan/lowering_util.h"
#include "ops/strided_slice.h"

namespace flowscope::vk {

Expected<LoweredNode> lowerStridedSlice(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  const StridedSliceMasks masks{attrInt(v.node, "begin_mask", 0), attrInt(v.node, "end_mask", 0),
                                attrInt(v.node, "ellipsis_mask", 0), attrInt(v.node, "new_axis_mask", 0),
                                attrInt(v.node, "shrink_axis_mask", 0)};
  auto plan = planStridedSlice(x, intValues(*v.constInputs[1]), intValues(*v.constInputs[2]),
                               intValues(*v.constInputs[3]), masks);
  if (!plan) return fail(v, plan.status().message());
  if (plan->size.size() > 5) return fail(v, "strided slices above rank 5 are not supported on Vulkan");
  const std::vector<int64_t> strides = stridesOf(x);
  std::vector<int64_t> copyStrides;
  int64_t offset = 0;
  for (size_t k = 0; k < plan->begin.size(); ++k) {
    offset += plan->begin[k] * strides[k];
    copyStrides.push_back(plan->stride[k] * strides[k]);
  }
  const Shape shape(plan->outputShape);
  LoweredNode lowered{{shape}, {}};
  if (shape.numElements() > 0)
    lowered.dispatches.push_back(
        gather(0, plan->size, copyStrides, stridesOf(Shape(plan->size)), offset, 0, {}, {}, 0));
  return lowered;
}

}  // namespace flowscope::vk
