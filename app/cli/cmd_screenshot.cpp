// `flowscope screenshot FILE --out PNG`: renders the graph canvas without a display (Qt's offscreen platform).
#include <QBuffer>
#include <QGuiApplication>
#include <QImage>
#include <cstdio>
#include <memory>

#include "base/atomic_file.h"
#include "base/strings.h"
#include "canvas/scene_painter.h"
#include "cli/command.h"
#include "io/loader.h"
#include "ir/function_instantiation.h"
#include "layout/graph_layout.h"
#include "ops/op_registry.h"
#include "panels/pass_stepper.h"
#include "passes/graph_diff.h"
#include "profile/node_times.h"
#include "workflow/optimize_model.h"
#include "workflow/prepared_run.h"

namespace flowscope::cli {
namespace {

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "flowscope screenshot: %s\n", message.c_str());
  return code;
}

// A scope and every scope above it, so that it is visible.
std::set<std::string> withAncestors(const std::string& scope) {
  std::set<std::string> out;
  for (size_t at = scope.find('/'); at != std::string::npos; at = scope.find('/', at + 1))
    out.insert(scope.substr(0, at));
  out.insert(scope);
  return out;
}

// Seconds per node of `graph` over a few runs with random inputs, prepared as `flowscope profile` prepares them; with
// `roofline`, each node's share of the machine's roofline instead of its seconds as the colour.
struct NodeOverlay {
  std::vector<double> seconds, rooflineShares;
  std::vector<int64_t> fusedInto;
};

Expected<NodeOverlay> profileNodes(const Model& model, const Graph& graph, int runs, bool roofline) {
  auto copy = std::make_shared<Model>(model);
  copy->graph = graph;
  FS_ASSIGN_OR_RETURN(PreparedRun prepared, prepareRun(copy, RunSetup{}));
  FS_ASSIGN_OR_RETURN(ProfiledRun run, profileRun(prepared, {runs, 1, {}, roofline}));
  const NodeTimes times = nodeTimes(run.profile, graph);
  return NodeOverlay{times.seconds, roofline ? rooflineShares(times, run.roofline) : std::vector<double>{},
                     times.fusedInto};
}

// What the picture shows: a graph and the colours on its nodes.
struct ShownGraph {
  std::shared_ptr<const Graph> graph;
  std::vector<std::pair<size_t, QColor>> colors;
};

// --function NAME: that library function's body, as the canvas opens it.
int showFunction(const Model& model, const std::string& function, ShownGraph* shown) {
  const FunctionDef* def = model.graph.library.find(function);
  if (!def) return fail("the graph's library has no function '" + function + "'", kExitUsage);
  auto body = functionBodyGraph(*def, model.graph.library, OpRegistry::global().lookupWith(&model.graph.library));
  if (!body) return fail(body.status().message(), kExitBadInput);
  shown->graph = std::make_shared<const Graph>(std::move(body).value());
  return kExitOk;
}

// --pass N: the graph after pass N of the default pipeline (numbered as `flowscope optimize` prints them), with what
// that pass added in green and changed in amber.
int showPass(std::shared_ptr<const Model> model, const std::string& pass, ShownGraph* shown) {
  int64_t n = 0;
  auto result = optimizeForViewing(std::move(model), PipelineOptions{});
  if (!result) return fail(result.status().message(), kExitBadInput);
  if (!parseInt64(pass, &n) || n < 1 || n > static_cast<int64_t>(result->records.size()))
    return fail("--pass needs a number from 1 to " + std::to_string(result->records.size()), kExitUsage);
  const auto& record = result->records[static_cast<size_t>(n - 1)];
  auto before = n == 1 ? result->input : result->records[static_cast<size_t>(n - 2)].snapshot;
  shown->graph = record.snapshot;
  GraphDiff diff = diffGraphs(*before, *shown->graph);
  for (const auto& name : diff.added)
    shown->colors.emplace_back(static_cast<size_t>(shown->graph->find(name)), PassStepper::addedColor());
  for (const auto& name : diff.changed)
    shown->colors.emplace_back(static_cast<size_t>(shown->graph->find(name)), PassStepper::changedColor());
  const std::string fused =
      diff.fusedInto.empty() ? "" : " (" + std::to_string(diff.fusedInto.size()) + " fused into other nodes)";
  std::printf("after pass %lld (%s): %zu added, %zu removed%s, %zu changed\n", static_cast<long long>(n),
              record.pass.c_str(), diff.added.size(), diff.removed.size(), fused.c_str(), diff.changed.size());
  return kExitOk;
}

