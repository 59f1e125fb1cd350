// Writes models of the ONNX op set as .onnx files (ModelProto, binary), atomically. Qt-free; no libonnx types here.
#pragma once

#include <string>

#include "base/status.h"
#include "ir/model.h"

namespace flowscope {

/// The model as ModelProto bytes. Errors name a node that ONNX cannot hold (a TensorFlow op, a dtype without an
/// ONNX element type).
Expected<std::string> serializeOnnx(const Model& model);
/// Writes the model to `path` (atomic: a failed write leaves the old file).
Status writeOnnx(const Model& model, const std::string& path);

}  // namespace flowscope
