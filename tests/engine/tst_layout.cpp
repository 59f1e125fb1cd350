// Layout of the name-scope hierarchy: groups, collapsed/expanded scenes, edge bundling, caching, culling.
#include <QtTest>

#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "io/loader.h"
#include "ir/synthetic_graph.h"
#include "layout/dot_layout.h"
#include "layout/edge_labels.h"
#include "layout/graph_layout.h"
#include "layout/rect_index.h"
#include "ops/op_registry.h"

using namespace flowscope;

namespace {

std::shared_ptr<const Graph> synthetic(size_t nodes) {
  SyntheticGraphOptions options;
  options.nodes = nodes;
  return std::make_shared<const Graph>(makeSyntheticGraph(options));
}

// What a query must return, found by looking at every rectangle.
std::vector<int> bruteForce(const std::vector<Rect>& rects, const Rect& view, double minExtent) {
  std::vector<int> found;
  for (size_t i = 0; i < rects.size(); ++i)
    if (rects[i].extent() >= minExtent && rects[i].intersects(view)) found.push_back(static_cast<int>(i));
  return found;
}

size_t countKind(const Scene& s, SceneItem::Kind kind) {
  return static_cast<size_t>(
      std::count_if(s.items.begin(), s.items.end(), [&](const SceneItem& i) { return i.kind == kind; }));
}

}  // namespace

class TestLayout : public QObject {
  Q_OBJECT

 private slots:
  void scopeTree() {
    auto g = synthetic(600);
    ScopeTree tree(*g);
    QCOMPARE(size_t(tree.group(ScopeTree::kRoot).totalNodes), g->size());
    int model = tree.find("model");
    QVERIFY(model > 0);
    QCOMPARE(tree.depth(model), 1);
    QVERIFY(tree.group(model).totalNodes + 2 == g->size());  // all but input and output
    QCOMPARE(tree.groupOf(static_cast<size_t>(g->find("input"))), ScopeTree::kRoot);
  }

  // Scopes that interleave in the graph: each group lists its nodes in graph order and its child groups in the
  // order they first appear; paths and labels stay valid after the tree moves.
  void scopeTreeOrderAndViews() {
    auto g = std::make_shared<Graph>();
    for (const char* name : {"a/b/x", "c/y", "a/z", "a/b/w", "a/d/v", "top"}) {
      Node node;
      node.name = name;
      node.op = "NoOp";
      g->addNode(std::move(node));
    }
    ScopeTree built(*g);
    ScopeTree tree(std::move(built));
    const int a = tree.find("a"), ab = tree.find("a/b"), ad = tree.find("a/d"), c = tree.find("c");
    QVERIFY(a > 0 && ab > 0 && ad > 0 && c > 0 && tree.find("a/b/x") < 0 && tree.find("b") < 0);
    QCOMPARE(tree.group(ab).path, std::string_view("a/b"));
    QCOMPARE(tree.group(ab).label(), std::string_view("b"));
    QCOMPARE(tree.group(a).label(), std::string_view("a"));
    QCOMPARE(std::vector<int>(tree.group(ScopeTree::kRoot).groups.begin(), tree.group(ScopeTree::kRoot).groups.end()),
             (std::vector<int>{a, c}));
    QCOMPARE(std::vector<int>(tree.group(a).groups.begin(), tree.group(a).groups.end()), (std::vector<int>{ab, ad}));
    QCOMPARE(std::vector<uint32_t>(tree.group(ab).nodes.begin(), tree.group(ab).nodes.end()),
             (std::vector<uint32_t>{0, 3}));
    QCOMPARE(
        std::vector<uint32_t>(tree.group(ScopeTree::kRoot).nodes.begin(), tree.group(ScopeTree::kRoot).nodes.end()),
        (std::vector<uint32_t>{5}));
    QCOMPARE(tree.group(a).totalNodes, uint32_t(4));
    QCOMPARE(tree.group(ad).parent, a);
    // A path as a user writes it: with or without PyTorch's leading '/', as the outline shows it.
    QCOMPARE(tree.findAsWritten("a/b"), ab);
    QCOMPARE(tree.findAsWritten("/a/b"), ab);
    QCOMPARE(tree.findAsWritten("b"), -1);
    QCOMPARE(tree.topLevelLabels(8), std::string("a, c"));
    QCOMPARE(tree.topLevelLabels(1), std::string("a, ..."));
    auto torch = std::make_shared<Graph>();
    Node conv;
    conv.name = "/layer1/conv1/Conv";
    conv.op = "NoOp";
    torch->addNode(std::move(conv));
    const ScopeTree exported(*torch);
    QVERIFY(exported.find("/layer1") > 0);
    QCOMPARE(exported.findAsWritten("layer1/conv1"), exported.find("/layer1/conv1"));
    QCOMPARE(exported.topLevelLabels(8), std::string("layer1"));
  }

