// The pass stepper: the optimizer's pass records for the opened graph (the session runs the pipeline on the worker
// the first time the tab is shown), one row per pass with its node delta, and the graph before and after the chosen
// pass side by side with synchronized viewports: nodes the pass added in green, removed in red, changed in amber.
// Up/Down step through the passes. Shown with nothing chosen, it shows the first pass that changed the graph.
#pragma once

#include <QWidget>

#include "session/session.h"

class QLabel;
class QTableView;

namespace flowscope {

class GraphCanvas;
class PassListModel;

class PassStepper : public QWidget, public SessionViewer {
  Q_OBJECT

 public:
  PassStepper(Session* session, QWidget* parent = nullptr);
  ~PassStepper() override;
  GraphCanvas* before() const { return m_before; }
  GraphCanvas* after() const { return m_after; }
  PassListModel* passes() const { return m_passes; }
  QString summary() const;

  static QColor addedColor() { return QColor("#43a047"); }
  static QColor removedColor() { return QColor("#e53935"); }
  static QColor changedColor() { return QColor("#fb8c00"); }

  void documentChanged(const Session& session) override;
  void selectionChanged(const Session&) override {}
  void passChanged(const Session& session) override;
  void profileChanged(const Session&) override {}

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void showPass(const PipelineResult& pipeline, int index);
  /// While the tab is in sight with no pass chosen: the first pass that changed the graph (laying out two graphs
  /// for a tab nobody looks at would only take the worker from the profile).
  void chooseFirstChange();
  void fitTableWidth();

  Session* m_session;
  PassListModel* m_passes;
  QTableView* m_table;
  GraphCanvas* m_before;
  GraphCanvas* m_after;
  QLabel* m_summary;
  const PipelineResult* m_shownPipeline = nullptr;
  int m_shownPass = -1;
};

}  // namespace flowscope
