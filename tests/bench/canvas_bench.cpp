// Canvas benchmark (a program, not a test): time to first paint (load, background layout of the collapsed view,
// one frame of the real GraphCanvas widget) and paint time per frame while panning, at the fitted zoom and at
// 100%, collapsed and with every group expanded. Frames go through the widget's paintEvent, so they include the
// raster cache (the frame that builds the cached image is reported on its own as "zoom frame"). Memory: heap bytes
// in use (glibc mallinfo2) and resident memory (VmRSS) before the load, after it and once the collapsed scene (with
// the layout's scope tree and shapes) is ready, and the bytes per node of the graph plus that scene.
// usage: canvas_bench FILE... (offscreen; prints one line per file and view)
#include <QApplication>
#include <QEventLoop>
#include <QImage>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

#include <malloc.h>

#include "base/background_work.h"
#include "canvas/graph_canvas.h"
#include "io/loader.h"

using namespace flowscope;
using Clock = std::chrono::steady_clock;

namespace {

double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

struct Memory {
  double heap = 0, rss = 0;  ///< bytes
};

Memory memoryNow() {
  Memory m;
  const struct mallinfo2 info = mallinfo2();
  m.heap = static_cast<double>(info.uordblks + info.hblkhd);
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) m.rss = std::stod(line.substr(6)) * 1024;
  return m;
}

// `graph` is measured once the canvas is gone; `total` holds the graph and its collapsed scene. Resident memory is
// given for the total only: once the expanded scene is freed, glibc keeps some of it resident.
void reportMemory(const Memory& before, const Memory& graph, const Memory& total, size_t nodes) {
  const double mb = 1024.0 * 1024.0, count = static_cast<double>(std::max<size_t>(nodes, 1));
  std::printf(
      "  memory: heap %.0f MB before load, +%.0f MB graph, +%.0f MB collapsed scene -> %.0f bytes/node "
      "(resident %.0f MB, +%.0f -> %.0f bytes/node)\n",
      before.heap / mb, (graph.heap - before.heap) / mb, (total.heap - graph.heap) / mb,
      (total.heap - before.heap) / count, before.rss / mb, (total.rss - before.rss) / mb,
      (total.rss - before.rss) / count);
}

struct Frames {
  double first = 0, mean = 0, worst = 0;
};

double paintOnce(GraphCanvas& canvas, QImage& image) {
  auto start = Clock::now();
  canvas.render(&image);
  return ms(start, Clock::now());
}

// The frame at a new zoom (centred on the scene), then the mean and worst frame of a drag: `frames` frames moving
// the view 24 px right and 12 px down each (a brisk drag), so frames paint the tiles that come into view.
Frames panFrames(GraphCanvas& canvas, double scale, int frames) {
  QImage image(canvas.size(), QImage::Format_ARGB32_Premultiplied);
  const Rect& b = canvas.scene()->bounds;
  Frames result;
  canvas.setView(scale, canvas.topLeft());
  canvas.centerOn(QPointF(b.x + b.w / 2, b.y + b.h / 2));
  result.first = paintOnce(canvas, image);
  const QPointF start = canvas.topLeft();
  for (int f = 1; f <= frames; ++f) {
    canvas.setView(scale, start + QPointF(24 * f, 12 * f) / scale);
    const double took = paintOnce(canvas, image);
    result.mean += took / frames;
    result.worst = std::max(result.worst, took);
  }
  return result;
}

// Runs `start` and waits for the canvas's background layout.
bool waitForScene(GraphCanvas& canvas, const std::function<void()>& start) {
  QEventLoop loop;
  QObject::connect(&canvas, &GraphCanvas::sceneReady, &loop, &QEventLoop::quit);
  QObject::connect(&canvas, &GraphCanvas::layoutFailed, &loop, [&loop] { loop.exit(1); });
  start();
  return loop.exec() == 0;
}

double fitScale(const GraphCanvas& canvas) {
  const Rect& b = canvas.scene()->bounds;
  return std::min(canvas.width() / b.w, canvas.height() / b.h);
}

void report(const char* what, size_t items, const Frames& fit, const Frames& full) {
  std::printf(
      "  %s (%zu items): pan at fit %.2f ms/frame (worst %.2f, zoom frame %.1f), at 100%% %.2f ms (worst %.2f)\n", what,
      items, fit.mean, fit.worst, fit.first, full.mean, full.worst);
}

// First paint, memory, and panning collapsed and expanded, for one file.
bool benchFile(const char* path) {
  const Memory before = memoryNow();
  auto start = Clock::now();
  auto model = loadModel(path);
  if (!model) {
    std::fprintf(stderr, "%s\n", model.status().message().c_str());
    return false;
  }
  auto shared = std::make_shared<const Model>(std::move(model).value());
  auto loaded = Clock::now();
  auto canvas = std::make_unique<GraphCanvas>();
  canvas->resize(1600, 1000);
  if (!waitForScene(*canvas, [&] { canvas->setGraph(std::shared_ptr<const Graph>(shared, &shared->graph)); }))
    return false;
  auto laidOut = Clock::now();
  QImage image(canvas->size(), QImage::Format_ARGB32_Premultiplied);
  paintOnce(*canvas, image);
  auto painted = Clock::now();
  std::printf("%s: %zu nodes; first paint %.0f ms (load %.0f, layout %.0f, paint %.0f)\n", path, shared->graph.size(),
              ms(start, painted), ms(start, loaded), ms(loaded, laidOut), ms(laidOut, painted));
  waitForBackgroundWork();  // the loader's clean-up, which ran beside the layout: measure memory without it
  const Memory total = memoryNow();
  std::fflush(stdout);
  const size_t collapsedItems = canvas->scene()->items.size();
  const Frames fit = panFrames(*canvas, fitScale(*canvas), 60);
  report("collapsed", collapsedItems, fit, panFrames(*canvas, 1.0, 60));
  std::fflush(stdout);
  auto expandStart = Clock::now();
  if (!waitForScene(*canvas, [&] { canvas->expandAll(); })) return false;
  auto expanded = Clock::now();
  std::printf("  expand all: layout %.0f ms\n", ms(expandStart, expanded));
  const size_t expandedItems = canvas->scene()->items.size();
  const Frames bigFit = panFrames(*canvas, fitScale(*canvas), 60);
  report("expanded all", expandedItems, bigFit, panFrames(*canvas, 1.0, 60));
  canvas.reset();
  QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
  reportMemory(before, memoryNow(), total, shared->graph.size());
  std::fflush(stdout);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  for (int i = 1; i < argc; ++i)
    if (!benchFile(argv[i])) return 1;
  return 0;
}
