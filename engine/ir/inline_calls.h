// Inlining of function calls (PartitionedCall, StatefulPartitionedCall, and nodes whose op is a library
// function) into the calling graph, as TensorFlow's function inliner does. Used by freezing and by passes.
#pragma once

#include <functional>
#include <string>

#include "base/status.h"
#include "ir/graph.h"

namespace flowscope {

/// Resolves a function-body tensor reference ("node:out_arg:i") to a flat output index using the producer's
/// signature. Returns -1 when the op or the output arg is unknown.
int flatOutputIndex(const Node& producer, const std::string& outputArg, int index, const OpLookup& lookup);

struct InlineResult {
  size_t callsInlined = 0;
};

/// Inlines every top-level call, repeatedly (nested calls too, up to `maxDepth` rounds). Body nodes are
/// renamed "<call>/<node>"; the call's outputs become Identity nodes named "<call>" (":k" -> "<call>/output_k"),
/// so consumers keep working; control edges into and out of the call are preserved through NoOp anchors.
/// Functions no longer referenced are removed from the library.
/// `shouldInline` (optional) picks which calls to inline; the others stay calls.
Expected<InlineResult> inlineFunctionCalls(
    Graph& graph, const OpLookup& lookup, int maxDepth = 32,
    const std::function<bool(const Node&, const FunctionDef&)>& shouldInline = {});
/// Inlines the one call at `callIndex` (calls inside its body stay calls). Unused functions stay in the library.
Status inlineCall(Graph& graph, size_t callIndex, const OpLookup& lookup);
/// True for PartitionedCall, StatefulPartitionedCall and nodes whose op is a library function.
bool isFunctionCall(const Node& node, const FunctionLibrary& library);

/// Library functions referenced from the graph (by op name or func attrs), transitively; none when it has none.
std::vector<std::string> reachableFunctions(const Graph& graph);

}  // namespace flowscope
