// Small profiles written by the tests (TensorBoard event files, XSpaces, ONNX Runtime JSON) and small graphs with
// ONNX-like names, for the profile importer tests.
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"

namespace flowscope::testing {

std::string sharedProfile(const std::string& name);
/// Writes bytes to a file; returns its path.
std::string writeBytes(const std::string& path, const std::string& bytes);

/// A node with data inputs ("name" or "name:1").
Node node(const std::string& name, const std::string& op, const std::vector<std::string>& inputs = {});

/// The first blocks of mobilenet_v2 as PyTorch's ONNX exporter names them: Conv -> Clip, a residual block whose last
/// Conv feeds an Add, then GlobalAveragePool, Flatten and Gemm.
Graph onnxLikeMobilenetHead();

/// An ONNX Runtime profile of onnxLikeMobilenetHead(): `runs` model_run spans, node events named as ORT names them
/// (fused Conv+Clip after the Clip's output, "_nchwc" layouts, a ReorderOutput that no node has).
std::string ortProfileJson(int runs);

/// A TensorBoard event file: file_version, a GraphDef (Placeholder x -> Relu r -> Square s), then `runs` RunMetadata
/// with step stats for x, r, s and _SOURCE.
std::string tfEventsFile(int runs);

/// An XSpace: a host plane with TensorFlow op events ("conv1:Conv2D", "relu1:Relu", a python frame), a device plane
/// with one kernel naming its op by tf_op and one linked by correlation_id, and a plane of unknown name.
std::string xspaceBytes(const std::string& hostPrefix = "");

}  // namespace flowscope::testing
