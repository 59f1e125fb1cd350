// The canvas's tile cache.
#include "canvas/raster_cache.h"

#include <cmath>

namespace flowscope {
namespace {

constexpr size_t kMaxTiles = 96;     // 96 MiB at one device pixel per pixel
constexpr double kLabelReach = 150;  // scene units a label can stick out of the item or edge that draws it

}  // namespace

QImage SceneRasterCache::renderTile(TileIndex tile, const SceneOverlay& overlay) const {
  const double px = m_scale * m_key.devicePixelRatio;  // device pixels per scene unit
  QImage image(kTile, kTile, QImage::Format_ARGB32_Premultiplied);
  image.fill(m_key.theme->background);
  QPainter painter(&image);
  painter.translate(-tile.first * kTile, -tile.second * kTile);  // a tile is a window on one global pixel grid,
  painter.scale(px, px);                                         // so neighbouring tiles meet without seams
  const QRectF area(tile.first * kTile / px, tile.second * kTile / px, kTile / px, kTile / px);
  paintScene(painter, *m_key.scene, area.adjusted(-kLabelReach, -kLabelReach, kLabelReach, kLabelReach), m_scale,
             *m_key.theme, &overlay);
  return image;
}

void SceneRasterCache::draw(QPainter& painter, const Key& key, const SceneOverlay& overlay, QPointF offset,
                            double scale, QSize size, bool interim) {
  if (!(key == m_key)) {
    m_tiles.clear();
    m_key = key;
  }
  if (scale != m_scale) {
    if (interim && !m_tiles.empty()) return drawScaled(painter, offset, scale);
    m_tiles.clear();
    m_scale = scale;
  }
  const double dpr = key.devicePixelRatio, px = scale * dpr;
  const Rect& b = key.scene->bounds;
  // Global device pixels of the widget's corner (rounded: tiles land on whole pixels) and of the scene's bounds.
  const double left = std::round(offset.x() * px), top = std::round(offset.y() * px);
  const int tx0 = static_cast<int>(std::floor(std::max(left, (b.x - kLabelReach) * px) / kTile));
  const int ty0 = static_cast<int>(std::floor(std::max(top, (b.y - kLabelReach) * px) / kTile));
  const int tx1 =
      static_cast<int>(std::floor(std::min(left + size.width() * dpr, (b.x + b.w + kLabelReach) * px) / kTile));
  const int ty1 =
      static_cast<int>(std::floor(std::min(top + size.height() * dpr, (b.y + b.h + kLabelReach) * px) / kTile));
  for (int ty = ty0; ty <= ty1; ++ty)
    for (int tx = tx0; tx <= tx1; ++tx) {
      auto it = m_tiles.find({tx, ty});
      if (it == m_tiles.end()) {
        it = m_tiles.emplace(TileIndex{tx, ty}, renderTile({tx, ty}, overlay)).first;
        it->second.setDevicePixelRatio(dpr);
        ++m_renders;
      }
      painter.drawImage(QPointF((tx * kTile - left) / dpr, (ty * kTile - top) / dpr), it->second);
    }
  if (m_tiles.size() > kMaxTiles) evictAround((tx0 + tx1) / 2, (ty0 + ty1) / 2);
}

void SceneRasterCache::drawScaled(QPainter& painter, QPointF offset, double scale) const {
  const double px = m_scale * m_key.devicePixelRatio;
  for (const auto& [index, image] : m_tiles) {
    const QPointF corner(index.first * kTile / px, index.second * kTile / px);
    painter.drawImage(QRectF((corner - offset) * scale, QSizeF(kTile / px, kTile / px) * scale), image);
  }
}

void SceneRasterCache::evictAround(int cx, int cy) {
  // Keep the tiles nearest the view.
  std::vector<std::pair<int, TileIndex>> byDistance;
  for (const auto& entry : m_tiles)
    byDistance.emplace_back(std::abs(entry.first.first - cx) + std::abs(entry.first.second - cy), entry.first);
  std::sort(byDistance.begin(), byDistance.end());
  for (size_t i = kMaxTiles / 2; i < byDistance.size(); ++i) m_tiles.erase(byDistance[i].second);
}

}  // namespace flowscope
