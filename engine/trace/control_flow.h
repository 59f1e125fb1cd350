// Functional control flow for traced code: cond and whileLoop. Eagerly they simply run; while tracing they record
// StatelessIf/If and StatelessWhile/While nodes whose branches and bodies are traced into the function library as
// cond_true_N / cond_false_N and while_cond_N / while_body_N. Tensors of enclosing graphs used inside are captured.
#pragma once

#include <functional>
#include <vector>

#include "trace/tensor.h"

namespace flowscope::tf {

using Branch = std::function<std::vector<Tensor>()>;
using LoopCondition = std::function<Tensor(const std::vector<Tensor>&)>;
using LoopBody = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

std::vector<Tensor> cond(const Tensor& pred, const Branch& thenBranch, const Branch& elseBranch);
/// Single-output convenience: branches returning one tensor.
Tensor cond(const Tensor& pred, const std::function<Tensor()>& thenBranch, const std::function<Tensor()>& elseBranch);

std::vector<Tensor> whileLoop(const LoopCondition& condition, const LoopBody& body,
                              const std::vector<Tensor>& loopVars);

}  // namespace flowscope::tf

namespace flowscope {
using tf::cond;
using tf::whileLoop;
}  // namespace flowscope
