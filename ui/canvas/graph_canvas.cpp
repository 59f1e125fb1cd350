// The graph canvas widget.
#include "canvas/graph_canvas.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QWheelEvent>

#include "canvas/minimap.h"
#include "session/engine_worker.h"

namespace flowscope {

GraphCanvas::GraphCanvas(QWidget* parent, EngineWorker* worker)
    : QWidget(parent),
      m_worker(worker ? worker : new EngineWorker(this, 1)),
      m_layoutTag(QString("layout:%1").arg(reinterpret_cast<quintptr>(this))),
      m_theme(&Theme::named("light")),
      m_minimap(new Minimap(this)) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(false);
  setMinimumSize(200, 150);
  m_minimap->hide();  // shown with a scene larger than the view
  m_zoomSettled.setSingleShot(true);
  m_zoomSettled.setInterval(150);
  connect(&m_zoomSettled, &QTimer::timeout, this, qOverload<>(&QWidget::update));
}

GraphCanvas::~GraphCanvas() { m_worker->cancelTag(m_layoutTag); }

void GraphCanvas::showLayoutFailure(const Status& status) {
  const bool cancelled = status.code() == ErrorCode::kCancelled;
  m_expanded = m_sceneExpanded;  // the shown scene stays, with its expansion
  m_emptyText = cancelled ? tr("Layout cancelled: View > Collapse all groups lays it out again")
                          : tr("Layout failed: %1").arg(QString::fromStdString(status.message()));
  update();
  if (cancelled)
    emit layoutCancelled();
  else
    emit layoutFailed(QString::fromStdString(status.message()));
}

void GraphCanvas::onLayout(LayoutJob job) {
  if (!m_layout) m_layout = job.layout;
  auto& result = job.scene;
  if (!result) return showLayoutFailure(result.status());
  m_scene = *result;
  m_sceneExpanded = job.expanded;
  m_selected = -1;
  applyNodeColors();
  if (m_fitOnReady) fitToView();
  m_fitOnReady = false;
  refreshMinimap();
  update();
  emit sceneReady();
}

void GraphCanvas::setGraph(std::shared_ptr<const Graph> graph) {
  m_graph = std::move(graph);
  m_layout.reset();
  m_scene.reset();
  m_sceneExpanded.clear();
  m_raster.clear();
  m_minimap->hide();
  m_expanded.clear();
  m_fitOnReady = true;
  m_autoFit = true;
  relayout();
}

void GraphCanvas::setExpanded(std::set<std::string> expanded) {
  m_expanded = std::move(expanded);
  relayout();
}

void GraphCanvas::toggleGroup(const std::string& path) {
  if (!m_expanded.erase(path)) m_expanded.insert(path);
  relayout();
}

void GraphCanvas::setGroupExpanded(const std::string& path, bool expanded) {
  if (expanded ? m_expanded.insert(path).second : m_expanded.erase(path) > 0) relayout();
}

void GraphCanvas::expandAll() {
  if (!m_layout) return;
  m_fitOnReady = true;
  setExpanded(m_layout->allGroups());
}

void GraphCanvas::collapseAll() {
  m_fitOnReady = true;
  setExpanded({});
}

void GraphCanvas::relayout() {
  if (!m_graph) {
    m_worker->cancelTag(m_layoutTag);
    update();
    return;
  }
  auto layout = m_layout;
  auto graph = m_graph;
  auto expanded = m_expanded;
  const quint64 ticket = ++m_layoutTicket;
  // A newer layout supersedes this one: the worker drops the older result, so only the latest scene arrives.
  m_worker->submit<LayoutJob>(
      m_layoutTag, tr("Laying out"), this,
      [layout, graph, expanded](JobControl& control) mutable {
        if (!layout) layout = std::make_shared<GraphLayout>(graph);
        auto scene = layout->build(expanded, control.cancelFlag());
        return LayoutJob{layout, std::move(scene), expanded};
      },
      [this, ticket](LayoutJob job) {
        if (ticket == m_layoutTicket) onLayout(std::move(job));
      });
  emit layoutStarted();
}

bool GraphCanvas::isLayingOut() const { return m_worker->isBusy(m_layoutTag); }

