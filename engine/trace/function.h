// Function: tf.function for C++ callables. A call binds its arguments to a FunctionType (tensors by dtype and
// shape, other values by value); a new type traces the callable once into a ConcreteFunction, a known one reuses
// it, and dispatch picks the most specific compatible trace. tf-compat.md §2 gives the rules followed here.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

#include "ir/model.h"
#include "trace/ops.h"

namespace flowscope {
class ModelRunner;
class RunProfile;
}  // namespace flowscope

namespace flowscope::tf {

/// One argument of a call: a tensor, or a Python-like value (bool, int, float, string, or a list of values).
struct Arg {
  enum class Kind { kTensor, kBool, kInt, kFloat, kString, kList };
  Arg(const Tensor& t) : kind(Kind::kTensor), tensor(t) {}            // NOLINT
  Arg(bool v) : kind(Kind::kBool), i(v) {}                            // NOLINT
  Arg(int v) : kind(Kind::kInt), i(v) {}                              // NOLINT
  Arg(int64_t v) : kind(Kind::kInt), i(v) {}                          // NOLINT
  Arg(double v) : kind(Kind::kFloat), f(v) {}                         // NOLINT
  Arg(float v) : kind(Kind::kFloat), f(v) {}                          // NOLINT
  Arg(const char* v) : kind(Kind::kString), s(v) {}                   // NOLINT
  Arg(std::string v) : kind(Kind::kString), s(std::move(v)) {}        // NOLINT
  Arg(std::vector<Arg> v) : kind(Kind::kList), list(std::move(v)) {}  // NOLINT
  Arg(const std::vector<int>& v);                                     // NOLINT
  Arg(const std::vector<float>& v);                                   // NOLINT

  Kind kind;
  Tensor tensor;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<Arg> list;

  /// The literal as Python writes it: 1, 2.5, True, 'a', [1, -1].
  std::string literal() const;
  /// A tensor for a literal (its dtype follows Python: ints int32, floats float32), or the tensor itself.
  Tensor toTensor() const;
};

/// TensorSpec(shape, dtype): what a tensor argument must be.
struct TensorSpec {
  DType dtype = DType::kFloat;
  Shape shape = Shape::unknownRank();
  std::string name;
};

/// The trace type of one argument: a tensor spec, or the literal value itself.
struct ArgType {
  bool isTensor = true;
  TensorSpec spec;
  std::string literal;  ///< the value as text, for non-tensors
  bool operator==(const ArgType& other) const;
  /// True when a call of type `other` may use a trace of this type (same literal; dtype equal, shape compatible).
  bool accepts(const ArgType& other) const;
};
using FunctionType = std::vector<ArgType>;

struct FunctionOptions {
  std::string name = "function";
  std::vector<std::string> argNames;  ///< parameter names (x, y, ...); default arg0, arg1, ...
  std::optional<std::vector<TensorSpec>> inputSignature;
  bool reduceRetracing = false;
  bool jitCompile =
      false;  ///< marks the inference function _XlaMustCompile (there is no XLA: the optimized graph runs)
};

/// One traced graph: its type, the graph (placeholders, ops, Identity outputs, and the library of branch and
/// body functions) and how to run it.
class ConcreteFunction {
 public:
  /// `capturedFeeds`: placeholders fed the same eager value on every call (the handles of captured variables).
  ConcreteFunction(std::string name, FunctionType type, std::vector<std::string> argNames, Graph graph,
                   std::vector<std::string> inputs, std::vector<TensorSpec> outputs, std::vector<std::string> stateful,
                   std::vector<std::pair<std::string, flowscope::Tensor>> capturedFeeds = {});
  ~ConcreteFunction();

  const std::string& name() const { return m_name; }  ///< __inference_<fn>_<uid>
  const FunctionType& type() const { return m_type; }
  const std::vector<TensorSpec>& outputs() const { return m_outputs; }
  /// A GraphDef-compatible graph: placeholders per tensor argument, Identity outputs, and a library holding
  /// `name()` itself plus every branch and loop body (cond_true_N, while_body_N, ...).
  const Graph& graph() const { return m_graph; }
  /// Output tensor names in graph(): "Identity:0", "Identity_1:0", ...
  std::vector<std::string> outputNames() const;
  /// Runs the graph on the tensor arguments of a call of this type. The first run optimizes the graph (the default
  /// pipeline, as TensorFlow runs Grappler on function graphs), keeping inputs, outputs and stateful ops.
  Expected<std::vector<flowscope::Tensor>> run(const std::vector<Arg>& args, RunProfile* profile = nullptr,
                                               int runIndex = 0) const;
  /// The same with the tensor arguments' values only, in order (what a Python call hands over).
  Expected<std::vector<flowscope::Tensor>> runTensors(const std::vector<flowscope::Tensor>& values,
                                                      RunProfile* profile = nullptr, int runIndex = 0) const;
  /// The graph as TensorFlow's FuncGraph.as_graph_def() gives it: the library without this function itself.
  Graph graphDef() const;
  /// The old-style signature text the guide prints ("my_relu(x)\n  Args:\n    x: float32 Tensor, shape=()...").
  std::string prettySignature(const std::string& functionName) const;