  // A graph large enough for the tree's intra-op hashing, its scopes interleaved: every node sits in the group of
  // its own scope, and each scope is one group.
  void scopeTreeOfALargeGraphMatchesTheNames() {
    auto g = std::make_shared<Graph>();
    for (int k = 0; k < 50000; ++k) {
      Node node;
      const int scope = (k * 7919) % 4999;  // scopes come back out of order
      node.name = "s" + std::to_string(scope % 10) + "/t" + std::to_string(scope) + "/n" + std::to_string(k);
      node.op = "NoOp";
      g->addNode(std::move(node));
    }
    ScopeTree tree(*g);
    std::set<std::string_view> paths;
    for (size_t i = 0; i < g->size(); ++i) {
      const std::string& name = g->node(i).name;
      const std::string_view scope = std::string_view(name).substr(0, name.rfind('/'));
      QCOMPARE(tree.group(tree.groupOf(i)).path, scope);
      paths.insert(tree.group(tree.groupOf(i)).path);
    }
    QCOMPARE(paths.size(), size_t(4999));
    QCOMPARE(tree.groups().size(), size_t(1 + 10 + 4999));  // the root, s0..s9, and the t scopes
  }

  void collapsedAndExpanded() {
    auto g = synthetic(600);
    GraphLayout layout(g);
    auto collapsed = layout.build({});
    QVERIFY2(collapsed.hasValue(), collapsed.status().message().c_str());
    QCOMPARE(countKind(**collapsed, SceneItem::Kind::kGroup), size_t(1));  // "model"
    QCOMPARE(countKind(**collapsed, SceneItem::Kind::kNode), size_t(2));   // input, output
    QCOMPARE((*collapsed)->edges.size(), size_t(2));                       // input -> model -> output
    for (int64_t item : (*collapsed)->itemOfNode) QVERIFY(item >= 0);
    auto all = layout.build(layout.allGroups());
    QVERIFY(all.hasValue());
    QCOMPARE(countKind(**all, SceneItem::Kind::kNode), g->size());
    QCOMPARE(countKind(**all, SceneItem::Kind::kGroup), layout.allGroups().size());
    // Every item lies inside the scene, and children inside their expanded groups.
    for (const auto& item : (*all)->items) QVERIFY((*all)->bounds.intersects(item.rect));
    for (const auto& e : (*all)->edges) QVERIFY(e.points.size() >= 2);
    // Labels on node-to-node data edges come from shape inference.
    bool labelled = false;
    for (const auto& e : (*all)->edges) labelled |= e.label.find("float32 [1,8,8,8]") != std::string::npos;
    QVERIFY(labelled);
  }

  void expandingLaysOutOnlyThatGroup() {
    auto g = synthetic(2000);
    GraphLayout layout(g);
    QVERIFY(layout.build({}).hasValue());
    const size_t first = layout.cachedLayouts();
    QVERIFY(layout.build({"model"}).hasValue());
    const size_t second = layout.cachedLayouts();
    QVERIFY(second > first);
    QVERIFY(layout.build({}).hasValue());  // collapsing again: all cached
    QCOMPARE(layout.cachedLayouts(), second);
    QVERIFY(layout.build({"model"}).hasValue());
    QCOMPARE(layout.cachedLayouts(), second);
  }

