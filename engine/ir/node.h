// Node: one op instance in a graph or function body (NodeDef).
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attr_value.h"
#include "ir/interned_string.h"

namespace flowscope {

/// A data input. In a graph: node + flat output index ("name:k"). In a function body the producer may be a
/// function argument ("arg", "arg:i") or a body node's named output arg ("node:out_arg:i"), kept in `outputArg`.
struct TensorRef {
  std::string node;
  int index = 0;
  InternedString outputArg;  ///< only in function bodies; empty elsewhere

  /// "name", "name:1", or in function bodies "name:out_arg:0".
  std::string toString() const;
  bool operator==(const TensorRef&) const = default;
};

/// Parses an input string of a GraphDef ("a", "a:2") or, with functionStyle, of a FunctionDef ("a:z:0", "arg:1").
/// Control inputs ("^a") are not TensorRefs; callers split them first.
bool parseTensorRef(const std::string& text, bool functionStyle, TensorRef* out);

/// experimental_debug_info: the nodes and functions a node was made from (TensorFlow's rewrites set it; most nodes have
/// none, so a Node holds it out of line, shared by copies).
struct NodeDebugInfo {
  std::vector<std::string> originalNodeNames;
  std::vector<std::string> originalFuncNames;
};

struct Node {
  std::string name;
  InternedString op;
  InternedString device;
  std::vector<TensorRef> inputs;           ///< data inputs, in order
  std::vector<std::string> controlInputs;  ///< names without the '^'
  AttrMap attrs;
  std::shared_ptr<const NodeDebugInfo> debugInfo;  ///< null when the node has none

  const AttrValue* attr(std::string_view key) const {
    auto it = attrs.find(key);
    return it == attrs.end() ? nullptr : &it->second;
  }
  /// The name scope: everything before the last '/', or "" at top level.
  std::string scope() const;
};

/// The names of the nodes `node` was made from: its debug info's original node names, or its own name.
std::vector<std::string> originalNames(const Node& node);

/// Whether `node` computes what its original node names computed: a fusion, which takes the name of one of them,
/// rather than a node made for them (a layout transpose records the node that reads it, not its own name).
bool computesItsOriginals(const Node& node);

/// The same rule on a name and the original names recorded for it (a profile event's name and fused_from).
bool computesItsOriginals(const std::string& name, const std::vector<std::string>& originals);

/// Records in `fused`'s debug info (original_node_names, as TensorFlow's rewrites record theirs) that it computes
/// what `parts` computed: each part's original names in order, each name once. The first part is the anchor: a
/// profile shows the fused node's time on it.
void recordFusion(Node& fused, std::initializer_list<const Node*> parts);

}  // namespace flowscope
