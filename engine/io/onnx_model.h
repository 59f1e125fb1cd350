// ONNX ModelProto <-> Model: the loader's and the writer's shared entry points.
#pragma once

#include <onnx/onnx_pb.h>

#include <string>

#include "base/status.h"
#include "ir/model.h"

namespace flowscope {

/// A parsed ModelProto into a Model (format "ONNX"): checked and shape-inferred with libonnx, the main graph and its
/// subgraphs imported, one signature "serving_default" of the graph's inputs and outputs. External data is read
/// relative to `path`'s directory. Errors name the node, value or tensor; the caller adds the path.
Expected<Model> modelFromOnnx(onnx::ModelProto proto, const std::string& path);

/// What Model::onnxHeader keeps: the ModelProto less its graph's nodes, initializers and value_info, serialized.
std::string onnxHeaderOf(onnx::ModelProto proto);

/// A Model of the ONNX op set back into a ModelProto: the header as read, the graph and subgraphs from the IR
/// (Const nodes become initializers, Placeholders graph inputs, the signature's outputs graph outputs).
Expected<onnx::ModelProto> modelToOnnx(const Model& model);

}  // namespace flowscope
