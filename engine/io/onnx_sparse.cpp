// Sparse tensors, densified.
#include "io/onnx_sparse.h"

#include <algorithm>
#include <cstring>

namespace flowscope {
namespace {

Expected<Shape> denseShapeOf(const onnx::SparseTensorProto& proto, size_t elementBytes) {
  std::vector<int64_t> dims(proto.dims().begin(), proto.dims().end());
  const uint64_t limit = kMaxDensifiedBytes / elementBytes;
  uint64_t count = 1;  // saturates just above the limit (a later zero dimension still empties it)
  for (int64_t d : dims) {
    if (d < 0) return invalidArgument("has a negative dimension in " + Shape(dims).toString());
    const auto n = static_cast<uint64_t>(d);
    count = n != 0 && count > limit / n ? limit + 1 : count * n;
  }
  if (count > limit)
    return outOfRange("dense shape " + Shape(dims).toString() + " is over the " +
                      std::to_string(kMaxDensifiedBytes >> 20) + " MiB Flowscope expands a sparse tensor to");
  return Shape(dims);
}

// The linear position of non-zero k: from [NNZ] indices as is, from [NNZ, rank] coordinates in row-major order.
Expected<int64_t> linearIndex(const Tensor& indices, const Shape& shape, int64_t k) {
  const int64_t* data = indices.data<int64_t>();
  if (indices.shape().rank() == 1) return data[k];
  int64_t linear = 0;
  for (int d = 0; d < shape.rank(); ++d) {
    const int64_t at = data[k * shape.rank() + d];
    if (at < 0 || at >= shape.dim(d))
      return invalidArgument("index " + std::to_string(k) + " has coordinate " + std::to_string(at) + " on dimension " +
                             std::to_string(d) + " of " + shape.toString());
    linear = linear * shape.dim(d) + at;
  }
  return linear;
}

Status checkIndexShape(const Tensor& indices, int64_t nonZeros, const Shape& shape) {
  if (indices.dtype() != DType::kInt64)
    return invalidArgument("indices are " + std::string(dtypeName(indices.dtype())) + ", not int64");
  const Shape& s = indices.shape();
  const bool linear = s.rank() == 1 && s.dim(0) == nonZeros;
  const bool coordinates = s.rank() == 2 && s.dim(0) == nonZeros && s.dim(1) == shape.rank();
  if (!linear && !coordinates)
    return invalidArgument("indices have shape " + s.toString() + "; " + std::to_string(nonZeros) + " values in " +
                           shape.toString() + " need [" + std::to_string(nonZeros) + "] or [" +
                           std::to_string(nonZeros) + "," + std::to_string(shape.rank()) + "]");
  return Status::ok();
}

Status checkIndexCount(const onnx::SparseTensorProto& sparse) {
  const onnx::TensorProto& indices = sparse.indices();
  if (indices.data_location() == onnx::TensorProto::EXTERNAL) return Status::ok();  // the checker does not read it
  const uint64_t have = indices.has_raw_data() ? indices.raw_data().size() / sizeof(int64_t)
                                               : static_cast<uint64_t>(indices.int64_data_size());
  uint64_t need = 1;  // saturates just above `have`
  for (int64_t d : indices.dims()) {
    const uint64_t n = d > 0 ? static_cast<uint64_t>(d) : 0;
    need = n != 0 && need > have / n ? have + 1 : need * n;
  }
  if (need > have)
    return invalidArgument("sparse tensor '" + sparse.values().name() + "': its indices hold " + std::to_string(have) +
                           " values, fewer than their dims declare");
  return Status::ok();
}

Status checkNodes(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes);

Status checkGraph(const onnx::GraphProto& graph) {
  for (const auto& sparse : graph.sparse_initializer()) FS_RETURN_IF_ERROR(checkIndexCount(sparse));
  return checkNodes(graph.node());
}

Status checkNodes(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes) {
  for (const auto& node : nodes)
    for (const auto& attr : node.attribute()) {
      if (attr.has_sparse_tensor()) FS_RETURN_IF_ERROR(checkIndexCount(attr.sparse_tensor()));
      for (const auto& sparse : attr.sparse_tensors()) FS_RETURN_IF_ERROR(checkIndexCount(sparse));
      if (attr.has_g()) FS_RETURN_IF_ERROR(checkGraph(attr.g()));
      for (const auto& graph : attr.graphs()) FS_RETURN_IF_ERROR(checkGraph(graph));
    }
  return Status::ok();
}

}  // namespace

Status checkSparseIndexCounts(const onnx::ModelProto& model) {
  FS_RETURN_IF_ERROR(checkGraph(model.graph()));
  for (const auto& function : model.functions()) FS_RETURN_IF_ERROR(checkNodes(function.node()));
  return Status::ok();
}

Expected<Tensor> sparseTensorFromOnnx(const onnx::SparseTensorProto& proto, const ExternalDataRoot& root) {
  auto values = tensorFromOnnx(proto.values(), root);
  if (!values) return values.status().withContext("values: ");
  if (values->isStringLike()) return unimplemented("holds strings; Flowscope reads numeric sparse tensors only");
  if (values->shape().rank() != 1)
    return invalidArgument("values have shape " + values->shape().toString() + ", not one dimension");
  const auto elementBytes = static_cast<size_t>(dtypeSize(values->dtype()));
  FS_ASSIGN_OR_RETURN(Shape shape, denseShapeOf(proto, elementBytes));
  const int64_t nonZeros = values->shape().dim(0);
  auto indices = tensorFromOnnx(proto.indices(), root);
  if (!indices) return indices.status().withContext("indices: ");
  FS_RETURN_IF_ERROR(checkIndexShape(*indices, nonZeros, shape));
  Tensor dense = Tensor::persistent(values->dtype(), shape, true);
  const int64_t count = shape.numElements();
  int64_t previous = -1;
  for (int64_t k = 0; k < nonZeros; ++k) {
    FS_ASSIGN_OR_RETURN(int64_t at, linearIndex(*indices, shape, k));
    if (at < 0 || at >= count)
      return invalidArgument("index " + std::to_string(k) + " is " + std::to_string(at) + ", outside the " +
                             std::to_string(count) + " elements of " + shape.toString());
    if (at <= previous)
      return invalidArgument("index " + std::to_string(k) + " (" + std::to_string(at) +
                             ") does not follow the one before in ascending order");
    previous = at;
    std::memcpy(dense.mutableBytes().data() + static_cast<size_t>(at) * elementBytes,
                values->bytes().data() + static_cast<size_t>(k) * elementBytes, elementBytes);
  }
  return dense;
}

Status sparseTensorToOnnx(const Tensor& dense, const std::string& name, onnx::SparseTensorProto* proto) {
  if (dense.isStringLike()) return unimplemented("string tensors are not written sparse");
  const auto elementBytes = static_cast<size_t>(dtypeSize(dense.dtype()));
  const std::byte* data = dense.bytes().data();
  std::vector<int64_t> nonZero;
  for (int64_t i = 0; i < dense.numElements(); ++i) {
    const std::byte* element = data + static_cast<size_t>(i) * elementBytes;
    if (std::any_of(element, element + elementBytes, [](std::byte b) { return b != std::byte{0}; }))
      nonZero.push_back(i);
  }
  const auto count = static_cast<int64_t>(nonZero.size());
  Tensor values = Tensor::uninitialized(dense.dtype(), Shape{count});
  for (size_t k = 0; k < nonZero.size(); ++k)
    std::memcpy(values.mutableBytes().data() + k * elementBytes, data + static_cast<size_t>(nonZero[k]) * elementBytes,
                elementBytes);
  Tensor indices = Tensor::uninitialized(DType::kInt64, Shape{count});
  std::copy(nonZero.begin(), nonZero.end(), indices.data<int64_t>());
  FS_RETURN_IF_ERROR(tensorToOnnx(values, proto->mutable_values()));
  FS_RETURN_IF_ERROR(tensorToOnnx(indices, proto->mutable_indices()));
  proto->mutable_values()->set_name(name);
  for (int64_t d : dense.shape().dims()) proto->add_dims(d);
  return Status::ok();
}

}  // namespace flowscope
