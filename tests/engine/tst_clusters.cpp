// Cluster formation for device backends (exec/cluster_formation.h): nodes join or merge the clusters they read, and
// the graph of clusters and host nodes stays acyclic, whatever the graph.
#include <QtTest>
#include <random>
#include <set>

#include "exec/cluster_formation.h"
#include "ir/graph_algorithms.h"

using namespace flowscope;

namespace {

// A graph built node by node: each node reads the named nodes (data inputs, or control inputs after '^').
struct Built {
  Graph graph;
  std::vector<char> onDevice;
  void add(const std::string& name, bool device, const std::vector<std::string>& inputs = {}) {
    Node n;
    n.name = name;
    n.op = device ? "Relu" : "Erf";
    for (const auto& in : inputs) {
      if (in[0] == '^')
        n.controlInputs.push_back(in.substr(1));
      else
        n.inputs.push_back(TensorRef{in, 0, ""});
    }
    graph.addNode(std::move(n));
    onDevice.push_back(device);
  }
  std::vector<int> clusters() const { return formAcyclicClusters(graph, topologicalOrder(graph), onDevice); }
  int of(const std::vector<int>& clusters, const std::string& name) const {
    return clusters[static_cast<size_t>(graph.find(name))];
  }
};

// Whether the graph with each cluster contracted to one vertex has no cycle (Kahn's algorithm).
bool contractedIsAcyclic(const Graph& graph, const std::vector<int>& cluster) {
  int clusters = 0;
  for (int c : cluster) clusters = std::max(clusters, c + 1);
  const size_t n = graph.size(), vertices = n + static_cast<size_t>(clusters);
  auto vertexOf = [&](size_t i) { return cluster[i] >= 0 ? n + static_cast<size_t>(cluster[i]) : i; };
  std::vector<std::set<size_t>> next(vertices);
  for (size_t i = 0; i < n; ++i) {
    std::vector<std::string> producers = graph.node(i).controlInputs;
    for (const auto& in : graph.node(i).inputs) producers.push_back(in.node);
    for (const auto& p : producers) {
      const size_t from = vertexOf(static_cast<size_t>(graph.find(p))), to = vertexOf(i);
      if (from != to) next[from].insert(to);
    }
  }
  std::vector<int> indegree(vertices, 0);
  for (const auto& s : next)
    for (size_t t : s) ++indegree[t];
  std::vector<size_t> ready;
  for (size_t v = 0; v < vertices; ++v)
    if (!indegree[v]) ready.push_back(v);
  size_t done = 0;
  while (!ready.empty()) {
    const size_t v = ready.back();
    ready.pop_back();
    ++done;
    for (size_t t : next[v])
      if (--indegree[t] == 0) ready.push_back(t);
  }
  return done == vertices;
}

}  // namespace

class TestClusters : public QObject {
  Q_OBJECT

 private slots:
  void aChainIsOneCluster() {
    Built b;
    b.add("x", false);
    b.add("a", true, {"x"});
    b.add("b", true, {"a"});
    b.add("c", true, {"b", "a"});
    const auto c = b.clusters();
    QCOMPARE(b.of(c, "x"), -1);
    QCOMPARE(b.of(c, "a"), 0);
    QCOMPARE(b.of(c, "b"), 0);
    QCOMPARE(b.of(c, "c"), 0);
  }

  // Two clusters that do not depend on each other merge at the node that reads both (an LSTM step reading the input
  // slice and the zero state).
  void independentClustersMerge() {
    Built b;
    b.add("x", false);
    b.add("y", false);
    b.add("zx", true, {"x"});
    b.add("zy", true, {"y"});
    b.add("sum", true, {"zx", "zy"});
    const auto c = b.clusters();
    QCOMPARE(b.of(c, "zx"), b.of(c, "sum"));
    QCOMPARE(b.of(c, "zy"), b.of(c, "sum"));
  }

  // Y reads X through a host node, so X cannot take a node that reads Y through another host node: the clusters
  // would wait for each other.
  void aNodeDoesNotJoinAClusterItReachesThroughTheHost() {
    Built b;
    b.add("x", false);
    b.add("a", true, {"x"});    // X
    b.add("c1", false, {"a"});  // host, after X
    b.add("y0", true, {"x"});   // Y
    b.add("y", true, {"y0", "c1"});
    b.add("c2", false, {"y0"});  // host, after Y
    b.add("i", true, {"a", "c2"});
    const auto c = b.clusters();
    QCOMPARE(b.of(c, "y"), b.of(c, "y0"));
    QVERIFY(b.of(c, "i") != b.of(c, "a"));
    QVERIFY(contractedIsAcyclic(b.graph, c));
  }

  // A control edge is a dependency like a data edge.
  void controlEdgesCount() {
    Built b;
    b.add("x", false);
    b.add("a", true, {"x"});
    b.add("c", false, {"^a"});
    b.add("i", true, {"a", "c"});  // reads X directly and after X through the host
    const auto c = b.clusters();
    QVERIFY(b.of(c, "i") != b.of(c, "a"));
    QVERIFY(contractedIsAcyclic(b.graph, c));
  }

  // Random DAGs with random device nodes: the contracted graph never has a cycle, and merging keeps clusters few.
  void randomGraphsStayAcyclic() {
    std::mt19937 rng(11);
    for (int round = 0; round < 300; ++round) {
      Built b;
      const int n = 5 + static_cast<int>(rng() % 40);
      for (int i = 0; i < n; ++i) {
        std::vector<std::string> inputs;
        for (int k = 0; k < std::min(i, 1 + static_cast<int>(rng() % 3)); ++k)
          inputs.push_back((rng() % 8 == 0 ? "^n" : "n") + std::to_string(rng() % static_cast<unsigned>(i)));
        b.add("n" + std::to_string(i), rng() % 3 != 0, inputs);
      }
      const auto c = b.clusters();
      for (int i = 0; i < n; ++i) QCOMPARE(c[static_cast<size_t>(i)] >= 0, b.onDevice[static_cast<size_t>(i)] != 0);
      QVERIFY2(contractedIsAcyclic(b.graph, c), qPrintable(QString("round %1").arg(round)));
    }
  }
};

QTEST_MAIN(TestClusters)
#include "tst_clusters.moc"
