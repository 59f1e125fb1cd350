// ONNX sequences (opset 11+: SequenceEmpty/Construct/At/Length/Insert/Erase, SplitToSequence, ConcatFromSequence,
// SequenceMap) and optionals (opset 15+: Optional, OptionalHasElement, OptionalGetElement).
// A sequence value is a TensorList, as TensorFlow's loops keep theirs: a DT_VARIANT scalar naming an immutable list
// of tensors in the run's ResourceManager. Every op that changes a sequence makes a new list. An optional is a list
// of no element or one under an "opt:" handle; its element may itself be a sequence.
#include <cstring>

#include "exec/cpu/onnx_kernels.h"
#include "exec/exec_context.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

using Elements = std::vector<Tensor>;

Expected<std::shared_ptr<const Elements>> sequenceAt(const KernelContext& ctx, size_t input) {
  if (!ctx.exec || !ctx.exec->resources) return ctx.error("sequences need a session");
  auto list = ctx.exec->resources->tensorList(ResourceManager::handleOf(ctx.inputs[input]));
  if (!list) return ctx.error("input " + std::to_string(input) + " is not a sequence");
  return list;
}

Status output(KernelContext& ctx, Elements elements) {
  if (!ctx.exec || !ctx.exec->resources) return ctx.error("sequences need a session");
  ctx.outputs[0] = ResourceManager::variantTensor(ctx.exec->resources->newTensorList(std::move(elements)));
  return Status::ok();
}

// The position a `position` input names in a sequence of `size` (negative: from the end), or `fallback` when the
// input is absent. `end` allows `size` itself (inserting at the back).
Expected<size_t> positionOf(const KernelContext& ctx, const Tensor* position, size_t size, bool end, size_t fallback) {
  if (!position) return fallback;
  int64_t at = 0;
  if (!scalarInt(*position, &at)) return ctx.error("position must be an int32 or int64 scalar");
  const auto n = static_cast<int64_t>(size);
  if (at < -n || at > (end ? n : n - 1))
    return ctx.error("position " + std::to_string(at) + " is outside a sequence of " + std::to_string(n));
  return static_cast<size_t>(at < 0 ? at + n : at);
}

Status sameDtype(const KernelContext& ctx, const Elements& elements, const Tensor& t) {
  if (!elements.empty() && elements[0].dtype() != t.dtype())
    return ctx.error("a sequence of " + std::string(dtypeName(elements[0].dtype())) + " cannot take a " +
                     std::string(dtypeName(t.dtype())) + " tensor");
  return Status::ok();
}

Status sequenceEmpty(KernelContext& ctx) { return output(ctx, {}); }

Status sequenceConstruct(KernelContext& ctx) {
  Elements elements;
  for (const Tensor& t : ctx.inputs) {
    FS_RETURN_IF_ERROR(sameDtype(ctx, elements, t));
    elements.push_back(t);
  }
  return output(ctx, std::move(elements));
}

Status sequenceLength(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(auto list, sequenceAt(ctx, 0));
  ctx.outputs[0] = scalarOf(DType::kInt64, static_cast<double>(list->size()));
  return Status::ok();
}

Status sequenceElement(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(auto list, sequenceAt(ctx, 0));
  if (!onnxInput(ctx, 1)) return ctx.error("needs a position");
  FS_ASSIGN_OR_RETURN(size_t at, positionOf(ctx, onnxInput(ctx, 1), list->size(), false, 0));
  ctx.outputs[0] = (*list)[at];
  return Status::ok();
}

Status sequenceInsert(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(auto list, sequenceAt(ctx, 0));
  const Tensor* value = onnxInput(ctx, 1);
  if (!value) return ctx.error("needs a tensor to insert");
  FS_RETURN_IF_ERROR(sameDtype(ctx, *list, *value));
  FS_ASSIGN_OR_RETURN(size_t at, positionOf(ctx, onnxInput(ctx, 2), list->size(), true, list->size()));
  Elements elements = *list;
  elements.insert(elements.begin() + static_cast<std::ptrdiff_t>(at), *value);
  return output(ctx, std::move(elements));
}

Status sequenceErase(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(auto list, sequenceAt(ctx, 0));
  if (list->empty()) return ctx.error("cannot erase from an empty sequence");
  FS_ASSIGN_OR_RETURN(size_t at, positionOf(ctx, onnxInput(ctx, 1), list->size(), false, list->size() - 1));
  Elements elements = *list;
  elements.erase(elements.begin() + static_cast<std::ptrdiff_t>(at));
  return output(ctx, std::move(elements));
}

