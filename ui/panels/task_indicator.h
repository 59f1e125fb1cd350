// TaskIndicator: the status bar's strip for the engine worker's jobs: the newest running job with a title (loading a
// file, laying out, optimizing, profiling), its progress when it reports any (busy otherwise), how long it has run,
// and a Cancel button.
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <map>

#include "session/engine_worker.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace flowscope {

class TaskIndicator : public QWidget {
  Q_OBJECT

 public:
  explicit TaskIndicator(EngineWorker* worker, QWidget* parent = nullptr);
  bool isActive() const { return !m_tasks.empty(); }
  /// What the strip says ("Loading x.pb (3 s)"), empty when idle.
  QString text() const;

 private:
  struct Task {
    QString title, what;
    double fraction = -1;
    QElapsedTimer elapsed;
  };
  void refresh();

  EngineWorker* m_worker;
  std::map<JobId, Task> m_tasks;  // running jobs with a title, oldest first
  QLabel* m_label;
  QProgressBar* m_bar;
  QPushButton* m_cancelButton;
  QTimer m_tick;
};

}  // namespace flowscope
