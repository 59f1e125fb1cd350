// Scene painting.
#include "canvas/scene_painter.h"

#include <QPainterPath>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>
#include <limits>

namespace flowscope {
namespace {

QRectF toQt(const Rect& r) { return QRectF(r.x, r.y, r.w, r.h); }

// The edge's Bezier chain, then a line to the arrow tip Graphviz adds after it; or its polyline.
QPainterPath edgePath(const SceneEdge& e) {
  QPainterPath path(QPointF(e.points[0].x, e.points[0].y));
  const size_t bezier = e.bezierPoints();
  for (size_t i = 1; i + 2 < bezier; i += 3)
    path.cubicTo(e.points[i].x, e.points[i].y, e.points[i + 1].x, e.points[i + 1].y, e.points[i + 2].x,
                 e.points[i + 2].y);
  for (size_t i = std::max<size_t>(bezier, 1); i < e.points.size(); ++i) path.lineTo(e.points[i].x, e.points[i].y);
  return path;
}

// The consumer's end: the last point, or the arrow tip Graphviz adds after the Bezier.
void drawArrowHead(QPainter& p, const SceneEdge& e, const QColor& color) {
  const Point& a = e.points[e.points.size() - 2];
  const Point& b = e.points.back();
  QLineF line(QPointF(a.x, a.y), QPointF(b.x, b.y));
  if (line.length() < 0.01) return;
  QLineF unit = line.unitVector();
  QPointF dir(unit.dx(), unit.dy()), normal(-unit.dy(), unit.dx());
  QPointF tip(b.x, b.y);
  QPolygonF head({tip, tip - dir * 7 + normal * 3.5, tip - dir * 7 - normal * 3.5});
  p.setBrush(color);
  p.setPen(Qt::NoPen);
  p.drawPolygon(head);
}

// WCAG relative luminance of an sRGB colour.
double luminance(const QColor& c) {
  const auto linear = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

double contrast(const QColor& a, const QColor& b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// Far out, the items under a pixel are drawn as dots, one per pixel however many items share it: the graph's
// shape at the cost of a visit per item, not a paint call.
void drawSubPixelItems(QPainter& p, const Scene& scene, const Rect& view, double scale, double below,
                       const QColor& color) {
  const auto columns = static_cast<size_t>(std::ceil(view.w * scale)) + 1;
  const auto rows = static_cast<size_t>(std::ceil(view.h * scale)) + 1;
  std::vector<bool> taken(columns * rows);
  std::vector<QPointF> dots;
  scene.visitSmallItems(view, below, 1 / scale, [&](const Rect& r, int) {
    const double x = r.x + r.w / 2, y = r.y + r.h / 2;
    if (!view.contains(x, y)) return;
    const size_t pixel =
        static_cast<size_t>((y - view.y) * scale) * columns + static_cast<size_t>((x - view.x) * scale);
    if (taken[pixel]) return;
    taken[pixel] = true;
    dots.emplace_back(x, y);
  });
  p.setPen(QPen(color, 0));
  p.drawPoints(dots.data(), static_cast<int>(dots.size()));
}

// What a badge at `spot` would cover: other boxes, group titles and edge labels. Only a frame may be there, below
// its title's text (the band's last few units are empty).
int coveredAt(const Scene& scene, const SceneItem& item, const Rect& spot) {
  int covered = 0;
  for (int other : scene.itemsIn(spot)) {
    const SceneItem& o = scene.items[static_cast<size_t>(other)];
    const bool frameInside =
        o.kind == SceneItem::Kind::kGroup && o.expanded && o.rect.y + kGroupTitleHeight - 4 < spot.y;
    covered += &o != &item && !frameInside;
  }
  for (int e : scene.edgesIn(spot)) {
    const SceneEdge& edge = scene.edges[static_cast<size_t>(e)];
    covered += !edge.label.empty() && edge.labelBox.w > 0 && edge.labelBox.intersects(spot);
  }
  return covered;
}

}  // namespace

QRectF badgeRect(const Scene& scene, const SceneItem& item, double textWidth) {
  const Rect& r = item.rect;
  const Rect spots[] = {{r.x + r.w + 3, r.y - 2, textWidth + 2, 14},            // right of the box
                        {r.x + r.w - textWidth, r.y - 15, textWidth, 14},       // above its right end
                        {r.x + r.w - textWidth, r.y + r.h + 1, textWidth, 14},  // below it
                        {r.x - textWidth - 5, r.y - 2, textWidth + 2, 14}};     // left of it
  const Rect* best = &spots[0];
  int fewest = std::numeric_limits<int>::max();
  for (const Rect& spot : spots) {
    const int covered = coveredAt(scene, item, spot);
    if (covered < fewest) {
      fewest = covered;
      best = &spot;
    }
    if (covered == 0) break;
  }
  return toQt(*best);
}

QColor labelColor(const QColor& fill, const Theme& theme) {
  return contrast(fill, theme.text) >= contrast(fill, theme.background) ? theme.text : theme.background;
}

PaintStats paintScene(QPainter& painter, const Scene& scene, const QRectF& view, double scale, const Theme& theme,
                      const SceneOverlay* overlay) {
  PaintStats stats;
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, scale > 0.25);
  const bool detailed = scale >= 0.55, boxesOnly = scale < 0.12;
  const Rect viewRect{view.x(), view.y(), view.width(), view.height()};
  const double minimum = boxesOnly ? 0.6 / scale : 0;  // far out, items under a pixel are drawn as dots
  const std::vector<int> visible = scene.itemsIn(viewRect, minimum);

  // Expanded groups first (frames), then edges, then boxes on top.
  for (int i : visible) {
    const SceneItem& item = scene.items[static_cast<size_t>(i)];
    if (item.kind != SceneItem::Kind::kGroup || !item.expanded) continue;
    QRectF r = toQt(item.rect);
    painter.setPen(QPen(theme.groupFrame, 1.0 / scale));
    painter.setBrush(theme.groupFill);
    if (boxesOnly)
      painter.drawRect(r);  // corners would round off under a pixel
    else
      painter.drawRoundedRect(r, 6, 6);
    if (!boxesOnly) {
      painter.setPen(theme.muted);
      painter.drawText(r.adjusted(8, 4, -8, 0), Qt::AlignLeft | Qt::AlignTop, QString::fromStdString(item.label));
    }
    ++stats.items;
  }
  if (boxesOnly) drawSubPixelItems(painter, scene, viewRect, scale, minimum, theme.groupFrame);
  const bool coarse = scale < 0.35;  // middle distance: straight edge lines in one batch, no arrow heads
  if (!boxesOnly && coarse) {
    std::vector<QLineF> lines, dashed;
    for (int index : scene.edgesIn(viewRect)) {
      const SceneEdge& e = scene.edges[static_cast<size_t>(index)];
      if (e.points.size() < 2) continue;
      (e.control ? dashed : lines)
          .emplace_back(QPointF(e.points.front().x, e.points.front().y), QPointF(e.points.back().x, e.points.back().y));
    }
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(QPen(theme.edge, 0));
    painter.drawLines(lines.data(), static_cast<int>(lines.size()));
    QPen dash(theme.edge, 0);
    dash.setStyle(Qt::DashLine);
    painter.setPen(dash);
    painter.drawLines(dashed.data(), static_cast<int>(dashed.size()));
    stats.edges = lines.size() + dashed.size();
  }
  if (!boxesOnly && !coarse) {
    for (int index : scene.edgesIn(viewRect)) {
      const SceneEdge& e = scene.edges[static_cast<size_t>(index)];
      if (e.points.size() < 2) continue;
      QPen pen(theme.edge, (e.control ? 1.0 : e.weight) / std::max(scale, 0.5));
      if (e.control) pen.setStyle(Qt::DashLine);
      painter.setPen(pen);
      painter.setBrush(Qt::NoBrush);
      painter.drawPath(edgePath(e));
      drawArrowHead(painter, e, theme.edge);
      if (detailed && !e.label.empty() && e.labelBox.w > 0) {  // placed by the layout (placeEdgeLabels)
        painter.setPen(theme.muted);
        QFont f = painter.font();
        f.setPointSizeF(7);
        painter.setFont(f);
        const Qt::Alignment side = e.stub ? Qt::AlignRight : Qt::AlignLeft;  // a stub's label ends where it starts
        painter.drawText(toQt(e.labelBox), side | Qt::AlignVCenter | Qt::TextDontClip, QString::fromStdString(e.label));
      }
      ++stats.edges;
    }
  }
  QFont labelFont = painter.font();
  labelFont.setPointSizeF(8.5);
  if (boxesOnly) {  // far out: plain filled rectangles, no outlines, no antialiasing
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int i : visible) {
      const SceneItem& item = scene.items[static_cast<size_t>(i)];
      if (item.kind == SceneItem::Kind::kGroup && item.expanded) continue;
      QColor fill = theme.category(item.category);
      if (overlay && static_cast<size_t>(i) < overlay->itemFill.size() &&
          overlay->itemFill[static_cast<size_t>(i)].isValid())
        fill = overlay->itemFill[static_cast<size_t>(i)];
      if (overlay && overlay->selected.count(i)) fill = theme.selection;
      painter.fillRect(toQt(item.rect), fill);
      ++stats.items;
    }
    painter.restore();
    return stats;
  }
  for (int i : visible) {
    const SceneItem& item = scene.items[static_cast<size_t>(i)];
    if (item.kind == SceneItem::Kind::kGroup && item.expanded) continue;
    QRectF r = toQt(item.rect);
    QColor fill = theme.category(item.category);
    if (overlay && static_cast<size_t>(i) < overlay->itemFill.size() &&
        overlay->itemFill[static_cast<size_t>(i)].isValid())
      fill = overlay->itemFill[static_cast<size_t>(i)];
    const bool selected = overlay && overlay->selected.count(i);
    painter.setPen(boxesOnly ? Qt::NoPen
                             : QPen(selected ? theme.selection : fill.darker(140), (selected ? 2.5 : 1.0) / scale));
    painter.setBrush(fill);
    if (coarse) {
      painter.drawRect(r);
    } else if (item.kind == SceneItem::Kind::kGroup) {
      painter.drawRoundedRect(r, 10, 10);
      if (!boxesOnly) {  // a stacked look marks a collapsed group
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(r.adjusted(3, 3, -3, -3), 8, 8);
      }
    } else {
      painter.drawRoundedRect(r, 4, 4);
    }
    if (!boxesOnly && scale >= 0.3) {
      painter.setFont(labelFont);
      painter.setPen(labelColor(fill, theme));
      QString label = QString::fromStdString(item.label);
      if (detailed) label += "\n" + QString::fromStdString(item.detail);
      painter.drawText(r.adjusted(4, 1, -4, -1), Qt::AlignCenter | Qt::TextWordWrap,
                       painter.fontMetrics().elidedText(label, Qt::ElideMiddle, static_cast<int>(r.width() * 2)));
      if (overlay && static_cast<size_t>(i) < overlay->itemBadge.size() &&
          !overlay->itemBadge[static_cast<size_t>(i)].isEmpty()) {
        painter.setPen(theme.muted);
        const QString& badge = overlay->itemBadge[static_cast<size_t>(i)];
        painter.drawText(badgeRect(scene, item, painter.fontMetrics().horizontalAdvance(badge)),
                         Qt::AlignLeft | Qt::AlignVCenter | Qt::TextDontClip, badge);
      }
    }
    ++stats.items;
  }
  painter.restore();
  return stats;
}

}  // namespace flowscope

