// NodeEvaluator: runs one node on constant inputs. Constant folding reaches a backend's kernels only through this
// interface (passes/ and exec/ never include each other); exec/kernel_evaluator.h implements it.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "ir/node.h"
#include "ir/tensor.h"

namespace flowscope {

class NodeEvaluator {
 public:
  virtual ~NodeEvaluator() = default;
  /// True when nodes of this op can be evaluated at all.
  virtual bool canEvaluate(const std::string& op) const = 0;
  /// The node's outputs (`outputs` of them) for these inputs; an error when the node cannot be evaluated here.
  virtual Expected<std::vector<Tensor>> evaluate(const Node& node, std::vector<Tensor> inputs,
                                                 size_t outputs) const = 0;
};

}  // namespace flowscope
