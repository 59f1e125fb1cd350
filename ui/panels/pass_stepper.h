// The pass stepper: runs the optimizer off the UI thread (progress, cancel), lists every pass with its node delta,
// and shows the graph before and after the selected pass side by side with synchronized viewports: nodes the pass
// added in green, removed in red, changed in amber. Up/Down step through the passes.
#pragma once

#include <QFutureWatcher>
#include <QWidget>
#include <atomic>
#include <memory>

#include "ir/model.h"
#include "passes/pass_manager.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace flowscope {

class GraphCanvas;

class PassStepper : public QWidget {
  Q_OBJECT

 public:
  explicit PassStepper(QWidget* parent = nullptr);
  ~PassStepper() override;

  /// Starts the default pipeline on `model` in the background.
  void optimize(std::shared_ptr<const Model> model);
  void cancel();
  /// Shows pass `index` of the last pipeline (before on the left, after on the right).
  void showPass(int index);
  const PipelineResult* result() const { return m_result.get(); }
  GraphCanvas* before() const { return m_before; }
  GraphCanvas* after() const { return m_after; }
  int currentPass() const { return m_current; }

  static QColor addedColor() { return QColor("#43a047"); }
  static QColor removedColor() { return QColor("#e53935"); }
  static QColor changedColor() { return QColor("#fb8c00"); }

 signals:
  void optimized();
  void failed(const QString& message);

 private:
  QTableWidget* m_table;
  GraphCanvas* m_before;
  GraphCanvas* m_after;
  QLabel* m_summary;
  QProgressBar* m_progress;
  QPushButton* m_cancel;
  QFutureWatcher<Expected<PipelineResult>> m_watcher;
  std::atomic<bool> m_cancelled{false};
  std::atomic<int> m_done{0}, m_total{1};
  std::shared_ptr<PipelineResult> m_result;
  int m_current = -1;
};

}  // namespace flowscope