  void cullingAndHitTests() {
    auto g = synthetic(1000);
    GraphLayout layout(g);
    auto scene = layout.build(layout.allGroups());
    QVERIFY(scene.hasValue());
    const Scene& s = **scene;
    const SceneItem& someNode = *std::find_if(s.items.begin(), s.items.end(),
                                              [](const SceneItem& i) { return i.kind == SceneItem::Kind::kNode; });
    int hit = s.itemAt(someNode.rect.x + someNode.rect.w / 2, someNode.rect.y + someNode.rect.h / 2);
    QVERIFY(hit >= 0);
    QCOMPARE(s.items[static_cast<size_t>(hit)].id, someNode.id);
    QCOMPARE(s.itemAt(s.bounds.x - 1000, s.bounds.y - 1000), -1);
    auto all = s.itemsIn(s.bounds);
    QCOMPARE(all.size(), s.items.size());
    Rect corner{someNode.rect.x, someNode.rect.y, 1, 1};
    QVERIFY(s.itemsIn(corner).size() < s.items.size());
    // Edges are culled through the index, and a far view's minimum extent skips small items without visiting them.
    QVERIFY(s.edges.size() > 100);
    const Rect half{s.bounds.x, s.bounds.y, s.bounds.w / 2, s.bounds.h};
    std::vector<Rect> boxes, rects;
    for (const SceneEdge& e : s.edges) boxes.push_back(e.box);
    for (const SceneItem& i : s.items) rects.push_back(i.rect);
    const std::vector<int> edges = s.edgesIn(half);
    QCOMPARE(edges, bruteForce(boxes, half, 0));
    QVERIFY(!edges.empty() && edges.size() < s.edges.size());
    const double nodeSide = s.items.back().rect.extent();  // a far view skips boxes this small
    const std::vector<int> large = s.itemsIn(s.bounds, nodeSide * 1.01);
    QCOMPARE(large, bruteForce(rects, s.bounds, nodeSide * 1.01));
    QVERIFY(!large.empty() && large.size() < s.items.size());
  }

  void rectIndexAgreesWithBruteForce() {
    std::mt19937 random(17);
    std::uniform_real_distribution<double> unit(0, 1);
    const auto logUniform = [&](double low, double high) { return low * std::pow(high / low, unit(random)); };
    std::vector<Rect> rects(5000);
    for (Rect& r : rects) {  // sizes from a tenth of a unit to most of the space, zero-width lines among them
      r = Rect{unit(random) * 1e5 - 5e3, unit(random) * 5e4, logUniform(0.1, 8e4), logUniform(0.1, 3e4)};
      if (unit(random) < 0.1) r.w = 0;
    }
    RectIndex index;
    index.build(rects.size(), [&](size_t i) { return rects[i]; });
    QCOMPARE(index.size(), rects.size());
    size_t nonEmpty = 0;
    for (int q = 0; q < 300; ++q) {
      const Rect view{unit(random) * 1.2e5 - 1e4, unit(random) * 6e4 - 5e3, logUniform(1, 1e5), logUniform(1, 6e4)};
      const double minExtent = q % 3 == 0 ? 0 : logUniform(0.05, 5e4);
      const std::vector<int> expected = bruteForce(rects, view, minExtent);
      QCOMPARE(index.query(view, minExtent), expected);
      nonEmpty += !expected.empty();
    }
    QVERIFY(nonEmpty > 100);         // the views do find rectangles
    for (int q = 0; q < 100; ++q) {  // and the small ones, visited once each, are exactly those the query leaves
      const Rect view{unit(random) * 1.2e5 - 1e4, unit(random) * 6e4 - 5e3, logUniform(1, 1e5), logUniform(1, 6e4)};
      const double below = logUniform(0.05, 5e4);
      std::vector<int> small;
      index.visitSmall(view, below, 0, [&](const Rect& r, int i) {
        QCOMPARE(r.x, rects[static_cast<size_t>(i)].x);
        small.push_back(i);
      });
      std::vector<int> all = index.query(view, 0), large = index.query(view, below);
      std::sort(small.begin(), small.end());
      std::vector<int> both;
      std::merge(small.begin(), small.end(), large.begin(), large.end(), std::back_inserter(both));
      QCOMPARE(both, all);
      const double resolution = logUniform(10, 1e4);  // coarser: a visited rectangle near each small one
      std::vector<Rect> near;
      index.visitSmall(view, below, resolution, [&](const Rect& r, int) { near.push_back(r); });
      QVERIFY(near.size() <= small.size());
      for (int i : small) {
        const Rect& r = rects[static_cast<size_t>(i)];
        QVERIFY(std::any_of(near.begin(), near.end(), [&](const Rect& n) {
          return std::abs(n.x - r.x) < std::max(resolution, r.extent()) &&
                 std::abs(n.y - r.y) < std::max(resolution, r.extent());
        }));
      }
    }
    QVERIFY(index.query(Rect{-1e9, -1e9, 10, 10}).empty());
    index.build(0, [&](size_t i) { return rects[i]; });
    QVERIFY(index.query(Rect{-1e9, -1e9, 2e9, 2e9}).empty());
  }

