// Finding the ParseExample that reads a string input and filling Examples it parses.
#include "workflow/example_inputs.h"

#include <random>

#include "ir/tf_example.h"

namespace flowscope {
namespace {

struct DenseFeature {
  std::string key;
  DType dtype = DType::kFloat;
  int64_t values = 1;
};

// The string values of a Const node's tensor, or nullopt when `input` is not a string constant.
std::optional<std::vector<std::string>> constStrings(const Graph& graph, const TensorRef& input) {
  const Node* n = graph.findNode(input.node);
  const AttrValue* v = n && n->op == "Const" ? n->attr("value") : nullptr;
  if (!v || v->kind() != AttrValue::Kind::kTensor || !v->tensor().isStringLike()) return std::nullopt;
  return v->tensor().strings();
}

// ParseExample's dense keys are Ndense scalar inputs after the sparse ones; ParseExampleV2's are one vector (input 3).
std::optional<std::vector<DenseFeature>> denseFeatures(const Graph& graph, const Node& parse) {
  const AttrValue* types = parse.attr("Tdense");
  const AttrValue* shapes = parse.attr("dense_shapes");
  if (!types || !shapes || types->kind() != AttrValue::Kind::kList || shapes->kind() != AttrValue::Kind::kList)
    return std::nullopt;
  const std::vector<DType>& dtypes = types->list().type;
  std::vector<std::string> keys;
  const bool v2 = parse.op == "ParseExampleV2";
  const size_t first = v2 ? 3 : 2 + static_cast<size_t>(parse.attr("Nsparse") ? parse.attr("Nsparse")->i() : 0);
  for (size_t i = first; i < first + (v2 ? 1 : dtypes.size()) && i < parse.inputs.size(); ++i) {
    auto values = constStrings(graph, parse.inputs[i]);
    if (!values) return std::nullopt;
    keys.insert(keys.end(), values->begin(), values->end());
  }
  if (keys.size() != dtypes.size() || shapes->list().shape.size() != dtypes.size()) return std::nullopt;
  std::vector<DenseFeature> features;
  for (size_t i = 0; i < keys.size(); ++i) {
    int64_t count = 1;
    for (int64_t d : shapes->list().shape[i].dims()) count *= d < 0 ? 1 : d;
    features.push_back({keys[i], dtypes[i], count});
  }
  return features;
}

const Node* exampleParser(const Graph& graph, const std::string& tensor) {
  const std::string node = tensor.substr(0, tensor.rfind(':'));
  for (size_t i = 0; i < graph.size(); ++i) {
    const Node& n = graph.node(i);
    if ((n.op == "ParseExample" || n.op == "ParseExampleV2") && !n.inputs.empty() && n.inputs[0].node == node &&
        n.inputs[0].index == 0)
      return &n;
  }
  return nullptr;
}

ExampleFeature randomFeature(const DenseFeature& f, std::mt19937_64& gen) {
  ExampleFeature out;
  out.kind = f.dtype == DType::kFloat   ? ExampleFeature::Kind::kFloat
             : f.dtype == DType::kInt64 ? ExampleFeature::Kind::kInt64
                                        : ExampleFeature::Kind::kBytes;
  for (int64_t i = 0; i < f.values; ++i) {
    if (out.kind == ExampleFeature::Kind::kFloat)
      out.floats.push_back(std::uniform_real_distribution<float>(0, 1)(gen));
    if (out.kind == ExampleFeature::Kind::kInt64) out.ints.push_back(static_cast<int64_t>(gen() % 10));
    if (out.kind == ExampleFeature::Kind::kBytes) out.bytes.emplace_back();
  }
  return out;
}

}  // namespace

std::optional<Tensor> randomExamples(const Model& model, const std::string& tensor, const Shape& shape, uint64_t seed) {
  const Node* parse = exampleParser(model.graph, tensor);
  if (!parse) return std::nullopt;
  auto features = denseFeatures(model.graph, *parse);
  if (!features) return std::nullopt;
  std::mt19937_64 gen(seed);
  std::vector<std::string> records;
  for (int64_t b = 0; b < shape.numElements(); ++b) {
    Example example;
    for (const auto& f : *features) example[f.key] = randomFeature(f, gen);
    records.push_back(serializeExample(example));
  }
  return Tensor::fromStrings(shape, std::move(records));
}

}  // namespace flowscope
