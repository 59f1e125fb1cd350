// ONNX ops that move elements: Transpose, Concat, Split, Slice, Expand, Tile, Pad, Range, DepthToSpace and
// SpaceToDepth. Where TensorFlow's kernel moves them the same way, the ONNX attributes become its inputs.
#include <algorithm>
#include <cstring>

#include "exec/cpu/broadcast.h"
#include "exec/cpu/move_by_size.h"
#include "exec/cpu/onnx_kernels.h"
#include "exec/cpu/strided_copy.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

Expected<TfEquivalent> transposeMapping(const Node& node) {
  std::vector<int64_t> perm = attrInts(node, "perm");
  TfEquivalent tf{"Transpose", {}, nullptr};
  tf.adapt = [perm](const KernelContext& ctx) -> Expected<std::vector<Tensor>> {
    std::vector<int64_t> p = perm;
    if (p.empty())
      for (int i = ctx.inputs[0].shape().rank(); i-- > 0;) p.push_back(i);
    return std::vector<Tensor>{ctx.inputs[0], int64Vector(p)};
  };
  return tf;
}

Expected<TfEquivalent> concatMapping(const Node& node) {
  const int64_t axis = attrInt(node, "axis", 0);
  TfEquivalent tf{"ConcatV2", {}, nullptr};
  tf.adapt = [axis](const KernelContext& ctx) -> Expected<std::vector<Tensor>> {
    std::vector<Tensor> in;
    for (const Tensor& t : ctx.inputs)
      if (t.numElements() != 0 || ctx.inputs.size() == 1) in.push_back(t);  // ONNX allows empty parts of any rank
    if (in.empty()) in.push_back(ctx.inputs[0]);
    in.push_back(scalarOf(DType::kInt64, static_cast<double>(axis)));
    return in;
  };
  return tf;
}

// Split: sizes from input 1 (opset 13), the split attr (before), or equal parts.
Expected<TfEquivalent> splitMapping(const Node& node) {
  const int64_t axis = attrInt(node, "axis", 0);
  const std::vector<int64_t> attrSplit = attrInts(node, "split");
  TfEquivalent tf{"SplitV", {}, nullptr};
  tf.adapt = [axis, attrSplit](const KernelContext& ctx) -> Expected<std::vector<Tensor>> {
    const Tensor& x = ctx.inputs[0];
    int64_t a = 0;
    if (!normalizeAxis(axis, x.shape().rank(), &a)) return invalidArgument("axis out of range");
    std::vector<int64_t> sizes = attrSplit;
    if (const Tensor* s = onnxInput(ctx, 1)) sizes = intValues(*s);
    const auto parts = static_cast<int64_t>(ctx.outputs.size());
    const int64_t len = x.shape().dim(static_cast<int>(a));
    if (sizes.empty()) {
      const int64_t each = (len + parts - 1) / std::max<int64_t>(parts, 1);
      for (int64_t k = 0; k < parts; ++k) sizes.push_back(std::max<int64_t>(0, std::min(each, len - k * each)));
    }
    return std::vector<Tensor>{x, int64Vector(sizes), scalarOf(DType::kInt64, static_cast<double>(a))};
  };
  return tf;
}

// Expand: the output shape is the two-way broadcast of the input's and the given shape.
Expected<TfEquivalent> expandMapping(const Node&) {
  TfEquivalent tf{"BroadcastTo", {}, nullptr};
  tf.adapt = [](const KernelContext& ctx) -> Expected<std::vector<Tensor>> {
    Shape out;
    BroadcastPlan plan;
    if (!planBroadcast({ctx.inputs[0].shape(), Shape(intValues(ctx.inputs[1]))}, &out, &plan))
      return invalidArgument("shape " + ctx.inputs[0].shape().toString() + " does not broadcast to the given shape");
    return std::vector<Tensor>{ctx.inputs[0], int64Vector(out.dims())};
  };
  return tf;
}

Expected<TfEquivalent> tileMapping(const Node&) { return TfEquivalent{"Tile", {}, nullptr}; }

Expected<TfEquivalent> rangeMapping(const Node&) { return TfEquivalent{"Range", {}, nullptr}; }