 private:
  std::string m_name;
  FunctionType m_type;
  std::vector<std::string> m_argNames;
  Graph m_graph;
  std::vector<std::string> m_inputs;  // placeholder per tensor argument, in argument order
  std::vector<TensorSpec> m_outputs;
  std::vector<std::string> m_stateful;
  std::vector<std::pair<std::string, flowscope::Tensor>> m_capturedFeeds;
  mutable std::mutex m_mutex;
  mutable std::unique_ptr<ModelRunner> m_runner;
};

class FuncGraph;

/// A traced graph made into a ConcreteFunction named `name` (its FunctionDef, with `_XlaMustCompile` when `jit`, added
/// to the library beside the branch and body functions; captured eager values fed on every call).
Expected<std::shared_ptr<ConcreteFunction>> makeConcreteFunction(const FuncGraph& graph, const std::string& name,
                                                                 FunctionType type, std::vector<std::string> argNames,
                                                                 std::vector<std::string> inputs, bool jit);

namespace config {
/// tf.config.run_functions_eagerly: every Function runs its callable eagerly (side effects on every call).
void runFunctionsEagerly(bool eagerly);
bool functionsRunEagerly();
}  // namespace config

class Function {
 public:
  using Callable = std::function<std::vector<Tensor>(const std::vector<Arg>&)>;
  Function(Callable callable, FunctionOptions options);

  /// Calls with the given arguments: traces on a new signature, runs the matching graph. Errors are values.
  Expected<std::vector<Tensor>> call(const std::vector<Arg>& args);
  /// The first output; throws tf::Error on failure (like a Python call).
  template <typename... Args>
  Tensor operator()(Args&&... args) {
    auto out = call(std::vector<Arg>{Arg(std::forward<Args>(args))...});
    if (!out) throw Error(out.status().code(), out.status().message());
    return out->empty() ? Tensor() : (*out)[0];
  }

  /// The trace for these arguments, tracing if needed (tf.function.get_concrete_function).
  Expected<std::shared_ptr<ConcreteFunction>> getConcreteFunction(const std::vector<Arg>& args);
  std::vector<std::shared_ptr<ConcreteFunction>> concreteFunctions() const { return m_traces; }
  /// How many times the callable was traced (experimental_get_tracing_count).
  int tracingCount() const { return m_tracingCount; }
  std::string prettyPrintedConcreteSignatures() const;
  const FunctionOptions& options() const { return m_options; }
  /// Runs the callable eagerly (what run_functions_eagerly does), with the same argument conversion.
  Expected<std::vector<Tensor>> callEagerly(const std::vector<Arg>& args) const;

 private:
  Expected<FunctionType> typeOf(const std::vector<Arg>& args) const;
  std::shared_ptr<ConcreteFunction> dispatch(const FunctionType& type) const;
  Expected<std::shared_ptr<ConcreteFunction>> trace(const FunctionType& type, const std::vector<Arg>& args);

  Callable m_callable;
  FunctionOptions m_options;
  std::vector<std::shared_ptr<ConcreteFunction>> m_traces;
  int m_tracingCount = 0;
};

// --- Binding C++ lambdas: each parameter is a tf::Tensor or a plain value, converted from the call's Args. ---
namespace detail {
template <typename T>
T fromArg(const Arg& a) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, Tensor>)
    return a.toTensor();
  else if constexpr (std::is_same_v<D, bool>)
    return a.i != 0;
  else if constexpr (std::is_integral_v<D>)
    return static_cast<D>(a.kind == Arg::Kind::kFloat ? a.f : static_cast<double>(a.i));
  else if constexpr (std::is_floating_point_v<D>)
    return static_cast<D>(a.kind == Arg::Kind::kFloat ? a.f : static_cast<double>(a.i));
  else if constexpr (std::is_same_v<D, std::string>)
    return a.s;
  else if constexpr (std::is_same_v<D, Arg>)
    return a;
  else
    static_assert(sizeof(D) == 0, "unsupported parameter type for a traced function");
}
inline std::vector<Tensor> toOutputs(Tensor t) { return {std::move(t)}; }
inline std::vector<Tensor> toOutputs(std::vector<Tensor> t) { return t; }

template <typename F>
struct Traits : Traits<decltype(&F::operator())> {};
template <typename C, typename R, typename... A>
struct Traits<R (C::*)(A...) const> {
  using Params = std::tuple<std::decay_t<A>...>;
  static constexpr size_t arity = sizeof...(A);
};
template <typename R, typename... A>
struct Traits<R (*)(A...)> {
  using Params = std::tuple<std::decay_t<A>...>;
  static constexpr size_t arity = sizeof...(A);
};

template <typename F, size_t... I>
std::vector<Tensor> invoke(F& f, const std::vector<Arg>& args, std::index_sequence<I...>) {
  using Params = typename Traits<F>::Params;
  return toOutputs(f(fromArg<std::tuple_element_t<I, Params>>(args[I])...));
}
}  // namespace detail

/// tf.function: wraps a lambda or function whose parameters are tf::Tensor or plain values and which returns a
/// tf::Tensor or a std::vector<tf::Tensor>.
template <typename F>
Function function(F f, FunctionOptions options = {}) {
  constexpr size_t arity = detail::Traits<F>::arity;
  auto callable = [f](const std::vector<Arg>& args) mutable -> std::vector<Tensor> {
    if (args.size() != arity)
      throw Error(ErrorCode::kInvalidArgument,
                  "expected " + std::to_string(arity) + " arguments, got " + std::to_string(args.size()));
    return detail::invoke(f, args, std::make_index_sequence<arity>{});
  };
  return Function(std::move(callable), std::move(options));
}

}  // namespace flowscope::tf

namespace flowscope {
using tf::function;
using tf::print;
namespace config = tf::config;
}  // namespace flowscope
