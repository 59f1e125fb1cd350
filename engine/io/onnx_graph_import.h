// One ONNX GraphProto -> a Graph: initializers become Const nodes, graph inputs Placeholders, and every NodeProto a
// node of the ONNX op set. Values are named in ONNX; here a tensor is "node:k", and the file's names of node outputs
// are kept in Graph::tensorNames. Subgraphs (If's branches, Loop's and Scan's bodies) become library functions: their
// inputs are arguments, and the outer values they read (ONNX subgraphs see their enclosing scopes) become further
// arguments, fed by extra inputs of the node that owns them (counted by its `_onnx_captures` attr).
#pragma once

#include <onnx/onnx_pb.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "io/onnx_tensor.h"
#include "ir/graph.h"

namespace flowscope {

/// What every graph of one model shares.
struct OnnxImportContext {
  std::map<std::string, int64_t> opsets;  ///< domain ("" for the default) -> version the model imports
  ExternalDataRoot root;
  FunctionLibrary* library = nullptr;  ///< where subgraphs go (the main graph's)
  std::set<std::string> functionNames;
};

/// The dtype and shape of a value, as the file (and shape inference) declare it.
struct OnnxValueType {
  DType dtype = DType::kInvalid;
  Shape shape = Shape::unknownRank();
  std::string nonTensor;  ///< a sequence, map or optional: its type ("seq(tensor(float))"; dtype is variant)
};

class OnnxGraphImporter {
 public:
  /// `parent` is the enclosing graph's importer for a subgraph, null for the main graph.
  OnnxGraphImporter(const onnx::GraphProto& proto, OnnxImportContext& context, const OnnxGraphImporter* parent);

  /// The main graph: Const and Placeholder nodes, then the nodes.
  Status importMain(Graph* graph);
  /// A subgraph of node `owner`'s attribute `attr` as a library function; returns its name.
  Expected<std::string> importBody(const std::string& owner, const std::string& attr);

  /// Outer values the body reads, in first-use order, with the argument that carries each.
  const std::vector<std::pair<std::string, std::string>>& captures() const { return m_captures; }
  /// The type of a value visible here (an outer one included); unknown when nothing declares it.
  OnnxValueType typeOf(const std::string& value) const;
  /// The IR tensor ("node:k") of a value of this graph; "" when none.
  std::string tensorOf(const std::string& value) const;

 private:
  struct Subgraph {
    std::string function;
    std::vector<std::pair<std::string, std::string>> captures;
  };

  void collectTypes();
  Status addInitializers();
  void addConstant(const std::string& value, Tensor tensor, const std::string& doc, bool sparse);
  /// The body's input and output declarations as the file has them (ValueInfoProtos), for the writer.
  AttrValue declarationsAttr() const;
  Status addInputs(std::vector<ArgDef>* arguments);
  Status addNodes();
  Status addNode(const onnx::NodeProto& proto, size_t index);
  Status convertAttributes(const onnx::NodeProto& proto, Node& node, std::vector<Subgraph>& subgraphs);
  Status addCaptures(const std::vector<Subgraph>& subgraphs, Node& node, std::vector<std::string>& inputValues);
  Status reserveOutputs(const onnx::NodeProto& proto, const std::string& nodeName);
  Status addReturns(FunctionDef& function);
  void setTypes(const onnx::NodeProto& proto, const std::vector<std::string>& inputValues, Node& node) const;
  bool canSee(const std::string& value) const;
  Expected<TensorRef> resolve(const std::string& value);
  std::string uniqueName(const std::string& base);
  std::string uniqueFunctionName(const std::string& base);
  void addArgument(FunctionDef& function, const std::string& name, const std::string& value) const;

  const onnx::GraphProto& m_proto;
  OnnxImportContext& m_context;
  const OnnxGraphImporter* m_parent;
  Graph* m_graph = nullptr;
  bool m_isBody = false;
  std::map<std::string, OnnxValueType> m_types;
  std::map<std::string, TensorRef> m_values;  ///< value name -> tensor here
  std::set<std::string> m_names;              ///< node and argument names taken
  std::vector<std::pair<std::string, std::string>> m_captures;
  std::vector<std::string> m_nodeNames;  ///< per NodeProto, as reserved
};

}  // namespace flowscope
