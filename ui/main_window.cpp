// Main window implementation: composition, menus, drag and drop, recent files.
#include "main_window.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QShortcut>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <vector>

#include "canvas/graph_canvas.h"
#include "canvas/scene_painter.h"
#include "panels/compare_panel.h"
#include "panels/graph_compare_panel.h"
#include "panels/graph_view.h"
#include "panels/inspector_panel.h"
#include "panels/node_list_panel.h"
#include "panels/outline_panel.h"
#include "panels/pass_stepper.h"
#include "panels/profile_panel.h"
#include "panels/script_panel.h"
#include "panels/script_source_view.h"
#include "panels/side_by_side_panel.h"
#include "panels/task_indicator.h"
#include "script/script_process.h"
#include "session/model_description.h"
#include "session/settings_store.h"

namespace flowscope {
namespace {

/// The files File > Open and Compare with offer: every graph format the loaders read (SavedModels are folders).
const char* const kGraphPatterns = "*.pb *.pbtxt *.onnx *.json *.meta";

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_session(new Session(this)),
      m_header(new QLabel(this)),
      m_tabs(new QTabWidget(this)),
      m_graph(new GraphView(m_session, this)),
      m_stepper(new PassStepper(m_session, this)),
      m_compare(new ComparePanel(&m_session->worker(), this)),
      m_graphCompare(new GraphComparePanel(m_session, this)),
      m_sideBySide(new SideBySidePanel(m_session, this)),
      m_nodes(new NodeListPanel(m_session, this)),
      m_inspector(new InspectorPanel(m_session, this)),
      m_profile(new ProfilePanel(m_session, this)),
      m_outline(new OutlinePanel(m_session, m_graph->canvas(), this)),
      m_task(new TaskIndicator(&m_session->worker(), this)),
      m_script(new ScriptPanel(this)),
      m_source(new ScriptSourceView(this)),
      m_scriptOutput(new QPlainTextEdit(this)),
      m_cancelExport(new QShortcut(QKeySequence(Qt::Key_Escape), this)) {
  statusBar()->addPermanentWidget(m_task);
  m_cancelExport->setEnabled(false);  // only while an export runs, so that Esc keeps its meaning elsewhere
  connect(m_cancelExport, &QShortcut::activated, this, &MainWindow::cancelExports);
  connect(&m_session->worker(), &EngineWorker::jobFinished, this, [this](JobId, const QString& tag, bool delivered) {
    auto it = m_exports.find(tag);  // not delivered: cancelled while queued, or the job threw (out of memory)
    if (delivered || it == m_exports.end()) return;
    onExportDone(tag, it->second.cancelRequested
                          ? cancelled("dropped before it ran")
                          : internalError(it->second.path.toStdString() +
                                          ": stopped before it finished (cancelled, or out of memory)"));
  });
  setWindowTitle(tr("Flowscope"));
  setAcceptDrops(true);
  m_header->setText(
      tr("Open a graph or a Python script: File > Open, drag a file here, or pass it on the command "
         "line."));
  m_header->setWordWrap(true);
  m_header->setObjectName("modelHeader");
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_header);
  m_tabs->addTab(m_graph, tr("Graph"));
  m_tabs->addTab(m_stepper, tr("Passes"));
  m_tabs->addTab(m_compare, tr("Eager vs Graph"));
  m_tabs->addTab(m_graphCompare, tr("Compare graphs"));
  m_tabs->addTab(m_sideBySide, tr("Theirs vs ours"));
  m_tabs->addTab(m_source, tr("Source"));
  layout->addWidget(m_tabs, 1);
  setCentralWidget(central);
  // The pass stepper's pipeline runs the first time the tab is shown (once per document).
  connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
    if (m_tabs->currentWidget() == m_stepper) m_session->optimize();
  });
  connect(m_session, &Session::opened, this, &MainWindow::onOpened);
  connect(m_session, &Session::openFailed, this, &MainWindow::onOpenFailed);
  connect(m_session, &Session::statusMessage, statusBar(),
          [this](const QString& text) { statusBar()->showMessage(text); });
  connect(m_graphCompare, &GraphComparePanel::compareRequested, this, &MainWindow::chooseGraphToCompare);
  connect(m_sideBySide, &SideBySidePanel::importRequested, this, &MainWindow::chooseProfileToImport);
  connect(m_graphCompare, &GraphComparePanel::failed, statusBar(),
          [this](const QString& message) { statusBar()->showMessage(message); });
  connect(m_compare, &ComparePanel::failed, statusBar(),
          [this](const QString& text) { statusBar()->showMessage(text); });
  connect(canvas(), &GraphCanvas::layoutFailed, statusBar(),
          [this](const QString& text) { statusBar()->showMessage(text); });
  connect(canvas(), &GraphCanvas::layoutCancelled, this, [this] { statusBar()->showMessage(tr("Layout cancelled")); });
  buildDocks();
  connectScript();
  buildFileMenu();
  buildViewMenu();
  SettingsStore& settings = SettingsStore::instance();
  restoreState(settings.value("window/state").toByteArray());
  restoreGeometry(settings.value("window/geometry").toByteArray());
  if (!settings.contains("window/geometry")) resize(1100, 720);
}

