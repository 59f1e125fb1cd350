// ScriptRunner: one run of a user's script in a separate Python process (trace_script into a temporary folder),
// its output streamed as it comes, its "flowscope: ..." lines as progress, and Cancel that kills it. Nothing here
// blocks the UI thread: the process is watched through Qt's event loop.
#pragma once

#include <QObject>
#include <QProcess>
#include <QTemporaryDir>
#include <memory>

#include "script/script_process.h"

namespace flowscope {

class ScriptRunner : public QObject {
  Q_OBJECT

 public:
  explicit ScriptRunner(QObject* parent = nullptr);
  ~ScriptRunner() override;  // kills a script still running

  /// Starts `request` (its outDir is ignored: each run writes into a new temporary folder, kept until the next
  /// run). A run still going is killed first.
  void start(ScriptRequest request);
  /// Kills the running script; failed("cancelled") follows.
  void cancel();
  bool isRunning() const { return m_process && m_process->state() != QProcess::NotRunning; }
  qint64 processId() const { return m_process ? m_process->processId() : 0; }
  /// The folder of the latest run (manifest.json, the graphs, compare.json).
  QString outDir() const { return m_dir ? m_dir->path() : QString(); }
  const ScriptRequest& request() const { return m_request; }
  /// Everything the script wrote to stderr in the latest run.
  const QString& errorOutput() const { return m_stderr; }

 signals:
  void output(const QString& text, bool isError);
  /// A "flowscope: ..." line of the runner, without the prefix.
  void progress(const QString& line);
  /// The process exited by itself (1: the script raised or the comparison failed; the files say which).
  void finished(int exitCode);
  /// It could not start, crashed, or was cancelled.
  void failed(const QString& message);

 private:
  void readOutput(bool isError);
  void onFinished(int exitCode, QProcess::ExitStatus status);
  void stopProcess();

  ScriptRequest m_request;
  std::unique_ptr<QTemporaryDir> m_dir;
  QProcess* m_process = nullptr;
  QString m_stdoutLine;  // an unfinished line, for progress
  QString m_stderr;
  bool m_cancelled = false;
};

}  // namespace flowscope
