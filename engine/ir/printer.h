// Stable text form of a graph for golden tests and diffs: one line per node, attrs sorted, functions after.
#pragma once

#include <string>

#include "ir/graph.h"

namespace flowscope {

/// `name = Op(in, in:1, ^ctrl) {attr=value, ...} @device`, in node order, then each library function.
std::string printGraph(const Graph& graph);
std::string printNode(const Node& node);
std::string printFunction(const FunctionDef& function);

}  // namespace flowscope
