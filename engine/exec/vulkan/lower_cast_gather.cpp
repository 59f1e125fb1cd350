// Cast to float32 and GatherV2 on Vulkan: the two ops that read integers. Values inside a cluster are float32; these
// read an integer buffer from the host (an image's uint8 or int32 pixels, indices), as TensorFlow's GPU kernels read
// int32 from host memory. Cast from float32 is a copy; GatherV2 moves elements as bits.
#include "exec/vulkan/lowering_util.h"
#include "ops/onnx_op_set.h"

namespace flowscope::vk {

const std::vector<DType>& castSourceTypes() {
  static const std::vector<DType> types = {DType::kInt32, DType::kUInt8, DType::kBool, DType::kInt8};
  return types;
}

const std::vector<DType>& indexTypes() {
  static const std::vector<DType> types = {DType::kInt32, DType::kInt64};
  return types;
}

Expected<LoweredNode> lowerCast(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  const DType from = v.inputType(0);
  const uint32_t mode = from == DType::kInt32 ? 0u : from == DType::kInt8 ? 2u : 1u;
  const ShaderId shader = from == DType::kFloat ? ShaderId::kUnary : ShaderId::kCast;
  constexpr uint32_t kCopy = 25;  // unary.comp's Identity
  Dispatch d =
      make(shader, {in(0), out(0)}, {from == DType::kFloat ? kCopy : mode, static_cast<uint32_t>(x.numElements()), 0});
  spread(d, static_cast<uint64_t>(x.numElements()), 256);
  LoweredNode lowered{{x}, {}};
  if (x.numElements() > 0) lowered.dispatches.push_back(d);
  return lowered;
}

// GatherV2(params, indices, axis) with batch_dims 0, and ONNX Gather (axis attr; negative indices count from the end).
Expected<LoweredNode> lowerGather(const NodeView& v) {
  const bool onnx = isOnnxOp(v.node.op);
  const Shape &x = v.inputShapes[0], &indices = v.inputShapes[1];
  int64_t axis = onnx ? attrInt(v.node, "axis", 0) : intValues(*v.constInputs[2]).at(0);
  if (axis < 0) axis += x.rank();
  if (axis < 0 || axis >= x.rank()) return fail(v, "axis out of range for " + x.toString());
  if (!onnx && attrInt(v.node, "batch_dims", 0) != 0) return fail(v, "batch_dims other than 0 do not run on Vulkan");
  const int64_t axisLen = x.dim(static_cast<int>(axis));
  if (axisLen > INT32_MAX) return fail(v, "an axis of " + std::to_string(axisLen) + " is too long for int32 indices");
  std::vector<int64_t> dims(x.dims().begin(), x.dims().begin() + axis);
  dims.insert(dims.end(), indices.dims().begin(), indices.dims().end());
  dims.insert(dims.end(), x.dims().begin() + axis + 1, x.dims().end());
  int64_t inner = 1;
  for (int k = static_cast<int>(axis) + 1; k < x.rank(); ++k) inner *= x.dim(k);
  const Shape shape(dims);
  Dispatch d = make(ShaderId::kGatherAxis, {in(0), in(1), out(0)},
                    {static_cast<uint32_t>(shape.numElements()), static_cast<uint32_t>(axisLen),
                     static_cast<uint32_t>(indices.numElements()), static_cast<uint32_t>(std::max<int64_t>(inner, 1)),
                     v.inputType(1) == DType::kInt64, onnx});
  spread(d, static_cast<uint64_t>(shape.numElements()), 256);
  LoweredNode lowered{{shape}, {}};
  if (shape.numElements() > 0 && inner > 0) lowered.dispatches.push_back(d);
  return lowered;
}

}  // namespace flowscope::vk
