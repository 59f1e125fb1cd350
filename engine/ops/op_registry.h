// The op schema registry: one table of OpDef-like schemas parsed from a compact notation at first use.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/graph.h"
#include "ir/op_def.h"
#include "ir/verify.h"
#include "ops/onnx_op_set.h"
#include "ops/op_category.h"

namespace flowscope {

/// A registered op: its OpDef plus Flowscope's metadata.
struct OpSchema {
  OpDef def;
  OpCategory category = OpCategory::kOther;
  std::shared_ptr<const OnnxSchemaInfo> onnx;  ///< ONNX ops only: formal parameters and type constraints
};

class OpRegistry {
 public:
  /// The process-wide registry (built once, thread-safe): TensorFlow's ops from op_table.inc and the ONNX op set
  /// ("onnx::Conv", ...) from libonnx's schemas.
  static const OpRegistry& global();

  const OpSchema* find(const std::string& op) const;
  const std::vector<OpSchema>& all() const { return m_schemas; }
  /// A lookup that sees `library` first (as TensorFlow does), then the registry.
  OpLookup lookupWith(const FunctionLibrary* library) const;
  /// Category of a node's op in a graph: library functions are function calls; unknown ops are kUnknown.
  OpCategory categoryOf(const std::string& op, const FunctionLibrary* library) const;
  /// Ops used in the graph or its function bodies that are neither registered nor library functions, sorted.
  std::vector<std::string> unknownOpsIn(const Graph& graph) const;

 private:
  OpRegistry();
  std::vector<OpSchema> m_schemas;
  std::unordered_map<std::string_view, size_t> m_byName;  // views of m_schemas' names -> index
};

/// Fills attrs the node leaves out with the schema's defaults (TensorFlow strips defaults when saving).
/// Returns the number of attrs added.
int fillDefaultAttrs(Node& node, const OpDef& def);
/// Fills defaults on every node of the graph and its function bodies whose op is known.
void fillDefaultAttrs(Graph& graph);

}  // namespace flowscope
