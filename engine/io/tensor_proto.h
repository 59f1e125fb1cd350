// TensorProto and TensorShapeProto <-> IR, following tensor.cc's decoding rules (tf-compat.md §1).
#pragma once

#include "base/status.h"
#include "ir/tensor.h"
#include "tensor.pb.h"

namespace flowscope {

Expected<Shape> shapeFromProto(const tensorflow::TensorShapeProto& proto);
void shapeToProto(const Shape& shape, tensorflow::TensorShapeProto* proto);

/// Decodes tensor_content or the typed *_val field (the last value repeats; none means zeros).
/// `maxBytes` caps what a repeated value may expand to, so a tiny file cannot demand a huge allocation.
Expected<Tensor> tensorFromProto(const tensorflow::TensorProto& proto, size_t maxBytes);
/// Writes tensor_content, or a single typed value when every element is equal (as TensorFlow does).
void tensorToProto(const Tensor& tensor, tensorflow::TensorProto* proto);

/// DType from a wire enum value; kInvalid for values TensorFlow does not define.
DType dtypeFromProto(int value);

}  // namespace flowscope
