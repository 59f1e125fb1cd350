// The script's process.
#include "script/script_runner.h"

#include <QFileInfo>

namespace flowscope {

ScriptRunner::ScriptRunner(QObject* parent) : QObject(parent) {}

ScriptRunner::~ScriptRunner() { stopProcess(); }

void ScriptRunner::stopProcess() {
  if (!m_process) return;
  m_process->disconnect(this);
  if (m_process->state() != QProcess::NotRunning) {
    m_process->kill();
    m_process->waitForFinished(3000);  // SIGKILL: the wait is for the kernel to reap it, not for the script
  }
  m_process->deleteLater();
  m_process = nullptr;
}

void ScriptRunner::start(ScriptRequest request) {
  stopProcess();
  m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + "/flowscope-script-XXXXXX");
  request.outDir = m_dir->path();
  m_request = request;
  m_stdoutLine.clear();
  m_stderr.clear();
  m_cancelled = false;
  m_process = new QProcess(this);
  m_process->setProcessEnvironment(scriptEnvironment());
  m_process->setWorkingDirectory(QFileInfo(request.script).absolutePath());
  connect(m_process, &QProcess::readyReadStandardOutput, this, [this] { readOutput(false); });
  connect(m_process, &QProcess::readyReadStandardError, this, [this] { readOutput(true); });
  connect(m_process, &QProcess::finished, this, &ScriptRunner::onFinished);
  connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return;  // crashes arrive through finished()
    const QString message = tr("cannot start %1: %2").arg(pythonExecutable(), m_process->errorString());
    m_process->deleteLater();
    m_process = nullptr;
    emit failed(message);
  });
  m_process->start(pythonExecutable(), traceScriptArguments(request));
}

void ScriptRunner::cancel() {
  if (!isRunning()) return;
  m_cancelled = true;
  m_process->kill();  // finished() reports it
}

void ScriptRunner::readOutput(bool isError) {
  const QString text =
      QString::fromUtf8(isError ? m_process->readAllStandardError() : m_process->readAllStandardOutput());
  if (text.isEmpty()) return;
  emit output(text, isError);
  if (isError) {
    m_stderr += text;
    return;
  }
  m_stdoutLine += text;
  const qsizetype end = m_stdoutLine.lastIndexOf('\n');
  if (end < 0) return;
  for (const QString& line : m_stdoutLine.left(end).split('\n'))
    if (line.startsWith("flowscope: ")) emit progress(line.mid(11));
  m_stdoutLine = m_stdoutLine.mid(end + 1);
}

void ScriptRunner::onFinished(int exitCode, QProcess::ExitStatus status) {
  readOutput(false);
  readOutput(true);
  m_process->deleteLater();
  m_process = nullptr;
  if (m_cancelled) return emit failed(tr("cancelled; the script's process was killed"));
  if (status == QProcess::CrashExit) return emit failed(tr("the script's Python process crashed"));
  emit finished(exitCode);
}

}  // namespace flowscope
