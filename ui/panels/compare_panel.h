// ComparePanel, the "Eager vs Graph" tab: pick a gallery function (the tracing guide's examples, an MLP, a small
// conv net, control flow), run it N times eagerly and N times as its traced graph off the UI thread (progress and
// cancel), and show both totals and timelines side by side next to the traced graph and its concrete signature.
// A script's Function (opened from a .py) is compared the same way in a separate Python process, on the arguments
// the script called it with: medians and totals per side (no per-op profile from there), the graph and signature.
#pragma once

#include <QWidget>
#include <memory>

#include "script/script_manifest.h"
#include "session/engine_worker.h"
#include "trace/compare.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace flowscope {

class GraphCanvas;
class OpStatsModel;
class ScriptRunner;
class TimelineView;

class ComparePanel : public QWidget {
  Q_OBJECT

 public:
  explicit ComparePanel(EngineWorker* worker, QWidget* parent = nullptr);
  ~ComparePanel() override;
  /// Compares a gallery function over `calls` calls of each kind (in the background).
  void compare(const QString& function, int calls);
  void cancel();
  bool isRunning() const;
  /// Offers a script's Function in the function box (chosen); Compare then runs the script again with --compare.
  void setScriptFunction(const QString& script, const ScriptFunction& function, const ScriptConcrete& concrete);
  /// Compares the offered script Function over `calls` rounds of its recorded calls per side (in the background).
  void compareScript(int calls);
  const ScriptComparison* scriptResult() const { return m_scriptResult.get(); }
  std::shared_ptr<const tf::EagerGraphComparison> result() const { return m_result; }
  GraphCanvas* graphCanvas() const { return m_canvas; }
  TimelineView* eagerTimeline() const { return m_side[0].timeline; }
  TimelineView* graphTimeline() const { return m_side[1].timeline; }
  OpStatsModel* eagerOps() const { return m_side[0].ops; }
  OpStatsModel* graphOps() const { return m_side[1].ops; }
  QString summary() const;

 signals:
  void compared();
  void failed(const QString& message);

 private:
  struct Side {
    QLabel* total = nullptr;
    TimelineView* timeline = nullptr;
    OpStatsModel* ops = nullptr;
    QTableView* table = nullptr;
  };
  QWidget* buildSide(Side& side, const QString& title);
  void onFinished(std::shared_ptr<Expected<tf::EagerGraphComparison>> result);
  void showResult();
  void startRun(const QString& status);
  void endRun();
  void onScriptFinished();
  void onScriptFailed(const QString& message);
  void showScriptResult();
  bool scriptChosen() const;

  EngineWorker* m_worker;
  JobId m_job = 0;
  QComboBox* m_function;
  QSpinBox* m_calls;
  QPushButton* m_run;
  QPushButton* m_cancelButton;
  QProgressBar* m_progress;
  QLabel* m_status;
  GraphCanvas* m_canvas;
  QPlainTextEdit* m_signature;
  Side m_side[2];
  std::shared_ptr<const tf::EagerGraphComparison> m_result;
  QString m_resultFunction;
  ScriptRunner* m_scriptRunner;
  // The offered script Function: the script, the Function's name, its graph, signature and recorded calls.
  QString m_script, m_scriptFunction, m_scriptGraph, m_scriptText;
  std::unique_ptr<ScriptComparison> m_scriptResult;
};

}  // namespace flowscope
