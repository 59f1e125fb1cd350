// Function tracing, dispatch and graph execution.
#include "trace/function.h"

#include <atomic>
#include <sstream>

#include "exec/eager.h"
#include "exec/model_runner.h"
#include "trace/func_graph.h"
#include "workflow/optimize_model.h"

namespace flowscope::tf {
namespace {

std::atomic<bool> gRunEagerly{false};

std::string shapeText(const Shape& s) { return pythonShape(s); }

std::string formatFloatLiteral(double v) {
  std::ostringstream out;
  out << v;
  std::string s = out.str();
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// Fewer unknowns = more specific.
int unknowns(const FunctionType& type) {
  int n = 0;
  for (const auto& a : type)
    if (a.isTensor) {
      if (a.spec.shape.hasUnknownRank())
        n += 1000;
      else
        for (auto d : a.spec.shape.dims()) n += d < 0;
    }
  return n;
}

}  // namespace

Arg::Arg(const std::vector<int>& v) : kind(Kind::kList) {
  for (int x : v) list.emplace_back(x);
}
Arg::Arg(const std::vector<float>& v) : kind(Kind::kList) {
  for (float x : v) list.emplace_back(x);
}

std::string Arg::literal() const {
  switch (kind) {
    case Kind::kTensor:
      return tensor.toString();
    case Kind::kBool:
      return i ? "True" : "False";
    case Kind::kInt:
      return std::to_string(i);
    case Kind::kFloat:
      return formatFloatLiteral(f);
    case Kind::kString:
      return "'" + s + "'";
    case Kind::kList: {
      std::string text = "[";
      for (size_t k = 0; k < list.size(); ++k) text += (k ? ", " : "") + list[k].literal();
      return text + "]";
    }
  }
  return "";
}

Tensor Arg::toTensor() const {
  switch (kind) {
    case Kind::kTensor:
      return tensor;
    case Kind::kBool:
      return Tensor(i != 0);
    case Kind::kInt:
      return Tensor(static_cast<int>(i));
    case Kind::kFloat:
      return Tensor(static_cast<float>(f));
    case Kind::kString:
      throw Error(ErrorCode::kInvalidArgument, "a string argument cannot become a numeric tensor");
    case Kind::kList: {
      bool floats = false;
      for (const auto& e : list) {
        if (e.kind != Kind::kInt && e.kind != Kind::kFloat && e.kind != Kind::kBool)
          throw Error(ErrorCode::kInvalidArgument, "only flat lists of numbers convert to tensors");
        floats |= e.kind == Kind::kFloat;
      }
      if (floats) {
        std::vector<float> v;
        for (const auto& e : list)
          v.push_back(static_cast<float>(e.kind == Kind::kFloat ? e.f : static_cast<double>(e.i)));
        return Tensor(v);
      }
      std::vector<int> v;
      for (const auto& e : list) v.push_back(static_cast<int>(e.i));
      return Tensor(v);
    }
  }
  return {};
}

bool ArgType::operator==(const ArgType& o) const {
  return isTensor == o.isTensor && literal == o.literal && spec.dtype == o.spec.dtype && spec.shape == o.spec.shape;
}

bool ArgType::accepts(const ArgType& o) const {
  if (isTensor != o.isTensor) return false;
  if (!isTensor) return literal == o.literal;
  if (spec.dtype != o.spec.dtype) return false;
  if (spec.shape.hasUnknownRank()) return true;
  if (o.spec.shape.hasUnknownRank() || o.spec.shape.rank() != spec.shape.rank()) return false;
  for (int i = 0; i < spec.shape.rank(); ++i)
    if (spec.shape.dim(i) >= 0 && spec.shape.dim(i) != o.spec.shape.dim(i)) return false;
  return true;
}

namespace config {
void runFunctionsEagerly(bool eagerly) { gRunEagerly = eagerly; }
bool functionsRunEagerly() { return gRunEagerly; }
}  // namespace config

// ---------------------------------------------------------------------------------------------------------------

ConcreteFunction::ConcreteFunction(std::string name, FunctionType type, std::vector<std::string> argNames, Graph graph,
                                   std::vector<std::string> inputs, std::vector<TensorSpec> outputs,
                                   std::vector<std::string> stateful,
                                   std::vector<std::pair<std::string, flowscope::Tensor>> capturedFeeds)
    : m_name(std::move(name)),
      m_type(std::move(type)),
      m_argNames(std::move(argNames)),
      m_graph(std::move(graph)),
      m_inputs(std::move(inputs)),
      m_outputs(std::move(outputs)),
      m_stateful(std::move(stateful)),
      m_capturedFeeds(std::move(capturedFeeds)) {}

ConcreteFunction::~ConcreteFunction() = default;

std::vector<std::string> ConcreteFunction::outputNames() const {
  std::vector<std::string> names;
  for (size_t k = 0; k < m_outputs.size(); ++k)
    names.push_back((k == 0 ? std::string("Identity") : "Identity_" + std::to_string(k)) + ":0");
  return names;
}

Expected<std::vector<flowscope::Tensor>> ConcreteFunction::run(const std::vector<Arg>& args, RunProfile* profile,
                                                               int runIndex) const {
  std::vector<flowscope::Tensor> values;
  for (size_t i = 0; i < args.size() && i < m_type.size(); ++i) {
    if (!m_type[i].isTensor) continue;
    Tensor t = args[i].toTensor();
    if (t.isSymbolic()) return invalidArgument("a graph tensor cannot be fed to '" + m_name + "'");
    values.push_back(t.value());
  }
  return runTensors(values, profile, runIndex);
}

Expected<std::vector<flowscope::Tensor>> ConcreteFunction::runTensors(const std::vector<flowscope::Tensor>& values,
                                                                      RunProfile* profile, int runIndex) const {
  if (values.size() != m_inputs.size())
    return invalidArgument("concrete function '" + m_name + "' takes " + std::to_string(m_inputs.size()) +
                           " tensors, got " + std::to_string(values.size()));
  std::vector<std::pair<std::string, flowscope::Tensor>> feeds;
  feeds.reserve(values.size() + m_capturedFeeds.size());
  for (size_t i = 0; i < values.size(); ++i) feeds.emplace_back(m_inputs[i] + ":0", values[i]);
  for (const auto& [placeholder, value] : m_capturedFeeds) feeds.emplace_back(placeholder + ":0", value);
  std::lock_guard lock(m_mutex);
  if (!m_runner) {
    auto model = std::make_shared<Model>();
    model->path = m_name;
    model->format = "traced function";
    model->graph = m_graph;
    std::vector<std::string> inputNames;
    for (const auto& [name, value] : feeds) inputNames.push_back(name);
    PipelineOptions options;
    options.verify = false;  // the traced graph was built op by op from schemas
    std::vector<std::string> keep = outputNames();
    keep.insert(keep.end(), m_stateful.begin(), m_stateful.end());  // prints and other effects run on every call
    auto optimized = optimizeModel(model, options, inputNames, keep);
    RunnerOptions runnerOptions;
    runnerOptions.resources = &EagerContext::global().resources();  // the variables eager code reads and writes
    m_runner = std::make_unique<ModelRunner>(optimized ? optimized->model : std::shared_ptr<const Model>(model),
                                             runnerOptions);
  }
  return m_runner->run(feeds, outputNames(), m_stateful, profile, runIndex);
}

Graph ConcreteFunction::graphDef() const {
  Graph graph = m_graph;
  FunctionLibrary library;
  for (const auto& f : m_graph.library.functions())
    if (f.signature.name != m_name) library.add(f);
  graph.library = std::move(library);
  return graph;
}

std::string ConcreteFunction::prettySignature(const std::string& functionName) const {
  std::string head = functionName + "(", args, returns;
  for (size_t i = 0; i < m_type.size(); ++i) {
    const std::string& name = i < m_argNames.size() ? m_argNames[i] : "arg" + std::to_string(i);
    head += (i ? ", " : "") + name + (m_type[i].isTensor ? "" : "=" + m_type[i].literal);
    if (m_type[i].isTensor)
      args += "    " + name + ": " + std::string(dtypeName(m_type[i].spec.dtype)) +
              " Tensor, shape=" + shapeText(m_type[i].spec.shape) + "\n";
  }
  std::string text = head + ")\n";
  if (!args.empty()) text += "  Args:\n" + args;
  text += "  Returns:\n";
  if (m_outputs.size() == 1) {
    text +=
        "    " + std::string(dtypeName(m_outputs[0].dtype)) + " Tensor, shape=" + shapeText(m_outputs[0].shape) + "\n";
  } else {
    text += "    [";
    for (size_t k = 0; k < m_outputs.size(); ++k)
      text += (k ? ", " : "") + std::string("<") + std::string(dtypeName(m_outputs[k].dtype)) +
              " Tensor, shape=" + shapeText(m_outputs[k].shape) + ">";
    text += "]\n";
  }
  return text;
}

Expected<std::shared_ptr<ConcreteFunction>> makeConcreteFunction(const FuncGraph& graph, const std::string& name,
                                                                 FunctionType type, std::vector<std::string> argNames,
                                                                 std::vector<std::string> inputs, bool jit) {
  std::vector<std::string> outputNames;
  std::vector<TensorSpec> outputs;
  for (size_t k = 0; k < graph.outputs().size(); ++k) {
    outputNames.push_back(k == 0 ? "identity" : "identity_" + std::to_string(k));
    outputs.push_back(TensorSpec{graph.outputs()[k].dtype(), graph.outputs()[k].shape(), ""});
  }
  FS_ASSIGN_OR_RETURN(FunctionDef inference, graph.toFunctionDef(name, outputNames));
  if (jit) inference.attrs["_XlaMustCompile"] = AttrValue::fromBool(true);
  Graph exported = graph.graph();
  exported.library = *graph.sharedLibrary();
  exported.library.add(std::move(inference));
  std::vector<std::pair<std::string, flowscope::Tensor>> capturedFeeds;
  for (const auto& [outer, placeholder] : graph.captures())
    if (!outer.isSymbolic()) capturedFeeds.emplace_back(placeholder, outer.value());
  return std::make_shared<ConcreteFunction>(name, std::move(type), std::move(argNames), std::move(exported),
                                            std::move(inputs), std::move(outputs), graph.statefulNodes(),
                                            std::move(capturedFeeds));
}

// ---------------------------------------------------------------------------------------------------------------

Function::Function(Callable callable, FunctionOptions options)
    : m_callable(std::move(callable)), m_options(std::move(options)) {}

Expected<FunctionType> Function::typeOf(const std::vector<Arg>& args) const {
  FunctionType type;
  if (m_options.inputSignature) {
    const auto& signature = *m_options.inputSignature;
    if (args.size() != signature.size())
      return invalidArgument(m_options.name + " takes " + std::to_string(signature.size()) +
                             " arguments under its input_signature, got " + std::to_string(args.size()));
    for (size_t i = 0; i < args.size(); ++i) {
      ArgType want{true, signature[i], ""};
      if (args[i].kind == Arg::Kind::kString)
        return invalidArgument("argument " + std::to_string(i) + " is not a tensor");
      Tensor t = args[i].toTensor();
      ArgType got{true, TensorSpec{t.dtype(), t.shape(), ""}, ""};
      if (!want.accepts(got))
        return invalidArgument("Python inputs incompatible with input_signature: argument " + std::to_string(i) +
                               " is " + std::string(dtypeName(t.dtype())) + " " + pythonShape(t.shape()) +
                               ", the signature says TensorSpec(shape=" + pythonShape(signature[i].shape) +
                               ", dtype=tf." + std::string(dtypeName(signature[i].dtype)) + ")");
      type.push_back(want);
    }
    return type;
  }
  for (const auto& a : args) {
    if (a.kind == Arg::Kind::kTensor)
      type.push_back(ArgType{true, TensorSpec{a.tensor.dtype(), a.tensor.shape(), ""}, ""});
    else
      type.push_back(ArgType{false, {}, a.literal()});
  }
  return type;
}

std::shared_ptr<ConcreteFunction> Function::dispatch(const FunctionType& type) const {
  std::shared_ptr<ConcreteFunction> best;
  for (const auto& t : m_traces) {
    if (t->type() == type) return t;  // an exact match wins
    bool ok = t->type().size() == type.size();
    for (size_t i = 0; ok && i < type.size(); ++i) ok = t->type()[i].accepts(type[i]);
    if (ok && (!best || unknowns(t->type()) < unknowns(best->type()))) best = t;
  }
  return best;
}

Expected<std::shared_ptr<ConcreteFunction>> Function::trace(const FunctionType& requested,
                                                            const std::vector<Arg>& args) {
  FunctionType type = requested;
  if (m_options.reduceRetracing && !m_options.inputSignature)  // generalize against earlier traces of the same kind
    for (const auto& t : m_traces) {
      if (t->type().size() != type.size()) continue;
      bool sameKind = true;
      for (size_t i = 0; i < type.size() && sameKind; ++i)
        sameKind = type[i].isTensor == t->type()[i].isTensor && type[i].literal == t->type()[i].literal &&
                   type[i].spec.dtype == t->type()[i].spec.dtype;
      if (!sameKind) continue;
      for (size_t i = 0; i < type.size(); ++i)
        if (type[i].isTensor) type[i].spec.shape = commonShape(type[i].spec.shape, t->type()[i].spec.shape);
    }
  const int uid = nextFunctionUid();
  const std::string name = "__inference_" + m_options.name + "_" + std::to_string(uid);
  auto graph = std::make_shared<FuncGraph>(name, nullptr, nullptr);
  std::vector<Arg> traced;
  std::vector<std::string> inputs;
  try {
    TracingScope scope(graph);
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string argName = i < m_options.argNames.size() ? m_options.argNames[i] : "arg" + std::to_string(i);
      if (type[i].isTensor) {
        traced.emplace_back(graph->addInput(argName, type[i].spec.dtype, type[i].spec.shape));
        inputs.push_back(graph->inputs().back());
      } else {
        traced.push_back(args[i]);  // literals are baked into the trace
      }
    }
    ++m_tracingCount;
    graph->setOutputs(m_callable(traced));
  } catch (const Error& e) {
    return Status(e.code(), "while tracing " + m_options.name + ": " + e.what());
  }
  FS_ASSIGN_OR_RETURN(auto concrete,
                      makeConcreteFunction(*graph, name, type, m_options.argNames, inputs, m_options.jitCompile));
  m_traces.push_back(concrete);
  return concrete;
}

Expected<std::shared_ptr<ConcreteFunction>> Function::getConcreteFunction(const std::vector<Arg>& args) {
  FS_ASSIGN_OR_RETURN(FunctionType type, typeOf(args));
  if (auto found = dispatch(type)) return found;
  if (m_options.inputSignature && !m_traces.empty()) return m_traces.front();
  return trace(type, args);
}

Expected<std::vector<Tensor>> Function::callEagerly(const std::vector<Arg>& args) const {
  try {
    return m_callable(args);
  } catch (const Error& e) {
    return Status(e.code(), e.what());
  }
}

Expected<std::vector<Tensor>> Function::call(const std::vector<Arg>& args) {
  if (currentGraph()) {  // called while another function traces: traced into the same graph
    try {
      return m_callable(args);
    } catch (const Error& e) {
      return Status(e.code(), e.what());
    }
  }
  if (config::functionsRunEagerly()) {
    if (m_options.inputSignature) FS_RETURN_IF_ERROR(typeOf(args).status());
    return callEagerly(args);
  }
  FS_ASSIGN_OR_RETURN(auto concrete, getConcreteFunction(args));
  FS_ASSIGN_OR_RETURN(auto values, concrete->run(args));
  std::vector<Tensor> out;
  for (auto& v : values) out.emplace_back(std::move(v));
  return out;
}

std::string Function::prettyPrintedConcreteSignatures() const {
  std::string text;
  for (size_t i = 0; i < m_traces.size(); ++i) text += (i ? "\n" : "") + m_traces[i]->prettySignature(m_options.name);
  return text;
}

}  // namespace flowscope::tf
