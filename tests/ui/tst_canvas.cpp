// The graph canvas: scenes arrive off the UI thread, expand and collapse, selection, themes, and rendering that
// shows the expected structure (not a blank image).
#include <QSignalSpy>
#include <QtTest>

#include "canvas/graph_canvas.h"
#include "ir/synthetic_graph.h"

using namespace flowscope;

namespace {

std::shared_ptr<const Graph> synthetic(size_t nodes) {
  SyntheticGraphOptions options;
  options.nodes = nodes;
  return std::make_shared<const Graph>(makeSyntheticGraph(options));
}

size_t groupBoxes(const Scene& s) {
  return static_cast<size_t>(std::count_if(s.items.begin(), s.items.end(), [](const SceneItem& i) { return i.kind == SceneItem::Kind::kGroup; }));
}

// Distinct colours in an image: a blank render has one.
int distinctColours(const QImage& image) {
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
  return static_cast<int>(colours.size());
}

}  // namespace

class TestCanvas : public QObject {
  Q_OBJECT

 private slots:
  void expandCollapseAndSelect() {
    GraphCanvas canvas;
    canvas.resize(900, 700);
    QSignalSpy ready(&canvas, &GraphCanvas::sceneReady);
    auto graph = synthetic(800);
    canvas.setGraph(graph);
    QVERIFY(ready.wait(10000));
    QCOMPARE(groupBoxes(*canvas.scene()), size_t(1));
    canvas.toggleGroup("model");
    QVERIFY(ready.wait(10000));
    const size_t opened = groupBoxes(*canvas.scene());
    QVERIFY(opened > 1);
    canvas.expandAll();
    QVERIFY(ready.wait(10000));
    QVERIFY(groupBoxes(*canvas.scene()) > opened);
    canvas.collapseAll();
    QVERIFY(ready.wait(10000));
    QCOMPARE(groupBoxes(*canvas.scene()), size_t(1));
    // Selecting a node inside a collapsed group selects the group that shows it.
    const size_t inner = static_cast<size_t>(graph->find("model/stage_0/block_0/layer_0/unit_0/Conv2D"));
    QSignalSpy selected(&canvas, &GraphCanvas::itemSelected);
    canvas.selectNode(inner);
    QVERIFY(canvas.selectedItem() >= 0);
    QCOMPARE(canvas.scene()->items[static_cast<size_t>(canvas.selectedItem())].kind, SceneItem::Kind::kGroup);
  }

  void doubleClickExpandsAGroup() {
    GraphCanvas canvas;
    canvas.resize(900, 700);
    QSignalSpy ready(&canvas, &GraphCanvas::sceneReady);
    canvas.setGraph(synthetic(400));
    QVERIFY(ready.wait(10000));
    const auto scene = canvas.scene();
    const auto group = std::find_if(scene->items.begin(), scene->items.end(), [](const SceneItem& i) { return i.kind == SceneItem::Kind::kGroup; });
    const Rect& r = group->rect;
    // Scene to widget: the canvas fitted the scene; map through its zoom and the fitted offset.
    canvas.show();
    QVERIFY(QTest::qWaitForWindowExposed(&canvas));
    canvas.fitToView();
    const double zoom = canvas.zoom();
    const Rect& b = scene->bounds;
    const QPointF offset(b.x + b.w / 2 - canvas.width() / (2 * zoom), b.y + b.h / 2 - canvas.height() / (2 * zoom));
    const QPoint at(static_cast<int>((r.x + r.w / 2 - offset.x()) * zoom), static_cast<int>((r.y + r.h / 2 - offset.y()) * zoom));
    QTest::mouseDClick(&canvas, Qt::LeftButton, Qt::NoModifier, at);
    QVERIFY(ready.wait(10000));
    QVERIFY(canvas.expanded().count("model"));
    QVERIFY(groupBoxes(*canvas.scene()) > 1);
  }

  void rendersStructureInBothThemes() {
    GraphCanvas canvas;
    canvas.resize(800, 600);
    QSignalSpy ready(&canvas, &GraphCanvas::sceneReady);
    canvas.setGraph(synthetic(300));
    QVERIFY(ready.wait(10000));
    canvas.expandAll();
    QVERIFY(ready.wait(10000));
    QImage light = canvas.grab().toImage();
    QVERIFY(distinctColours(light) > 8);
    canvas.setTheme("dark");
    QCOMPARE(canvas.theme().name, QString("dark"));
    QImage dark = canvas.grab().toImage();
    QVERIFY(distinctColours(dark) > 8);
    QVERIFY(light.pixel(2, 2) != dark.pixel(2, 2));  // the background follows the theme
    QVERIFY(qGray(dark.pixel(2, 2)) < 80);
  }
};

QTEST_MAIN(TestCanvas)
#include "tst_canvas.moc"