namespace flowscope {

void addNodeColors(SceneOverlay& overlay, const Scene& scene, const std::vector<std::pair<size_t, QColor>>& colors) {
  overlay.itemFill.resize(scene.items.size());
  for (const auto& [node, color] : colors)
    if (node < scene.itemOfNode.size() && scene.itemOfNode[node] >= 0)
      overlay.itemFill[static_cast<size_t>(scene.itemOfNode[node])] = color;
}

QColor heatColor(double fraction) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  return QColor::fromHsvF(0.16 * (1 - fraction), 0.15 + 0.8 * fraction, 1.0);
}

void addNodeTimes(SceneOverlay& overlay, const Scene& scene, const std::vector<double>& seconds) {
  if (seconds.empty()) return;
  overlay.itemFill.resize(scene.items.size());
  overlay.itemBadge.resize(scene.items.size());
  std::vector<double> perItem(scene.items.size(), 0.0);
  for (size_t n = 0; n < seconds.size() && n < scene.itemOfNode.size(); ++n)
    if (scene.itemOfNode[n] >= 0) perItem[static_cast<size_t>(scene.itemOfNode[n])] += seconds[n];
  const double slowest = perItem.empty() ? 0 : *std::max_element(perItem.begin(), perItem.end());
  for (size_t i = 0; i < perItem.size(); ++i) {
    if (perItem[i] <= 0 || slowest <= 0) continue;
    overlay.itemFill[i] = heatColor(perItem[i] / slowest);
    const double us = perItem[i] * 1e6;
    overlay.itemBadge[i] =
        us >= 1000 ? QString::number(us / 1000, 'f', 2) + " ms" : QString::number(us, 'f', 1) + " us";
  }
}

