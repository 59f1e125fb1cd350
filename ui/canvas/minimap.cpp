// The canvas's minimap.
#include "canvas/minimap.h"

#include <QMouseEvent>
#include <QPainter>

#include "canvas/graph_canvas.h"

namespace flowscope {

Minimap::Minimap(GraphCanvas* canvas) : QWidget(canvas), m_canvas(canvas) {
  setObjectName("minimap");
  setCursor(Qt::PointingHandCursor);
  setToolTip(tr("Minimap: click or drag to move the view (View > Minimap, or M, hides it)"));
}

void Minimap::updateThumbnail() {
  auto scene = m_canvas->scene();
  const SceneRasterCache::Key key{scene.get(), &m_canvas->theme(), m_canvas->overlayVersion(), devicePixelRatioF()};
  if (key == m_key && size() == m_thumbnailFor && !m_thumbnail.isNull()) return;
  m_key = key;
  m_thumbnailFor = size();  // the canvas resizes the minimap to the scene's shape
  const Rect& b = scene->bounds;
  const double inner = 6;
  m_scale = std::min((width() - 2 * inner) / b.w, (height() - 2 * inner) / b.h);
  m_origin = QPointF((width() - b.w * m_scale) / 2, (height() - b.h * m_scale) / 2);
  const double dpr = devicePixelRatioF();
  m_thumbnail = QImage(std::max(1, static_cast<int>(b.w * m_scale * dpr)),
                       std::max(1, static_cast<int>(b.h * m_scale * dpr)), QImage::Format_ARGB32_Premultiplied);
  m_thumbnail.fill(Qt::transparent);
  QPainter painter(&m_thumbnail);
  painter.scale(m_scale * dpr, m_scale * dpr);
  painter.translate(-b.x, -b.y);
  paintScene(painter, *scene, QRectF(b.x, b.y, b.w, b.h), m_scale, m_canvas->theme(), &m_canvas->overlay());
}

QPointF Minimap::toScene(const QPointF& widget) const {
  auto scene = m_canvas->scene();
  const QPointF bounds = scene ? QPointF(scene->bounds.x, scene->bounds.y) : QPointF();
  return bounds + (widget - m_origin) / m_scale;
}

QPointF Minimap::toWidget(const QPointF& scenePoint) const {
  auto scene = m_canvas->scene();
  const QPointF bounds = scene ? QPointF(scene->bounds.x, scene->bounds.y) : QPointF();
  return m_origin + (scenePoint - bounds) * m_scale;
}

void Minimap::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const Theme& theme = m_canvas->theme();
  QColor panel = theme.background;
  panel.setAlpha(225);
  painter.fillRect(rect(), panel);
  painter.setPen(QPen(theme.groupFrame, 1));
  painter.drawRect(rect().adjusted(0, 0, -1, -1));
  if (!m_canvas->scene()) return;
  updateThumbnail();
  painter.drawImage(QRectF(m_origin, QSizeF(m_thumbnail.width(), m_thumbnail.height()) / devicePixelRatioF()),
                    m_thumbnail);
  const QRectF view = m_canvas->visibleSceneRect();
  QRectF frame(toWidget(view.topLeft()), toWidget(view.bottomRight()));
  frame = frame.intersected(QRectF(rect()).adjusted(1, 1, -2, -2));
  QColor fill = theme.selection;
  fill.setAlpha(40);
  painter.setBrush(fill);
  painter.setPen(QPen(theme.selection, 1.5));
  painter.drawRect(frame);
}

void Minimap::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton && m_canvas->scene()) m_canvas->centerOn(toScene(event->position()));
}

void Minimap::mouseMoveEvent(QMouseEvent* event) {
  if ((event->buttons() & Qt::LeftButton) && m_canvas->scene()) m_canvas->centerOn(toScene(event->position()));
}

}  // namespace flowscope