// Pad: pads [begin..., end...] (opset 11 inputs; attrs before), modes constant, reflect and edge.
Expected<TfEquivalent> padMapping(const Node& node) {
  const std::string mode = attrString(node, "mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge")
    return unimplemented("Pad mode '" + mode + "' is not supported");
  const bool attrPads = onnxOpset(node, 11) < 11, mirror = mode != "constant";
  std::vector<int64_t> padsAttr = attrInts(node, "pads");
  const float valueAttr = attrFloat(node, "value", 0.0f);
  TfEquivalent tf{mirror ? "MirrorPad" : "PadV2", {}, nullptr};
  if (mirror) tf.attrs["mode"] = AttrValue::fromString(mode == "reflect" ? "REFLECT" : "EDGE");
  tf.adapt = [=](const KernelContext& ctx) -> Expected<std::vector<Tensor>> {
    const Tensor& x = ctx.inputs[0];
    const int rank = x.shape().rank();
    std::vector<int64_t> pads = attrPads ? padsAttr : intValues(ctx.inputs[1]);
    std::vector<int64_t> axes;
    if (const Tensor* a = attrPads ? nullptr : onnxInput(ctx, 3)) axes = intValues(*a);
    if (axes.empty())
      for (int i = 0; i < rank; ++i) axes.push_back(i);
    if (pads.size() != 2 * axes.size()) return invalidArgument("pads must hold 2 values per padded axis");
    std::vector<int64_t> paddings(2 * static_cast<size_t>(rank), 0);
    for (size_t k = 0; k < axes.size(); ++k) {
      int64_t axis = 0;
      if (!normalizeAxis(axes[k], rank, &axis)) return invalidArgument("pad axis out of range");
      if (pads[k] < 0 || pads[k + axes.size()] < 0) return unimplemented("negative pads (cropping) are not supported");
      paddings[2 * static_cast<size_t>(axis)] = pads[k];
      paddings[2 * static_cast<size_t>(axis) + 1] = pads[k + axes.size()];
    }
    Tensor padTensor = int64Vector(paddings).reshaped(Shape{rank, 2});
    if (mirror) return std::vector<Tensor>{x, padTensor};
    const Tensor* value = attrPads ? nullptr : onnxInput(ctx, 2);
    Tensor constant =
        value && value->numElements() == 1 ? value->reshaped(Shape{}) : scalarOf(x.dtype(), attrPads ? valueAttr : 0.0);
    return std::vector<Tensor>{x, padTensor, constant};
  };
  return tf;
}

// Slice: the start, count and step of every dimension, clamped as ONNX (and NumPy) clamp them.
struct SliceDims {
  std::vector<int64_t> start, step, count;
};

