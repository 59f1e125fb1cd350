// Synthetic graph generator.
#include "ir/synthetic_graph.h"

#include <cmath>
#include <random>

namespace flowscope {
namespace {

constexpr size_t kNodesPerUnit = 17;

class Builder {
 public:
  Builder(Graph& graph, const SyntheticGraphOptions& options) : m_graph(graph), m_options(options) {}

  std::string placeholder(const std::string& name) {
    Node n{name, "Placeholder", "", {}, {}, {}, {}};
    n.attrs["dtype"] = AttrValue::fromType(DType::kFloat);
    n.attrs["shape"] = AttrValue::fromShape(Shape{1, m_options.spatial, m_options.spatial, m_options.channels});
    return add(std::move(n));
  }

  // Const + Identity read, as a frozen TF1 graph has.
  std::string weight(const std::string& scope, const std::string& name, Shape shape, float scale, float offset) {
    Tensor t(DType::kFloat, shape);
    std::uniform_real_distribution<float> u(-1, 1);
    for (int64_t i = 0; i < t.numElements(); ++i) t.data<float>()[i] = offset + scale * u(m_rng);
    Node c{scope + "/" + name, "Const", "", {}, {}, {}, {}};
    c.attrs["dtype"] = AttrValue::fromType(DType::kFloat);
    c.attrs["value"] = AttrValue::fromTensor(t);
    std::string constName = add(std::move(c));
    return op(scope + "/" + name + "/read", "Identity", {constName});
  }

  std::string op(const std::string& name, const std::string& type, std::vector<std::string> inputs) {
    Node n{name, type, "", {}, {}, {}, {}};
    for (auto& in : inputs) n.inputs.push_back(TensorRef{in, 0, ""});
    n.attrs["T"] = AttrValue::fromType(DType::kFloat);
    return add(std::move(n));
  }

  std::string unit(const std::string& scope, const std::string& input) {
    const int64_t c = m_options.channels;
    std::string w = weight(scope, "weights", Shape{3, 3, c, c}, 1.0f / std::sqrt(9.0f * static_cast<float>(c)), 0);
    std::string conv = op(scope + "/Conv2D", "Conv2D", {input, w});
    Node& n = m_graph.mutableNode(static_cast<size_t>(m_graph.find(conv)));
    AttrList strides;
    strides.i = {1, 1, 1, 1};
    n.attrs["strides"] = AttrValue::fromList(strides);
    n.attrs["padding"] = AttrValue::fromString("SAME");
    n.attrs["data_format"] = AttrValue::fromString("NHWC");
    std::string b = weight(scope, "biases", Shape{c}, 0.1f, 0);
    std::string biased = op(scope + "/BiasAdd", "BiasAdd", {conv, b});
    std::string bn = op(scope + "/BatchNorm/FusedBatchNorm", "FusedBatchNorm",
                        {biased, weight(scope + "/BatchNorm", "gamma", Shape{c}, 0.1f, 1),
                         weight(scope + "/BatchNorm", "beta", Shape{c}, 0.1f, 0),
                         weight(scope + "/BatchNorm", "moving_mean", Shape{c}, 0.1f, 0),
                         weight(scope + "/BatchNorm", "moving_variance", Shape{c}, 0.1f, 1)});
    Node& bnNode = m_graph.mutableNode(static_cast<size_t>(m_graph.find(bn)));
    bnNode.attrs["is_training"] = AttrValue::fromBool(false);
    bnNode.attrs["epsilon"] = AttrValue::fromFloat(0.001f);
    bnNode.attrs["data_format"] = AttrValue::fromString("NHWC");
    return op(scope + "/Relu", "Relu", {bn});
  }

 private:
  std::string add(Node node) {
    std::string name = node.name;
    m_graph.addNode(std::move(node));
    return name;
  }
  Graph& m_graph;
  const SyntheticGraphOptions& m_options;
  std::mt19937 m_rng{42};
};

}  // namespace

Graph makeSyntheticGraph(const SyntheticGraphOptions& options) {
  Graph graph;
  graph.versions.present = true;
  graph.versions.producer = 1205;
  Builder builder(graph, options);
  const size_t units = std::max<size_t>(1, options.nodes / kNodesPerUnit);
  const int depth = std::max(1, options.depth);
  // Units per scope level: the same fan-out at every level, so groups stay a browsable size.
  const auto fanout =
      static_cast<size_t>(std::max(2.0, std::ceil(std::pow(static_cast<double>(units), 1.0 / (depth + 1)))));
  const char* levelNames[] = {"stage", "block", "layer", "group", "part", "section"};
  std::string current = builder.placeholder("input");
  std::string blockInput = current;
  for (size_t u = 0; u < units; ++u) {
    std::string scope = "model";
    size_t rest = u / fanout;
    std::vector<size_t> indices;
    for (int level = 0; level < depth; ++level) {
      indices.push_back(rest % fanout);
      rest /= fanout;
    }
    for (int level = depth - 1; level >= 0; --level)
      scope += "/" + std::string(levelNames[(depth - 1 - level) % 6]) + "_" +
               std::to_string(indices[static_cast<size_t>(level)]);
    scope += "/unit_" + std::to_string(u % fanout);
    current = builder.unit(scope, current);
    if (u % fanout == fanout - 1) {  // end of a block: residual connection
      std::string parent = scope.substr(0, scope.rfind('/'));
      current = builder.op(parent + "/residual", "AddV2", {current, blockInput});
      blockInput = current;
    }
  }
  builder.op("output", "Identity", {current});
  return graph;
}

}  // namespace flowscope
