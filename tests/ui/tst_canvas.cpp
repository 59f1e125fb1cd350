// The graph canvas: scenes arrive off the UI thread, expand and collapse, selection, themes, and rendering that
// shows the expected structure (not a blank image), and profile overlays (fused nodes take their kernel's colour).
#include <QSignalSpy>
#include <QtTest>

#include "canvas/graph_canvas.h"
#include "canvas/minimap.h"
#include "ir/synthetic_graph.h"

using namespace flowscope;

namespace {

std::shared_ptr<const Graph> synthetic(size_t nodes) {
  SyntheticGraphOptions options;
  options.nodes = nodes;
  return std::make_shared<const Graph>(makeSyntheticGraph(options));
}

size_t groupBoxes(const Scene& s) {
  return static_cast<size_t>(std::count_if(s.items.begin(), s.items.end(),
                                           [](const SceneItem& i) { return i.kind == SceneItem::Kind::kGroup; }));
}

// Lays out a synthetic graph on the canvas with every group expanded; false if a layout did not arrive.
bool showExpanded(GraphCanvas& canvas, size_t nodes) {
  QSignalSpy ready(&canvas, &GraphCanvas::sceneReady);
  canvas.setGraph(synthetic(nodes));
  if (!ready.wait(10000)) return false;
  canvas.expandAll();
  return ready.wait(20000);
}

// The canvas, 900 x 650, showing a synthetic graph of `nodes` with every group open; its minimap, or null.
Minimap* minimapOfExpanded(GraphCanvas& canvas, size_t nodes) {
  canvas.resize(900, 650);
  return showExpanded(canvas, nodes) ? canvas.findChild<Minimap*>() : nullptr;
}

// Share of pixels that differ noticeably between two images of the same size.
double differingShare(const QImage& a, const QImage& b) {
  size_t differ = 0, total = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x, ++total) {
      const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
      if (std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q)) > 60) ++differ;
    }
  return static_cast<double>(differ) / static_cast<double>(total);
}

// Distinct colours in an image: a blank render has one.
int distinctColours(const QImage& image, int step = 3) {
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += step)
    for (int x = 0; x < image.width(); x += step) colours.insert(image.pixel(x, y));
  return static_cast<int>(colours.size());
}

