// FuncGraph: the graph a Function builds while it traces, with its inputs (placeholders), outputs, captured
// outer tensors and stateful ops. A stack of them (innermost last) is what "tracing" means: ops called while the
// stack is not empty add nodes to the innermost graph instead of running.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ir/op_def.h"
#include "trace/tensor.h"

namespace flowscope::tf {

class FuncGraph : public std::enable_shared_from_this<FuncGraph> {
 public:
  /// `scope` prefixes the names of the nodes ops add ("cond/" in a cond's branches, as TensorFlow's name scopes).
  FuncGraph(std::string name, std::shared_ptr<FuncGraph> parent, std::shared_ptr<FunctionLibrary> library,
            std::string scope = "");

  const std::string& name() const { return m_name; }
  Graph& graph() { return m_graph; }
  const Graph& graph() const { return m_graph; }
  /// Every function traced under the outermost graph (branches, loop bodies) lands in this one library.
  FunctionLibrary& library() { return *m_library; }
  std::shared_ptr<FunctionLibrary> sharedLibrary() const { return m_library; }

  /// A new input (Placeholder named after the argument).
  Tensor addInput(const std::string& name, DType dtype, const Shape& shape);
  /// Adds a node for `op`; inputs from other graphs are captured, eager values become Consts. Returns its outputs.
  std::vector<Tensor> addOp(const std::string& op, const std::vector<Tensor>& inputs, const AttrMap& attrs,
                            const std::string& nameHint = "");
  /// Makes `t` usable here: itself, a Const for an eager value, or a placeholder fed by the outer graph.
  Tensor capture(const Tensor& t);
  /// A Const node holding the eager value `t`, named `name` (made unique).
  Tensor addConst(const Tensor& t, const std::string& name);
  /// The outputs: each goes through an Identity named Identity, Identity_1, ... as tf.function does.
  void setOutputs(const std::vector<Tensor>& outputs);
  /// Reorders the inputs (a permutation of inputs(), which may have grown since).
  void setInputOrder(std::vector<std::string> order) { m_inputs = std::move(order); }

  const std::vector<std::string>& inputs() const { return m_inputs; }  ///< placeholder names, args then captures
  const std::vector<Tensor>& outputs() const { return m_outputs; }
  /// (outer tensor, inner placeholder) for each captured tensor, in order.
  const std::vector<std::pair<Tensor, std::string>>& captures() const { return m_captures; }
  const std::vector<std::string>& statefulNodes() const { return m_stateful; }

  /// The output names TensorFlow gives a branch or body function: its output Identity nodes' names in lower case,
  /// '/' as '_' ("cond_identity", "cond_identity_1").
  std::vector<std::string> outputArgNames() const;
  /// Converts to a FunctionDef named `name` (placeholders -> args, outputs -> rets, stateful ops -> control rets).
  Expected<FunctionDef> toFunctionDef(const std::string& name, const std::vector<std::string>& outputNames) const;

 private:
  std::string uniqueName(const std::string& base);
  Tensor captureResource(const Tensor& handle);
  void orderEffects(Node& node, const OpDef& def, const std::vector<Tensor>& local);

  std::string m_name;
  std::string m_scope;
  std::shared_ptr<FuncGraph> m_parent;
  std::shared_ptr<FunctionLibrary> m_library;
  Graph m_graph;
  std::vector<std::string> m_inputs;
  std::vector<Tensor> m_outputs;
  std::vector<std::pair<Tensor, std::string>> m_captures;
  std::map<std::string, Tensor> m_captureByRef;  // "<graph>/<ref>" -> inner placeholder tensor
  std::vector<std::string> m_stateful;
  std::map<std::string, int> m_nameCounts;
  std::map<std::string, std::string> m_lastEffect;  // resource placeholder (or "<stateful>") -> last node using it
};

/// The innermost graph being traced on this thread, or null (eager).
std::shared_ptr<FuncGraph> currentGraph();

/// Makes `graph` the innermost graph for its lifetime.
class TracingScope {
 public:
  explicit TracingScope(std::shared_ptr<FuncGraph> graph);
  ~TracingScope();
  TracingScope(const TracingScope&) = delete;
  TracingScope& operator=(const TracingScope&) = delete;
};

/// Process-wide counter for function names (__inference_f_<uid>, cond_true_<uid>).
int nextFunctionUid();

}  // namespace flowscope::tf
