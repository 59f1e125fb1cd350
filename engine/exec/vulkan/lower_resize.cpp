// ResizeBilinear and ResizeNearestNeighbor on Vulkan (NHWC; the size is a Const): one dispatch of resize.comp with
// the scales computed as the CPU kernel computes them.
#include "exec/vulkan/lowering_util.h"

namespace flowscope::vk {

Expected<LoweredNode> lowerResize(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  const std::vector<int64_t> size = intValues(*v.constInputs[1]);
  if (x.rank() != 4 || size.size() != 2 || size[0] <= 0 || size[1] <= 0)
    return fail(v, "expects a 4-D image and a positive size [h, w]");
  if (x.numElements() == 0) return fail(v, "cannot resize an empty image " + x.toString());
  const bool align = attrBool(v.node, "align_corners", false);
  const bool halfPixel = attrBool(v.node, "half_pixel_centers", false);
  auto scaleOf = [&](int64_t in, int64_t out) {
    return align && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                            : static_cast<float>(in) / static_cast<float>(out);
  };
  const Shape shape{x.dim(0), size[0], size[1], x.dim(3)};
  Dispatch d = make(ShaderId::kResize, {in(0), out(0)},
                    {static_cast<uint32_t>(x.dim(0)), static_cast<uint32_t>(x.dim(1)), static_cast<uint32_t>(x.dim(2)),
                     static_cast<uint32_t>(x.dim(3)), static_cast<uint32_t>(size[0]), static_cast<uint32_t>(size[1]),
                     bitsOf(scaleOf(x.dim(1), size[0])), bitsOf(scaleOf(x.dim(2), size[1])), halfPixel,
                     v.node.op == "ResizeBilinear", align});
  spread(d, static_cast<uint64_t>(shape.numElements()), 256);
  return LoweredNode{{shape}, {d}};
}

}  // namespace flowscope::vk
