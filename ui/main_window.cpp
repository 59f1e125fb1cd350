// Main window implementation.
#include "main_window.h"

#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QCheckBox>
#include <QDockWidget>
#include <QTabWidget>
#include <QHBoxLayout>
#include <QRegularExpression>
#include <QTableView>
#include <QVBoxLayout>
#include <QMenu>
#include <QtConcurrent/QtConcurrent>

#include "io/loader.h"
#include "io/model_summary.h"
#include "canvas/graph_canvas.h"
#include "ir/function_calls.h"
#include "panels/breadcrumb_bar.h"
#include "panels/compare_panel.h"
#include "panels/task_indicator.h"
#include "panels/outline_panel.h"
#include "panels/inspector_panel.h"
#include "panels/pass_stepper.h"
#include "panels/profile_panel.h"
#include "canvas/scene_painter.h"
#include "models/node_table_model.h"

namespace flowscope {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_nodes(new NodeTableModel(this)), m_filter(new QSortFilterProxyModel(this)),
      m_table(new QTableView(this)), m_search(new QLineEdit(this)), m_header(new QLabel(this)), m_canvas(new GraphCanvas(this)),
      m_inspector(new InspectorPanel(this)), m_regex(new QCheckBox(this)), m_tabs(new QTabWidget(this)),
      m_stepper(new PassStepper(this)), m_profile(new ProfilePanel(this)), m_breadcrumb(new BreadcrumbBar(this)),
      m_outline(new OutlinePanel(m_canvas, this)), m_compare(new ComparePanel(this)), m_task(new TaskIndicator(this)) {
  statusBar()->addPermanentWidget(m_task);
  setWindowTitle(tr("Flowscope"));
  setAcceptDrops(true);
  m_table->setObjectName("nodeTable");
  m_search->setObjectName("nodeSearch");
  m_filter->setSourceModel(m_nodes);
  m_filter->setFilterKeyColumn(-1);
  m_filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
  m_table->setModel(m_filter);
  m_table->setSortingEnabled(true);
  m_table->sortByColumn(-1, Qt::AscendingOrder);  // graph order until the user sorts
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setAlternatingRowColors(true);
  m_table->setWordWrap(false);
  m_table->setTextElideMode(Qt::ElideMiddle);
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_table->verticalHeader()->hide();
  m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
  m_search->setPlaceholderText(tr("Filter nodes by name, op or category"));
  m_header->setText(tr("Open a graph: File > Open, drag a file here, or pass it on the command line."));
  m_header->setWordWrap(true);

  // The canvas in the middle; the header and the node list in a dock beside it.
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_header);
  auto* graphTab = new QWidget(this);
  auto* graphLayout = new QVBoxLayout(graphTab);
  graphLayout->setContentsMargins(0, 0, 0, 0);
  graphLayout->setSpacing(0);
  graphLayout->addWidget(m_breadcrumb);
  graphLayout->addWidget(m_canvas, 1);
  m_tabs->addTab(graphTab, tr("Graph"));
  m_tabs->addTab(m_stepper, tr("Passes"));
  m_tabs->addTab(m_compare, tr("Eager vs Graph"));
  connect(m_compare, &ComparePanel::failed, this, [this](const QString& message) { statusBar()->showMessage(message); });
  layout->addWidget(m_tabs, 1);
  setCentralWidget(central);
  connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
    // The pass stepper optimizes the open graph the first time it is shown.
    if (m_tabs->widget(tab) == m_stepper && m_model && m_stepperModel != m_model) {
      m_stepperModel = m_model;
      m_stepper->optimize(m_model);
    }
  });
  buildDocks();
  m_regex->setText(tr("Regex"));
  m_regex->setToolTip(tr("Match names, ops and categories with a regular expression"));
  auto applyFilter = [this] {
    if (m_regex->isChecked())
      m_filter->setFilterRegularExpression(QRegularExpression(m_search->text(), QRegularExpression::CaseInsensitiveOption));
    else
      m_filter->setFilterFixedString(m_search->text());
  };
  connect(m_regex, &QCheckBox::toggled, this, applyFilter);
  connect(m_search, &QLineEdit::textChanged, this, applyFilter);
  connect(m_canvas, &GraphCanvas::layoutFailed, this, [this](const QString& message) { statusBar()->showMessage(message); });
  connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    if (!current.isValid()) return;
    const auto node = static_cast<size_t>(m_filter->mapToSource(current).row());
    m_canvas->selectNode(node);
    m_inspector->showNode(node);
  });
  buildMenus();
  buildViewMenu();
  restoreState(QSettings().value("window/state").toByteArray());
  connect(&m_watcher, &QFutureWatcherBase::finished, this, &MainWindow::onLoadFinished);

  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  if (!settings.contains("window/geometry")) resize(1100, 720);
}

