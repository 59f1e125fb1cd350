// Minimap: a thumbnail of the whole scene in the canvas's corner with the visible part framed; click or drag on it
// to move the view there. The thumbnail is painted once per scene, theme and overlay.
#pragma once

#include <QImage>
#include <QWidget>

#include "canvas/raster_cache.h"

namespace flowscope {

class GraphCanvas;

class Minimap : public QWidget {
  Q_OBJECT

 public:
  explicit Minimap(GraphCanvas* canvas);
  /// The thumbnail's scene-to-widget mapping (valid after a paint with a scene).
  QPointF toScene(const QPointF& widget) const;
  QPointF toWidget(const QPointF& scene) const;

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

 private:
  void updateThumbnail();

  GraphCanvas* m_canvas;
  SceneRasterCache::Key m_key;
  QImage m_thumbnail;
  QSize m_thumbnailFor;
  double m_scale = 1;
  QPointF m_origin;  // widget position of the scene bounds' top-left
};

}  // namespace flowscope