void GraphCanvas::cancelLayout() {
  if (!isLayingOut()) return;
  ++m_layoutTicket;  // whatever the job still delivers is dropped
  m_worker->cancelTag(m_layoutTag);
  showLayoutFailure(cancelled("layout was cancelled"));
}

void GraphCanvas::setTheme(const QString& name) {
  m_theme = &Theme::named(name);
  refreshMinimap();
  update();
}

void GraphCanvas::setOverlay(SceneOverlay overlay) {
  m_overlay = std::move(overlay);
  ++m_overlayVersion;
  refreshMinimap();
  update();
}

void GraphCanvas::setNodeColors(std::vector<std::pair<size_t, QColor>> colors) {
  m_nodeColors = std::move(colors);
  applyNodeColors();
  update();
}

void GraphCanvas::setNodeTimes(std::vector<double> seconds) {
  m_nodeTimes = std::move(seconds);
  applyNodeColors();
  update();
}

void GraphCanvas::setNodeRoofline(std::vector<double> shares, std::vector<double> seconds) {
  m_nodeShares = std::move(shares);
  m_nodeShareSeconds = std::move(seconds);
  applyNodeColors();
  update();
}

void GraphCanvas::setNodeFusedInto(std::vector<int64_t> fusedInto) {
  m_nodeFusedInto = std::move(fusedInto);
  applyNodeColors();
  update();
}

void GraphCanvas::setNodeRatios(std::vector<double> ours, std::vector<double> theirs) {
  m_nodeOurs = std::move(ours);
  m_nodeTheirs = std::move(theirs);
  applyNodeColors();
  update();
}

QColor GraphCanvas::heatColor(double fraction) { return flowscope::heatColor(fraction); }

void GraphCanvas::applyNodeColors() {
  if (!m_scene) return;
  m_overlay.itemFill.assign(m_scene->items.size(), QColor());
  m_overlay.itemBadge.assign(m_scene->items.size(), QString());
  addNodeColors(m_overlay, *m_scene, m_nodeColors);
  addNodeTimes(m_overlay, *m_scene, m_nodeTimes);
  addRooflineShares(m_overlay, *m_scene, m_nodeShares, m_nodeShareSeconds);
  addFusedMarks(m_overlay, *m_scene, m_nodeFusedInto);
  addTimeRatios(m_overlay, *m_scene, m_nodeOurs, m_nodeTheirs);
  ++m_overlayVersion;
  refreshMinimap();
}

void GraphCanvas::setView(double zoom, QPointF topLeft) {
  if (zoom == m_scale && topLeft == m_offset) return;
  m_autoFit = false;
  m_scale = zoom;
  m_offset = topLeft;
  refreshMinimap();
  update();
}

void GraphCanvas::notifyView() {
  refreshMinimap();
  emit viewChanged(m_scale, m_offset);
}

void GraphCanvas::viewMoved() {
  update();
  notifyView();
}

void GraphCanvas::centerOn(QPointF p) {
  m_autoFit = false;
  m_offset = p - QPointF(width() / (2 * m_scale), height() / (2 * m_scale));
  viewMoved();
}

QRectF GraphCanvas::visibleSceneRect() const { return QRectF(m_offset, QSizeF(width() / m_scale, height() / m_scale)); }

std::optional<SceneSnapshot> GraphCanvas::exportSnapshot(bool viewOnly) const {
  if (!m_scene) return std::nullopt;
  const Rect& b = m_scene->bounds;
  const QRectF area = viewOnly ? visibleSceneRect() : QRectF(b.x, b.y, b.w, b.h);
  const double scale = viewOnly ? m_scale : std::min(1.5, 8000.0 / std::max(b.w, b.h));
  const QSize pixels(std::max(64, static_cast<int>(area.width() * scale)),
                     std::max(64, static_cast<int>(area.height() * scale)));
  return SceneSnapshot{m_scene, *m_theme, m_overlay, area, pixels};
}

void GraphCanvas::setMinimapVisible(bool visible) {
  m_minimapWanted = visible;
  refreshMinimap();
}

