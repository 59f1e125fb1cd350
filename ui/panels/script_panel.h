// ScriptPanel, the "Functions" dock: runs an opened .py script (in its own process, with a busy bar and Cancel) and
// lists every tf.function it created with that Function's concrete functions. Choosing a concrete function tells
// the window, which shows its graph, its signature and sources, and offers the eager-vs-graph comparison.
#pragma once

#include <QWidget>
#include <memory>

#include "script/script_manifest.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace flowscope {

class ScriptRunner;

class ScriptPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ScriptPanel(QWidget* parent = nullptr);
  ~ScriptPanel() override;
  /// Runs the script into a new temporary folder; the list fills when it is done.
  void run(const QString& script);
  void cancel();
  bool isRunning() const;
  qint64 processId() const;
  ScriptRunner* runner() const { return m_runner; }
  /// The latest run's manifest (null until one was read).
  const ScriptManifest* manifest() const { return m_manifest.get(); }
  const QString& script() const { return m_script; }
  QTreeWidget* tree() const { return m_tree; }
  QString statusText() const;
  /// Selects function `function`'s concrete function `concrete` in the list (concreteChosen follows).
  void choose(int function, int concrete);

 signals:
  void started(const QString& script);
  void output(const QString& text, bool isError);
  /// The manifest was read and listed (the script may have raised: manifest()->raised).
  void listed();
  /// No manifest: the script could not run, was cancelled, or its runner failed.
  void failed(const QString& message);
  void concreteChosen(int function, int concrete);

 private:
  void onFinished(int exitCode);
  void onFailed(const QString& message);
  void fill();
  void setRunning(bool running);
  void onCurrentChanged();

  ScriptRunner* m_runner;
  QString m_script;
  std::unique_ptr<ScriptManifest> m_manifest;
  QLabel* m_status;
  QProgressBar* m_busy;
  QPushButton* m_cancel;
  QPushButton* m_rerun;
  QTreeWidget* m_tree;
};

}  // namespace flowscope
