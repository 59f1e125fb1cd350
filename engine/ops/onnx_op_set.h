// The ONNX op set beside TensorFlow's. An ONNX node's op is "domain::OpType" ("onnx::Conv" for the default domain,
// "com.microsoft::QLinearAdd" otherwise): TensorFlow op names never hold "::", so no TensorFlow graph, pass or kernel
// can mistake an ONNX node for one of its own (ONNX Reshape, Pad or Softmax mean other things than TensorFlow's).
//
// An ONNX node keeps its ONNX attributes under their names. Flowscope's own bookkeeping rides along in attrs that start
// with '_' (never written to the file as attributes): the dtypes of its inputs and outputs (the op set's signature is
// "inputs: _Tin" -> "outputs: _Tout", as ONNX arity depends on the node, not on attributes), the opset version in
// effect, the positions of optional inputs the file leaves empty, and how many trailing inputs are outer values that
// the node's subgraphs read (ONNX subgraphs see their outer scope; function bodies here take them as arguments).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/node.h"

namespace flowscope {

/// The prefix of the default ONNX domain ("" or "ai.onnx" in files).
inline constexpr std::string_view kOnnxDefaultPrefix = "onnx";

inline constexpr const char* kOnnxInTypesAttr = "_Tin";       ///< list(type): the dtype of each present input
inline constexpr const char* kOnnxOutTypesAttr = "_Tout";     ///< list(type): the dtype of each output slot
inline constexpr const char* kOnnxOpsetAttr = "_onnx_opset";  ///< int: the node's domain version in the model
/// list(int): formal input positions the file leaves empty ("" in NodeProto.input); absent when there are none.
inline constexpr const char* kOnnxAbsentInputsAttr = "_onnx_absent_inputs";
/// int: trailing inputs that carry outer-scope values into the node's subgraphs (If, Loop, Scan); absent when 0.
inline constexpr const char* kOnnxCapturesAttr = "_onnx_captures";
/// bool on a Const: the file held it as a sparse initializer (the IR keeps it dense; the writer writes it sparse).
inline constexpr const char* kOnnxSparseAttr = "_onnx_sparse";
/// string on a Placeholder or one-output node whose value is a sequence, map or optional: its ONNX type,
/// "seq(tensor(float))" (the IR's dtype says only variant).
inline constexpr const char* kOnnxTypeAttr = "_onnx_type";
/// "_onnx_verbatim_NAME": the serialized AttributeProto of attribute NAME when the IR holds it in another form (a
/// sparse tensor densified, a TypeProto as its text); the writer writes it back as it was.
inline constexpr const char* kOnnxVerbatimAttrPrefix = "_onnx_verbatim_";
/// list(string) on a subgraph's function: its inputs' and outputs' ValueInfoProtos as the file declares them.
inline constexpr const char* kOnnxDeclarationsAttr = "_onnx_declarations";

/// "onnx::Conv" for the default domain ("" or "ai.onnx"), "com.microsoft::QLinearAdd" otherwise.
std::string onnxOpName(std::string_view domain, std::string_view opType);
/// True for ONNX op names ("domain::Type").
bool isOnnxOp(std::string_view op);
/// The file's domain ("" for the default one) and op type of an ONNX op name; false for TensorFlow ops.
bool splitOnnxOpName(std::string_view op, std::string* domain, std::string* opType);
/// The ONNX op type of an op in the default domain ("Conv" for "onnx::Conv"), or "" for any other op.
std::string_view onnxDefaultType(std::string_view op);
/// What the canvas and tables show: "Conv" for "onnx::Conv"; TensorFlow ops unchanged.
std::string_view displayOpName(std::string_view op);

/// One formal input or output of an ONNX op, as the ONNX schema declares it.
struct OnnxFormal {
  enum class Option { kSingle, kOptional, kVariadic };
  std::string name;
  std::string typeStr;  ///< "T", "tensor(int64)"
  Option option = Option::kSingle;
  std::string description;
};

/// What the ONNX schema says beyond the OpDef: the formal parameters and type constraints, for the inspector.
struct OnnxSchemaInfo {
  std::string domain;  ///< "" for the default domain
  std::string opType;
  int sinceVersion = 1;  ///< of the newest schema the library knows
  std::vector<OnnxFormal> inputs;
  std::vector<OnnxFormal> outputs;
  std::vector<std::string> typeConstraints;  ///< "T: tensor(float), tensor(double) - Constrain ..."
};

/// The opset version an ONNX node runs under (its `_onnx_opset`, else `fallback`).
int64_t onnxOpset(const Node& node, int64_t fallback = 1);
/// The formal input positions of a node's data inputs: position k of the file for each entry of node.inputs, so
/// that kernels see which optional inputs are present. Captured outer values are not formal inputs.
std::vector<int> onnxFormalPositions(const Node& node);
/// The entry of node.inputs that holds formal input `position`, or -1 when the file left it out (or there is no such
/// input): one position of onnxFormalPositions, without building the list (kernels ask on every call).
int onnxInputIndex(const Node& node, int position);
/// Trailing inputs that are captured outer values (the `_onnx_captures` attr).
size_t onnxCaptureCount(const Node& node);

}  // namespace flowscope