MainWindow::~MainWindow() {
  // The panels use the session (and its worker): they go before it, which Qt would otherwise delete first.
  delete m_task;
  qDeleteAll(findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly));
  delete centralWidget();
  SettingsStore::instance().flush();  // the preferences are on disk before the app goes
}

GraphCanvas* MainWindow::canvas() const { return m_graph->canvas(); }

BreadcrumbBar* MainWindow::breadcrumb() const { return m_graph->breadcrumb(); }

void MainWindow::buildDocks() {
  const std::pair<QWidget*, std::pair<const char*, Qt::DockWidgetArea>> docks[] = {
      {m_nodes, {"Nodes", Qt::RightDockWidgetArea}},
      {m_inspector, {"Inspector", Qt::RightDockWidgetArea}},
      {m_profile, {"Profile", Qt::BottomDockWidgetArea}},
      {m_outline, {"Outline", Qt::LeftDockWidgetArea}},
      {m_script, {"Functions", Qt::LeftDockWidgetArea}},
      {m_scriptOutput, {"Script output", Qt::BottomDockWidgetArea}}};
  for (const auto& [widget, place] : docks) {
    auto* dock = new QDockWidget(tr(place.first), this);
    dock->setObjectName(QString(place.first).toLower() + "Dock");
    dock->setWidget(widget);
    addDockWidget(place.second, dock);
  }
}

void MainWindow::buildFileMenu() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
    QString path = QFileDialog::getOpenFileName(
        this, tr("Open graph"), {},
        tr("Graphs and scripts (%1 *.py);;Graphs (%1);;Python scripts (*.py);;All files (*)").arg(kGraphPatterns));
    if (!path.isEmpty()) openFile(path);
  });
  file->addAction(tr("Open &SavedModel folder..."), this, [this] {
    QString dir = QFileDialog::getExistingDirectory(this, tr("Open SavedModel"));
    if (!dir.isEmpty()) openFile(dir);
  });
  m_recentMenu = file->addMenu(tr("Open &Recent"));
  rebuildRecentMenu();
  file->addSeparator();
  file->addAction(tr("Export graph as &PNG..."), this, [this] { exportCanvas("png", false); });
  file->addAction(tr("Export graph as S&VG..."), this, [this] { exportCanvas("svg", false); });
  file->addAction(tr("Export view as PN&G..."), this, [this] { exportCanvas("png", true); });
  file->addAction(tr("Export view as SV&G..."), this, [this] { exportCanvas("svg", true); });
  file->addAction(tr("Export profile as Chrome &trace..."), this, [this] {
    QString path = QFileDialog::getSaveFileName(this, tr("Export Chrome trace"), {}, tr("Chrome trace (*.json)"));
    if (path.isEmpty()) return;
    Status s = m_session->exportProfile(path);
    statusBar()->showMessage(s ? tr("Wrote %1").arg(path) : QString::fromStdString(s.message()));
  });
  file->addAction(tr("&Import profile..."), this, &MainWindow::chooseProfileToImport);
  file->addAction(tr("Compare &with..."), this, &MainWindow::chooseGraphToCompare);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::chooseProfileToImport() {
  QString path = QFileDialog::getOpenFileName(
      this, tr("Import profile"), {},
      tr("Profiles (*.json *.json.gz *.pb *tfevents*);;TensorFlow profiler (*.xplane.pb);;TensorBoard events "
         "(*tfevents*);;ONNX Runtime or Chrome trace (*.json *.json.gz);;All files (*)"));
  if (path.isEmpty()) return;
  Status s = m_session->importProfile(path);
  statusBar()->showMessage(s ? tr("Importing %1...").arg(path) : QString::fromStdString(s.message()));
}

