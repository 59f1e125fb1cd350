// MainWindow: the composition of the app. It owns the Session, puts the panels in tabs and docks, and builds the
// menus; the panels talk to the session, never to each other or through the window.
#pragma once

#include <QMainWindow>
#include <map>
#include <memory>

#include "session/session.h"

class QLabel;
class QMenu;
class QPlainTextEdit;
class QShortcut;
class QTabWidget;

namespace flowscope {

class BreadcrumbBar;
class ComparePanel;
class GraphCanvas;
class GraphComparePanel;
class SideBySidePanel;
class GraphView;
class InspectorPanel;
class NodeListPanel;
class OutlinePanel;
class PassStepper;
class ProfilePanel;
class ScriptPanel;
class ScriptSourceView;
class TaskIndicator;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  Session& session() { return *m_session; }
  /// Starts loading in the background; the window stays responsive. A .py script runs in its own Python process
  /// instead, and the Functions panel lists its tf.functions.
  void openFile(const QString& path);
  std::shared_ptr<const Model> model() const { return m_session->model(); }
  std::shared_ptr<const Model> shownModel() const { return m_session->shownModel(); }
  const GraphNavigation& navigation() const { return m_session->navigation(); }
  Status openFunction(const std::string& name) { return m_session->openFunction(name); }
  void goToLevel(int depth) { m_session->goToLevel(depth); }
  bool isLoading() const { return m_session->isOpening(); }
  void cancelLoading() { m_session->cancelOpen(); }

  TaskIndicator* taskIndicator() const { return m_task; }
  GraphView* graphView() const { return m_graph; }
  GraphCanvas* canvas() const;
  BreadcrumbBar* breadcrumb() const;
  NodeListPanel* nodeList() const { return m_nodes; }
  InspectorPanel* inspector() const { return m_inspector; }
  PassStepper* passStepper() const { return m_stepper; }
  QTabWidget* tabs() const { return m_tabs; }
  ProfilePanel* profilePanel() const { return m_profile; }
  OutlinePanel* outline() const { return m_outline; }
  ComparePanel* comparePanel() const { return m_compare; }
  GraphComparePanel* graphComparePanel() const { return m_graphCompare; }
  SideBySidePanel* sideBySidePanel() const { return m_sideBySide; }
  /// File > Compare with...: the opened graph beside `path`'s in the Compare graphs tab.
  void compareWith(const QString& path);
  ScriptPanel* scriptPanel() const { return m_script; }
  ScriptSourceView* sourceView() const { return m_source; }
  QPlainTextEdit* scriptOutput() const { return m_scriptOutput; }
  /// Starts writing the whole graph, or only what the canvas shows, as PNG or SVG (by the extension), with its
  /// overlay: a snapshot of the canvas is painted, encoded and written atomically on the engine worker, the status
  /// bar's task strip shows its progress and cancels it (so does Esc), and exportFinished says how it ended. An error
  /// here (no graph shown) means nothing was started and no exportFinished follows.
  Status exportCanvas(const QString& path, bool viewOnly = false);
  /// Asks the exports in progress to stop (each still ends with exportFinished).
  void cancelExports();
  void setTheme(const QString& name);

 signals:
  void modelLoaded();
  void loadFailed(const QString& message);
  /// An export ended: written (`ok`), failed or cancelled; `message` is what the status bar shows.
  void exportFinished(const QString& path, bool ok, const QString& message);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildDocks();
  void buildFileMenu();
  void buildViewMenu();
  void exportCanvas(const char* format, bool viewOnly);
  void chooseProfileToImport();
  void chooseGraphToCompare();
  void onExportDone(const QString& tag, const Status& status);
  void onOpened();
  void onOpenFailed(const QString& message);
  void rememberRecent(const QString& path);
  void rebuildRecentMenu();
  void connectScript();
  void runScript(const QString& path);
  void onConcreteChosen(int function, int concrete);
  void showScriptGraphHeader(size_t nodes, size_t functions);

  Session* m_session;
  QLabel* m_header;
  QTabWidget* m_tabs;
  GraphView* m_graph;
  PassStepper* m_stepper;
  ComparePanel* m_compare;
  GraphComparePanel* m_graphCompare;
  SideBySidePanel* m_sideBySide;
  NodeListPanel* m_nodes;
  InspectorPanel* m_inspector;
  ProfilePanel* m_profile;
  OutlinePanel* m_outline;
  TaskIndicator* m_task;
  ScriptPanel* m_script;
  ScriptSourceView* m_source;
  QPlainTextEdit* m_scriptOutput;
  QString m_scriptGraph;  // the graph file of the script's concrete function being opened or shown
  QString m_scriptGraphTitle;
  QMenu* m_recentMenu = nullptr;
  QShortcut* m_cancelExport;
  struct PendingExport {
    JobId job;
    QString path;
    bool cancelRequested;
  };
  std::map<QString, PendingExport> m_exports;  // by worker tag, the exports in progress
  quint64 m_exportCount = 0;
};

}  // namespace flowscope