// A box or a group frame, appended to `scene`'s items.
void addItem(Scene& scene, SceneItem::Kind kind, Rect rect, bool expanded) {
  SceneItem item;
  item.kind = kind;
  item.rect = rect;
  item.expanded = expanded;
  scene.items.push_back(item);
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
    const auto group = std::find_if(scene->items.begin(), scene->items.end(),
                                    [](const SceneItem& i) { return i.kind == SceneItem::Kind::kGroup; });
    const Rect& r = group->rect;
    // Scene to widget: the canvas fitted the scene; map through its zoom and the fitted offset.
    canvas.show();
    QVERIFY(QTest::qWaitForWindowExposed(&canvas));
    canvas.fitToView();
    const double zoom = canvas.zoom();
    const Rect& b = scene->bounds;
    const QPointF offset(b.x + b.w / 2 - canvas.width() / (2 * zoom), b.y + b.h / 2 - canvas.height() / (2 * zoom));
    const QPoint at(static_cast<int>((r.x + r.w / 2 - offset.x()) * zoom),
                    static_cast<int>((r.y + r.h / 2 - offset.y()) * zoom));
    QTest::mouseDClick(&canvas, Qt::LeftButton, Qt::NoModifier, at);
    QVERIFY(ready.wait(10000));
    QVERIFY(canvas.expanded().count("model"));
    QVERIFY(groupBoxes(*canvas.scene()) > 1);
  }

  void rendersStructureInBothThemes() {
    GraphCanvas canvas;
    canvas.resize(800, 600);
    QVERIFY(showExpanded(canvas, 300));
    QImage light = canvas.grab().toImage();
    QVERIFY(distinctColours(light) > 8);
    canvas.setTheme("dark");
    QCOMPARE(canvas.theme().name, QString("dark"));
    QImage dark = canvas.grab().toImage();
    QVERIFY(distinctColours(dark) > 8);
    QVERIFY(light.pixel(2, 2) != dark.pixel(2, 2));  // the background follows the theme
    QVERIFY(qGray(dark.pixel(2, 2)) < 80);
  }

  // Frames blit cached tiles of the scene: what they show matches a direct paint, panning paints only the tiles
  // that come into view, and the selection is drawn over the tiles.
  void rasterCacheMatchesDirectPaint() {
    GraphCanvas canvas;
    canvas.resize(900, 650);
    canvas.setMinimapVisible(false);
    QVERIFY(showExpanded(canvas, 300));
    for (double zoom : {canvas.zoom(), 1.0}) {  // far out (boxes) and close up (labels)
      canvas.setView(zoom, canvas.topLeft());
      const Rect& b = canvas.scene()->bounds;
      canvas.centerOn(QPointF(b.x + b.w / 2, b.y + b.h / 2));
      const QImage cached = canvas.grab().toImage();
      const size_t painted = canvas.rasterCacheRenders();
      QVERIFY(painted > 0);
      QTest::keyClick(&canvas, Qt::Key_Right);  // 80 px: at most a new column of tiles
      const QImage panned = canvas.grab().toImage();
      QVERIFY(canvas.rasterCacheRenders() - painted <= 3);
      QVERIFY(differingShare(cached, panned) > 0.002);  // the view did move
      QTest::keyClick(&canvas, Qt::Key_Left);
      const size_t afterPan = canvas.rasterCacheRenders();
      QVERIFY(differingShare(cached, canvas.grab().toImage()) < 0.001);  // back where it was, from held tiles
      QCOMPARE(canvas.rasterCacheRenders(), afterPan);
      canvas.setRasterCacheEnabled(false);
      const QImage direct = canvas.grab().toImage();
      QVERIFY2(differingShare(cached, direct) < 0.02, qPrintable(QString::number(differingShare(cached, direct))));
      canvas.setRasterCacheEnabled(true);
    }
    // The selection shows over the tiles, in the theme's selection colour, without repainting them.
    const auto scene = canvas.scene();
    size_t conv = 0;  // the widest node
    double widest = 0;
    for (size_t i = 0; i < scene->items.size(); ++i)
      if (scene->items[i].kind == SceneItem::Kind::kNode && scene->items[i].rect.w > widest)
        widest = scene->items[conv = i].rect.w;
    canvas.selectNode(static_cast<size_t>(scene->items[conv].id));
    canvas.grab();
    const size_t before = canvas.rasterCacheRenders();
    const Rect& r = scene->items[conv].rect;
    const QImage selected = canvas.grab().toImage();
    const QRect box = QRectF((QPointF(r.x, r.y) - canvas.topLeft()) * canvas.zoom(), QSizeF(r.w, r.h) * canvas.zoom())
                          .toAlignedRect()
                          .adjusted(-3, -3, 3, 3)
                          .intersected(selected.rect());
    QVERIFY(!box.isEmpty());
    int selectionPixels = 0;  // close up, a selected node gets a border in the selection colour
    for (int y = box.top(); y <= box.bottom(); ++y)
      for (int x = box.left(); x <= box.right(); ++x)
        selectionPixels += QColor(selected.pixel(x, y)) == canvas.theme().selection;
    QVERIFY(selectionPixels > 2 * (box.width() + box.height()) / 2);
    QCOMPARE(canvas.rasterCacheRenders(), before);
  }

  // The export paints in bands of rows (to report progress and stop between them): the same pixels as one pass; a
  // stopped paint gives no image.
  void bandedPaintMatchesOnePass() {
    GraphCanvas canvas;
    QVERIFY(showExpanded(canvas, 300));
    const Scene& scene = *canvas.scene();
    const QRectF area(scene.bounds.x, scene.bounds.y, scene.bounds.w, scene.bounds.h);
    const QSize size(static_cast<int>(area.width()), static_cast<int>(area.height()));  // close up: labels
    const QImage whole = renderSceneArea(scene, area, size.width(), size.height(), canvas.theme());
    int reports = 0;
    const QImage banded = renderSceneArea(scene, area, size.width(), size.height(), canvas.theme(), nullptr, nullptr,
                                          [&](double) { return ++reports > 0; });
    QVERIFY(reports > 1);
    QVERIFY2(differingShare(whole, banded) < 0.0005, qPrintable(QString::number(differingShare(whole, banded))));
    QVERIFY(renderSceneArea(scene, area, size.width(), size.height(), canvas.theme(), nullptr, nullptr, [](double) {
              return false;
            }).isNull());
  }

  // Labels read on every fill: in the dark theme, dark text on the pale heat colours, light text on dark fills; the
  // light theme keeps its dark text on its category colours.
  void labelsContrastWithTheirFill() {
    const Theme& dark = Theme::named("dark");
    const Theme& light = Theme::named("light");
    QCOMPARE(labelColor(heatColor(0.0), dark), dark.background);
    QCOMPARE(labelColor(dark.category(OpCategory::kMatMul), dark), dark.text);
    QCOMPARE(labelColor(dark.category(OpCategory::kConstant), dark), dark.text);
    for (const QColor& fill : light.categories) QCOMPARE(labelColor(fill, light), light.text);
    GraphCanvas canvas;
    QVERIFY(showExpanded(canvas, 300));
    const Scene& scene = *canvas.scene();
    SceneOverlay pale;
    pale.itemFill.assign(scene.items.size(), heatColor(0.0));
    const Rect& r = scene.items[static_cast<size_t>(scene.itemOfNode[0])].rect;
    const QImage image = renderSceneArea(scene, QRectF(r.x, r.y, r.w, r.h), static_cast<int>(r.w * 2),
                                         static_cast<int>(r.h * 2), dark, &pale);
    int darkest = 255;                            // the label's pixels on the pale box
    for (int y = 3; y < image.height() - 3; ++y)  // inside the border, clear of the rounded corners
      for (int x = 10; x < image.width() - 10; ++x) darkest = std::min(darkest, qGray(image.pixel(x, y)));
    QVERIFY2(darkest < 100, qPrintable(QString::number(darkest)));
  }

  // A node whose work ran inside another node's fused kernel takes that node's colour and the badge "fused"; one that
  // has time of its own keeps its own colour and time.
  void fusedNodesShowTheirKernelsColour() {
    GraphCanvas canvas;
    QVERIFY(showExpanded(canvas, 300));
    const Scene& scene = *canvas.scene();
    const auto item = [&](size_t node) { return static_cast<size_t>(scene.itemOfNode[node]); };
    QVERIFY(item(0) != item(1) && item(1) != item(2) && item(0) != item(2));
    std::vector<double> seconds(scene.itemOfNode.size(), 0.0);
    seconds[0] = 2e-3;
    seconds[2] = 1e-3;
    std::vector<int64_t> fusedInto(seconds.size(), -1);
    fusedInto[1] = fusedInto[2] = 0;
    canvas.setNodeTimes(seconds);
    canvas.setNodeFusedInto(fusedInto);
    const SceneOverlay& overlay = canvas.overlay();
    QCOMPARE(overlay.itemBadge[item(0)], QString("2.00 ms"));
    QCOMPARE(overlay.itemBadge[item(1)], QString("fused"));
    QCOMPARE(overlay.itemFill[item(1)], overlay.itemFill[item(0)]);
    QCOMPARE(overlay.itemBadge[item(2)], QString("1.00 ms"));
    QVERIFY(overlay.itemFill[item(2)] != overlay.itemFill[item(0)]);
    canvas.setNodeTimes({});
    QVERIFY(canvas.overlay().itemBadge[item(1)].isEmpty());
  }

  void minimapMovesTheView() {
    GraphCanvas canvas;
    Minimap* minimap = minimapOfExpanded(canvas, 600);
    QVERIFY(minimap);
    QVERIFY(!minimap->isVisibleTo(&canvas));              // the whole graph is in view: no minimap
    canvas.setView(canvas.zoom() * 4, canvas.topLeft());  // zoomed in: it shows, the frame on part of the thumbnail
    QVERIFY(minimap->isVisibleTo(&canvas));
    QVERIFY(distinctColours(minimap->grab().toImage(), 1) > 4);  // a thumbnail (a narrow one), not an empty panel
    const QPoint click(minimap->width() / 4, minimap->height() / 2);
    QTest::mouseClick(minimap, Qt::LeftButton, Qt::NoModifier, click);
    const QPointF target = minimap->toScene(click);
    const QPointF centre = canvas.visibleSceneRect().center();
    QVERIFY(std::abs(centre.x() - target.x()) < 1 && std::abs(centre.y() - target.y()) < 1);
    QTest::keyClick(&canvas, Qt::Key_M);  // M hides it
    QVERIFY(!minimap->isVisibleTo(&canvas));
  }

  void badgesGoWhereNothingElseIs() {
    Scene scene;  // a frame holding two boxes side by side
    addItem(scene, SceneItem::Kind::kGroup, Rect{0, 0, 240, 120}, true);
    addItem(scene, SceneItem::Kind::kNode, Rect{14, 24, 80, 30}, false);
    addItem(scene, SceneItem::Kind::kNode, Rect{100, 24, 80, 30}, false);
    scene.buildIndex();
    const QRectF left = badgeRect(scene, scene.items[1], 40), right = badgeRect(scene, scene.items[2], 40);
    QVERIFY2(left.top() >= 54 && left.right() <= 94, "a box to its right, the title above: the badge goes below");
    QVERIFY2(right.left() >= 180 && right.top() >= 20, "room to the right, below the frame's title: it goes there");
    QVERIFY(!right.intersects(QRectF(14, 24, 166, 30)));
  }

  // The first box of a narrow group, with a box to its right and an edge label below it: above would cover the
  // group's title, so the badge goes left of the box.
  void aBadgeCoversNoGroupTitleAndNoEdgeLabel() {
    Scene scene;
    addItem(scene, SceneItem::Kind::kGroup, Rect{0, 0, 100, 120}, true);
    addItem(scene, SceneItem::Kind::kNode, Rect{10, 24, 80, 30}, false);
    addItem(scene, SceneItem::Kind::kNode, Rect{94, 20, 80, 40}, false);
    SceneEdge edge;
    edge.from = 1;
    edge.to = 2;
    edge.points = {{50, 54}, {50, 110}};
    edge.label = "float32 [1,64]";
    edge.labelBox = Rect{40, 58, 60, 12};
    scene.edges.push_back(edge);
    scene.buildIndex();
    const QRectF badge = badgeRect(scene, scene.items[1], 40);
    const QRectF title(0, 0, 100, kGroupTitleHeight - 4), label(40, 58, 60, 12), box(10, 24, 80, 30),
        right(94, 20, 80, 40);
    for (const QRectF& taken : {title, label, box, right})
      QVERIFY2(
          !badge.intersects(taken),
          qPrintable(
              QString("the badge at %1,%2 covers %3,%4").arg(badge.x()).arg(badge.y()).arg(taken.x()).arg(taken.y())));
  }

  void noMinimapOverAFittedView() {
    // Fitting makes the view exactly as wide or as tall as the scene, up to rounding; a minimap shown for the
    // rounding covered the bottom-right nodes of a graph that was all in view.
    GraphCanvas canvas;
    Minimap* minimap = minimapOfExpanded(canvas, 60);
    QVERIFY(minimap);
    for (int width = 400; width <= 1300; width += 7) {
      canvas.resize(width, 650 + width % 50);
      canvas.fitToView();
      QVERIFY2(!minimap->isVisibleTo(&canvas), qPrintable(QString("at %1 px wide").arg(width)));
    }
  }

  // A layout in flight can be cancelled: the canvas keeps the scene and expansion it showed.
  void layoutCanBeCancelled() {
    GraphCanvas canvas;
    canvas.resize(800, 600);
    QSignalSpy ready(&canvas, &GraphCanvas::sceneReady);
    QSignalSpy cancelled(&canvas, &GraphCanvas::layoutCancelled);
    canvas.setGraph(synthetic(3000));
    QVERIFY(ready.wait(20000));
    const auto shown = canvas.scene();
    canvas.expandAll();
    QVERIFY(canvas.isLayingOut());
    canvas.cancelLayout();
    QVERIFY(cancelled.count() == 1 || cancelled.wait(20000));
    QCOMPARE(ready.count(), 1);
    QCOMPARE(canvas.scene(), shown);
    QVERIFY(canvas.expanded().empty());
    canvas.toggleGroup("model");  // and the next layout runs
    QVERIFY(ready.wait(20000));
    QVERIFY(canvas.expanded().count("model"));
  }
};

QTEST_MAIN(TestCanvas)
#include "tst_canvas.moc"
