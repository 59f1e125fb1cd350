// ExecContext: what kernels may reach while a graph or an eager op runs (resources, function calls,
// randomness, the profiler, cancellation).
#pragma once

#include <atomic>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "base/status.h"
#include "exec/resource_manager.h"
#include "ir/attr_value.h"

namespace flowscope {

class RunProfile;

/// Runs library functions by name (If branches, While bodies, PartitionedCall targets).
class FunctionCaller {
 public:
  virtual ~FunctionCaller() = default;
  virtual Expected<std::vector<Tensor>> call(const std::string& function, const AttrMap& callAttrs,
                                             std::vector<Tensor> args, class ExecContext& ctx) = 0;
};

class ExecContext {
 public:
  ResourceManager* resources = nullptr;
  FunctionCaller* functions = nullptr;
  RunProfile* profile = nullptr;  ///< profiling sink, or null
  std::string eventPrefix;        ///< prepended to node names in events (function frames)
  int run = 0;
  const std::atomic<bool>* cancelled = nullptr;         ///< the runner's own flag (ModelRunner::cancel)
  const std::atomic<bool>* outsideCancelled = nullptr;  ///< the caller's flag (a job's Cancel button)
  int callDepth = 0;
  std::mt19937_64 rng{0x5eed};

  bool isCancelled() const {
    return (cancelled && cancelled->load(std::memory_order_relaxed)) ||
           (outsideCancelled && outsideCancelled->load(std::memory_order_relaxed));
  }
};

}  // namespace flowscope