void addFusedMarks(SceneOverlay& overlay, const Scene& scene, const std::vector<int64_t>& fusedInto) {
  if (overlay.itemFill.size() != scene.items.size() || overlay.itemBadge.size() != scene.items.size()) return;
  const auto itemOf = [&](int64_t node) {
    return node >= 0 && static_cast<size_t>(node) < scene.itemOfNode.size()
               ? scene.itemOfNode[static_cast<size_t>(node)]
               : -1;
  };
  for (size_t n = 0; n < fusedInto.size(); ++n) {
    const int item = itemOf(static_cast<int64_t>(n)), anchor = itemOf(fusedInto[n]);
    if (item < 0 || anchor < 0 || item == anchor) continue;
    const auto i = static_cast<size_t>(item), a = static_cast<size_t>(anchor);
    if (!overlay.itemBadge[i].isEmpty() || !overlay.itemFill[a].isValid()) continue;  // it shows time of its own
    overlay.itemFill[i] = overlay.itemFill[a];
    overlay.itemBadge[i] = "fused";
  }
}

QColor rooflineColor(double share) {
  const double t = std::clamp(share / 0.6, 0.0, 1.0);
  return QColor::fromHsvF(0.33 * t, 0.55, 0.95);
}

void addRooflineShares(SceneOverlay& overlay, const Scene& scene, const std::vector<double>& shares,
                       const std::vector<double>& seconds) {
  if (shares.empty() || shares.size() != seconds.size()) return;
  overlay.itemFill.resize(scene.items.size());
  overlay.itemBadge.resize(scene.items.size());
  std::vector<double> roofTime(scene.items.size(), 0.0), time(scene.items.size(), 0.0);
  for (size_t n = 0; n < shares.size() && n < scene.itemOfNode.size(); ++n) {
    if (scene.itemOfNode[n] < 0 || shares[n] <= 0) continue;
    const auto item = static_cast<size_t>(scene.itemOfNode[n]);
    roofTime[item] += shares[n] * seconds[n];
    time[item] += seconds[n];
  }
  for (size_t i = 0; i < time.size(); ++i) {
    if (time[i] <= 0) continue;
    const double share = roofTime[i] / time[i];
    overlay.itemFill[i] = rooflineColor(share);
    overlay.itemBadge[i] = QString::number(100 * share, 'f', 0) + "% roof";
  }
}

