// TensorArray (TF1 dynamic_rnn) and TensorList (TF2 loops) kernels over the ResourceManager's containers.
#include <cstring>

#include "exec/cpu/cpu_kernels.h"
#include "exec/exec_context.h"
#include "exec/kernel_util.h"

namespace flowscope {
namespace {

Expected<std::shared_ptr<TensorArray>> arrayOf(KernelContext& ctx) {
  if (!ctx.exec || !ctx.exec->resources) return ctx.error("TensorArrays need a session");
  auto array = ctx.exec->resources->tensorArray(ResourceManager::handleOf(ctx.inputs[0]));
  if (!array) return ctx.error("unknown TensorArray handle");
  return array;
}

// Slices `value` along dim 0 into elements; stacks elements back into one tensor.
std::vector<Tensor> unstack(const Tensor& value) {
  std::vector<Tensor> out;
  const int64_t n = value.shape().rank() ? value.shape().dim(0) : 0;
  std::vector<int64_t> dims(value.shape().dims().begin() + (n ? 1 : 0), value.shape().dims().end());
  const size_t bytes = n ? value.byteSize() / static_cast<size_t>(n) : 0;
  for (int64_t i = 0; i < n; ++i) {
    Tensor t = Tensor::uninitialized(value.dtype(), Shape(dims));
    std::memcpy(t.mutableBytes().data(), value.bytes().data() + i * static_cast<int64_t>(bytes), bytes);
    out.push_back(std::move(t));
  }
  return out;
}

Expected<Tensor> stack(const std::vector<Tensor>& elements, DType dtype, const Shape& elementShapeHint) {
  if (elements.empty()) {
    std::vector<int64_t> dims{0};
    if (elementShapeHint.isFullyDefined())
      dims.insert(dims.end(), elementShapeHint.dims().begin(), elementShapeHint.dims().end());
    return Tensor(dtype, Shape(dims));
  }
  const Shape& s = elements[0].shape();
  std::vector<int64_t> dims{static_cast<int64_t>(elements.size())};
  dims.insert(dims.end(), s.dims().begin(), s.dims().end());
  Tensor out = Tensor::uninitialized(dtype, Shape(dims));
  const size_t bytes = elements[0].byteSize();
  for (size_t i = 0; i < elements.size(); ++i) {
    if (!elements[i].isValid()) return invalidArgument("element " + std::to_string(i) + " was never written");
    if (elements[i].shape() != s)
      return invalidArgument("elements have different shapes: " + s.toString() + " and " +
                             elements[i].shape().toString());
    std::memcpy(out.mutableBytes().data() + i * bytes, elements[i].bytes().data(), bytes);
  }
  return out;
}

Status tensorArrayV3(KernelContext& ctx) {
  int64_t size;
  if (!scalarInt(ctx.inputs[0], &size) || size < 0) return ctx.error("size must be a non-negative scalar");
  if (!ctx.exec || !ctx.exec->resources) return ctx.error("TensorArrays need a session");
  std::string handle = ctx.exec->resources->newTensorArray(attrType(ctx.node, "dtype", DType::kFloat), size,
                                                           attrBool(ctx.node, "dynamic_size", false));
  ctx.outputs[0] = ResourceManager::handleTensor(handle);
  ctx.outputs[1] = Tensor::scalar<float>(DType::kFloat, 0);
  return Status::ok();
}

Status tensorArrayScatter(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(auto array, arrayOf(ctx));
  std::vector<int64_t> indices = intValues(ctx.inputs[1]);
  std::vector<Tensor> parts = unstack(ctx.inputs[2]);
  if (parts.size() != indices.size())
    return ctx.error("value has " + std::to_string(parts.size()) + " rows for " + std::to_string(indices.size()) +
                     " indices");
  for (size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] < 0) return ctx.error("negative index");
    if (static_cast<size_t>(indices[i]) >= array->elements.size()) {
      if (!array->dynamicSize) return ctx.error("index " + std::to_string(indices[i]) + " is outside the TensorArray");
      array->elements.resize(static_cast<size_t>(indices[i]) + 1);
    }
    array->elements[static_cast<size_t>(indices[i])] = std::move(parts[i]);
  }
  ctx.outputs[0] = ctx.inputs[3];
  return Status::ok();
}

Status tensorArrayWrite(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(auto array, arrayOf(ctx));
  int64_t index;
  if (!scalarInt(ctx.inputs[1], &index) || index < 0) return ctx.error("index must be a non-negative scalar");
  if (static_cast<size_t>(index) >= array->elements.size()) {
    if (!array->dynamicSize) return ctx.error("index " + std::to_string(index) + " is outside the TensorArray");
    array->elements.resize(static_cast<size_t>(index) + 1);
  }
  array->elements[static_cast<size_t>(index)] = ctx.inputs[2];
  ctx.outputs[0] = ctx.inputs[3];
  return Status::ok();
}

