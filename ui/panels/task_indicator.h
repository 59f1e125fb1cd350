// TaskIndicator: the status bar's "working" strip for long work that has no pass-by-pass progress of its own
// (loading a file, laying out a graph): what is running, for how long, a busy bar and a Cancel button.
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <functional>

class QLabel;
class QProgressBar;
class QPushButton;

namespace flowscope {

class TaskIndicator : public QWidget {
  Q_OBJECT

 public:
  explicit TaskIndicator(QWidget* parent = nullptr);
  /// Shows `what` until finish(key); Cancel calls `cancel`. A newer start replaces the shown task.
  void start(const QString& key, const QString& what, std::function<void()> cancel);
  /// Hides the strip if `key` is the task it shows.
  void finish(const QString& key);
  bool isActive() const { return !m_key.isEmpty(); }
  QString text() const;

 private:
  QString m_key, m_what;
  std::function<void()> m_cancel;
  QLabel* m_label;
  QProgressBar* m_bar;
  QPushButton* m_cancelButton;
  QElapsedTimer m_elapsed;
  QTimer m_tick;
};

}  // namespace flowscope