  void wideGroupsUseTheLayeredFallback() {
    Graph g;  // 600 nodes in one scope: more than dot is asked to handle
    for (int i = 0; i < 600; ++i) {
      Node n{"wide/n" + std::to_string(i), i == 0 ? "Placeholder" : "Relu", "", {}, {}, {}, {}};
      if (i > 0) n.inputs.push_back(TensorRef{"wide/n" + std::to_string(i / 2), 0, ""});
      n.attrs[i == 0 ? "dtype" : "T"] = AttrValue::fromType(DType::kFloat);
      g.addNode(n);
    }
    GraphLayout layout(std::make_shared<const Graph>(g));
    auto scene = layout.build({"wide"});
    QVERIFY(scene.hasValue());
    QCOMPARE(countKind(**scene, SceneItem::Kind::kNode), size_t(600));
    // Consumers sit below their producers.
    const Scene& s = **scene;
    for (const auto& e : s.edges)
      QVERIFY(s.items[static_cast<size_t>(e.from)].rect.y < s.items[static_cast<size_t>(e.to)].rect.y);
  }

  void layeredFallbackPutsWeightsBesideTheirReader() {
    // A chain of 150 nodes that each read a weight, a bias and a dequantized weight (q -> DequantizeLinear), with no
    // scopes, as a quantized ONNX model comes: 601 nodes in one group, past dot's limit. Longest-path layers alone put
    // all 450 constants in the top row and every DequantizeLinear in the second.
    Graph g;
    auto add = [&](const std::string& name, const std::string& op, const std::vector<std::string>& inputs) {
      Node n{name, op, "", {}, {}, {}, {}};
      for (const auto& input : inputs) n.inputs.push_back(TensorRef{input, 0, ""});
      g.addNode(n);
    };
    add("x", "Placeholder", {});
    for (int i = 0; i < 150; ++i) {
      const std::string id = std::to_string(i);
      add("w" + id, "Const", {});
      add("b" + id, "Const", {});
      add("q" + id, "Const", {});
      add("dq" + id, "onnx::DequantizeLinear", {"q" + id});
      add("add" + id, "AddN", {i ? "add" + std::to_string(i - 1) : "x", "w" + id, "b" + id, "dq" + id});
    }
    GraphLayout layout(std::make_shared<const Graph>(g));
    auto scene = layout.build({});
    QVERIFY(scene.hasValue());
    const Scene& s = **scene;
    QCOMPARE(countKind(s, SceneItem::Kind::kNode), size_t(751));
    auto rectOf = [&](const std::string& name) {
      return s.items[static_cast<size_t>(s.itemOfNode[static_cast<size_t>(g.find(name))])].rect;
    };
    const double pitch = rectOf("add1").y - rectOf("add0").y;
    QVERIFY(pitch > 0);
    for (int i = 0; i < 150; ++i) {
      const std::string id = std::to_string(i);
      const Rect reader = rectOf("add" + id);
      for (const std::string& weight : {"w" + id, "b" + id, "dq" + id, "q" + id}) {
        const Rect r = rectOf(weight), itsReader = weight[0] == 'q' ? rectOf("dq" + id) : reader;
        QCOMPARE(r.y, itsReader.y - pitch);  // the row above the node that reads it
        QVERIFY2(std::abs((r.x + r.w / 2) - (itsReader.x + itsReader.w / 2)) < 2 * (r.w + itsReader.w), weight.c_str());
      }
    }
    QVERIFY2(s.bounds.h > 10 * s.bounds.w, qPrintable(QString("%1 x %2").arg(s.bounds.w).arg(s.bounds.h)));
  }

