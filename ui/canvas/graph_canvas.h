// GraphCanvas: the custom-painted graph view (no QGraphicsItem per node). It draws an immutable Scene, pans and
// zooms (wheel, drag, keys), fits the graph, and expands or collapses a group on double click; layouts run off the
// UI thread and a newer request supersedes an older one.
#pragma once

#include <QTimer>
#include <QWidget>
#include <atomic>
#include <memory>
#include <optional>
#include <set>

#include "canvas/raster_cache.h"
#include "canvas/scene_export.h"
#include "canvas/scene_painter.h"
#include "layout/graph_layout.h"

namespace flowscope {

class Minimap;
class EngineWorker;

class GraphCanvas : public QWidget {
  Q_OBJECT

 public:
  /// Layouts run on `worker` (the session's); a canvas given none keeps a worker of its own (tests, benchmarks).
  explicit GraphCanvas(QWidget* parent = nullptr, EngineWorker* worker = nullptr);
  ~GraphCanvas() override;

  /// Shows a graph (collapsed to its top-level scopes); the layout (and the scope tree and shapes it needs) is
  /// built in the background, so the UI stays responsive on very large graphs.
  void setGraph(std::shared_ptr<const Graph> graph);
  void setExpanded(std::set<std::string> expanded);
  void toggleGroup(const std::string& path);
  void setGroupExpanded(const std::string& path, bool expanded);
  void expandAll();
  void collapseAll();
  const std::set<std::string>& expanded() const { return m_expanded; }
  std::shared_ptr<const Scene> scene() const { return m_scene; }
  std::shared_ptr<GraphLayout> layout() const { return m_layout; }
  bool isLayingOut() const;
  /// Stops the layout in flight (between groups); the canvas keeps showing the previous scene and expansion.
  void cancelLayout();

  void setTheme(const QString& name);
  const Theme& theme() const { return *m_theme; }
  void setOverlay(SceneOverlay overlay);
  const SceneOverlay& overlay() const { return m_overlay; }
  /// Changes whenever the overlay's colours or badges change (raster caches compare it).
  uint64_t overlayVersion() const { return m_overlayVersion; }
  /// Colours graph nodes (and the collapsed groups that show them); kept across relayouts.
  void setNodeColors(std::vector<std::pair<size_t, QColor>> colors);
  /// A timing overlay: seconds per graph node (empty: none). Each visible item (a node, or a collapsed group
  /// summing its nodes) gets a heat colour by its share of the slowest item and a time label.
  void setNodeTimes(std::vector<double> seconds);
  /// A roofline overlay: per graph node its share of the roofline and its seconds (empty: none).
  void setNodeRoofline(std::vector<double> shares, std::vector<double> seconds);
  /// Per graph node, the node whose kernel computed it (NodeTimes::fusedInto; -1: its own; empty: none). With a
  /// time or roofline overlay such nodes show that node's colour, marked fused.
  void setNodeFusedInto(std::vector<int64_t> fusedInto);
  /// An ours-over-theirs overlay: per graph node our seconds and an imported profile's (empty: none).
  void setNodeRatios(std::vector<double> ours, std::vector<double> theirs);
  /// The heat colour for a fraction of the slowest item's time (0..1).
  static QColor heatColor(double fraction);
  /// The view: zoom and the scene point at the top-left corner (for synchronized canvases).
  void setView(double zoom, QPointF topLeft);
  QPointF topLeft() const { return m_offset; }
  void fitToView();
  /// Moves the view so that this scene point is in the middle.
  void centerOn(QPointF scenePoint);
  /// The part of the scene the widget shows.
  QRectF visibleSceneRect() const;
  /// What an export draws (no scene shown: none): the view at the canvas's size and zoom, or the whole graph at
  /// about 1.5 px per scene unit with the PNG's longer side capped at 8000 px; with the overlay, without selection.
  std::optional<SceneSnapshot> exportSnapshot(bool viewOnly) const;
  void setMinimapVisible(bool visible);
  bool isMinimapVisible() const;
  /// Frames blit cached tiles of the scene (on by default; off paints every frame directly).
  void setRasterCacheEnabled(bool enabled);
  /// How many tiles have been painted (tests and benchmarks).
  size_t rasterCacheRenders() const { return m_raster.renders(); }
  double zoom() const { return m_scale; }
  /// Selects the item showing this graph node (its node, or the collapsed group holding it).
  void selectNode(size_t node);
  /// Selects a group's box (or, when it is inside a collapsed group, the box that shows it).
  void selectGroup(int group);
  int selectedItem() const { return m_selected; }

 signals:
  void sceneReady();
  void itemSelected(int item);
  /// A node was double-clicked (or Enter pressed on it): the window opens the functions it calls.
  void nodeActivated(size_t node);
  void layoutFailed(const QString& message);
  void layoutStarted();
  void layoutCancelled();
  void viewChanged(double zoom, QPointF topLeft);
  void minimapToggled(bool visible);

 protected:
  void paintEvent(QPaintEvent*) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void relayout();
  QPointF toScene(const QPointF& widget) const;
  void zoomAt(const QPointF& widget, double factor);
  void applyNodeColors();
  void notifyView();
  void viewMoved();
  void refreshMinimap();
  bool paintFromCache(QPainter& painter);
  void paintSelectionOver(QPainter& painter);

  std::shared_ptr<GraphLayout> m_layout;
  std::shared_ptr<const Scene> m_scene;
  std::set<std::string> m_expanded;
  std::set<std::string> m_sceneExpanded;  // what m_scene shows (a cancelled layout goes back to it)
  QString m_emptyText;                    // what an empty canvas says after a layout was cancelled or failed
  struct LayoutJob {
    std::shared_ptr<GraphLayout> layout;  ///< built in the job the first time (shape inference on big graphs is slow)
    Expected<std::shared_ptr<const Scene>> scene;
    std::set<std::string> expanded;
  };
  void onLayout(LayoutJob job);
  void showLayoutFailure(const Status& status);

  std::shared_ptr<const Graph> m_graph;
  EngineWorker* m_worker;
  QString m_layoutTag;         // this canvas's jobs on the worker
  quint64 m_layoutTicket = 0;  // a cancelled layout's result is dropped
  bool m_fitOnReady = true;
  bool m_autoFit = true;  // follow the widget's size until the user pans or zooms
  const Theme* m_theme;
  SceneOverlay m_overlay;
  uint64_t m_overlayVersion = 0;
  SceneRasterCache m_raster;
  bool m_rasterEnabled = true;
  QTimer m_zoomSettled;  // while it runs, a zoom draws the cached tiles of the previous zoom scaled
  Minimap* m_minimap;
  bool m_minimapWanted = true;
  std::vector<std::pair<size_t, QColor>> m_nodeColors;
  std::vector<double> m_nodeTimes;
  std::vector<double> m_nodeShares, m_nodeShareSeconds;
  std::vector<int64_t> m_nodeFusedInto;
  std::vector<double> m_nodeOurs, m_nodeTheirs;
  int m_selected = -1;
  double m_scale = 1;
  QPointF m_offset;  // scene point at the widget's top-left
  QPoint m_dragStart;
  QPointF m_offsetAtDrag;
  bool m_dragging = false;
};

}  // namespace flowscope