void GraphCanvas::refreshMinimap() {
  const double pixel = 1 / m_scale;  // a fitted view holds the scene up to rounding
  const bool show = m_minimapWanted && m_scene &&
                    !visibleSceneRect()
                         .adjusted(-pixel, -pixel, pixel, pixel)
                         .contains(QRectF(m_scene->bounds.x, m_scene->bounds.y, m_scene->bounds.w, m_scene->bounds.h));
  if (show) {
    // Sized to the scene's shape, at most a fifth of the canvas wide and a quarter high, in the bottom-right corner.
    const Rect& b = m_scene->bounds;
    const double maxW = std::clamp(width() / 5.0, 120.0, 260.0), maxH = std::clamp(height() / 4.0, 80.0, 180.0);
    const double aspect = std::max(b.w, 1.0) / std::max(b.h, 1.0);
    const double w = std::clamp(std::min(maxW, maxH * aspect), 60.0, maxW), h = std::clamp(w / aspect, 40.0, maxH);
    m_minimap->setGeometry(width() - static_cast<int>(w) - 10, height() - static_cast<int>(h) - 10, static_cast<int>(w),
                           static_cast<int>(h));
    m_minimap->update();
  }
  m_minimap->setVisible(show);
}

bool GraphCanvas::isMinimapVisible() const { return m_minimapWanted; }

void GraphCanvas::setRasterCacheEnabled(bool enabled) {
  m_rasterEnabled = enabled;
  if (!enabled) m_raster.clear();
  update();
}

void GraphCanvas::fitToView() {
  if (!m_scene || width() < 10) return;
  const Rect& b = m_scene->bounds;
  m_scale = std::clamp(std::min(width() / b.w, height() / b.h), 0.01, 2.0);
  m_offset = QPointF(b.x + b.w / 2 - width() / (2 * m_scale), b.y + b.h / 2 - height() / (2 * m_scale));
  update();
  notifyView();
}

void GraphCanvas::selectNode(size_t node) {
  if (!m_scene || node >= m_scene->itemOfNode.size()) return;
  m_selected = static_cast<int>(m_scene->itemOfNode[node]);
  if (m_selected >= 0) {
    const Rect& r = m_scene->items[static_cast<size_t>(m_selected)].rect;  // bring it into view
    m_autoFit = false;
    m_offset = QPointF(r.x + r.w / 2 - width() / (2 * m_scale), r.y + r.h / 2 - height() / (2 * m_scale));
  }
  refreshMinimap();
  update();
}

void GraphCanvas::selectGroup(int group) {
  if (!m_scene || !m_layout || group < 0) return;
  for (size_t i = 0; i < m_scene->items.size(); ++i)
    if (m_scene->items[i].kind == SceneItem::Kind::kGroup && m_scene->items[i].id == group) {
      m_selected = static_cast<int>(i);
      refreshMinimap();
      update();
      return;
    }
  const ScopeTree& tree = m_layout->tree();  // hidden inside a collapsed group: select what shows its first node
  for (int g = group; g >= 0;) {
    const ScopeGroup& sg = tree.group(g);
    if (!sg.nodes.empty()) return selectNode(sg.nodes.front());
    if (sg.groups.empty()) return;
    g = sg.groups.front();
  }
}

QPointF GraphCanvas::toScene(const QPointF& p) const { return m_offset + p / m_scale; }

void GraphCanvas::zoomAt(const QPointF& widget, double factor) {
  const QPointF anchor = toScene(widget);
  m_scale = std::clamp(m_scale * factor, 0.005, 8.0);
  m_offset = anchor - widget / m_scale;
  m_zoomSettled.start();
  viewMoved();
}

void GraphCanvas::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), m_theme->background);
  if (!m_scene) {
    painter.setPen(m_theme->muted);
    painter.drawText(rect(), Qt::AlignCenter,
                     !m_graph        ? tr("No graph")
                     : isLayingOut() ? tr("Laying out...")
                                     : m_emptyText);
    return;
  }
  if (paintFromCache(painter)) return paintSelectionOver(painter);
  painter.scale(m_scale, m_scale);
  painter.translate(-m_offset);
  if (m_selected >= 0) m_overlay.selected.insert(m_selected);  // not copied: the overlay can hold 100k entries
  paintScene(painter, *m_scene, visibleSceneRect(), m_scale, *m_theme, &m_overlay);
  m_overlay.selected.erase(m_selected);
}

