// ONNX sparse tensors (SparseTensorProto: sparse initializers and `sparse_value` attributes) <-> dense IR tensors.
// Flowscope keeps them dense, as ONNX Runtime does once a model is loaded, and writes them back sparse.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>

#include "base/status.h"
#include "io/onnx_tensor.h"

namespace flowscope {

/// The largest dense tensor a sparse one may expand to (a few bytes of file can declare any shape).
inline constexpr uint64_t kMaxDensifiedBytes = uint64_t{1} << 30;

/// The dense tensor of `dims` with `values` at `indices` and zeros elsewhere. `values` is 1-D [NNZ]; `indices` is
/// int64, [NNZ] linear or [NNZ, rank] coordinates, in ascending order without repeats (as ONNX requires). Errors
/// say what was expected; callers add the tensor's name.
Expected<Tensor> sparseTensorFromOnnx(const onnx::SparseTensorProto& proto, const ExternalDataRoot& root);
/// Checks that each sparse tensor of the model (sparse initializers and attributes, in every graph, subgraph and
/// model-local function) holds at least as many indices as its indices' dims declare: libonnx 1.12's checker reads
/// them unchecked, so a short one crashes it. The error names the tensor.
Status checkSparseIndexCounts(const onnx::ModelProto& model);
/// The non-zero elements of `dense` (bitwise: -0.0 is kept) as a sparse tensor with linear indices; the values
/// tensor carries `name`.
Status sparseTensorToOnnx(const Tensor& dense, const std::string& name, onnx::SparseTensorProto* proto);

}  // namespace flowscope
