// The soak's steps: each sets the heartbeat's place, does what a user does, and runs the event loop until the app is
// done with it (and at least two heartbeats later, so that a stall the step caused is charged to it).
#include "soak_driver.h"

#include <QAction>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QLabel>
#include <QMimeData>
#include <QSignalSpy>
#include <QTabWidget>
#include <QUrl>
#include <cstdio>

#include "canvas/graph_canvas.h"
#include "panels/pass_stepper.h"
#include "panels/profile_panel.h"
#include "ui/main_window_driver.h"

namespace flowscope::soak {

using testing::LayoutWatch;
using testing::waitUntil;

QString displayName(const QString& path, const QStringList& roots) {
  for (const QString& root : roots) {
    const QString abs = QFileInfo(root).absoluteFilePath();
    if (path.startsWith(abs + "/") || path == abs) return QFileInfo(abs).fileName() + path.mid(abs.size());
  }
  return path;
}

SoakDriver::SoakDriver(const SoakOptions& options, const QString& exportDir)
    : m_options(options), m_exportDir(exportDir) {
  m_window.resize(1200, 800);
  m_window.show();
}

void SoakDriver::run(const std::vector<CorpusEntry>& entries) {
  for (const CorpusEntry& e : entries) {
    m_file = displayName(e.path, m_options.roots);
    m_beat.startFile();
    QElapsedTimer clock;
    clock.start();
    if (e.kind == CorpusEntry::Kind::kGraph)
      soakGraph(e.path);
    else
      soakProfile(e);
    record(static_cast<double>(clock.elapsed()) / 1e3);
  }
}

void SoakDriver::soakGraph(const QString& path) {
  if (open(path)) {
    openFunctionBodies();
    expandAll();
    stepPasses();
    profile();
    exportCanvas("png");
    exportCanvas("svg");
    switchTheme();
  }
  close();
}

void SoakDriver::soakProfile(const CorpusEntry& entry) {
  openProfileAsGraph(entry.path);
  if (entry.host.isEmpty()) {
    fail("import profile", "no graph to import it onto");
  } else if (open(entry.host)) {
    importByDrop(entry.path);
    expandAll();
    exportCanvas("png");
    exportCanvas("svg");
    switchTheme();
  }
  close();
}

bool SoakDriver::step(const QString& name, const std::function<void()>& act, const std::function<bool()>& done) {
  m_beat.setPlace(m_file, name);
  const quint64 ticks = m_beat.ticks();
  act();
  const bool ok = waitUntil([&] { return done() && m_beat.ticks() > ticks + 1; }, m_options.timeoutMs);
  if (!ok) fail(name, QString("not done after %1 s").arg(m_options.timeoutMs / 1000));
  // Back in the app, the main loop would now run what Qt deferred to it (the deleteLater of its own dock and layout
  // animations); the soak drives from main() outside that loop, so it runs them here, or they pile up as false growth.
  QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
  return ok;
}

void SoakDriver::fail(const QString& step, const QString& message) {
  m_failures << QString("%1: %2: %3").arg(m_file, step, message);
  std::printf("  FAILED %s: %s\n", qPrintable(step), qPrintable(message));
}

void SoakDriver::shown(const QString& step, const QString& message) {
  m_shownErrors << QString("%1: %2: %3").arg(m_file, step, message.left(200));
  std::printf("  shown  %s: %s\n", qPrintable(step), qPrintable(message.left(200)));
}

QAction* SoakDriver::menuAction(const QString& text) const {
  for (QAction* a : m_window.findChildren<QAction*>())
    if (a->text().remove('&') == text) return a;
  return nullptr;
}

bool SoakDriver::open(const QString& path) {
  QString error;
  bool ok = false;
  step(
      "open", [&] { ok = testing::openAndLayOut(m_window, path, m_options.timeoutMs, &error); }, [] { return true; });
  if (!ok) fail("open", error);
  m_graphsOpened += ok;
  return ok;
}

// File > Open on a profile: it loads as a graph or the window says why; either way nothing crashes.
void SoakDriver::openProfileAsGraph(const QString& path) {
  const QString name = "open profile as a graph";
  QString error;
  bool ok = false;
  step(
      name, [&] { ok = testing::openAndLayOut(m_window, path, m_options.timeoutMs, &error); }, [] { return true; });
  if (ok) {
    std::printf("  note   the profile opened as a graph of %zu nodes\n", m_window.model()->graph.size());
    return;
  }
  bool onScreen = false;
  for (QLabel* label : m_window.findChildren<QLabel*>()) onScreen |= label->text().contains("Could not open");
  onScreen ? shown(name, error) : fail(name, "not shown: " + error);
}

void SoakDriver::openFunctionBodies() {
  const auto model = m_window.model();
  for (const FunctionDef& function : model->graph.library.functions()) {
    const std::string name = function.name();
    LayoutWatch layout(m_window.canvas());
    Status opened = Status::ok();
    step(
        "open function body", [&] { opened = m_window.openFunction(name); },
        [&] { return !opened || layout.settled(); });
    if (!opened) shown("open function body", QString::fromStdString(name + ": " + opened.message()));
    if (!layout.error().isEmpty()) fail("open function body", QString::fromStdString(name) + ": " + layout.error());
    if (m_window.navigation().atRoot()) continue;
    LayoutWatch back(m_window.canvas());
    step(
        "breadcrumb back", [&] { m_window.goToLevel(0); }, [&] { return back.settled(); });
  }
}

void SoakDriver::expandAll() {
  GraphCanvas* canvas = m_window.canvas();
  LayoutWatch layout(canvas);
  step(
      "expand all", [&] { menuAction("Expand all groups")->trigger(); },
      [&] { return layout.settled() || !canvas->layout(); });
  if (!layout.error().isEmpty()) fail("expand all", layout.error());
}

bool SoakDriver::optimize() {
  Session& session = m_window.session();
  QSignalSpy done(&session, &Session::optimized), failed(&session, &Session::optimizeFailed);
  step(
      "pass stepper: optimize", [&] { m_window.tabs()->setCurrentWidget(m_window.passStepper()); },
      [&] { return !done.isEmpty() || !failed.isEmpty(); });
  if (!failed.isEmpty()) fail("pass stepper: optimize", failed.first().first().toString());
  return session.pipeline() != nullptr;
}

void SoakDriver::stepPasses() {
  if (optimize()) {
    PassStepper* stepper = m_window.passStepper();
    const int passes = static_cast<int>(m_window.session().pipeline()->records.size());
    for (int pass = 0; pass < passes; ++pass) {
      if (m_window.session().currentPass() == pass) continue;  // on screen already: the tab opens on the first change
      LayoutWatch before(stepper->before()), after(stepper->after());
      if (!step(
              "pass stepper: step", [&] { m_window.session().setCurrentPass(pass); },
              [&] { return before.settled() && after.settled(); }))
        break;
      const QString error = before.error().isEmpty() ? after.error() : before.error();
      if (!error.isEmpty()) fail("pass stepper: step", QString("pass %1: %2").arg(pass).arg(error));
    }
  }
  m_window.tabs()->setCurrentIndex(0);  // back to the Graph tab
}

void SoakDriver::profile() {
  Session& session = m_window.session();
  QSignalSpy done(&session, &Session::profiled), failed(&session, &Session::profileFailed);
  if (!step(
          "profile", [&] { m_window.profilePanel()->profile(m_options.runs); },
          [&] { return !done.isEmpty() || !failed.isEmpty(); }))
    return session.cancelProfile();
  if (failed.isEmpty()) return;
  const QString message = failed.first().first().toString();
  if (m_window.profilePanel()->statusText().contains(message))
    shown("profile", message);
  else
    fail("profile", "the panel does not show why: " + message);
}

// A profile dropped on the window with a graph open is imported onto that graph.
void SoakDriver::importByDrop(const QString& path) {
  Session& session = m_window.session();
  QSignalSpy done(&session, &Session::profiled), failed(&session, &Session::profileFailed);
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(path)});
  const QPoint at(100, 100);
  auto drop = [&] {
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&m_window, &enter);
    QDropEvent event(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&m_window, &event);
  };
  if (!step("import profile (drop)", drop, [&] { return !done.isEmpty() || !failed.isEmpty(); })) return;
  if (!failed.isEmpty()) return fail("import profile (drop)", failed.first().first().toString());
  ++m_profilesImported;
  const ProfileView* view = session.profileView();
  std::printf("  note   %s\n", view->notes.empty() ? "imported" : view->notes.front().c_str());
}

