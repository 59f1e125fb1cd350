// ONNX's schema registry for shape inference, with guards where libonnx 1.12's inference functions trust the model:
// its convolution shape inference reads the kernel's spatial dimensions from the weight and indexes the input's with
// them, so an input and a weight of different ranks (a malformed file) reads out of bounds and crashes; and it and
// the pooling ops divide by strides and dilations unchecked, so a zero crashes too, as DepthToSpace and SpaceToDepth
// divide by a blocksize squared that overflows to 0 (blocksize 2^32). Guarded, the node is left without
// inferred shapes and the finding is kept for the loader's warnings; the model still opens.
#pragma once

#include <onnx/defs/schema.h>

#include <string>
#include <vector>

namespace flowscope {

/// The registry to pass to onnx::shape_inference::InferShapes instead of OpSchemaRegistry::Instance().
const onnx::ISchemaRegistry* guardedOnnxSchemas();
/// What the guards found on this thread since the last call ("a Conv node: the input has rank 3 and ...").
std::vector<std::string> takeOnnxGuardFindings();

}  // namespace flowscope
