// A test-only reader of an ONNX ModelProto's graph (node names, op types, inputs, outputs, initializers, inputs) into
// a Graph, so that the ONNX Runtime matcher can be checked on the real mobilenet_v2.onnx before the ONNX loader
// (another branch) lands. Not a loader: no attributes, no values.
#pragma once

#include <string>

#include "base/status.h"
#include "ir/graph.h"

namespace flowscope::testing {

/// Nodes keep ONNX's names and op types; each lists its output tensor names in "_output_names"; initializers become
/// Const nodes and graph inputs Placeholders, named after their tensors.
Expected<Graph> onnxGraphForTest(const std::string& path);

}  // namespace flowscope::testing
