// Fill (dims and value are Consts), ZerosLike and OnesLike on Vulkan: unary.comp's code 36 writes one value into every
// element. It has no input to read, so the output is bound as its input as well.
#include "exec/vulkan/lowering_util.h"

namespace flowscope::vk {

Expected<LoweredNode> lowerFill(const NodeView& v) {
  constexpr uint32_t kWriteAlpha = 36;
  Shape shape = v.inputShapes[0];
  float value = v.node.op == "OnesLike" ? 1.0f : 0.0f;
  if (v.node.op == "Fill") {
    const std::vector<int64_t> dims = intValues(*v.constInputs[0]);
    for (int64_t d : dims)
      if (d < 0) return fail(v, "dims must not be negative");
    if (v.constInputs[1]->numElements() != 1) return fail(v, "value must be a scalar");
    shape = Shape(dims);
    value = static_cast<float>(v.constInputs[1]->elementAsDouble(0));
  }
  LoweredNode lowered{{shape}, {}};
  if (shape.numElements() == 0) return lowered;
  Dispatch d = make(ShaderId::kUnary, {out(0), out(0)},
                    {kWriteAlpha, static_cast<uint32_t>(shape.numElements()), bitsOf(value)});
  spread(d, static_cast<uint64_t>(shape.numElements()), 256);
  lowered.dispatches.push_back(d);
  return lowered;
}

}  // namespace flowscope::vk
