// Draws a Scene with QPainter, for the canvas widget and for headless screenshots alike. Level of detail by zoom:
// far out, filled boxes only; in between, boxes and edges; close up, labels, op names and edge labels.
#pragma once

#include <QIODevice>
#include <QImage>
#include <QPainter>
#include <QRectF>
#include <functional>
#include <set>
#include <vector>

#include "canvas/theme.h"
#include "layout/scene.h"

namespace flowscope {

/// Colour overlays drawn over the same geometry (no relayout): per item, optional.
struct SceneOverlay {
  std::vector<QColor> itemFill;    ///< replaces the category colour when valid (e.g. heat by time)
  std::vector<QString> itemBadge;  ///< a short text drawn on the item (e.g. "1.2 ms")
  std::set<int> selected;
};

/// Colours for graph nodes, mapped onto the items that show them (a collapsed group shows its nodes).
void addNodeColors(SceneOverlay& overlay, const Scene& scene, const std::vector<std::pair<size_t, QColor>>& colors);
/// A timing overlay: seconds per graph node summed per visible item; heat colour by share of the slowest item, and
/// a time label.
void addNodeTimes(SceneOverlay& overlay, const Scene& scene, const std::vector<double>& seconds);
/// Pale yellow through orange to red for 0..1 of the slowest item's time (TensorBoard's compute-time colouring).
QColor heatColor(double fraction);
/// A roofline overlay: per visible item the share of the roofline its nodes reached (their roofline time over their
/// time, so a collapsed group weighs its nodes by time) as a colour and a percentage. Nodes that did no counted
/// work (share 0) stay uncoloured.
void addRooflineShares(SceneOverlay& overlay, const Scene& scene, const std::vector<double>& shares,
                       const std::vector<double>& seconds);
/// Nodes that a run fused into another node's kernel (`fusedInto`, NodeTimes::fusedInto): an item showing such a node
/// and no time of its own takes the colour of the item that shows the kernel's time, with the badge "fused".
void addFusedMarks(SceneOverlay& overlay, const Scene& scene, const std::vector<int64_t>& fusedInto);
/// Red for a kernel far below its roofline, through amber, to green at 60% and above.
QColor rooflineColor(double share);

/// The colour of a label on `fill`: the theme's text colour, or its background colour where that reads better (dark
/// text on the pale fills of a profile's heat colours in the dark theme).
QColor labelColor(const QColor& fill, const Theme& theme);

/// Where an item's badge (its time, "fused") is drawn, `textWidth` wide: the first of right of the box, above its
/// right end, below it and left of it where no other box, group title or edge label is; where each covers something,
/// the one that covers least. (Above, the badge of the first box in a narrow group ran into the group's title.)
QRectF badgeRect(const Scene& scene, const SceneItem& item, double textWidth);

struct PaintStats {
  size_t items = 0, edges = 0;
};

/// The whole scene fitted into a `width` x `height` image (headless screenshots, PNG export).
/// Our time over theirs per visible item (nodes summed; only nodes both profiles timed): green where ours is faster,
/// red where slower, badge "ours 2.1x" or "ours 0.5x".
void addTimeRatios(SceneOverlay& overlay, const Scene& scene, const std::vector<double>& ours,
                   const std::vector<double>& theirs);
QImage renderScene(const Scene& scene, int width, int height, const Theme& theme, const SceneOverlay* overlay = nullptr,
                   PaintStats* stats = nullptr);
/// Gets the fraction of the rows painted so far (0..1); returns false to stop painting.
using PaintProgress = std::function<bool(double fraction)>;
/// A part of the scene (scene coordinates) drawn into a `width` x `height` image at the scale that fills it. With
/// `progress`, the image is painted in bands of rows (the same pixels), reporting after each; a stopped paint returns
/// a null image. Stats count what each band drew.
QImage renderSceneArea(const Scene& scene, const QRectF& area, int width, int height, const Theme& theme,
                       const SceneOverlay* overlay = nullptr, PaintStats* stats = nullptr,
                       const PaintProgress& progress = {});
/// The whole scene, or `area` of it, as SVG (vector export) into `out`, which must be open for writing.
bool writeSceneSvg(const Scene& scene, QIODevice* out, const Theme& theme, const SceneOverlay* overlay = nullptr,
                   const QRectF* area = nullptr);

/// `view` is the visible part of the scene in scene coordinates; `scale` is device pixels per scene unit.
PaintStats paintScene(QPainter& painter, const Scene& scene, const QRectF& view, double scale, const Theme& theme,
                      const SceneOverlay* overlay = nullptr);

}  // namespace flowscope
