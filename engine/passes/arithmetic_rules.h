// The rewrite rules of the arithmetic simplification pass. Each rule looks at one node and, when it applies,
// rewrites it in place (keeping its name, so consumers are untouched) and returns true.
#pragma once

#include <vector>

#include "ops/shape_inference.h"
#include "passes/pass.h"

namespace flowscope {

/// Shapes of the graph, inferred on first use (rules rewrite in place, keeping names and output shapes, and only
/// append nodes, so shapes inferred mid-pass stay right for every node they cover).
class LazyShapes {
 public:
  explicit LazyShapes(const Graph& graph) : m_graph(graph) {}
  const GraphShapes& get() {
    if (!m_ready) {
      m_shapes = inferShapes(m_graph);
      m_ready = true;
    }
    return m_shapes;
  }

 private:
  const Graph& m_graph;
  GraphShapes m_shapes;
  bool m_ready = false;
};

struct RewriteSite {
  Graph& graph;
  const PassContext& context;
  LazyShapes& shapes;
  size_t node;
};

struct ArithmeticRule {
  const char* name;  ///< Grappler's stage name, used as the statistic's key
  bool (*apply)(RewriteSite& site);
};

const std::vector<ArithmeticRule>& arithmeticRules();

}  // namespace flowscope
