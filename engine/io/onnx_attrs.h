// ONNX AttributeProto <-> AttrValue. INT, FLOAT, STRING and TENSOR map onto the scalar kinds (ONNX has no bool
// attributes: flags stay ints), INTS/FLOATS/STRINGS/TENSORS onto lists, and GRAPH/GRAPHS (the bodies of If, Loop and
// Scan) onto function references: the subgraph becomes a function of the graph's library, as TensorFlow's branches
// and loop bodies are.
#pragma once

#include <onnx/onnx_pb.h>

#include <functional>
#include <string>

#include "base/status.h"
#include "io/onnx_tensor.h"
#include "ir/attr_value.h"

namespace flowscope {

/// Turns a subgraph attribute into a library function; returns the function's name.
using SubgraphImporter = std::function<Expected<std::string>(const onnx::GraphProto& graph, const std::string& attr)>;
/// Writes a library function back as a subgraph.
using SubgraphExporter = std::function<Status(const std::string& function, onnx::GraphProto* graph)>;

/// Errors name the attribute; callers add the node.
Expected<AttrValue> attrFromOnnx(const onnx::AttributeProto& proto, const ExternalDataRoot& root,
                                 const SubgraphImporter& importSubgraph);
/// SPARSE_TENSOR(S) and TYPE_PROTO(S): the IR holds them densified or as text, so the importer also keeps the
/// AttributeProto itself (kOnnxVerbatimAttrPrefix) for the writer.
bool onnxAttrIsKeptVerbatim(const onnx::AttributeProto& proto);
/// `listType` is the ONNX type to give an empty list (the schema's, else INTS): an empty AttrList has no kind.
Status attrToOnnx(const std::string& name, const AttrValue& value, onnx::AttributeProto::AttributeType listType,
                  const SubgraphExporter& exportSubgraph, onnx::AttributeProto* proto);

}  // namespace flowscope
