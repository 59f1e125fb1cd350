// Driving the MainWindow from tests and the GUI soak: waiting without stalling the event loop, and opening a file the
// way a user does until its first scene is laid out.
#pragma once

#include <QElapsedTimer>
#include <QEventLoop>
#include <QSignalSpy>
#include <QTimer>
#include <functional>

#include "canvas/graph_canvas.h"
#include "main_window.h"

namespace flowscope::testing {

/// Runs the event loop until `done()` holds or `timeoutMs` pass (checked every 2 ms; it never sleeps, so timers on
/// the UI thread keep their pace). Returns `done()`.
inline bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
  if (done()) return true;
  QEventLoop loop;
  QTimer poll;
  QElapsedTimer clock;
  clock.start();
  QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
    if (done() || clock.elapsed() >= timeoutMs) loop.quit();
  });
  poll.start(2);
  loop.exec();
  return done();
}

/// A canvas's next layout: done when its scene is ready or the layout failed.
struct LayoutWatch {
  explicit LayoutWatch(GraphCanvas* canvas)
      : ready(canvas, &GraphCanvas::sceneReady), failed(canvas, &GraphCanvas::layoutFailed) {}
  bool settled() const { return !ready.isEmpty() || !failed.isEmpty(); }
  QString error() const { return failed.isEmpty() ? QString() : failed.first().first().toString(); }
  QSignalSpy ready, failed;
};

/// Opens `path` in a shown 1200x800 window and waits until it is loaded and its first scene is laid out. False when
/// loading or the layout failed (`error` gets the message) or either took longer than `timeoutMs`.
inline bool openAndLayOut(MainWindow& window, const QString& path, int timeoutMs = 20000, QString* error = nullptr) {
  window.resize(1200, 800);
  window.show();
  QSignalSpy loaded(&window, &MainWindow::modelLoaded);
  QSignalSpy failed(&window, &MainWindow::loadFailed);
  LayoutWatch layout(window.canvas());
  window.openFile(path);
  QString why;
  if (!waitUntil([&] { return !loaded.isEmpty() || !failed.isEmpty(); }, timeoutMs))
    why = QString("loading took over %1 ms").arg(timeoutMs);
  else if (!failed.isEmpty())
    why = failed.first().first().toString();
  else if (!waitUntil([&] { return layout.settled(); }, timeoutMs))
    why = QString("the layout took over %1 ms").arg(timeoutMs);
  else
    why = layout.error();
  if (error) *error = why;
  return why.isEmpty();
}

/// Exports the graph (or the view) to `path` and waits until it is written. False when it could not start, failed,
/// was cancelled or took longer than `timeoutMs` (`error` gets the message).
inline bool exportAndWait(MainWindow& window, const QString& path, bool viewOnly = false, int timeoutMs = 60000,
                          QString* error = nullptr) {
  QSignalSpy finished(&window, &MainWindow::exportFinished);
  QString why;
  if (Status started = window.exportCanvas(path, viewOnly); !started)
    why = QString::fromStdString(started.message());
  else if (!waitUntil([&] { return !finished.isEmpty(); }, timeoutMs))
    why = QString("the export took over %1 ms").arg(timeoutMs);
  else if (!finished.first().at(1).toBool())
    why = finished.first().at(2).toString();
  if (error) *error = why;
  return why.isEmpty();
}

}  // namespace flowscope::testing