bool GraphCanvas::paintFromCache(QPainter& painter) {
  if (!m_rasterEnabled) return false;
  const SceneRasterCache::Key key{m_scene.get(), m_theme, m_overlayVersion, devicePixelRatioF()};
  m_raster.draw(painter, key, m_overlay, m_offset, m_scale, size(), m_zoomSettled.isActive());
  return true;
}

void GraphCanvas::paintSelectionOver(QPainter& painter) {
  if (m_selected < 0) return;
  const Rect& r = m_scene->items[static_cast<size_t>(m_selected)].rect;
  const double pad = 4 / m_scale;
  const QRectF area(r.x - pad, r.y - pad, r.w + 2 * pad, r.h + 2 * pad);
  painter.scale(m_scale, m_scale);
  painter.translate(-m_offset);
  painter.setClipRect(area);
  painter.fillRect(area, m_theme->background);  // repaint that area exactly, with the selection
  m_overlay.selected.insert(m_selected);
  paintScene(painter, *m_scene, area, m_scale, *m_theme, &m_overlay);
  m_overlay.selected.erase(m_selected);
}

void GraphCanvas::resizeEvent(QResizeEvent*) {
  if (m_autoFit) fitToView();
  refreshMinimap();
}

void GraphCanvas::wheelEvent(QWheelEvent* event) {
  m_autoFit = false;
  zoomAt(event->position(), std::pow(1.0015, event->angleDelta().y()));
  event->accept();
}

void GraphCanvas::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  m_dragStart = event->pos();
  m_offsetAtDrag = m_offset;
  m_dragging = false;
}

void GraphCanvas::mouseMoveEvent(QMouseEvent* event) {
  if (!(event->buttons() & Qt::LeftButton)) return;
  if ((event->pos() - m_dragStart).manhattanLength() > 3) m_dragging = true;
  if (m_dragging) {
    m_autoFit = false;
    m_offset = m_offsetAtDrag - QPointF(event->pos() - m_dragStart) / m_scale;
    viewMoved();
  }
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || m_dragging || !m_scene) return;
  const QPointF p = toScene(event->position());
  m_selected = m_scene->itemAt(p.x(), p.y());
  update();
  emit itemSelected(m_selected);
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
  if (!m_scene || !m_layout) return;
  const QPointF p = toScene(event->position());
  const int hit = m_scene->itemAt(p.x(), p.y());
  if (hit < 0) return;
  const SceneItem& item = m_scene->items[static_cast<size_t>(hit)];
  if (item.kind == SceneItem::Kind::kNode) return emit nodeActivated(static_cast<size_t>(item.id));
  toggleGroup(std::string(m_layout->tree().group(static_cast<int>(item.id)).path));
}

void GraphCanvas::keyPressEvent(QKeyEvent* event) {
  const double step = 80 / m_scale;
  m_autoFit = event->key() == Qt::Key_0 || event->key() == Qt::Key_F;
  switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoomAt(rect().center(), 1.25);
      break;
    case Qt::Key_Minus:
      zoomAt(rect().center(), 0.8);
      break;
    case Qt::Key_0:
    case Qt::Key_F:
      fitToView();
      break;
    case Qt::Key_M:
      setMinimapVisible(!m_minimapWanted);
      emit minimapToggled(m_minimapWanted);
      break;
    case Qt::Key_Left:
      m_offset.rx() -= step;
      viewMoved();
      break;
    case Qt::Key_Right:
      m_offset.rx() += step;
      viewMoved();
      break;
    case Qt::Key_Up:
      m_offset.ry() -= step;
      viewMoved();
      break;
    case Qt::Key_Down:
      m_offset.ry() += step;
      viewMoved();
      break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
      if (m_scene && m_selected >= 0) {
        const SceneItem& item = m_scene->items[static_cast<size_t>(m_selected)];
        if (item.kind == SceneItem::Kind::kNode)
          emit nodeActivated(static_cast<size_t>(item.id));
        else
          toggleGroup(std::string(m_layout->tree().group(static_cast<int>(item.id)).path));
      }
      break;
    default:
      QWidget::keyPressEvent(event);
  }
}

}  // namespace flowscope