  void layeredFallbackBreaksCycles() {
    // 450 nodes in a ring (a loop's back edge closes it): every node waits on another, and the layers used to leave
    // them all in the first row. Broken at its lowest node, the ring lays out as a column.
    Graph g;
    for (int i = 0; i < 450; ++i) {
      Node n{"n" + std::to_string(i), "Relu", "", {}, {}, {}, {}};
      n.inputs.push_back(TensorRef{"n" + std::to_string((i + 449) % 450), 0, ""});
      g.addNode(n);
    }
    GraphLayout layout(std::make_shared<const Graph>(g));
    auto scene = layout.build({});
    QVERIFY(scene.hasValue());
    std::set<double> rows;
    for (const auto& item : (*scene)->items) rows.insert(item.rect.y);
    QCOMPARE(rows.size(), size_t(450));
  }

  void edgeLabelsKeepClearOfBoxesAndEachOther() {
    // Four shaped inputs meeting in one node (an If's inputs, as in Silero VAD): the middles of the converging edges
    // lie close together above the consumer, and a label at each middle ran into the next. A label with no free spot
    // is left out rather than drawn over another.
    Graph g;
    const std::vector<std::pair<std::string, Shape>> inputs{
        {"input", Shape{2, 512}}, {"state", Shape{2, 1, 128}}, {"sr", Shape{}}, {"extra", Shape{16, 64, 64}}};
    Node add{"join", "AddN", "", {}, {}, {}, {}};
    for (const auto& [name, shape] : inputs) {
      Node n{name, "Placeholder", "", {}, {}, {}, {}};
      n.attrs["dtype"] = AttrValue::fromType(DType::kFloat);
      n.attrs["shape"] = AttrValue::fromShape(shape);
      g.addNode(n);
      add.inputs.push_back(TensorRef{name, 0, ""});
    }
    add.attrs["T"] = AttrValue::fromType(DType::kFloat);
    add.attrs["N"] = AttrValue::fromInt(4);
    g.addNode(add);
    GraphLayout layout(std::make_shared<const Graph>(g));
    auto scene = layout.build({});
    QVERIFY(scene.hasValue());
    const Scene& s = **scene;
    std::vector<Rect> labels;
    for (const auto& e : s.edges) {
      QVERIFY2(!e.label.empty(), "every edge carries a known shape");
      if (e.labelBox.w == 0) continue;
      for (const auto& item : s.items) QVERIFY2(!item.rect.intersects(e.labelBox), e.label.c_str());
      for (const Rect& other : labels) QVERIFY2(!other.intersects(e.labelBox), e.label.c_str());
      labels.push_back(e.labelBox);
      // Beside its own edge: between the edge's ends in height, and touching the span of its points sideways.
      double x0 = e.points[0].x, x1 = x0, y0 = e.points[0].y, y1 = y0;
      for (const Point& p : e.points)
        x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
      const double middle = e.labelBox.y + e.labelBox.h / 2;
      QVERIFY2(middle >= y0 && middle <= y1, e.label.c_str());
      QVERIFY2(e.labelBox.x <= x1 + 6 && e.labelBox.x + e.labelBox.w >= x0 - 6, e.label.c_str());
      QVERIFY(e.box.x <= e.labelBox.x && e.box.x + e.box.w >= e.labelBox.x + e.labelBox.w);  // culled with its edge
    }
    QVERIFY2(labels.size() >= 3, qPrintable(QString("%1 of 4 labels placed").arg(labels.size())));
  }

  void pointAlongEdgeFollowsTheDrawnCurve() {
    SceneEdge straight;
    straight.points = {{0, 0}, {0, 10}, {30, 10}};  // a polyline 40 long
    QCOMPARE(pointAlongEdge(straight, 0.5).x, 10.0);
    QCOMPARE(pointAlongEdge(straight, 0.5).y, 10.0);
    SceneEdge curve;
    curve.points = {{0, 0}, {0, 10}, {10, 10}, {10, 20}};  // one cubic: its middle is (5, 10)
    QCOMPARE(pointAlongEdge(curve, 0.5).x, 5.0);
    QCOMPARE(pointAlongEdge(curve, 0.5).y, 10.0);
    QCOMPARE(pointAlongEdge(curve, 1.0).y, 20.0);
    curve.points.push_back(Point{10, 26});  // Graphviz's arrow tip after the curve: drawn as a line, not walked
    QCOMPARE(curve.bezierPoints(), size_t(4));
    QCOMPARE(pointAlongEdge(curve, 0.5).x, 5.0);
    QCOMPARE(pointAlongEdge(curve, 2.0).y, 20.0);  // clamped
  }

