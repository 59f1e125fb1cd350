// FunctionRuntime: instantiates library functions into graphs (an _Arg per input, attr placeholders bound from
// the call; see ir/function_instantiation.h), compiles each once into a Plan that keeps what the rets, control rets and
// stateful ops need (TensorFlow's PruneFunctionBody), and runs it for If / While / Case / calls.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "exec/exec_context.h"
#include "exec/executor.h"
#include "exec/precision.h"
#include "ir/function_instantiation.h"
#include "ir/graph.h"

namespace flowscope {

class Backend;

class FunctionRuntime : public FunctionCaller {
 public:
  /// Bodies run on `backend` (the CPU fallback of the run).
  FunctionRuntime(const FunctionLibrary& library, Backend& backend, ExecOptions options);
  /// Bodies are placed on `placer` (the run's device backend) as a run's top level is, at `precision`: what it takes
  /// runs there, the rest on the fallback. Without it every body runs on the fallback.
  void placeBodiesOn(std::shared_ptr<Backend> placer, Precision precision);
  /// Where the nodes of the bodies built so far run and why, by "function/node".
  std::map<std::string, std::string> placements() const;
  Expected<std::vector<Tensor>> call(const std::string& function, const AttrMap& callAttrs, std::vector<Tensor> args,
                                     ExecContext& ctx) override;

 private:
  struct Compiled {
    std::unique_ptr<Plan> plan;
    std::mutex mutex;  // a plan's kernels hold caches: one run at a time
  };
  Expected<Compiled*> compiled(const std::string& function, const AttrMap& callAttrs);

  Expected<std::unique_ptr<Plan>> buildPlan(const std::string& function, const AttrMap& callAttrs);

  const FunctionLibrary& m_library;
  Backend& m_backend;
  ExecOptions m_options;
  std::shared_ptr<Backend> m_placer;
  Precision m_precision = Precision::kFp32;
  mutable std::mutex m_whereMutex;
  std::map<std::string, std::string> m_where;
  std::mutex m_mutex;
  std::map<std::string, std::unique_ptr<Compiled>> m_plans;
};

}  // namespace flowscope