// The lengths SplitToSequence cuts `length` into: ones without a split input, chunks of a scalar split (the last
// one shorter), or the sizes of a 1-D split, which must add up to the length.
Expected<std::vector<int64_t>> splitSizes(const KernelContext& ctx, const Tensor* split, int64_t length) {
  if (!split) return std::vector<int64_t>(static_cast<size_t>(length), 1);
  std::vector<int64_t> sizes = intValues(*split);
  if (split->shape().rank() == 0) {
    const int64_t chunk = sizes.empty() ? 0 : sizes[0];
    if (chunk <= 0) return ctx.error("split must be positive, not " + std::to_string(chunk));
    sizes.clear();
    for (int64_t at = 0; at < length; at += chunk) sizes.push_back(std::min(chunk, length - at));
    return sizes;
  }
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0) return ctx.error("split has a negative size " + std::to_string(s));
    total += s;
  }
  if (total != length)
    return ctx.error("split sizes add up to " + std::to_string(total) + ", the axis has " + std::to_string(length));
  return sizes;
}

Status splitToSequence(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.isStringLike()) return ctx.error("does not split " + std::string(dtypeName(x.dtype())) + " tensors");
  int64_t axis = attrInt(ctx.node, "axis", 0);
  if (!normalizeAxis(axis, x.shape().rank(), &axis)) return ctx.error("axis is outside rank " + x.shape().toString());
  const Tensor* split = onnxInput(ctx, 1);
  const bool dropAxis = !split && attrInt(ctx.node, "keepdims", 1) == 0;
  const auto a = static_cast<int>(axis);
  FS_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, splitSizes(ctx, split, x.shape().dim(a)));
  const AxisSplit around = splitAt(x.shape(), a);
  const int64_t outer = around.outer, inner = around.inner;
  const auto elementBytes = static_cast<size_t>(dtypeSize(x.dtype()));
  const size_t rowBytes = static_cast<size_t>(x.shape().dim(a) * inner) * elementBytes;
  Elements pieces;
  size_t start = 0;  // bytes into a row
  for (int64_t size : sizes) {
    std::vector<int64_t> dims = x.shape().dims();
    dims[static_cast<size_t>(a)] = size;
    if (dropAxis) dims.erase(dims.begin() + a);
    Tensor piece = Tensor::uninitialized(x.dtype(), Shape(dims));
    const size_t block = static_cast<size_t>(size * inner) * elementBytes;
    for (int64_t o = 0; o < outer && block; ++o)
      std::memcpy(piece.mutableBytes().data() + static_cast<size_t>(o) * block,
                  x.bytes().data() + static_cast<size_t>(o) * rowBytes + start, block);
    pieces.push_back(std::move(piece));
    start += block;
  }
  return output(ctx, std::move(pieces));
}

// ConcatFromSequence runs as ConcatV2 of the elements, or as Pack with new_axis=1.
Expected<TfEquivalent> concatFromSequenceMapping(const Node& node) {
  const int64_t axis = attrInt(node, "axis", 0);
  const bool newAxis = attrInt(node, "new_axis", 0) != 0;
  TfEquivalent tf{newAxis ? "Pack" : "ConcatV2", {}, nullptr};
  if (newAxis) tf.attrs["axis"] = AttrValue::fromInt(axis);
  tf.adapt = [axis, newAxis](const KernelContext& ctx) -> Expected<std::vector<Tensor>> {
    FS_ASSIGN_OR_RETURN(auto list, sequenceAt(ctx, 0));
    if (list->empty()) return ctx.error("cannot concatenate an empty sequence");
    std::vector<Tensor> in(list->begin(), list->end());
    if (!newAxis) in.push_back(scalarOf(DType::kInt64, static_cast<double>(axis)));
    return in;
  };
  return tf;
}

