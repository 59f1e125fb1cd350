// ONNX element types (TensorProto.DataType codes) <-> DType, for the loader, the writer and the kernels' `to` and
// `dtype` attributes. No libonnx types here, so kernels need not see the protobuf schema.
#pragma once

#include <cstdint>
#include <optional>

#include "base/status.h"
#include "ir/dtype.h"
#include "ir/node.h"

namespace flowscope {

/// DType of an ONNX TensorProto.DataType; nullopt for UNDEFINED and codes ONNX 1.12 does not define.
std::optional<DType> dtypeFromOnnxCode(int64_t code);
/// The ONNX code of a DType; 0 (UNDEFINED) when ONNX has none (resources, quantized TF types).
int32_t onnxCodeOf(DType dtype);
/// An int attribute holding an ONNX element type ("to" of Cast); an error naming the attr otherwise.
Expected<DType> onnxDTypeAttr(const Node& node, const char* name);

}  // namespace flowscope
