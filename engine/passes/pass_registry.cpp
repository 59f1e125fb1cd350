// The pass table.
#include "passes/pass_registry.h"

namespace flowscope {

const std::vector<PassInfo>& passTable() {
  static const std::vector<PassInfo> table = {
      {"model_pruning", "pruning", "Drops nodes no fetch needs and bypasses Identity/StopGradient/Snapshot chains",
       true, false, createModelPruning},
      {"function_inlining", "function", "Inlines function calls; specializes If/Case branches for constant arguments",
       true, false, createFunctionInlining},
      {"common_subgraph_elimination", "common_subgraph_elimination", "Merges identical side-effect-free nodes", true,
       false, createCommonSubgraphElimination},
      {"constant_folding", "constfold",
       "Evaluates nodes with constant inputs; materializes Shape/Size/Rank of known shapes", true, false,
       createConstantFolding},
      {"arithmetic_simplification", "arithmetic",
       "Algebraic rewrites: x*1, x+0, Neg(Neg), Mul(x,x), Pow, Transpose pairs, ...", true, false,
       createArithmeticSimplification},
      {"onnx_channels_last", "onnx_nhwc",
       "Runs ONNX 2-D convolutions and poolings in NHWC, fused with BatchNormalization, Relu/Clip and the bias", true,
       false, createOnnxChannelsLast},
      {"batch_norm_folding", "fold_batch_norm",
       "Folds inference FusedBatchNorm into the preceding convolution's weights", true, false, createBatchNormFolding},
      {"remapper", "remap", "Fuses MatMul/Conv2D/DepthwiseConv2dNative + BiasAdd [+ activation]", true, false,
       createRemapper},
      {"dead_branch_removal", "loop", "Removes the untaken side of If and Switch on a constant predicate", true, true,
       createDeadBranchRemoval},
      {"loop_invariant_motion", "loop_invariant",
       "Hoists loop-invariant computations out of While bodies (off by default, as in Grappler)", false, true,
       createLoopInvariantMotion},
      {"dependency_optimization", "dependency",
       "Removes redundant control edges; bypasses NoOp and control-only Identity", true, false,
       createDependencyOptimization},
  };
  return table;
}

const PassInfo* findPass(const std::string& name) {
  for (const auto& p : passTable())
    if (name == p.name || name == p.cliName) return &p;
  return nullptr;
}

}  // namespace flowscope
