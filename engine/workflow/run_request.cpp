// Building run requests from user specs.
#include "workflow/run_request.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>

#include "base/strings.h"
#include "io/model_summary.h"
#include "io/npy.h"
#include "ir/dtype_dispatch.h"
#include "ir/verify.h"
#include "ops/onnx_op_set.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"
#include "workflow/example_inputs.h"

namespace flowscope {
namespace {

// A recursive-descent reader for nested lists of numbers and booleans.
class LiteralParser {
 public:
  explicit LiteralParser(const std::string& text) : m_text(text) {}

  Status parse(std::vector<double>* values, std::vector<int64_t>* dims, bool* sawFloat, bool* sawBool) {
    m_values = values;
    m_sawFloat = sawFloat;
    m_sawBool = sawBool;
    std::vector<int64_t> shape;
    FS_RETURN_IF_ERROR(element(0, &shape));
    skipSpace();
    if (m_pos != m_text.size()) return invalidArgument("unexpected '" + m_text.substr(m_pos, 8) + "' in literal");
    *dims = shape;
    return Status::ok();
  }

 private:
  void skipSpace() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
  }

  Status element(size_t depth, std::vector<int64_t>* shape) {
    skipSpace();
    if (m_pos < m_text.size() && m_text[m_pos] == '[') {
      ++m_pos;
      int64_t count = 0;
      std::vector<int64_t> inner;
      bool first = true;
      skipSpace();
      while (m_pos < m_text.size() && m_text[m_pos] != ']') {
        if (!first) {
          if (m_text[m_pos] != ',') return invalidArgument("expected ',' at position " + std::to_string(m_pos));
          ++m_pos;
        }
        std::vector<int64_t> child;
        FS_RETURN_IF_ERROR(element(depth + 1, &child));
        if (!first && child != inner) return invalidArgument("ragged literal: rows have different shapes");
        inner = child;
        first = false;
        ++count;
        skipSpace();
      }
      if (m_pos >= m_text.size()) return invalidArgument("missing ']'");
      ++m_pos;
      shape->push_back(count);
      shape->insert(shape->end(), inner.begin(), inner.end());
      return Status::ok();
    }
    size_t start = m_pos;
    while (m_pos < m_text.size() && !std::strchr(",] \t", m_text[m_pos])) ++m_pos;
    std::string token = m_text.substr(start, m_pos - start);
    if (token == "true" || token == "True" || token == "false" || token == "False") {
      *m_sawBool = true;
      m_values->push_back(token[0] == 't' || token[0] == 'T' ? 1 : 0);
      return Status::ok();
    }
    char* end = nullptr;
    double v = std::strtod(token.c_str(), &end);
    if (token.empty() || *end != '\0') return invalidArgument("'" + token + "' is not a number");
    if (token.find_first_of(".eE") != std::string::npos || token == "nan" || token == "inf") *m_sawFloat = true;
    m_values->push_back(v);
    return Status::ok();
  }

