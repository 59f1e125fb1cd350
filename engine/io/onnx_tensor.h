// ONNX TensorProto and TypeProto <-> IR: element types, shapes (with their symbolic dim names), and tensor values
// from raw_data, the typed fields, or external data files beside the model.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/tensor.h"

namespace flowscope {

/// DType of an ONNX TensorProto.DataType; nullopt for UNDEFINED and values ONNX 1.12 does not define.
std::optional<DType> dtypeFromOnnx(int32_t type);
/// The ONNX element type of a DType; 0 (UNDEFINED) when ONNX has none (resources, quantized TF types).
int32_t onnxTypeFromDType(DType dtype);
/// A value's type as ONNX writes it: "tensor(float)", "seq(tensor(int64))", "map(string,tensor(float))",
/// "optional(seq(tensor(float)))", "sparse_tensor(float)"; "undefined" where nothing is set.
std::string onnxTypeString(const onnx::TypeProto& type);

/// A shape from a TensorShapeProto: dim_value as is, dim_param and empty dims unknown. `names` receives the
/// symbolic names ("" where a dim has none) when given.
Shape shapeFromOnnx(const onnx::TensorShapeProto& proto, std::vector<std::string>* names = nullptr);
/// Writes a shape; unknown dims get their symbolic name from `names` when it has one.
void shapeToOnnx(const Shape& shape, const std::vector<std::string>& names, onnx::TensorShapeProto* proto);

/// Where external data of a model lives: the model's directory. Reads are checked against the files' sizes.
struct ExternalDataRoot {
  std::string directory;
};

/// Decodes a tensor. Every size is checked before anything is allocated: the element count of `dims` must match the
/// data the file holds (raw_data bytes, typed values, or the external file's declared length). Errors say what was
/// expected; callers add the file and the tensor's place.
Expected<Tensor> tensorFromOnnx(const onnx::TensorProto& proto, const ExternalDataRoot& root);
/// Encodes a tensor: raw_data for numbers, string_data for strings.
Status tensorToOnnx(const Tensor& tensor, onnx::TensorProto* proto);

}  // namespace flowscope
