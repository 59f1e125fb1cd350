// The rewrite rules of the arithmetic simplification pass. Each rule looks at one node and, when it applies,
// rewrites it in place (keeping its name, so consumers are untouched) and returns true.
#pragma once

#include <vector>

#include "ops/shape_inference.h"
#include "passes/pass.h"

namespace flowscope {

struct RewriteSite {
  Graph& graph;
  const PassContext& context;
  const GraphShapes& shapes;  ///< of the graph before the pass (node names and output shapes do not change)
  size_t node;
};

struct ArithmeticRule {
  const char* name;  ///< Grappler's stage name, used as the statistic's key
  bool (*apply)(RewriteSite& site);
};

const std::vector<ArithmeticRule>& arithmeticRules();

}  // namespace flowscope
