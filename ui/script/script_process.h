// How the app and the CLI run a user's Python script: Debian's /usr/bin/python3 with -m flowscope.tools.trace_script
// (python/flowscope/tools), importing the module from the build tree when the binary runs from it, else the
// installed one. The script runs in its own process, so a crash or an endless loop never takes Flowscope down.
#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace flowscope {

struct ScriptRequest {
  QString script;
  QString outDir;           ///< where trace_script writes manifest.json, the graphs and compare.json
  QString compareFunction;  ///< empty: no eager-vs-graph comparison
  int calls = 100;          ///< rounds of the recorded calls per side when comparing
};

/// A .py file: the app and the CLI run it instead of loading it.
bool isPythonScript(const QString& path);
/// FLOWSCOPE_PYTHON when set, else /usr/bin/python3 (the interpreter the module is built for).
QString pythonExecutable();
QStringList traceScriptArguments(const ScriptRequest& request);
/// The system environment, with PYTHONPATH led by the build tree's module when it exists, and unbuffered output.
QProcessEnvironment scriptEnvironment();

}  // namespace flowscope
