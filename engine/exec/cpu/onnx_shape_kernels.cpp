// ONNX ops that only change a tensor's shape (Reshape, Flatten, Squeeze, Unsqueeze: the buffer is shared) or read
// it (Shape, Size), and the constant makers (Constant, ConstantOfShape).
#include <algorithm>

#include "exec/cpu/onnx_kernels.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

Status reshape(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (ctx.inputs.size() < 2) return ctx.error("needs the shape input");
  std::vector<int64_t> dims = intValues(ctx.inputs[1]);
  const bool allowZero = attrInt(ctx.node, "allowzero", 0) != 0;
  int64_t known = 1;
  int inferred = -1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 0 && !allowZero) {
      if (static_cast<int>(i) >= x.shape().rank()) return ctx.error("shape has a 0 beyond the input's rank");
      dims[i] = x.shape().dim(static_cast<int>(i));
    }
    if (dims[i] == -1) {
      if (inferred >= 0) return ctx.error("shape has more than one -1");
      inferred = static_cast<int>(i);
    } else if (dims[i] < 0) {
      return ctx.error("shape has a negative dimension " + std::to_string(dims[i]));
    } else {
      known *= dims[i];
    }
  }
  if (inferred >= 0) {
    if (known == 0 || x.numElements() % known) return ctx.error("cannot infer the -1 of the shape");
    dims[static_cast<size_t>(inferred)] = x.numElements() / known;
  }
  Shape shape(dims);
  if (shape.numElements() != x.numElements())
    return ctx.error("cannot reshape " + x.shape().toString() + " to " + shape.toString());
  ctx.outputs[0] = x.reshaped(shape);
  return Status::ok();
}

Status flatten(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const int rank = x.shape().rank();
  int64_t axis = attrInt(ctx.node, "axis", 1);
  if (axis < 0) axis += rank;  // axis is in [-rank, rank]
  if (axis < 0 || axis > rank) return ctx.error("axis out of range");
  int64_t outer = 1;
  for (int i = 0; i < axis; ++i) outer *= x.shape().dim(i);
  ctx.outputs[0] = x.reshaped(Shape{outer, outer ? x.numElements() / outer : 0});
  return Status::ok();
}

// Axes of Squeeze, Unsqueeze and the reductions: the attr before `inputFrom`, input 1 from that opset on.
std::vector<int64_t> axesOf(const KernelContext& ctx, int64_t inputFrom, bool* given) {
  if (onnxOpset(ctx.node, inputFrom) >= inputFrom) {
    const Tensor* t = onnxInput(ctx, 1);
    *given = t != nullptr;
    return t ? intValues(*t) : std::vector<int64_t>{};
  }
  *given = ctx.node.attr("axes") != nullptr;
  return attrInts(ctx.node, "axes");
}

Status squeeze(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  bool given = false;
  std::vector<int64_t> axes = axesOf(ctx, 13, &given);
  const int rank = x.shape().rank();
  std::vector<bool> drop(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    int64_t axis = 0;
    if (!normalizeAxis(a, rank, &axis)) return ctx.error("axis " + std::to_string(a) + " out of range");
    if (x.shape().dim(static_cast<int>(axis)) != 1)
      return ctx.error("cannot squeeze axis " + std::to_string(a) + " of " + x.shape().toString());
    drop[static_cast<size_t>(axis)] = true;
  }
  std::vector<int64_t> dims;
  for (int i = 0; i < rank; ++i)
    if (!(given ? drop[static_cast<size_t>(i)] : x.shape().dim(i) == 1)) dims.push_back(x.shape().dim(i));
  ctx.outputs[0] = x.reshaped(Shape(dims));
  return Status::ok();
}

Status unsqueeze(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  bool given = false;
  std::vector<int64_t> axes = axesOf(ctx, 13, &given);
  const int rank = x.shape().rank() + static_cast<int>(axes.size());
  std::vector<bool> added(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    int64_t axis = 0;
    if (!normalizeAxis(a, rank, &axis) || added[static_cast<size_t>(axis)])
      return ctx.error("axis " + std::to_string(a) + " is out of range or repeated");
    added[static_cast<size_t>(axis)] = true;
  }
  std::vector<int64_t> dims;
  int from = 0;
  for (int i = 0; i < rank; ++i) dims.push_back(added[static_cast<size_t>(i)] ? 1 : x.shape().dim(from++));
  ctx.outputs[0] = x.reshaped(Shape(dims));
  return Status::ok();
}