  void unscopedConstantsJoinTheirReadersScope() {
    // As PyTorch's exporter writes a model: scoped ops, initializers and an Identity of one at the top level.
    Graph g;
    auto add = [&](const std::string& name, const std::string& op, std::vector<std::string> inputs) {
      Node n{name, op, "", {}, {}, {}, {}};
      for (const auto& input : inputs) n.inputs.push_back(TensorRef{input, 0, ""});
      g.addNode(n);
    };
    add("x", "Placeholder", {});
    add("w", "Const", {});
    add("b", "Const", {});
    add("w2", "Const", {});
    add("shared", "Const", {});
    add("spread", "Const", {});
    add("id", "onnx::Identity", {"w2"});
    add("/block/conv/Conv", "onnx::Conv", {"x", "w", "b"});
    add("/block/inner/Mul", "onnx::Mul", {"/block/conv/Conv", "id"});
    add("/block/inner/Add", "onnx::Add", {"/block/inner/Mul", "spread"});
    add("/block/conv2/Conv", "onnx::Conv", {"/block/inner/Add", "spread", "shared"});
    add("/other/Add", "onnx::Add", {"/block/conv2/Conv", "shared"});
    const ScopeTree tree(g);
    auto groupOf = [&](const std::string& name) { return tree.groupOf(static_cast<size_t>(g.find(name))); };
    QCOMPARE(groupOf("w"), tree.find("/block/conv"));  // read by one node: beside it
    QCOMPARE(groupOf("b"), tree.find("/block/conv"));
    QCOMPARE(groupOf("id"), tree.find("/block/inner"));  // the Identity first, then the constant behind it
    QCOMPARE(groupOf("w2"), tree.find("/block/inner"));
    QCOMPARE(groupOf("spread"), tree.find("/block"));  // read in two scopes: the deepest holding both
    QCOMPARE(groupOf("shared"), ScopeTree::kRoot);     // read in /block and /other: nothing below the root holds both
    QCOMPARE(groupOf("x"), ScopeTree::kRoot);          // a graph input stays in sight
    QCOMPARE(tree.group(tree.find("/block/conv")).nodes.size(), size_t(3));
    QCOMPARE(tree.group(ScopeTree::kRoot).nodes.size(), size_t(2));
    QCOMPARE(tree.group(tree.find("/block")).totalNodes, uint32_t(9));
  }

  // A constant that three scopes read (PyTorch's exporter shares a Clip bound so) is laid out aside, at the group's
  // right, with a labelled stub into each reader's left side instead of edges across the group; one that feeds one
  // node keeps its edge.
  void sharedConstantsGetStubsInsteadOfLongEdges() {
    auto g = std::make_shared<Graph>();
    auto add = [&](const std::string& name, const std::string& op, std::vector<std::string> inputs) {
      Node n{name, op, "", {}, {}, {}, {}};
      for (const auto& input : inputs) n.inputs.push_back(TensorRef{input, 0, ""});
      g->addNode(n);
    };
    add("x", "Placeholder", {});
    add("bound", "Const", {});
    add("own", "Const", {});
    add("/a/Clip", "onnx::Clip", {"x", "bound"});
    add("/b/Clip", "onnx::Clip", {"/a/Clip", "bound"});
    add("/c/Clip", "onnx::Clip", {"/b/Clip", "bound"});
    add("/c/Add", "onnx::Add", {"/c/Clip", "own"});
    GraphLayout layout(g);
    auto built = layout.build({"/c"});
    QVERIFY(built.hasValue());
    const Scene& s = **built;
    const auto itemOf = [&](const char* name) {
      return static_cast<int>(s.itemOfNode[static_cast<size_t>(g->find(name))]);
    };
    const int bound = itemOf("bound");
    std::set<int> stubbed;
    for (const SceneEdge& e : s.edges) {
      if (e.from != bound) continue;
      QVERIFY(e.stub);
      QCOMPARE(e.label, std::string("bound"));
      const Rect& reader = s.items[static_cast<size_t>(e.to)].rect;
      QCOMPARE(e.points.back().x, reader.x);  // into the reader's left side
      QVERIFY(e.points.front().x < reader.x && e.points.back().y > reader.y && e.points.back().y < reader.y + reader.h);
      stubbed.insert(e.to);
    }
    const int groupC =
        static_cast<int>(std::find_if(s.items.begin(), s.items.end(),
                                      [&](const SceneItem& i) {
                                        return i.kind == SceneItem::Kind::kGroup && i.id == layout.tree().find("/c");
                                      }) -
                         s.items.begin());
    QCOMPARE(stubbed, (std::set<int>{itemOf("/a/Clip"), itemOf("/b/Clip"), groupC}));  // /c's frame: it is open
    const Rect& aside = s.items[static_cast<size_t>(bound)].rect;
    for (const char* other : {"x", "/a/Clip", "/b/Clip"})
      QVERIFY2(s.items[static_cast<size_t>(itemOf(other))].rect.x + s.items[static_cast<size_t>(itemOf(other))].rect.w <
                   aside.x,
               other);
    const int own = itemOf("own");
    const auto ownEdge =
        std::find_if(s.edges.begin(), s.edges.end(), [&](const SceneEdge& e) { return e.from == own; });
    QVERIFY(ownEdge != s.edges.end() && !ownEdge->stub && ownEdge->to == itemOf("/c/Add"));
  }

