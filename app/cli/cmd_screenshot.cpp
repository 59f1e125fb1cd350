// `flowscope screenshot FILE --out PNG`: renders the graph canvas without a display (Qt's offscreen platform).
#include <QGuiApplication>
#include <QImage>
#include <cstdio>
#include <memory>

#include "base/strings.h"
#include "canvas/scene_painter.h"
#include "cli/command.h"
#include "io/loader.h"
#include "layout/graph_layout.h"

namespace flowscope::cli {
namespace {

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "flowscope screenshot: %s\n", message.c_str());
  return code;
}

// A scope and every scope above it, so that it is visible.
std::set<std::string> withAncestors(const std::string& scope) {
  std::set<std::string> out;
  for (size_t at = scope.find('/'); at != std::string::npos; at = scope.find('/', at + 1)) out.insert(scope.substr(0, at));
  out.insert(scope);
  return out;
}

}  // namespace

int runScreenshot(const Args& args) {
  int width = 1600, height = 1000;
  if (auto size = args.value("--size")) {
    auto parts = splitString(*size, 'x');
    int64_t w = 0, h = 0;
    if (parts.size() != 2 || !parseInt64(parts[0], &w) || !parseInt64(parts[1], &h) || w < 64 || h < 64 || w > 16384 || h > 16384)
      return fail("--size needs WxH between 64 and 16384, e.g. 1600x1000", kExitUsage);
    width = static_cast<int>(w);
    height = static_cast<int>(h);
  }
  const std::string theme = args.value("--theme").value_or("light");
  if (theme != "light" && theme != "dark") return fail("--theme is light or dark", kExitUsage);
  const std::string out = args.value("--out").value_or("");
  if (out.empty()) return fail("--out FILE.png is required", kExitUsage);

  std::unique_ptr<QGuiApplication> app;
  if (!QGuiApplication::instance()) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "flowscope";
    static char* argv[] = {name, nullptr};
    app = std::make_unique<QGuiApplication>(argc, argv);
  }
  auto model = loadModel(args.positional()[0]);
  if (!model) return fail(model.status().message(), kExitBadInput);
  auto shared = std::make_shared<const Model>(std::move(model).value());
  GraphLayout layout(std::shared_ptr<const Graph>(shared, &shared->graph));
  std::set<std::string> expanded;
  if (auto expand = args.value("--expand")) {
    if (*expand == "all") {
      expanded = layout.allGroups();
    } else {
      if (layout.tree().find(*expand) < 0) return fail("no name scope '" + *expand + "' in the graph", kExitUsage);
      expanded = withAncestors(*expand);
    }
  }
  auto scene = layout.build(expanded);
  if (!scene) return fail(scene.status().message(), kExitBadInput);
  const Theme& colours = Theme::named(QString::fromStdString(theme));
  PaintStats stats;
  QImage image = renderScene(**scene, width, height, colours, nullptr, &stats);
  if (!image.save(QString::fromStdString(out))) return fail("cannot write " + out, kExitBadInput);
  size_t groups = 0;
  for (const auto& item : (*scene)->items) groups += item.kind == SceneItem::Kind::kGroup;
  std::printf("%s: %dx%d, %zu items (%zu groups), %zu edges drawn\n", out.c_str(), width, height, stats.items, groups, stats.edges);
  return kExitOk;
}

}  // namespace flowscope::cli
