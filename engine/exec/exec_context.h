// ExecContext: what kernels may reach while a graph or an eager op runs (resources, function calls,
// randomness, the profiler, cancellation).
#pragma once

#include <atomic>
#include <cstdint>
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

/// The run's random words (the keys of unseeded random ops' Philox streams): SplitMix64, whose eight bytes of state
/// cost nothing to seed per run and to copy into each function frame, where std::mt19937_64 fills 2.5 KB both times.
class RunRandom {
 public:
  void seed(uint64_t value) { m_state = value; }
  uint64_t operator()() {
    uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

 private:
  uint64_t m_state = 0x5eed;
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
  RunRandom rng;

  bool isCancelled() const {
    return (cancelled && cancelled->load(std::memory_order_relaxed)) ||
           (outsideCancelled && outsideCancelled->load(std::memory_order_relaxed));
  }
};

}  // namespace flowscope
