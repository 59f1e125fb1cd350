// Model: what a loader returns. A graph plus what the file says around it (signatures, variables, tags).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/graph.h"

namespace flowscope {

/// One input or output of a signature: the key users see and the graph tensor it maps to.
struct TensorSpecInfo {
  std::string key;         ///< e.g. "x" in a SignatureDef, or the tensor name for TF.js
  std::string tensorName;  ///< "serving_default_x:0"
  DType dtype = DType::kInvalid;
  Shape shape = Shape::unknownRank();
};

struct Signature {
  std::string key;  ///< "serving_default"
  std::string methodName;
  std::vector<TensorSpecInfo> inputs;
  std::vector<TensorSpecInfo> outputs;
};

/// A variable with its value from the checkpoint (TensorBundle or TF.js shards).
struct Variable {
  std::string checkpointKey;  ///< "a" (TF1) or "a/.ATTRIBUTES/VARIABLE_VALUE" (TF2)
  std::string node;           ///< the VariableV2 / VarHandleOp node it feeds, or empty when unbound
  DType dtype = DType::kInvalid;
  Shape shape;
  Tensor value;  ///< invalid when the checkpoint has no value for it
};

struct Model {
  std::string path;
  std::string format;  ///< "GraphDef (binary)", "SavedModel", "TF.js graph model", ...
  Graph graph;
  std::vector<std::string> tags;           ///< the chosen meta graph's tags
  std::vector<std::string> availableTags;  ///< every meta graph's tags, joined by ','
  std::string tensorflowVersion;
  std::vector<Signature> signatures;
  std::vector<Variable> variables;
  std::vector<std::string> warnings;        ///< things that loaded but deserve a note (unknown ops, ...)
  std::vector<std::string> problems;        ///< verifier findings (dangling inputs, cycles, type mismatches)
  std::vector<std::string> missingWeights;  ///< Const nodes whose values were not in the files (show, not run)
  /// What the file says about itself beyond the graph, in file order: ("producer", "pytorch 2.1"), ("opset", ...).
  std::vector<std::pair<std::string, std::string>> metadata;
  /// ONNX: the ModelProto as read, less its graph's nodes and tensors (ir_version, opsets, metadata, doc strings, the
  /// symbolic dims of inputs and outputs), serialized, so that writing the model back loses nothing. Empty otherwise.
  std::string onnxHeader;

  const Signature* findSignature(const std::string& key) const {
    for (const auto& s : signatures)
      if (s.key == key) return &s;
    return nullptr;
  }
};

}  // namespace flowscope
