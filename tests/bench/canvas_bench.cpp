// Canvas benchmark (a program, not a test): time to first paint (load + layout of the collapsed view + one frame)
// and paint time per frame while panning, at the fitted zoom and at 100%, collapsed and with every group expanded.
// usage: canvas_bench FILE... (offscreen; prints one line per file and view)
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <chrono>
#include <cstdio>

#include "canvas/scene_painter.h"
#include "io/loader.h"
#include "layout/graph_layout.h"

using namespace flowscope;
using Clock = std::chrono::steady_clock;

namespace {

double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

// Mean and worst frame over a pan across the scene at `scale`.
std::pair<double, double> panFrames(const Scene& scene, double scale, int frames) {
  QImage image(1600, 1000, QImage::Format_ARGB32_Premultiplied);
  const Theme& theme = Theme::named("light");
  const double viewW = 1600 / scale, viewH = 1000 / scale;
  double total = 0, worst = 0;
  for (int f = 0; f < frames; ++f) {
    const double t = frames > 1 ? static_cast<double>(f) / (frames - 1) : 0;
    const double x = scene.bounds.x + t * std::max(0.0, scene.bounds.w - viewW);
    const double y = scene.bounds.y + t * std::max(0.0, scene.bounds.h - viewH);
    auto start = Clock::now();
    image.fill(theme.background);
    QPainter painter(&image);
    painter.scale(scale, scale);
    painter.translate(-x, -y);
    paintScene(painter, scene, QRectF(x, y, viewW, viewH), scale, theme);
    painter.end();
    const double took = ms(start, Clock::now());
    total += took;
    worst = std::max(worst, took);
  }
  return {total / frames, worst};
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QGuiApplication app(argc, argv);
  for (int i = 1; i < argc; ++i) {
    auto start = Clock::now();
    auto model = loadModel(argv[i]);
    if (!model) {
      std::fprintf(stderr, "%s\n", model.status().message().c_str());
      return 1;
    }
    auto shared = std::make_shared<const Model>(std::move(model).value());
    auto loaded = Clock::now();
    GraphLayout layout(std::shared_ptr<const Graph>(shared, &shared->graph));
    auto collapsed = layout.build({});
    auto laidOut = Clock::now();
    const Scene& scene = **collapsed;
    const double fit = std::min(1600 / scene.bounds.w, 1000 / scene.bounds.h);
    panFrames(scene, fit, 1);
    auto painted = Clock::now();
    std::printf("%s: %zu nodes; first paint %.0f ms (load %.0f, layout %.0f, paint %.0f)\n", argv[i], shared->graph.size(),
                ms(start, painted), ms(start, loaded), ms(loaded, laidOut), ms(laidOut, painted));
    auto [fitMean, fitWorst] = panFrames(scene, fit, 30);
    auto [oneMean, oneWorst] = panFrames(scene, 1.0, 30);
    std::printf("  collapsed (%zu items): pan at fit %.2f ms/frame (worst %.2f), at 100%% %.2f ms (worst %.2f)\n", scene.items.size(),
                fitMean, fitWorst, oneMean, oneWorst);
    auto expandStart = Clock::now();
    auto all = layout.build(layout.allGroups());
    auto expanded = Clock::now();
    const Scene& big = **all;
    const double bigFit = std::min(1600 / big.bounds.w, 1000 / big.bounds.h);
    auto [bigFitMean, bigFitWorst] = panFrames(big, bigFit, 20);
    auto [bigOneMean, bigOneWorst] = panFrames(big, 1.0, 20);
    std::printf("  expanded all (%zu items, layout %.0f ms): pan at fit %.2f ms/frame (worst %.2f), at 100%% %.2f ms (worst %.2f)\n",
                big.items.size(), ms(expandStart, expanded), bigFitMean, bigFitWorst, bigOneMean, bigOneWorst);
  }
  return 0;
}