Status shapeOp(KernelContext& ctx) {
  const auto& dims = ctx.inputs[0].shape().dims();
  const auto rank = static_cast<int64_t>(dims.size());
  auto clampAxis = [&](int64_t a) { return std::clamp(a < 0 ? a + rank : a, int64_t{0}, rank); };
  const int64_t start = clampAxis(attrInt(ctx.node, "start", 0));
  const int64_t end = clampAxis(attrInt(ctx.node, "end", rank));
  std::vector<int64_t> out;
  for (int64_t i = start; i < end; ++i) out.push_back(dims[static_cast<size_t>(i)]);
  ctx.outputs[0] = int64Vector(out);
  return Status::ok();
}

Status sizeOp(KernelContext& ctx) {
  ctx.outputs[0] = scalarOf(DType::kInt64, static_cast<double>(ctx.inputs[0].numElements()));
  return Status::ok();
}

Status constant(KernelContext& ctx) {
  for (const char* name : {"value", "sparse_value"})  // the loader densifies a sparse_value
    if (const AttrValue* v = ctx.node.attr(name); v && v->kind() == AttrValue::Kind::kTensor) {
      ctx.outputs[0] = v->tensor();
      return Status::ok();
    }
  if (const AttrValue* v = ctx.node.attr("value_float"); v && v->kind() == AttrValue::Kind::kFloat) {
    ctx.outputs[0] = scalarOf(DType::kFloat, v->f());
    return Status::ok();
  }
  if (const AttrValue* v = ctx.node.attr("value_int"); v && v->kind() == AttrValue::Kind::kInt) {
    ctx.outputs[0] = scalarOf(DType::kInt64, static_cast<double>(v->i()));
    return Status::ok();
  }
  if (const AttrValue* v = ctx.node.attr("value_ints"); v && v->kind() == AttrValue::Kind::kList) {
    ctx.outputs[0] = int64Vector(v->list().i);
    return Status::ok();
  }
  if (const AttrValue* v = ctx.node.attr("value_floats"); v && v->kind() == AttrValue::Kind::kList) {
    Tensor t(DType::kFloat, Shape{static_cast<int64_t>(v->list().f.size())});
    std::copy(v->list().f.begin(), v->list().f.end(), t.data<float>());
    ctx.outputs[0] = std::move(t);
    return Status::ok();
  }
  return ctx.error(
      "has no value, sparse_value, value_float, value_floats, value_int or value_ints attr (string constants are "
      "not run)");
}

Status constantOfShape(KernelContext& ctx) {
  std::vector<int64_t> dims = intValues(ctx.inputs[0]);
  for (int64_t d : dims)
    if (d < 0) return ctx.error("shape has a negative dimension");
  Tensor value = scalarOf(DType::kFloat, 0);
  if (const AttrValue* v = ctx.node.attr("value"); v && v->kind() == AttrValue::Kind::kTensor) {
    if (v->tensor().numElements() != 1) return ctx.error("value must hold one element");
    value = v->tensor();
  }
  FS_ASSIGN_OR_RETURN(size_t bytes, Tensor::checkedByteSize(value.dtype(), Shape(dims), size_t{1} << 34));
  Tensor out = Tensor::uninitialized(value.dtype(), Shape(dims));
  const size_t size = value.bytes().size();
  for (size_t at = 0; at < bytes; at += size) std::copy_n(value.bytes().data(), size, out.mutableBytes().data() + at);
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

void registerOnnxShapeKernels(KernelTable& r) {
  r.addFn("onnx::Reshape", reshape);
  r.addFn("onnx::Flatten", flatten);
  r.addFn("onnx::Squeeze", squeeze);
  r.addFn("onnx::Unsqueeze", unsqueeze);
  r.addFn("onnx::Shape", shapeOp);
  r.addFn("onnx::Size", sizeOp);
  r.addFn("onnx::Constant", constant);
  r.addFn("onnx::ConstantOfShape", constantOfShape);
}

}  // namespace flowscope
