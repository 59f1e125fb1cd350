// FunctionRuntime: instantiates library functions into graphs (an _Arg per input, attr placeholders bound from
// the call), compiles each once into a Plan that keeps what the rets, control rets and stateful ops need
// (TensorFlow's PruneFunctionBody), and runs it for If / While / Case / calls.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "exec/exec_context.h"
#include "exec/executor.h"
#include "ir/graph.h"

namespace flowscope {

/// The body of a library function as a runnable graph with its feed and fetch names.
struct InstantiatedFunction {
  Graph graph;
  std::vector<std::string> argNodes;  ///< fed in argument order
  std::vector<std::string> rets;      ///< fetched in output order ("node:k")
  std::vector<std::string> targets;   ///< control rets and stateful nodes
};

/// Resolves function-style names ("node:out:0", "arg") into graph names; binds `$T` attr placeholders.
Expected<InstantiatedFunction> instantiateFunction(const FunctionDef& function, const AttrMap& callAttrs,
                                                   const FunctionLibrary& library, const OpLookup& lookup);

/// A function body to look at: the instantiated graph (an `_Arg` per input, inputs in graph naming) with a
/// `_Retval` per output, as TensorFlow shows function bodies; attr placeholders stay unbound. The library is the
/// caller's, so nested calls resolve.
Expected<Graph> functionBodyGraph(const FunctionDef& function, const FunctionLibrary& library);

class FunctionRuntime : public FunctionCaller {
 public:
  FunctionRuntime(const FunctionLibrary& library, ExecOptions options);
  Expected<std::vector<Tensor>> call(const std::string& function, const AttrMap& callAttrs, std::vector<Tensor> args,
                                     ExecContext& ctx) override;

 private:
  struct Compiled {
    std::unique_ptr<Plan> plan;
    std::mutex mutex;  // a plan's kernels hold caches: one run at a time
  };
  Expected<Compiled*> compiled(const std::string& function, const AttrMap& callAttrs);

  const FunctionLibrary& m_library;
  ExecOptions m_options;
  std::mutex m_mutex;
  std::map<std::string, std::unique_ptr<Compiled>> m_plans;
};

}  // namespace flowscope
