// Freezing: a model's variables become Const nodes, so the result is a self-contained GraphDef.
#pragma once

#include "ir/model.h"

namespace flowscope {

struct FrozenGraph {
  Graph graph;
  size_t frozenVariables = 0;
  size_t inlinedCalls = 0;
};

/// TF1: VariableV2 -> Const; assignments, initializers and training updates are dropped. TF2: calls are inlined so each
/// ReadVariableOp of a VarHandleOp becomes a Const. Fails (naming them) when variables or weights lack values.
Expected<FrozenGraph> freezeModel(const Model& model);

}  // namespace flowscope