QColor ratioColor(double ratio) {
  const double t = std::clamp(0.5 + std::log2(ratio) / 4, 0.0, 1.0);  // 1/4x .. 4x over green .. red
  return QColor::fromHsvF(0.33 * (1 - t), 0.55, 0.95);
}

void addTimeRatios(SceneOverlay& overlay, const Scene& scene, const std::vector<double>& ours,
                   const std::vector<double>& theirs) {
  if (ours.empty() || ours.size() != theirs.size()) return;
  overlay.itemFill.resize(scene.items.size());
  overlay.itemBadge.resize(scene.items.size());
  std::vector<double> oursPerItem(scene.items.size(), 0.0), theirsPerItem(scene.items.size(), 0.0);
  for (size_t n = 0; n < ours.size() && n < scene.itemOfNode.size(); ++n) {
    if (scene.itemOfNode[n] < 0 || ours[n] <= 0 || theirs[n] <= 0) continue;
    oursPerItem[static_cast<size_t>(scene.itemOfNode[n])] += ours[n];
    theirsPerItem[static_cast<size_t>(scene.itemOfNode[n])] += theirs[n];
  }
  for (size_t i = 0; i < oursPerItem.size(); ++i) {
    if (theirsPerItem[i] <= 0) continue;
    const double ratio = oursPerItem[i] / theirsPerItem[i];
    overlay.itemFill[i] = ratioColor(ratio);
    overlay.itemBadge[i] = "ours " + QString::number(ratio, 'f', ratio < 10 ? 2 : 0) + "x";
  }
}

