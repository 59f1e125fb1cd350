// Builders for loader tests: small SavedModel directories (with a real TensorBundle checkpoint written by
// libleveldb's TableBuilder) and TF.js graph models, with switches that break them in specific ways.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace flowscope::testing {

struct SavedModelOptions {
  std::map<std::string, float> variables = {{"w", 0.5f}, {"b", 2.0f}};  ///< written to the checkpoint
  std::vector<std::string> graphVariables = {"w", "b"};                 ///< VariableV2 nodes in the graph
  bool corruptChecksum = false;
  bool dropDataShard = false;
  std::string tag = "serve";
};

/// Writes DIR/saved_model.pb and DIR/variables/* for y = x * w + b (TF1 style: VariableV2 + Identity reads).
void writeSavedModel(const std::string& dir, const SavedModelOptions& options = {});

/// Writes the same graph as a MetaGraphDef (binary, or text format when `text`).
void writeMetaGraph(const std::string& path, bool text);

struct TfjsOptions {
  bool byteArrayStrings = false;  ///< old converter: "s": [78,72,87,67] instead of base64
  bool truncateWeights = false;
  bool omitShard = false;
};

/// Writes DIR/model.json and DIR/weights.bin: x[2,2] float32 -> MatMul(x, W) + BiasAdd(b) where W is float32,
/// b is uint8-quantized (min -1, scale 0.5) and an extra Const "h" is float16-quantized.
void writeTfjsModel(const std::string& dir, const TfjsOptions& options = {});

std::string readText(const std::string& path);
void writeBytes(const std::string& path, const std::string& bytes);

}  // namespace flowscope::testing
