// Evaluating single nodes on constants with the CPU backend's kernels.
#include "exec/kernel_evaluator.h"

#include "exec/backend.h"
#include "exec/exec_context.h"

namespace flowscope {
namespace {

class KernelEvaluator : public NodeEvaluator {
 public:
  bool canEvaluate(const std::string& op) const override {
    Node probe;
    probe.op = op;
    return fallbackBackend()->unsupportedReason(probe, m_noFunctions).empty();
  }

  Expected<std::vector<Tensor>> evaluate(const Node& node, std::vector<Tensor> inputs, size_t outputs) const override {
    FS_ASSIGN_OR_RETURN(auto kernel, fallbackBackend()->makeKernel(node, m_noFunctions));
    ExecContext exec;  // no resources, functions or profile: folding only runs pure ops
    std::vector<Tensor> values(outputs);
    KernelContext ctx{node, inputs, values, &exec};
    FS_RETURN_IF_ERROR(kernel->compute(ctx));
    return values;
  }

 private:
  FunctionLibrary m_noFunctions;  // folding runs pure ops: no library calls
};

}  // namespace

const NodeEvaluator& kernelEvaluator() {
  static const KernelEvaluator evaluator;
  return evaluator;
}

}  // namespace flowscope