// Lays out the shown graph with the --expand groups, paints it with its overlay and writes the PNG.
int render(const Args& args, const ShownGraph& shown, const NodeOverlay& profiled, QSize size) {
  GraphLayout layout(shown.graph);
  std::set<std::string> expanded;
  if (auto expand = args.value("--expand")) {
    if (*expand == "all") {
      expanded = layout.allGroups();
    } else {
      const int group = layout.tree().findAsWritten(*expand);
      if (group < 0)
        return fail("no name scope '" + *expand +
                        "' in the graph (its top-level scopes: " + layout.tree().topLevelLabels(8) + ")",
                    kExitUsage);
      expanded = withAncestors(std::string(layout.tree().group(group).path));
    }
  }
  auto scene = layout.build(expanded);
  if (!scene) return fail(scene.status().message(), kExitBadInput);
  const Theme& colours = Theme::named(QString::fromStdString(args.value("--theme").value_or("light")));
  PaintStats stats;
  SceneOverlay overlay;
  addNodeColors(overlay, **scene, shown.colors);
  if (profiled.rooflineShares.empty())
    addNodeTimes(overlay, **scene, profiled.seconds);
  else
    addRooflineShares(overlay, **scene, profiled.rooflineShares, profiled.seconds);
  addFusedMarks(overlay, **scene, profiled.fusedInto);
  QImage image = renderScene(**scene, size.width(), size.height(), colours, &overlay, &stats);
  const std::string out = *args.value("--out");
  QByteArray png;
  QBuffer buffer(&png);
  if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG"))
    return fail(out + ": cannot encode the PNG", kExitBadInput);
  if (Status s = writeFileAtomically(out, std::string_view(png.constData(), static_cast<size_t>(png.size()))); !s)
    return fail(s.message(), kExitBadInput);
  size_t groups = 0;
  for (const auto& item : (*scene)->items) groups += item.kind == SceneItem::Kind::kGroup;
  std::printf("%s: %dx%d, %zu items (%zu groups), %zu edges drawn\n", out.c_str(), size.width(), size.height(),
              stats.items, groups, stats.edges);
  return kExitOk;
}

// --size WxH, --theme, --out and the combinations; a usage message, or empty when they are fine.
std::string checkOutputOptions(const Args& args, QSize* size) {
  if (auto text = args.value("--size")) {
    auto parts = splitString(*text, 'x');
    int64_t w = 0, h = 0;
    if (parts.size() != 2 || !parseInt64(parts[0], &w) || !parseInt64(parts[1], &h) || w < 64 || h < 64 || w > 16384 ||
        h > 16384)
      return "--size needs WxH between 64 and 16384, e.g. 1600x1000";
    *size = QSize(static_cast<int>(w), static_cast<int>(h));
  }
  const std::string theme = args.value("--theme").value_or("light");
  if (theme != "light" && theme != "dark") return "--theme is light or dark";
  if (args.value("--out").value_or("").empty()) return "--out FILE.png is required";
  if (args.value("--function") && (args.value("--pass") || args.value("--overlay")))
    return "--function cannot be combined with --pass or --overlay";
  if (auto overlay = args.value("--overlay"); overlay && *overlay != "profile" && *overlay != "roofline")
    return "--overlay takes 'profile' (heat by time) or 'roofline' (share of the roofline)";
  return "";
}

}  // namespace

int runScreenshot(const Args& args) {
  QSize size(1600, 1000);
  if (std::string usage = checkOutputOptions(args, &size); !usage.empty()) return fail(usage, kExitUsage);
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
  ShownGraph shown{std::shared_ptr<const Graph>(shared, &shared->graph), {}};
  if (auto function = args.value("--function"))
    if (int code = showFunction(*shared, *function, &shown); code != kExitOk) return code;
  if (auto pass = args.value("--pass"))
    if (int code = showPass(shared, *pass, &shown); code != kExitOk) return code;
  NodeOverlay profiled;
  if (auto overlay = args.value("--overlay")) {
    auto nodes = profileNodes(*shared, *shown.graph, 5, *overlay == "roofline");
    if (!nodes) return fail(nodes.status().message(), kExitBadInput);
    profiled = std::move(nodes).value();
  }
  return render(args, shown, profiled, size);
}

}  // namespace flowscope::cli