  std::string m_text;
  size_t m_pos = 0;
  std::vector<double>* m_values = nullptr;
  bool* m_sawFloat = nullptr;
  bool* m_sawBool = nullptr;
};

using InputSlot = RunInput;

// The signature whose method name (tensorflow/serving/regress) is `method`, when only one has it.
const Signature* signatureByMethod(const Model& model, const std::string& method, Status* error) {
  std::vector<const Signature*> found;
  for (const auto& sig : model.signatures)
    if (sig.methodName == method) found.push_back(&sig);
  if (found.size() == 1) return found[0];
  if (found.size() > 1) {
    std::vector<std::string> keys;
    for (const Signature* sig : found) keys.push_back(sig->key);
    *error = invalidArgument("signatures " + joinStrings(keys, ", ") + " all have method '" + method +
                             "'; choose one by its key");
  }
  return nullptr;
}

const Signature* chooseSignature(const Model& model, const std::string& name, Status* error) {
  if (!name.empty()) {
    const Signature* s = model.findSignature(name);
    if (!s) s = signatureByMethod(model, name, error);
    if (!s && error->isOk()) {
      std::vector<std::string> keys;
      for (const auto& sig : model.signatures) keys.push_back(sig.key);
      *error =
          notFound("no signature '" + name + "'; the model has: " + (keys.empty() ? "none" : joinStrings(keys, ", ")));
    }
    return s;
  }
  if (const Signature* s = model.findSignature("serving_default")) return s;
  if (model.signatures.size() == 1) return &model.signatures[0];
  if (model.signatures.size() > 1) {
    std::vector<std::string> keys;
    for (const auto& sig : model.signatures) keys.push_back(sig.key);
    *error =
        invalidArgument("the model has several signatures and none is serving_default; choose one with --signature: " +
                        joinStrings(keys, ", "));
  }
  return nullptr;
}

Expected<Tensor> tensorFromSpec(const Model& model, const std::string& spec, const InputSlot& slot, uint64_t seed) {
  if (slot.dtype == DType::kVariant) {  // an ONNX sequence, map or optional; a TensorFlow TensorList or dataset
    const Node* node = model.graph.findNode(slot.tensor.substr(0, slot.tensor.rfind(':')));
    const AttrValue* type = node ? node->attr(kOnnxTypeAttr) : nullptr;
    return unimplemented("is " + (type ? type->s() : std::string("a variant")) +
                         ", not a tensor; run feeds tensors only (random values, literals and .npy files)");
  }
  if (spec == "random") {
    Shape shape = slot.shape.hasUnknownRank() ? Shape{} : slot.shape;
    std::vector<int64_t> dims = shape.dims();
    for (auto& d : dims) d = d < 0 ? 1 : d;
    if (slot.dtype == DType::kString && dims.size() <= 1)  // a batch of records, when the graph parses them
      if (auto examples =
              randomExamples(model, slot.tensor, Shape(dims.empty() ? std::vector<int64_t>{1} : dims), seed))
        return std::move(examples).value();
    return randomTensor(slot.dtype, Shape(dims), seed);
  }
  if (endsWith(spec, ".npy")) return readNpy(spec);
  return parseTensorLiteral(spec, slot.dtype);
}

}  // namespace

Expected<Tensor> parseTensorLiteral(const std::string& text, DType hint) {
  std::string body = text;
  DType dtype = hint;
  bool explicitType = false;
  const size_t colon = text.rfind(':'), bracket = text.rfind(']');
  if (colon != std::string::npos && (bracket == std::string::npos || colon > bracket)) {
    auto parsed = parseDType(text.substr(colon + 1));
    if (!parsed) return invalidArgument("unknown dtype '" + text.substr(colon + 1) + "' in '" + text + "'");
    dtype = *parsed;
    body = text.substr(0, colon);
    explicitType = true;
  }
  std::vector<double> values;
  std::vector<int64_t> dims;
  bool sawFloat = false, sawBool = false;
  Status s = LiteralParser(body).parse(&values, &dims, &sawFloat, &sawBool);
  if (!s.isOk()) return s.withContext("literal '" + text + "': ");
  if (!explicitType && (dtype == DType::kInvalid || dtype == DType::kString || dtype == DType::kResource))
    dtype = sawBool ? DType::kBool : sawFloat ? DType::kFloat : DType::kInt32;
  if (dtype == DType::kString)
    return invalidArgument("literal '" + text + "': string tensors need a .npy-free path; not supported");
  Tensor t = Tensor::uninitialized(dtype, Shape(dims));
  if (!dispatchNumeric(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (size_t i = 0; i < values.size(); ++i) t.data<T>()[i] = static_cast<T>(values[i]);
      })) {
    if (dtype != DType::kHalf)
      return invalidArgument("literal '" + text + "': cannot make a " + std::string(dtypeName(dtype)) + " tensor");
    for (size_t i = 0; i < values.size(); ++i) t.data<uint16_t>()[i] = floatToHalf(static_cast<float>(values[i]));
  }
  return t;
}

