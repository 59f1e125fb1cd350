// Exporting a scene as PNG or SVG off the UI thread: the canvas takes a snapshot of what it shows (the scene, the
// theme, the overlay, the area and the picture's size), and a worker paints it, encodes it and writes the file
// atomically, reporting progress and stopping when asked.
#pragma once

#include <QRectF>
#include <QSize>
#include <QString>
#include <functional>
#include <memory>

#include "base/status.h"
#include "canvas/scene_painter.h"

namespace flowscope {

/// Everything an export draws, copied from the canvas: nothing in it changes after the snapshot is taken.
struct SceneSnapshot {
  std::shared_ptr<const Scene> scene;
  Theme theme;
  SceneOverlay overlay;
  QRectF area;   ///< the part of the scene to draw, in scene coordinates
  QSize pixels;  ///< the PNG's size (SVG draws `area` at one unit per scene unit)
};

/// Gets the fraction done (0..1) and what is being done; returns false when the export should stop.
using ExportProgress = std::function<bool(double fraction, const QString& what)>;

/// Paints `snapshot` as PNG or SVG (by the extension of `path`) and writes it atomically. Returns a Cancelled status
/// (and writes nothing) when `progress` asked to stop, or an error naming the path and the cause.
Status writeSceneSnapshot(const SceneSnapshot& snapshot, const QString& path, const ExportProgress& progress);

}  // namespace flowscope
