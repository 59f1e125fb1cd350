// Eager execution: the CPU backend's kernels called op by op. An EagerOp caches its kernel per input-dtype signature,
// so a repeated call costs a dtype comparison plus the kernel itself (no graph, no string lookups).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "exec/exec_context.h"
#include "exec/kernel.h"
#include "ir/op_def.h"

namespace flowscope {

/// Process-wide eager state: variables and other resources, and an optional profile of the eager ops.
class EagerContext {
 public:
  static EagerContext& global();
  ResourceManager& resources() { return m_resources; }
  /// Events of every eager op go here while set (null: no profiling).
  void setProfile(RunProfile* profile) { m_exec.profile = profile; }
  ExecContext& exec() { return m_exec; }

 private:
  EagerContext();
  ResourceManager m_resources;
  ExecContext m_exec;
};

class EagerOp {
 public:
  /// Attrs that depend on the inputs (T, N, ...) are inferred from them; others come from `attrs` or defaults.
  explicit EagerOp(std::string op, AttrMap attrs = {});
  EagerOp(const EagerOp&) = delete;
  EagerOp& operator=(const EagerOp&) = delete;

  /// Runs the op; errors name the op, as a graph node's would ("node 'AddV2' (op AddV2): ...").
  Status run(std::vector<Tensor> inputs, std::vector<Tensor>* outputs);
  Expected<Tensor> operator()(std::vector<Tensor> inputs);

 private:
  struct Entry {
    std::vector<DType> types;
    Node node;
    std::unique_ptr<OpKernel> kernel;
    int numOutputs = 0;
  };
  Expected<Entry*> entryFor(const std::vector<Tensor>& inputs);

  std::string m_op;
  AttrMap m_attrs;
  const OpDef* m_def = nullptr;
  std::vector<std::unique_ptr<Entry>> m_cache;
  std::vector<Tensor> m_outputs;  // reused output vector
};

/// One-off eager call (the EagerOp is cached per thread by op and attrs).
Expected<std::vector<Tensor>> eagerExecute(const std::string& op, std::vector<Tensor> inputs,
                                           const AttrMap& attrs = {});

}  // namespace flowscope
