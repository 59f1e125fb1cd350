// The one table of optimizer passes, in Grappler's default order.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "passes/pass.h"

namespace flowscope {

struct PassInfo {
  const char* name;     ///< file-style name: "constant_folding" (dump files, the GUI)
  const char* cliName;  ///< Grappler's short name: "constfold"
  const char* summary;
  bool onByDefault;
  bool runOnce;  ///< only in the first iteration (Grappler's loop optimizer)
  std::unique_ptr<Pass> (*create)();
};

/// Every pass, in the default pipeline order.
const std::vector<PassInfo>& passTable();
/// By name or CLI name; null when unknown.
const PassInfo* findPass(const std::string& name);

// Factories, one per pass file.
std::unique_ptr<Pass> createModelPruning();
std::unique_ptr<Pass> createFunctionInlining();
std::unique_ptr<Pass> createCommonSubgraphElimination();
std::unique_ptr<Pass> createConstantFolding();
std::unique_ptr<Pass> createArithmeticSimplification();
std::unique_ptr<Pass> createBatchNormFolding();
std::unique_ptr<Pass> createRemapper();
std::unique_ptr<Pass> createOnnxChannelsLast();
std::unique_ptr<Pass> createDeadBranchRemoval();
std::unique_ptr<Pass> createLoopInvariantMotion();
std::unique_ptr<Pass> createDependencyOptimization();

}  // namespace flowscope
