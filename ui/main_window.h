// MainWindow: opens graph files (dialog, drag and drop, command line, recent files) and lists their nodes.
// Loading runs off the UI thread; failures show in the window.
#pragma once

#include <QFutureWatcher>
#include <QMainWindow>
#include <memory>

#include "base/status.h"
#include "graph_navigation.h"
#include "ir/model.h"

class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QLineEdit;
class QCheckBox;
class QTabWidget;

namespace flowscope {

class NodeTableModel;
class GraphCanvas;
class InspectorPanel;
class PassStepper;
class ProfilePanel;
class BreadcrumbBar;
class OutlinePanel;
class ComparePanel;
class TaskIndicator;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Starts loading in the background; the window stays responsive.
  void openFile(const QString& path);
  /// The opened model (null until a load succeeds).
  std::shared_ptr<const Model> model() const { return m_model; }
  /// What the canvas shows: the opened model, or a function body opened from it.
  std::shared_ptr<const Model> shownModel() const { return m_nav.current(); }
  const GraphNavigation& navigation() const { return m_nav; }
  /// Shows the body of a library function (an If branch, a While body, a called function) one level down.
  Status openFunction(const std::string& name);
  /// Goes back up the breadcrumb (0: the opened graph).
  void goToLevel(int depth);
  /// True while a load is in flight.
  bool isLoading() const;
  /// Abandons the load in flight (its result is dropped; the shown graph stays).
  void cancelLoading();
  TaskIndicator* taskIndicator() const { return m_task; }
  GraphCanvas* canvas() const { return m_canvas; }
  InspectorPanel* inspector() const { return m_inspector; }
  PassStepper* passStepper() const { return m_stepper; }
  QTabWidget* tabs() const { return m_tabs; }
  ProfilePanel* profilePanel() const { return m_profile; }
  OutlinePanel* outline() const { return m_outline; }
  ComparePanel* comparePanel() const { return m_compare; }
  BreadcrumbBar* breadcrumb() const { return m_breadcrumb; }
  /// Writes the whole graph, or only what the canvas shows, as PNG or SVG (by the extension), with its overlay.
  Status exportCanvas(const QString& path, bool viewOnly = false) const;
  void setTheme(const QString& name);

 signals:
  void modelLoaded();
  void loadFailed(const QString& message);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void buildViewMenu();
  void exportCanvas(const char* format, bool viewOnly);
  void onLoadFinished();
  void rememberRecent(const QString& path);
  void rebuildRecentMenu();
  void showLevel();
  void activateNode(size_t node);
  void buildDocks();

  NodeTableModel* m_nodes;
  QSortFilterProxyModel* m_filter;
  QTableView* m_table;
  QLineEdit* m_search;
  QLabel* m_header;
  GraphCanvas* m_canvas;
  InspectorPanel* m_inspector;
  QCheckBox* m_regex;
  QTabWidget* m_tabs;
  PassStepper* m_stepper;
  ProfilePanel* m_profile;
  std::shared_ptr<const Model> m_stepperModel;
  BreadcrumbBar* m_breadcrumb;
  OutlinePanel* m_outline;
  ComparePanel* m_compare;
  TaskIndicator* m_task;
  bool m_loadCancelled = false;
  bool m_loadPending = false;  // from openFile until its result is handled
  GraphNavigation m_nav;
  std::vector<double> m_rootTimes;  // the profile overlay of the opened graph, kept while a function is shown
  QMenu* m_recentMenu = nullptr;
  QFutureWatcher<std::shared_ptr<Expected<Model>>> m_watcher;
  QString m_loadingPath;
  std::shared_ptr<const Model> m_model;
};

}  // namespace flowscope