MainWindow::~MainWindow() { m_watcher.waitForFinished(); }

void MainWindow::buildDocks() {
  auto* listPanel = new QWidget(this);
  auto* listLayout = new QVBoxLayout(listPanel);
  auto* searchRow = new QHBoxLayout();
  searchRow->addWidget(m_search, 1);
  searchRow->addWidget(m_regex);
  listLayout->addLayout(searchRow);
  listLayout->addWidget(m_table);
  auto* dock = new QDockWidget(tr("Nodes"), this);
  dock->setObjectName("nodesDock");
  dock->setWidget(listPanel);
  addDockWidget(Qt::RightDockWidgetArea, dock);
  auto* inspectorDock = new QDockWidget(tr("Inspector"), this);
  inspectorDock->setObjectName("inspectorDock");
  inspectorDock->setWidget(m_inspector);
  addDockWidget(Qt::RightDockWidgetArea, inspectorDock);
  auto* profileDock = new QDockWidget(tr("Profile"), this);
  profileDock->setObjectName("profileDock");
  profileDock->setWidget(m_profile);
  addDockWidget(Qt::BottomDockWidgetArea, profileDock);
  auto* outlineDock = new QDockWidget(tr("Outline"), this);
  outlineDock->setObjectName("outlineDock");
  outlineDock->setWidget(m_outline);
  addDockWidget(Qt::LeftDockWidgetArea, outlineDock);
  connect(m_outline, &OutlinePanel::nodeChosen, m_inspector, &InspectorPanel::showNode);
  connect(m_outline, &OutlinePanel::groupChosen, this, [this](int group) {
    if (m_canvas->layout()) m_inspector->showGroup(m_canvas->layout()->tree(), group);
  });
  connect(m_profile, &ProfilePanel::nodeTimesReady, this, [this](std::vector<double> seconds) {
    m_rootTimes = std::move(seconds);
    if (m_nav.atRoot()) m_canvas->setNodeTimes(m_rootTimes);
  });
  connect(m_profile, &ProfilePanel::deviceColoursChanged, this, [this](const std::vector<std::pair<size_t, QColor>>& colours) {
    if (!m_nav.atRoot()) return;
    m_canvas->setNodeTimes(colours.empty() ? m_rootTimes : std::vector<double>{});  // device colours replace the heat
    m_canvas->setNodeColors(colours);
  });
  connect(m_profile, &ProfilePanel::nodeClicked, this, [this](size_t node) {
    if (!m_nav.atRoot()) goToLevel(0);  // profiles are of the opened graph
    m_canvas->selectNode(node);
    m_inspector->showNode(node);
  });
  connect(m_canvas, &GraphCanvas::itemSelected, this, [this](int item) {
    auto scene = m_canvas->scene();
    if (!scene || item < 0) return m_inspector->clearSelection();
    const SceneItem& it = scene->items[static_cast<size_t>(item)];
    if (it.kind == SceneItem::Kind::kNode) {
      m_inspector->showNode(static_cast<size_t>(it.id));
      if (m_nav.atRoot()) m_profile->highlightNode(static_cast<size_t>(it.id));
    } else {
      m_inspector->showGroup(m_canvas->layout()->tree(), static_cast<int>(it.id));
    }
  });
  connect(m_canvas, &GraphCanvas::nodeActivated, this, &MainWindow::activateNode);
  connect(m_canvas, &GraphCanvas::layoutStarted, this, [this] {
    m_task->start("layout", tr("Laying out"), [this] { m_canvas->cancelLayout(); });
  });
  connect(m_canvas, &GraphCanvas::sceneReady, this, [this] { m_task->finish("layout"); });
  connect(m_canvas, &GraphCanvas::layoutFailed, this, [this] { m_task->finish("layout"); });
  connect(m_canvas, &GraphCanvas::layoutCancelled, this, [this] {
    m_task->finish("layout");
    statusBar()->showMessage(tr("Layout cancelled"));
  });
  connect(m_inspector, &InspectorPanel::functionRequested, this, [this](const QString& name) { openFunction(name.toStdString()); });
  connect(m_breadcrumb, &BreadcrumbBar::crumbClicked, this, &MainWindow::goToLevel);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
    QString path = QFileDialog::getOpenFileName(this, tr("Open graph"), {},
                                                tr("Graphs (*.pb *.pbtxt *.json *.meta);;All files (*)"));
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
    Status s = m_profile->exportChromeTrace(path);
    statusBar()->showMessage(s ? tr("Wrote %1").arg(path) : QString::fromStdString(s.message()));
  });
  file->addAction(tr("&Import Chrome trace..."), this, [this] {
    QString path = QFileDialog::getOpenFileName(this, tr("Import Chrome trace"), {}, tr("Chrome trace (*.json)"));
    if (path.isEmpty()) return;
    Status s = m_profile->importChromeTrace(path);
    statusBar()->showMessage(s ? tr("Imported %1").arg(path) : QString::fromStdString(s.message()));
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::buildViewMenu() {
  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("&Fit to window"), QKeySequence(Qt::Key_F), m_canvas, &GraphCanvas::fitToView);
  view->addAction(tr("&Expand all groups"), m_canvas, &GraphCanvas::expandAll);
  view->addAction(tr("&Collapse all groups"), m_canvas, &GraphCanvas::collapseAll);
  auto* minimap = view->addAction(tr("&Minimap"));
  minimap->setCheckable(true);
  minimap->setShortcut(QKeySequence(Qt::Key_M));
  minimap->setShortcutContext(Qt::WidgetShortcut);  // the canvas handles M itself
  minimap->setChecked(QSettings().value("view/minimap", true).toBool());
  m_canvas->setMinimapVisible(minimap->isChecked());
  connect(minimap, &QAction::toggled, this, [this](bool on) {
    m_canvas->setMinimapVisible(on);
    QSettings().setValue("view/minimap", on);
  });
  connect(m_canvas, &GraphCanvas::minimapToggled, minimap, &QAction::setChecked);
  QMenu* panels = view->addMenu(tr("&Panels"));
  for (auto* dock : findChildren<QDockWidget*>()) panels->addAction(dock->toggleViewAction());
  view->addSeparator();
  auto* dark = view->addAction(tr("&Dark theme"));
  dark->setCheckable(true);
  dark->setChecked(QSettings().value("view/theme").toString() == "dark");
  m_canvas->setTheme(dark->isChecked() ? "dark" : "light");
  connect(dark, &QAction::toggled, this, [this](bool on) {
    setTheme(on ? "dark" : "light");
  });
}

void MainWindow::setTheme(const QString& name) {
  m_canvas->setTheme(name);
  m_stepper->before()->setTheme(name);
  m_stepper->after()->setTheme(name);
  QSettings().setValue("view/theme", name);
}

Status MainWindow::exportCanvas(const QString& path, bool viewOnly) const {
  auto scene = m_canvas->scene();
  if (!scene) return invalidArgument("no graph is shown");
  const Rect& b = scene->bounds;
  const QRectF area = viewOnly ? m_canvas->visibleSceneRect() : QRectF(b.x, b.y, b.w, b.h);
  const SceneOverlay* overlay = &m_canvas->overlay();
  if (path.endsWith(".svg", Qt::CaseInsensitive))
    return writeSceneSvg(*scene, path, m_canvas->theme(), overlay, &area) ? Status::ok() : invalidArgument("cannot write " + path.toStdString());
  // The view at the canvas's size; the whole graph at about 1.5 px per scene unit, capped at 8000 px.
  const double scale = viewOnly ? m_canvas->zoom() : std::min(1.5, 8000.0 / std::max(b.w, b.h));
  const int w = std::max(64, static_cast<int>(area.width() * scale)), h = std::max(64, static_cast<int>(area.height() * scale));
  QImage image = renderSceneArea(*scene, area, w, h, m_canvas->theme(), overlay);
  return image.save(path) ? Status::ok() : invalidArgument("cannot write " + path.toStdString());
}

void MainWindow::exportCanvas(const char* format, bool viewOnly) {
  QString filter = QString("%1 (*.%2)").arg(QString(format).toUpper(), format);
  QString path = QFileDialog::getSaveFileName(this, viewOnly ? tr("Export view") : tr("Export graph"), {}, filter);
  if (path.isEmpty()) return;
  if (!path.endsWith(QString(".") + format)) path += QString(".") + format;
  Status s = exportCanvas(path, viewOnly);
  statusBar()->showMessage(s ? tr("Wrote %1").arg(path) : QString::fromStdString(s.message()));
}

bool MainWindow::isLoading() const { return m_loadPending; }

void MainWindow::openFile(const QString& path) {
  // A newer request replaces the pending one: the watcher follows the new load and the old result is dropped.
  m_loadingPath = path;
  m_loadCancelled = false;
  m_loadPending = true;
  statusBar()->showMessage(tr("Loading %1 ...").arg(path));
  m_task->start("load", tr("Loading %1").arg(QFileInfo(path).fileName()), [this] { cancelLoading(); });
  std::string file = path.toStdString();
  m_watcher.setFuture(QtConcurrent::run([file] { return std::make_shared<Expected<Model>>(loadModel(file)); }));
}

void MainWindow::cancelLoading() {
  if (!m_loadPending) return;
  m_loadPending = false;
  m_loadCancelled = true;
  m_task->finish("load");
  statusBar()->showMessage(tr("Stopped loading %1").arg(m_loadingPath));
}

void MainWindow::onLoadFinished() {
  m_task->finish("load");
  m_loadPending = false;
  if (m_loadCancelled) return;
  auto result = m_watcher.result();
  if (!result->hasValue()) {
    QString message = QString::fromStdString(result->status().message());
    statusBar()->showMessage(tr("Could not open %1").arg(m_loadingPath));
    m_header->setText(tr("<b>Could not open the file.</b><br>%1").arg(message.toHtmlEscaped()));
    emit loadFailed(message);
    return;
  }
  m_model = std::make_shared<const Model>(std::move(*result).value());
  m_nav.reset(m_model);
  m_rootTimes.clear();
  showLevel();
  m_profile->setModel(m_model);
  if (m_tabs->currentWidget() == m_stepper) {
    m_stepperModel = m_model;
    m_stepper->optimize(m_model);
  }
  m_table->resizeColumnsToContents();
  m_table->setColumnWidth(NodeTableModel::kName, std::min(m_table->columnWidth(NodeTableModel::kName), width() * 2 / 5));
  ModelSummary s = summarizeModel(*m_model);
  m_header->setText(tr("<b>%1</b> &mdash; %2, %3 nodes, %4 op types, %5 functions, %6 signatures, %7 variables")
                        .arg(QString::fromStdString(m_model->path).toHtmlEscaped(), QString::fromStdString(m_model->format))
                        .arg(s.nodeCount)
                        .arg(s.opHistogram.size())
                        .arg(s.functions.size())
                        .arg(m_model->signatures.size())
                        .arg(m_model->variables.size()));
  setWindowTitle(tr("%1 - Flowscope").arg(QFileInfo(m_loadingPath).fileName()));
  statusBar()->showMessage(m_model->warnings.empty() ? tr("Loaded") : QString::fromStdString(m_model->warnings[0]));
  rememberRecent(m_loadingPath);
  emit modelLoaded();
}

void MainWindow::showLevel() {
  auto shown = m_nav.current();
  m_nodes->setModel(shown);
  m_canvas->setGraph(std::shared_ptr<const Graph>(shown, &shown->graph));
  m_canvas->setNodeTimes(m_nav.atRoot() ? m_rootTimes : std::vector<double>{});
  m_inspector->setModel(shown);
  m_breadcrumb->setCrumbs(m_nav.crumbs());
}

Status MainWindow::openFunction(const std::string& name) {
  Status s = m_nav.openFunction(name);
  if (!s) {
    statusBar()->showMessage(tr("Cannot open %1: %2").arg(QString::fromStdString(name), QString::fromStdString(s.message())));
    return s;
  }
  showLevel();
  statusBar()->showMessage(tr("Function %1 (%2 nodes); the breadcrumb above the canvas goes back")
                               .arg(QString::fromStdString(name))
                               .arg(m_nav.current()->graph.size()));
  return s;
}

void MainWindow::goToLevel(int depth) {
  if (depth == m_nav.depth()) return;
  m_nav.goTo(depth);
  showLevel();
}

void MainWindow::activateNode(size_t node) {
  auto shown = m_nav.current();
  if (!shown || node >= shown->graph.size()) return;
  const auto calls = calledFunctions(shown->graph.node(node), m_nav.root()->graph.library);
  if (calls.size() == 1) {
    openFunction(calls.front().function);
  } else if (calls.size() > 1) {  // If: then or else; While: cond or body
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    for (const auto& call : calls) {
      const std::string function = call.function;
      menu->addAction(tr("Open %1 (%2)").arg(QString::fromStdString(function), QString::fromStdString(call.attr)), this,
                      [this, function] { openFunction(function); });
    }
    menu->popup(QCursor::pos());
  }
}

void MainWindow::rememberRecent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value("recentFiles").toStringList();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > 10) recent.removeLast();
  settings.setValue("recentFiles", recent);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  m_recentMenu->clear();
  for (const QString& path : QSettings().value("recentFiles").toStringList())
    m_recentMenu->addAction(path, this, [this, path] { openFile(path); });
  m_recentMenu->setEnabled(!m_recentMenu->isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) openFile(urls.first().toLocalFile());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  QSettings().setValue("window/geometry", saveGeometry());
  QSettings().setValue("window/state", saveState());
  QMainWindow::closeEvent(event);
}

}  // namespace flowscope
