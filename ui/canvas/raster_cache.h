// SceneRasterCache: the scene painted into tiles (512 device pixels square) at the canvas's zoom, kept while the
// view pans, so that a frame blits a few images instead of painting every item: panning a far-out view of a large
// graph, or a close-up full of labels, costs the tiles that come into view, not the whole view. While the zoom
// changes, the tiles of the previous zoom are drawn scaled and sharp ones are painted when the zoom settles.
#pragma once

#include <QImage>
#include <QPainter>
#include <map>
#include <utility>

#include "canvas/scene_painter.h"

namespace flowscope {

class SceneRasterCache {
 public:
  /// What the tiles show; a different key drops them.
  struct Key {
    const Scene* scene = nullptr;
    const Theme* theme = nullptr;
    uint64_t overlayVersion = 0;
    double devicePixelRatio = 1;
    bool operator==(const Key&) const = default;
  };
  static constexpr int kTile = 512;

  /// Draws the part of the scene a `size` widget shows with `offset` (scene point at its top-left) at `scale`.
  /// Missing tiles are painted (overlay without selection: the canvas draws that on top), unless `interim` and
  /// tiles of another zoom are held: then those are drawn scaled and nothing is painted.
  void draw(QPainter& painter, const Key& key, const SceneOverlay& overlay, QPointF offset, double scale, QSize size,
            bool interim);
  void clear() { m_tiles.clear(); }
  /// Tiles painted so far (tests and benchmarks).
  size_t renders() const { return m_renders; }
  size_t heldTiles() const { return m_tiles.size(); }

 private:
  using TileIndex = std::pair<int, int>;
  QImage renderTile(TileIndex tile, const SceneOverlay& overlay) const;
  void drawScaled(QPainter& painter, QPointF offset, double scale) const;
  void evictAround(int cx, int cy);

  Key m_key;
  double m_scale = 0;
  std::map<TileIndex, QImage> m_tiles;
  size_t m_renders = 0;
};

}  // namespace flowscope