Expected<Tensor> randomTensor(DType dtype, const Shape& shape, uint64_t seed) {
  if (dtype == DType::kString) return Tensor(dtype, shape);  // empty strings: each one a valid, empty tf.Example
  auto bytes = Tensor::checkedByteSize(dtype, shape, size_t{1} << 32);
  if (!bytes) return bytes.status().withContext("random input: ");
  std::mt19937_64 gen(seed);
  Tensor t = Tensor::uninitialized(dtype, shape);
  bool ok = dispatchNumeric(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = 0; i < t.numElements(); ++i) {
      if constexpr (std::is_same_v<T, bool>)
        t.data<T>()[i] = (gen() & 1) != 0;
      else if constexpr (std::is_floating_point_v<T>)
        t.data<T>()[i] = std::uniform_real_distribution<T>(0, 1)(gen);
      else
        t.data<T>()[i] = static_cast<T>(gen() % 10);
    }
  });
  if (!ok) return invalidArgument("cannot make random input of dtype " + std::string(dtypeName(dtype)));
  return t;
}

Expected<std::vector<RunInput>> runInputs(const Model& model, const std::string& signature) {
  Status error;
  const Signature* sig = chooseSignature(model, signature, &error);
  if (!error.isOk()) return error;
  std::vector<RunInput> inputs;
  if (sig) {
    for (const auto& in : sig->inputs) inputs.push_back({in.key, in.tensorName, in.dtype, in.shape});
  } else {
    for (const auto& e : summarizeModel(model).inputs) inputs.push_back({e.name, e.name, e.dtype, e.shape});
  }
  return inputs;
}

namespace {

std::string nodeOf(const std::string& tensor) { return tensor.substr(0, tensor.rfind(':')); }

// What a run fetches when the user does not say: the signature's outputs, else the _Retval inputs of an instantiated
// function, else the graph's sinks.
void addDefaultFetches(const Model& model, const Signature* sig, RunRequest& request) {
  auto add = [&](const std::string& tensor, const std::string& label) {
    request.fetches.push_back(tensor);
    request.fetchLabels.push_back(label);
  };
  if (sig) {
    for (const auto& out : sig->outputs) add(out.tensorName, out.key);
    return;
  }
  std::vector<std::pair<int64_t, std::string>> retvals;
  for (size_t i = 0; i < model.graph.size(); ++i) {
    const Node& n = model.graph.node(i);
    if (n.op != "_Retval" || n.inputs.size() != 1) continue;
    const AttrValue* index = n.attr("index");
    retvals.emplace_back(index && index->kind() == AttrValue::Kind::kInt ? index->i() : 0,
                         n.inputs[0].node + ":" + std::to_string(n.inputs[0].index));
  }
  std::sort(retvals.begin(), retvals.end());
  for (const auto& [index, tensor] : retvals) add(tensor, tensor);
  if (!retvals.empty()) return;
  for (const auto& e : summarizeModel(model).outputs)
    if (e.dtype != DType::kInvalid) add(e.name, e.name);
}

// Fetches the user named: a signature output key (as TensorFlow Serving and TF.js name outputs) or a tensor or node.
void useNamedFetches(const Signature* sig, const std::vector<std::string>& names, RunRequest& request) {
  request.fetches.clear();
  request.fetchLabels.clear();
  for (const auto& name : names) {
    const TensorSpecInfo* out = nullptr;
    for (size_t i = 0; sig && !out && i < sig->outputs.size(); ++i)
      if (sig->outputs[i].key == name) out = &sig->outputs[i];
    request.fetches.push_back(out ? out->tensorName : name);
    request.fetchLabels.push_back(name);
  }
}

// Non-strict: the nodes the fetches reach through tensors the user does not feed (only those inputs need values).
std::set<std::string> neededNodes(const Model& model, const std::vector<std::string>& fetches,
                                  const std::set<std::string>& fedNodes) {
  std::set<std::string> needed;
  std::vector<std::string> work;
  for (const auto& f : fetches) work.push_back(nodeOf(f));
  while (!work.empty()) {
    std::string n = work.back();
    work.pop_back();
    if (!needed.insert(n).second || fedNodes.count(n)) continue;
    if (const Node* node = model.graph.findNode(n)) {
      for (const auto& in : node->inputs) work.push_back(in.node);
      for (const auto& c : node->controlInputs) work.push_back(c);
    }
  }
  return needed;
}

// Inputs given by name that are not signature inputs or placeholders: any tensor of the graph can be fed.
Status feedNamedTensors(const Model& model, const std::map<std::string, std::string>& specs, uint64_t& seed,
                        RunRequest& request) {
  GraphShapes shapes;
  bool shapesReady = false;
  for (const auto& [name, spec] : specs) {
    InputSlot slot{name, name, DType::kInvalid, Shape::unknownRank()};
    int64_t index = model.graph.find(nodeOf(name));
    if (index < 0) return notFound("--input '" + name + "' names no signature input or graph node");
    if (!shapesReady) {
      shapes = inferShapes(model.graph);
      shapesReady = true;
    }
    int output = name.find(':') == std::string::npos ? 0 : std::atoi(name.substr(name.rfind(':') + 1).c_str());
    if (const TensorInfo* info = shapes.find(static_cast<size_t>(index), output)) {
      slot.dtype = info->dtype;
      slot.shape = info->shape;
    }
    auto value = tensorFromSpec(model, spec, slot, seed++);
    if (!value) return value.status().withContext("input '" + name + "': ");
    request.feeds.emplace_back(name.find(':') == std::string::npos ? name + ":0" : name, std::move(value).value());
  }
  return Status::ok();
}

}  // namespace

