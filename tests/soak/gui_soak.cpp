// The GUI soak (a program, not a test: it reports times and asserts none). It drives the real MainWindow offscreen
// over every graph and profile under the given folders, one document after the other in one window, as a user does:
// open, open every function body (and back through the breadcrumb), expand every scope, step the pass stepper to the
// end, profile (a graph that cannot run must show why), export PNG and SVG, switch the theme, close. A profile is
// imported (dropped on the window) onto a graph from its folder instead of being profiled. A 5 ms heartbeat on the UI
// thread records the longest time the UI thread was blocked, per file and step, and VmRSS is read after each close.
// usage: gui_soak [--runs N] [--repeat N] [--timeout S] [--keep DIR] [--only TEXT] FOLDER...
// Exits 1 when a step failed unexpectedly (a graph that does not load, a layout or export that fails, a timeout).
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTemporaryDir>
#include <cstdio>

#include "soak_corpus.h"
#include "soak_driver.h"

using namespace flowscope;
using namespace flowscope::soak;

namespace {

SoakOptions parseOptions(const QApplication& app) {
  QCommandLineParser parser;
  parser.setApplicationDescription("Drives the app over every graph and profile under the folders.");
  parser.addHelpOption();
  parser.addOptions({{"runs", "Profile runs per graph (default 1).", "N", "1"},
                     {"repeat", "Passes over the corpus (default 1; 2 shows whether memory grows).", "N", "1"},
                     {"timeout", "Seconds one step may take (default 120).", "S", "120"},
                     {"keep", "Keep the exported PNG and SVG files in DIR.", "DIR"},
                     {"only", "Only files whose path contains TEXT.", "TEXT"}});
  parser.addPositionalArgument("folders", "Folders to walk (graphs, profiles).");
  parser.process(app);
  SoakOptions options;
  options.roots = parser.positionalArguments();
  options.runs = std::max(1, parser.value("runs").toInt());
  options.repeat = std::max(1, parser.value("repeat").toInt());
  options.timeoutMs = std::max(1, parser.value("timeout").toInt()) * 1000;
  options.only = parser.value("only");
  options.keep = parser.value("keep");
  if (options.roots.isEmpty()) parser.showHelp(2);
  return options;
}

std::vector<CorpusEntry> corpus(const SoakOptions& options, int* skipped) {
  std::vector<CorpusEntry> entries;
  for (const auto& e : collectCorpus(options.roots)) {
    if (e.kind == CorpusEntry::Kind::kSkipped) {
      ++*skipped;
      std::printf("skip  %s: %s\n", qPrintable(displayName(e.path, options.roots)), qPrintable(e.reason));
      continue;
    }
    if (options.only.isEmpty() || e.path.contains(options.only)) entries.push_back(e);
  }
  return entries;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName("FlowscopeSoak");  // keeps the user's settings and recent files out of it
  QCoreApplication::setApplicationName("gui_soak");
  const SoakOptions options = parseOptions(app);
  int skipped = 0;
  const auto entries = corpus(options, &skipped);
  QTemporaryDir scratch;
  const QString exportDir = options.keep.isEmpty() ? scratch.path() : options.keep;
  QDir().mkpath(exportDir);
  std::printf("%zu documents; exports go to %s\n", entries.size(), qPrintable(exportDir));
  SoakDriver driver(options, exportDir);
  for (int pass = 0; pass < options.repeat; ++pass) driver.run(entries);
  return driver.summarize(skipped) ? 0 : 1;
}