Status tensorArrayRead(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(auto array, arrayOf(ctx));
  int64_t index;
  if (!scalarInt(ctx.inputs[1], &index) || index < 0 || static_cast<size_t>(index) >= array->elements.size())
    return ctx.error("index out of range");
  if (!array->elements[static_cast<size_t>(index)].isValid())
    return ctx.error("element " + std::to_string(index) + " was never written");
  ctx.outputs[0] = array->elements[static_cast<size_t>(index)];
  return Status::ok();
}

Status tensorArrayGather(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(auto array, arrayOf(ctx));
  std::vector<Tensor> picked;
  for (int64_t i : intValues(ctx.inputs[1])) {
    if (i < 0 || static_cast<size_t>(i) >= array->elements.size()) return ctx.error("index out of range");
    picked.push_back(array->elements[static_cast<size_t>(i)]);
  }
  auto out = stack(picked, array->dtype, Shape::unknownRank());
  if (!out) return ctx.error(out.status().message());
  ctx.outputs[0] = std::move(out).value();
  return Status::ok();
}

Status tensorArraySize(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(auto array, arrayOf(ctx));
  ctx.outputs[0] = Tensor::scalar<int32_t>(DType::kInt32, static_cast<int32_t>(array->elements.size()));
  return Status::ok();
}

Expected<std::shared_ptr<const std::vector<Tensor>>> listOf(KernelContext& ctx) {
  if (!ctx.exec || !ctx.exec->resources) return ctx.error("TensorLists need a session");
  auto list = ctx.exec->resources->tensorList(ResourceManager::handleOf(ctx.inputs[0]));
  if (!list) return ctx.error("unknown TensorList handle");
  return list;
}

Status newList(KernelContext& ctx, std::vector<Tensor> elements) {
  if (!ctx.exec || !ctx.exec->resources) return ctx.error("TensorLists need a session");
  ctx.outputs[0] = ResourceManager::variantTensor(ctx.exec->resources->newTensorList(std::move(elements)));
  return Status::ok();
}

Status listReserve(KernelContext& ctx) {
  int64_t n;
  if (!scalarInt(ctx.inputs[1], &n) || n < 0) return ctx.error("num_elements must be a non-negative scalar");
  return newList(ctx, std::vector<Tensor>(static_cast<size_t>(n)));
}

Status listFromTensor(KernelContext& ctx) { return newList(ctx, unstack(ctx.inputs[0])); }

Status listSetItem(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(auto list, listOf(ctx));
  int64_t index;
  if (!scalarInt(ctx.inputs[1], &index) || index < 0) return ctx.error("index must be a non-negative scalar");
  std::vector<Tensor> copy = *list;
  if (static_cast<size_t>(index) >= copy.size()) {
    if (!attrBool(ctx.node, "resize_if_index_out_of_bounds", false)) return ctx.error("index out of range");
    copy.resize(static_cast<size_t>(index) + 1);
  }
  copy[static_cast<size_t>(index)] = ctx.inputs[2];
  return newList(ctx, std::move(copy));
}

Status listGetItem(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(auto list, listOf(ctx));
  int64_t index;
  if (!scalarInt(ctx.inputs[1], &index) || index < 0 || static_cast<size_t>(index) >= list->size())
    return ctx.error("index out of range");
  const Tensor& item = (*list)[static_cast<size_t>(index)];
  if (!item.isValid()) {
    std::vector<int64_t> dims = intValues(ctx.inputs[2]);
    for (int64_t d : dims)
      if (d < 0) return ctx.error("element " + std::to_string(index) + " is unset and its shape is unknown");
    ctx.outputs[0] = Tensor(attrType(ctx.node, "element_dtype", DType::kFloat), Shape(dims));
    return Status::ok();
  }
  ctx.outputs[0] = item;
  return Status::ok();
}

Status listStack(KernelContext& ctx) {
  FS_ASSIGN_OR_RETURN(auto list, listOf(ctx));
  auto out = stack(*list, attrType(ctx.node, "element_dtype", DType::kFloat), Shape(intValues(ctx.inputs[1])));
  if (!out) return ctx.error(out.status().message());
  ctx.outputs[0] = std::move(out).value();
  return Status::ok();
}

}  // namespace

void registerTensorArrayKernels(KernelTable& r) {
  r.addFn("TensorArrayV3", tensorArrayV3);
  r.addFn("TensorArrayScatterV3", tensorArrayScatter);
  r.addFn("TensorArrayWriteV3", tensorArrayWrite);
  r.addFn("TensorArrayReadV3", tensorArrayRead);
  r.addFn("TensorArrayGatherV3", tensorArrayGather);
  r.addFn("TensorArraySizeV3", tensorArraySize);
  r.addFn("TensorListReserve", listReserve);
  r.addFn("TensorListFromTensor", listFromTensor);
  r.addFn("TensorListSetItem", listSetItem);
  r.addFn("TensorListGetItem", listGetItem);
  r.addFn("TensorListStack", listStack);
}

}  // namespace flowscope