void MainWindow::chooseGraphToCompare() {
  QString path =
      QFileDialog::getOpenFileName(this, tr("Compare with"), {}, tr("Graphs (%1);;All files (*)").arg(kGraphPatterns));
  if (!path.isEmpty()) compareWith(path);
}

void MainWindow::buildViewMenu() {
  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("&Fit to window"), QKeySequence(Qt::Key_F), canvas(), &GraphCanvas::fitToView);
  view->addAction(tr("&Expand all groups"), canvas(), &GraphCanvas::expandAll);
  view->addAction(tr("&Collapse all groups"), canvas(), &GraphCanvas::collapseAll);
  auto* minimap = view->addAction(tr("&Minimap"));
  minimap->setCheckable(true);
  minimap->setShortcut(QKeySequence(Qt::Key_M));
  minimap->setShortcutContext(Qt::WidgetShortcut);  // the canvas handles M itself
  minimap->setChecked(SettingsStore::instance().value("view/minimap", true).toBool());
  canvas()->setMinimapVisible(minimap->isChecked());
  connect(minimap, &QAction::toggled, this, [this](bool on) {
    canvas()->setMinimapVisible(on);
    SettingsStore::instance().setValue("view/minimap", on);
  });
  connect(canvas(), &GraphCanvas::minimapToggled, minimap, &QAction::setChecked);
  QMenu* panels = view->addMenu(tr("&Panels"));
  for (auto* dock : findChildren<QDockWidget*>()) panels->addAction(dock->toggleViewAction());
  view->addSeparator();
  auto* dark = view->addAction(tr("&Dark theme"));
  dark->setCheckable(true);
  dark->setChecked(SettingsStore::instance().value("view/theme").toString() == "dark");
  canvas()->setTheme(dark->isChecked() ? "dark" : "light");
  connect(dark, &QAction::toggled, this, [this](bool on) { setTheme(on ? "dark" : "light"); });
}

void MainWindow::setTheme(const QString& name) {
  for (GraphCanvas* c : findChildren<GraphCanvas*>()) c->setTheme(name);
  SettingsStore::instance().setValue("view/theme", name);
}

Status MainWindow::exportCanvas(const QString& path, bool viewOnly) {
  std::optional<SceneSnapshot> taken = canvas()->exportSnapshot(viewOnly);
  if (!taken) return invalidArgument("no graph is shown");
  auto snapshot = std::make_shared<const SceneSnapshot>(std::move(*taken));
  const QString tag = QString("export:%1").arg(++m_exportCount);
  const JobId job = m_session->worker().submit<Status>(
      tag, tr("Exporting %1").arg(QFileInfo(path).fileName()), this,
      [snapshot, path](JobControl& control) {
        return writeSceneSnapshot(*snapshot, path, [&control](double fraction, const QString& what) {
          control.progress(fraction, what);
          return !control.isCancelled();
        });
      },
      [this, tag](Status status) { onExportDone(tag, status); });
  m_exports[tag] = {job, path, false};
  m_cancelExport->setEnabled(true);
  statusBar()->showMessage(tr("Exporting %1 (Esc cancels)").arg(path));
  return Status::ok();
}

void MainWindow::cancelExports() {
  std::vector<JobId> jobs;
  for (auto& [tag, pending] : m_exports) {
    pending.cancelRequested = true;
    jobs.push_back(pending.job);
  }
  // Not while iterating: a queued export is dropped at once, and its jobFinished ends it (erasing it from m_exports).
  for (JobId job : jobs) m_session->worker().cancel(job);
}

