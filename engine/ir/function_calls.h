// The library functions a node calls: its function-valued attributes (If's then/else branches, While's cond and
// body, PartitionedCall's f, Case's branches, ...) and its op when the op is itself a library function.
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"

namespace flowscope {

struct FunctionCall {
  std::string attr;      ///< "then_branch", "body", "branches[1]"; the op name for a direct call
  std::string function;  ///< the library function's name
};

std::vector<FunctionCall> calledFunctions(const Node& node, const FunctionLibrary& library);

}  // namespace flowscope