Expected<SliceDims> sliceDims(const KernelContext& ctx) {
  const Shape& shape = ctx.inputs[0].shape();
  const int rank = shape.rank();
  std::vector<int64_t> starts, ends, axes, steps;
  if (onnxOpset(ctx.node, 13) < 10) {
    starts = attrInts(ctx.node, "starts");
    ends = attrInts(ctx.node, "ends");
    axes = attrInts(ctx.node, "axes");
  } else {
    if (ctx.inputs.size() < 3) return invalidArgument("needs starts and ends");
    starts = intValues(ctx.inputs[1]);
    ends = intValues(ctx.inputs[2]);
    if (const Tensor* a = onnxInput(ctx, 3)) axes = intValues(*a);
    if (const Tensor* s = onnxInput(ctx, 4)) steps = intValues(*s);
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    return invalidArgument("starts, ends, axes and steps differ in length");
  SliceDims d;
  for (int i = 0; i < rank; ++i) {
    d.start.push_back(0);
    d.step.push_back(1);
    d.count.push_back(shape.dim(i));
  }
  for (size_t k = 0; k < starts.size(); ++k) {
    int64_t axis = 0;
    if (!normalizeAxis(axes[k], rank, &axis)) return invalidArgument("slice axis out of range");
    const int64_t dim = shape.dim(static_cast<int>(axis)), step = steps[k];
    if (step == 0) return invalidArgument("slice step 0");
    int64_t s = starts[k] < 0 ? starts[k] + dim : starts[k];
    int64_t e = ends[k] < 0 ? ends[k] + dim : ends[k];
    s = step > 0 ? std::clamp<int64_t>(s, 0, dim) : std::clamp<int64_t>(s, 0, dim - 1);
    e = step > 0 ? std::clamp<int64_t>(e, 0, dim) : std::clamp<int64_t>(e, -1, dim - 1);
    const auto a = static_cast<size_t>(axis);
    d.start[a] = s;
    d.step[a] = step;
    d.count[a] =
        step > 0 ? std::max<int64_t>(0, (e - s + step - 1) / step) : std::max<int64_t>(0, (s - e - step - 1) / -step);
  }
  return d;
}

Status slice(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  auto dims = sliceDims(ctx);
  if (!dims) return ctx.error(dims.status().message());
  const SliceDims& d = *dims;
  Tensor out = Tensor::uninitialized(x.dtype(), Shape(d.count));
  const int rank = x.shape().rank();
  if (out.numElements() == 0 || rank == 0) {
    if (rank == 0) out = x;
    ctx.outputs[0] = std::move(out);
    return Status::ok();
  }
  std::vector<int64_t> strides = stridesOf(x.shape());
  int64_t offset = 0;
  for (size_t k = 0; k < strides.size(); ++k) {
    offset += d.start[k] * strides[k];
    strides[k] *= d.step[k];
  }
  FS_RETURN_IF_ERROR(moveBySize(ctx, x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    stridedCopy(x.data<T>(), offset, strides, d.count, out.data<T>());  // a contiguous slice is one memcpy
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// DepthToSpace (DCR or CRD) and SpaceToDepth on NCHW: one strided copy each, the output's axes read from the input's
// channels and pixels as the modes split them (b: blocksize).
Status blockRearrange(KernelContext& ctx, bool toSpace) {
  const Tensor& x = ctx.inputs[0];
  const int64_t b = attrInt(ctx.node, "blocksize", 0);
  if (x.shape().rank() != 4 || b <= 0) return ctx.error("expects an NCHW input and a positive blocksize");
  const int64_t n = x.shape().dim(0), c = x.shape().dim(1), h = x.shape().dim(2), w = x.shape().dim(3);
  if (b > std::max<int64_t>(toSpace ? c : std::min(h, w), 1))
    return ctx.error("blocksize " + std::to_string(b) + " is larger than the " + (toSpace ? "channels" : "image"));
  std::vector<int64_t> dims, strides;  // in the output's order
  Shape shape;
  if (toSpace) {
    if (c % (b * b)) return ctx.error("channels " + std::to_string(c) + " are not a multiple of blocksize^2");
    const int64_t depth = c / (b * b);
    const bool crd = attrString(ctx.node, "mode", "DCR") == "CRD";
    dims = {n, depth, h, b, w, b};  // (N, C', H, b1, W, b2) from channel b1 * b * C' + b2 * C' + c' (DCR)
    strides = {c * h * w, (crd ? b * b : 1) * h * w, w, (crd ? b : b * depth) * h * w, 1, (crd ? 1 : depth) * h * w};
    shape = Shape{n, depth, h * b, w * b};
  } else {
    if (h % b || w % b) return ctx.error("height and width must be multiples of the blocksize");
    dims = {n, b, b, c, h / b, w / b};  // (N, b1, b2, C, H', W'): channel (b1 * b + b2) * C + c
    strides = {c * h * w, w, 1, h * w, b * w, b};
    shape = Shape{n, c * b * b, h / b, w / b};
  }
  Tensor out = Tensor::uninitialized(x.dtype(), shape);
  FS_RETURN_IF_ERROR(moveBySize(ctx, x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (x.numElements() > 0) stridedCopy(x.data<T>(), 0, strides, dims, out.data<T>());
  }));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status depthToSpace(KernelContext& ctx) { return blockRearrange(ctx, true); }
Status spaceToDepth(KernelContext& ctx) { return blockRearrange(ctx, false); }

}  // namespace

void registerOnnxTensorKernels(KernelTable& r) {
  r.add("onnx::Transpose", adaptedKernel(transposeMapping));
  r.add("onnx::Concat", adaptedKernel(concatMapping));
  r.add("onnx::Split", adaptedKernel(splitMapping));
  r.add("onnx::Expand", adaptedKernel(expandMapping));
  r.add("onnx::Tile", adaptedKernel(tileMapping));
  r.add("onnx::Range", adaptedKernel(rangeMapping));
  r.add("onnx::Pad", adaptedKernel(padMapping));
  r.addFn("onnx::Slice", slice);
  r.add("onnx::DepthToSpace", withInputs(1, depthToSpace));
  r.add("onnx::SpaceToDepth", withInputs(1, spaceToDepth));
}

}  // namespace flowscope
