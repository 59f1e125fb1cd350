// The command line of the script runner.
#include "script/script_process.h"

#include <QDir>
#include <QFileInfo>

namespace flowscope {

bool isPythonScript(const QString& path) { return path.endsWith(".py", Qt::CaseInsensitive); }

QString pythonExecutable() {
  const QString chosen = qEnvironmentVariable("FLOWSCOPE_PYTHON");
  return chosen.isEmpty() ? QStringLiteral("/usr/bin/python3") : chosen;
}

QStringList traceScriptArguments(const ScriptRequest& request) {
  QStringList args = {"-m", "flowscope.tools.trace_script", QFileInfo(request.script).absoluteFilePath(), "--out",
                      request.outDir};
  if (!request.compareFunction.isEmpty())
    args << "--compare" << request.compareFunction << "--calls" << QString::number(request.calls);
  return args;
}

QProcessEnvironment scriptEnvironment() {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  const QString buildTree = QStringLiteral(FLOWSCOPE_PYTHON_BUILD_DIR);
  if (QFileInfo::exists(buildTree + "/flowscope/tools/trace_script.py")) {
    const QString old = env.value("PYTHONPATH");
    env.insert("PYTHONPATH", old.isEmpty() ? buildTree : buildTree + QDir::listSeparator() + old);
  }
  env.insert("PYTHONUNBUFFERED", "1");  // the output dock shows prints as they happen
  env.insert("PYTHONDONTWRITEBYTECODE", "1");
  return env;
}

}  // namespace flowscope