void SoakDriver::exportCanvas(const QString& format) {
  QString base = m_file;
  base.replace('/', '_');
  const QString path = QString("%1/%2-%3.%4").arg(m_exportDir).arg(m_index + 1, 3, 10, QChar('0')).arg(base, format);
  QSignalSpy finished(&m_window, &MainWindow::exportFinished);
  Status started = Status::ok();
  step(
      "export " + format.toUpper(), [&] { started = m_window.exportCanvas(path); },
      [&] { return !started || !finished.isEmpty(); });
  if (!started) return fail("export " + format.toUpper(), QString::fromStdString(started.message()));
  if (finished.isEmpty() || !finished.first().at(1).toBool())
    return fail("export " + format.toUpper(), finished.isEmpty() ? "no answer" : finished.first().at(2).toString());
  QFile file(path);
  const bool readable = format == "png" ? QImageReader(path).size().width() >= 64
                                        : file.open(QIODevice::ReadOnly) && file.read(4096).contains("<svg");
  if (!readable) fail("export " + format.toUpper(), path + " is not a " + format.toUpper() + " picture");
  if (m_options.keep.isEmpty()) QFile::remove(path);
}

void SoakDriver::switchTheme() {
  QAction* dark = menuAction("Dark theme");
  step(
      "switch theme", [&] { dark->toggle(); }, [] { return true; });
}

void SoakDriver::close() {
  step(
      "close", [&] { m_window.session().close(); }, [] { return true; });
  m_beat.setPlace(m_file, "(settling after close)");
  waitUntil([] { return false; }, 300);  // superseded layouts wind down, deferred deletes run
}

}  // namespace flowscope::soak
