// Draws a Scene with QPainter, for the canvas widget and for headless screenshots alike. Level of detail by zoom:
// far out, filled boxes only; in between, boxes and edges; close up, labels, op names and edge labels.
#pragma once

#include <QImage>
#include <QPainter>
#include <QRectF>
#include <set>
#include <vector>

#include "canvas/theme.h"
#include "layout/scene.h"

namespace flowscope {

/// Colour overlays drawn over the same geometry (no relayout): per item, optional.
struct SceneOverlay {
  std::vector<QColor> itemFill;     ///< replaces the category colour when valid (e.g. heat by time)
  std::vector<QString> itemBadge;   ///< a short text drawn on the item (e.g. "1.2 ms")
  std::set<int> selected;
};

struct PaintStats {
  size_t items = 0, edges = 0;
};

/// The whole scene fitted into a `width` x `height` image (headless screenshots, PNG export).
QImage renderScene(const Scene& scene, int width, int height, const Theme& theme, const SceneOverlay* overlay = nullptr,
                   PaintStats* stats = nullptr);
/// The whole scene as SVG (vector export).
bool writeSceneSvg(const Scene& scene, const QString& path, const Theme& theme, const SceneOverlay* overlay = nullptr);

/// `view` is the visible part of the scene in scene coordinates; `scale` is device pixels per scene unit.
PaintStats paintScene(QPainter& painter, const Scene& scene, const QRectF& view, double scale, const Theme& theme,
                      const SceneOverlay* overlay = nullptr);

}  // namespace flowscope