QImage renderScene(const Scene& scene, int width, int height, const Theme& theme, const SceneOverlay* overlay,
                   PaintStats* stats) {
  const Rect& b = scene.bounds;
  const double margin = 16;
  const double scale = std::min((width - 2 * margin) / b.w, (height - 2 * margin) / b.h);
  const QSizeF size(width / scale, height / scale);  // the bounds centred in the image
  const QRectF area(QPointF(b.x + b.w / 2, b.y + b.h / 2) - QPointF(size.width() / 2, size.height() / 2), size);
  return renderSceneArea(scene, area, width, height, theme, overlay, stats);
}

QImage renderSceneArea(const Scene& scene, const QRectF& area, int width, int height, const Theme& theme,
                       const SceneOverlay* overlay, PaintStats* stats, const PaintProgress& progress) {
  constexpr int kBandRows = 256;
  constexpr double kLabelReach = 150;  // scene units a label can stick out of the item or edge that draws it
  const double scale = std::min(width / area.width(), height / area.height());
  QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
  if (image.isNull()) return image;  // out of memory
  image.fill(theme.background);
  QPainter painter(&image);
  PaintStats drawn;
  const int band = progress ? kBandRows : height;
  for (int top = 0; top < height; top += band) {
    const int rows = std::min(band, height - top);
    painter.resetTransform();
    painter.setClipRect(QRect(0, top, width, rows));  // device pixels: the bands meet without seams
    painter.scale(scale, scale);
    painter.translate(-area.topLeft());
    const QRectF rowArea(area.x(), area.y() + top / scale, area.width(), rows / scale);
    const QRectF view = band == height ? area : rowArea.adjusted(0, -kLabelReach, 0, kLabelReach);
    const PaintStats bandStats = paintScene(painter, scene, view, scale, theme, overlay);
    drawn.items += bandStats.items;
    drawn.edges += bandStats.edges;
    if (progress && !progress(static_cast<double>(top + rows) / height)) return {};
  }
  if (stats) *stats = drawn;
  return image;
}

bool writeSceneSvg(const Scene& scene, QIODevice* out, const Theme& theme, const SceneOverlay* overlay,
                   const QRectF* area) {
  const QRectF b = area ? *area : QRectF(scene.bounds.x, scene.bounds.y, scene.bounds.w, scene.bounds.h);
  QSvgGenerator svg;
  svg.setOutputDevice(out);
  svg.setSize(QSize(static_cast<int>(b.width()), static_cast<int>(b.height())));
  svg.setViewBox(QRectF(0, 0, b.width(), b.height()));
  svg.setTitle("Flowscope graph");
  QPainter painter;
  if (!painter.begin(&svg)) return false;
  painter.fillRect(QRectF(0, 0, b.width(), b.height()), theme.background);
  painter.setClipRect(QRectF(0, 0, b.width(), b.height()));
  painter.translate(-b.topLeft());
  paintScene(painter, scene, b, 1.0, theme, overlay);
  return painter.end();
}

}  // namespace flowscope