void MainWindow::onExportDone(const QString& tag, const Status& status) {
  auto it = m_exports.find(tag);
  if (it == m_exports.end()) return;
  const QString path = it->second.path;
  m_exports.erase(it);
  m_cancelExport->setEnabled(!m_exports.empty());
  const QString message = status ? tr("Wrote %1").arg(path)
                          : status.code() == ErrorCode::kCancelled
                              ? tr("Export of %1 cancelled").arg(path)
                              : tr("Export failed: %1").arg(QString::fromStdString(status.message()));
  statusBar()->showMessage(message);
  emit exportFinished(path, status.isOk(), message);
}

void MainWindow::exportCanvas(const char* format, bool viewOnly) {
  QString filter = QString("%1 (*.%2)").arg(QString(format).toUpper(), format);
  QString path = QFileDialog::getSaveFileName(this, viewOnly ? tr("Export view") : tr("Export graph"), {}, filter);
  if (path.isEmpty()) return;
  if (!path.endsWith(QString(".") + format)) path += QString(".") + format;
  if (Status s = exportCanvas(path, viewOnly); !s) statusBar()->showMessage(QString::fromStdString(s.message()));
}

void MainWindow::openFile(const QString& path) {
  if (isPythonScript(path)) return runScript(path);
  m_scriptGraph.clear();
  statusBar()->showMessage(tr("Loading %1 ...").arg(path));
  m_session->open(path);
}

void MainWindow::onOpenFailed(const QString& message) {
  statusBar()->showMessage(tr("Could not open %1").arg(m_session->openingPath()));
  m_header->setText(tr("<b>Could not open the file.</b><br>%1").arg(message.toHtmlEscaped()));
  emit loadFailed(message);
}

void MainWindow::onOpened() {
  const Model& model = *m_session->model();
  const size_t nodes = model.graph.size(), functions = model.graph.library.functions().size();
  m_header->setText(tr("<b>%1</b> &mdash; %2")
                        .arg(QString::fromStdString(model.path).toHtmlEscaped(),
                             describeModel(model, m_session->openedOpTypes()).toHtmlEscaped()));
  statusBar()->showMessage(model.warnings.empty() ? tr("Loaded") : QString::fromStdString(model.warnings[0]));
  if (!m_scriptGraph.isEmpty() && m_scriptGraph == m_session->openingPath()) {
    showScriptGraphHeader(nodes, functions);
  } else {
    setWindowTitle(tr("%1 - Flowscope").arg(QFileInfo(m_session->openingPath()).fileName()));
    rememberRecent(m_session->openingPath());
  }
  if (m_tabs->currentWidget() == m_stepper) m_session->optimize();
  emit modelLoaded();
}

void MainWindow::rememberRecent(const QString& path) {
  SettingsStore& settings = SettingsStore::instance();
  QStringList recent = settings.value("recentFiles").toStringList();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > 10) recent.removeLast();
  settings.setValue("recentFiles", recent);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  m_recentMenu->clear();
  for (const QString& path : SettingsStore::instance().value("recentFiles").toStringList())
    m_recentMenu->addAction(path, this, [this, path] { openFile(path); });
  m_recentMenu->setEnabled(!m_recentMenu->isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (urls.isEmpty() || !urls.first().isLocalFile()) return;
  const QString path = urls.first().toLocalFile();
  if (model() && Session::looksLikeProfile(path)) {  // a profile dropped on the open graph
    Status s = m_session->importProfile(path);
    statusBar()->showMessage(s ? tr("Importing %1...").arg(path) : QString::fromStdString(s.message()));
    return;
  }
  openFile(path);
}

void MainWindow::compareWith(const QString& path) {
  m_tabs->setCurrentWidget(m_graphCompare);
  m_graphCompare->compareWith(path);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  SettingsStore::instance().setValue("window/geometry", saveGeometry());
  SettingsStore::instance().setValue("window/state", saveState());
  QMainWindow::closeEvent(event);
}

}  // namespace flowscope