  void dotMemoRepeatsGraphvizExactly() {
    const std::vector<LayoutBox> boxes{{80, 30}, {120, 40}, {80, 30}, {60, 30}};
    const std::vector<LayoutEdge> edges{{0, 1, {}}, {0, 2, {}}, {1, 3, {}}, {2, 3, {}}};
    auto directBoxes = boxes;
    auto directEdges = edges;
    const Point direct = dotLayout(directBoxes, directEdges);
    DotMemo memo;
    for (int run = 0; run < 2; ++run) {  // the first run calls Graphviz, the second remembers
      auto memoBoxes = boxes;
      auto memoEdges = edges;
      const Point size = memo.layout(memoBoxes, memoEdges);
      QCOMPARE(size.x, direct.x);
      QCOMPARE(size.y, direct.y);
      for (size_t i = 0; i < boxes.size(); ++i) {
        QCOMPARE(memoBoxes[i].x, directBoxes[i].x);
        QCOMPARE(memoBoxes[i].y, directBoxes[i].y);
      }
      for (size_t k = 0; k < edges.size(); ++k) QCOMPARE(memoEdges[k].points.size(), directEdges[k].points.size());
      QCOMPARE(memo.size(), size_t(1));
    }
  }

  void groupsTakeTheirMostCommonCategory() {
    auto g = synthetic(600);
    GraphLayout layout(g);
    auto all = layout.build(layout.allGroups());
    QVERIFY(all.hasValue());
    for (const auto& item : (*all)->items) {
      if (item.kind == SceneItem::Kind::kNode) {
        QCOMPARE(item.category, OpRegistry::global().categoryOf(g->node(static_cast<size_t>(item.id)).op, &g->library));
        continue;
      }
      std::map<OpCategory, size_t> counts;  // every node below the group, Const and Identity aside
      std::vector<int> work{static_cast<int>(item.id)};
      while (!work.empty()) {
        const ScopeGroup& group = layout.tree().group(work.back());
        work.pop_back();
        for (size_t n : group.nodes) ++counts[OpRegistry::global().categoryOf(g->node(n).op, &g->library)];
        work.insert(work.end(), group.groups.begin(), group.groups.end());
      }
      counts.erase(OpCategory::kConstant);
      counts.erase(OpCategory::kIdentity);
      OpCategory expected = OpCategory::kOther;
      for (size_t most = 0; const auto& [category, count] : counts)
        if (count > most) most = count, expected = category;
      QCOMPARE(item.category, expected);
    }
  }

  void cancelled() {
    std::atomic<bool> cancel{true};
    GraphLayout layout(synthetic(300));
    auto scene = layout.build({}, &cancel);
    QVERIFY(!scene.hasValue());
    QCOMPARE(scene.status().code(), ErrorCode::kCancelled);
  }
};

QTEST_APPLESS_MAIN(TestLayout)
#include "tst_layout.moc"
