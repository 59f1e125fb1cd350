// Graph verifier: duplicate or empty names, dangling inputs, output indices, arity and dtype mismatches where
// the op's schema is known, and data-edge cycles that are not TF1 loop back edges.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"

namespace flowscope {

struct VerifyIssue {
  std::string function;  ///< empty for the top-level graph
  std::string node;
  std::string op;
  std::string message;
  std::string toString() const;
};

std::vector<VerifyIssue> verifyGraph(const Graph& graph, const OpLookup& lookup);
/// Ok, or an InvalidArgument listing the first issues.
Status verifyGraphStatus(const Graph& graph, const OpLookup& lookup, size_t maxIssues = 5);

/// verifyGraphStatus() for a graph made from one that passed it and has the same function library (the caller checks
/// that: FunctionLibrary::sameFunctionsAs): `unchanged(node)` says a node object is one of that graph's. Only the
/// changed nodes and the consumers of changed or missing producers have their inputs checked again (names and cycles
/// are checked everywhere). When it finds a problem it runs the full check, so the answer and the message are
/// verifyGraphStatus()'s.
Status verifyGraphChangesStatus(const Graph& graph, const std::function<bool(const Node*)>& unchanged,
                                const OpLookup& lookup, size_t maxIssues = 5);

/// The nodes of one cycle of data and control edges that is not a TF1 loop, in the direction values flow (each
/// feeds the next, the last feeds the first); empty when there is none.
std::vector<std::string> findEdgeCycle(const Graph& graph);
/// "'a' -> 'b' -> 'a'".
std::string joinCycle(const std::vector<std::string>& cycle);

/// Output dtypes of a node from its schema and attrs; empty when the op is unknown or attrs are missing.
std::vector<DType> outputTypesOf(const Node& node, const OpDef* def);

}  // namespace flowscope