Expected<RunRequest> makeRunRequest(const Model& model, const RunSpecOptions& options) {
  Status error;
  const Signature* sig = chooseSignature(model, options.signature, &error);
  if (!error.isOk()) return error;
  FS_ASSIGN_OR_RETURN(std::vector<InputSlot> slots, runInputs(model, options.signature));
  RunRequest request;
  addDefaultFetches(model, sig, request);
  if (!options.fetches.empty()) useNamedFetches(sig, options.fetches, request);
  std::map<std::string, std::string> specs = options.inputs;
  uint64_t seed = options.seed;
  std::set<std::string> fedNodes;  // nodes fed by name rather than as an input slot
  for (const auto& [name, spec] : specs) fedNodes.insert(nodeOf(name));
  for (const auto& slot : slots)
    if (specs.count(slot.label) || specs.count(slot.tensor) || specs.count(nodeOf(slot.tensor)))
      fedNodes.erase(nodeOf(slot.tensor));
  const std::set<std::string> needed = neededNodes(model, request.fetches, fedNodes);
  for (const auto& slot : slots) {
    if (!needed.count(nodeOf(slot.tensor))) continue;
    std::string spec = "random";
    for (const std::string& key : {slot.label, slot.tensor, nodeOf(slot.tensor)}) {
      if (auto it = specs.find(key); it != specs.end()) {
        spec = it->second;
        specs.erase(it);
        break;
      }
    }
    auto value = tensorFromSpec(model, spec, slot, seed++);
    if (!value) return value.status().withContext("input '" + slot.label + "': ");
    request.feeds.emplace_back(slot.tensor, std::move(value).value());
  }
  FS_RETURN_IF_ERROR(feedNamedTensors(model, specs, seed, request));
  if (request.fetches.empty()) {
    const std::vector<std::string> cycle = findEdgeCycle(model.graph);
    if (!cycle.empty())
      return invalidArgument("the graph's edges form a cycle that is not a TF1 loop, so it has no sinks to fetch: " +
                             joinCycle(cycle));
    return invalidArgument("nothing to fetch: the model has no signature outputs or sinks; pass --fetch");
  }
  return request;
}

}  // namespace flowscope
