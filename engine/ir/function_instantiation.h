// Function instantiation: a library function's body as a graph (an `_Arg` per input, graph naming for inputs),
// for running it (the function runtime) and for looking at it (the canvas opens bodies as subgraphs).
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"

namespace flowscope {

/// The body of a library function as a runnable graph with its feed and fetch names.
struct InstantiatedFunction {
  Graph graph;
  std::vector<std::string> argNodes;  ///< fed in argument order
  std::vector<std::string> rets;      ///< fetched in output order ("node:k")
  std::vector<std::string> targets;   ///< control rets and stateful nodes
};

/// Resolves function-style names ("node:out:0", "arg") into graph names; binds `$T` attr placeholders.
Expected<InstantiatedFunction> instantiateFunction(const FunctionDef& function, const AttrMap& callAttrs,
                                                   const FunctionLibrary& library, const OpLookup& lookup);

/// A function body to look at: the instantiated graph (an `_Arg` per input, inputs in graph naming) with a
/// `_Retval` per output, as TensorFlow shows function bodies; attr placeholders stay unbound. The library is the
/// caller's, so nested calls resolve.
Expected<Graph> functionBodyGraph(const FunctionDef& function, const FunctionLibrary& library, const OpLookup& lookup);

}  // namespace flowscope