// SequenceMap: the body once per element of the first input, taking the i-th element of each sequence input and
// tensor inputs as they are; each body output collects into an output sequence.
Status sequenceMap(KernelContext& ctx) {
  const AttrValue* body = ctx.node.attr("body");
  if (!body || body->kind() != AttrValue::Kind::kFunc) return ctx.error("needs a body");
  if (!ctx.exec || !ctx.exec->functions || !ctx.exec->resources) return ctx.error("needs a session");
  const size_t formal = ctx.inputs.size() - onnxCaptureCount(ctx.node);
  std::vector<std::shared_ptr<const Elements>> lists(formal);  // null: a tensor input, passed whole
  for (size_t k = 0; k < formal; ++k)
    lists[k] = ctx.exec->resources->tensorList(ResourceManager::handleOf(ctx.inputs[k]));
  if (!lists[0]) return ctx.error("input 0 is not a sequence");
  const size_t count = lists[0]->size();
  for (size_t k = 1; k < formal; ++k)
    if (lists[k] && lists[k]->size() != count)
      return ctx.error("input " + std::to_string(k) + " is a sequence of " + std::to_string(lists[k]->size()) +
                       ", input 0 of " + std::to_string(count));
  std::vector<Elements> outputs(ctx.outputs.size());
  for (size_t i = 0; i < count; ++i) {
    if (ctx.exec->isCancelled()) return cancelled("run cancelled in '" + ctx.node.name + "'");
    std::vector<Tensor> args;
    for (size_t k = 0; k < ctx.inputs.size(); ++k)
      args.push_back(k < formal && lists[k] ? (*lists[k])[i] : ctx.inputs[k]);
    auto out = ctx.exec->functions->call(body->func().name, {}, std::move(args), *ctx.exec);
    if (!out) return out.status().withContext(nodeLabel(ctx.node));
    if (out->size() != outputs.size())
      return ctx.error("body returned " + std::to_string(out->size()) + " values for " +
                       std::to_string(outputs.size()) + " outputs");
    for (size_t k = 0; k < outputs.size(); ++k) outputs[k].push_back(std::move((*out)[k]));
  }
  for (size_t k = 0; k < outputs.size(); ++k)
    ctx.outputs[k] = ResourceManager::variantTensor(ctx.exec->resources->newTensorList(std::move(outputs[k])));
  return Status::ok();
}

Status optional(KernelContext& ctx) {
  if (!ctx.exec || !ctx.exec->resources) return ctx.error("optionals need a session");
  const Tensor* value = onnxInput(ctx, 0);
  Elements noneOrOne;
  if (value) noneOrOne.push_back(*value);
  ctx.outputs[0] = ResourceManager::variantTensor(ctx.exec->resources->newOptional(std::move(noneOrOne)));
  return Status::ok();
}

// The optional input's list; null when the input is a plain tensor or sequence (opset 18 lets these ops take one).
std::shared_ptr<const Elements> optionalOf(const KernelContext& ctx, const Tensor& value) {
  const std::string handle = ResourceManager::handleOf(value);
  if (!ctx.exec || !ctx.exec->resources || !ResourceManager::isOptional(handle)) return nullptr;
  return ctx.exec->resources->tensorList(handle);
}

Status optionalHasElement(KernelContext& ctx) {
  const Tensor* value = onnxInput(ctx, 0);
  auto list = value ? optionalOf(ctx, *value) : nullptr;
  Tensor has(DType::kBool, Shape{});
  has.data<bool>()[0] = value && (!list || !list->empty());
  ctx.outputs[0] = std::move(has);
  return Status::ok();
}

Status optionalGetElement(KernelContext& ctx) {
  auto list = optionalOf(ctx, ctx.inputs[0]);
  if (list && list->empty()) return ctx.error("the optional holds no value");
  ctx.outputs[0] = list ? (*list)[0] : ctx.inputs[0];
  return Status::ok();
}

}  // namespace

void registerOnnxSequenceKernels(KernelTable& r) {
  r.addFn("onnx::Optional", optional);
  r.addFn("onnx::OptionalHasElement", optionalHasElement);
  r.addFn("onnx::OptionalGetElement", optionalGetElement);
  r.addFn("onnx::SequenceEmpty", sequenceEmpty);
  r.addFn("onnx::SequenceConstruct", sequenceConstruct);
  r.addFn("onnx::SequenceLength", sequenceLength);
  r.addFn("onnx::SequenceAt", sequenceElement);
  r.addFn("onnx::SequenceInsert", sequenceInsert);
  r.addFn("onnx::SequenceErase", sequenceErase);
  r.addFn("onnx::SplitToSequence", splitToSequence);
  r.addFn("onnx::SequenceMap", sequenceMap);
  r.add("onnx::ConcatFromSequence", adaptedKernel(concatFromSequenceMapping));
}

}  // namespace flowscope
