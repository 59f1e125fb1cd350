// `flowscope trace script.py` and `flowscope compare script.py NAME`: the user's script runs in its own Python
// process (python3 -m flowscope.tools.trace_script into a temporary folder, its prints on our stderr), then the
// chosen Function's graph is written or the eager-vs-graph comparison printed.
#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "base/strings.h"
#include "cli/command.h"
#include "io/graph_writer.h"
#include "io/loader.h"
#include "ir/printer.h"
#include "script/script_manifest.h"
#include "script/script_process.h"

namespace flowscope::cli {
namespace {

int fail(const char* command, const std::string& message, int code) {
  std::fprintf(stderr, "flowscope %s: %s\n", command, message.c_str());
  return code;
}

std::string lastLine(const QString& text) { return text.trimmed().section('\n', -1).toStdString(); }

// Runs trace_script; the script's stdout and stderr go to ours (stdout to stderr: our stdout is the result).
Status runTraceScript(const ScriptRequest& request) {
  std::unique_ptr<QCoreApplication> app;
  if (!QCoreApplication::instance()) {
    static int argc = 1;
    static char name[] = "flowscope";
    static char* argv[] = {name, nullptr};
    app = std::make_unique<QCoreApplication>(argc, argv);
  }
  QProcess process;
  process.setProcessEnvironment(scriptEnvironment());
  process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
  process.setStandardOutputFile("/dev/stderr", QIODevice::Append);
  process.setWorkingDirectory(QFileInfo(request.script).absolutePath());
  std::fflush(stdout);
  process.start(pythonExecutable(), traceScriptArguments(request));
  if (!process.waitForStarted(-1))
    return notFound("cannot start " + pythonExecutable().toStdString() + ": " + process.errorString().toStdString());
  process.waitForFinished(-1);
  if (process.exitStatus() == QProcess::CrashExit) return internalError("the Python process crashed");
  if (process.exitCode() == 2) return invalidArgument("the script runner refused its arguments (see above)");
  return Status::ok();
}

// The Function (or concrete function) named `name`; without a name the first one that was traced.
const ScriptFunction* chooseFunction(const ScriptManifest& m, const std::string& name, int* concrete) {
  *concrete = 0;
  for (const auto& f : m.functions) {
    if (name.empty() ? !f.concretes.empty() : f.name.toStdString() == name || f.qualname.toStdString() == name)
      return &f;
    for (size_t c = 0; c < f.concretes.size() && !name.empty(); ++c)
      if (f.concretes[c].name.toStdString() == name) return *concrete = static_cast<int>(c), &f;
  }
  return nullptr;
}

std::string functionNames(const ScriptManifest& m) {
  std::string names;
  for (const auto& f : m.functions) names += (names.empty() ? "" : ", ") + f.qualname.toStdString();
  return names.empty() ? "none" : names;
}

Expected<ScriptManifest> traceScript(const std::string& script, QTemporaryDir& dir) {
  if (!std::filesystem::is_regular_file(script)) return notFound(script + ": no such file");
  if (!dir.isValid()) return internalError("cannot make a temporary folder: " + dir.errorString().toStdString());
  Status s = runTraceScript(ScriptRequest{QString::fromStdString(script), dir.path(), {}, 0});
  if (!s) return s.withContext(script + ": ");
  auto manifest = readScriptManifest(dir.path());
  if (!manifest) return manifest.status().withContext(script + ": ");
  if (manifest->raised) return invalidArgument(script + " raised: " + lastLine(manifest->error));
  return manifest;
}

}  // namespace

int runTraceScriptCommand(const Args& args) {
  const std::string script = args.positional()[0];
  QTemporaryDir dir;
  auto manifest = traceScript(script, dir);
  if (!manifest) return fail("trace", manifest.status().message(), kExitBadInput);
  const std::string wanted = args.value("--function").value_or("");
  int index = 0;
  const ScriptFunction* f = chooseFunction(*manifest, wanted, &index);
  if (!f)
    return fail("trace",
                script + ": " + (wanted.empty() ? "traced no tf.function" : "no tf.function named " + wanted) +
                    " (it created: " + functionNames(*manifest) + ")",
                kExitBadInput);
  if (f->concretes.empty()) return fail("trace", script + ": " + wanted + " was never traced", kExitBadInput);
  if (f->concretes.size() > 1 && index == 0 && wanted.rfind("__", 0) != 0)
    std::fprintf(stderr, "flowscope trace: %s has %zu concrete functions; writing %s (--function picks another)\n",
                 f->name.toUtf8().constData(), f->concretes.size(), f->concretes[0].name.toUtf8().constData());
  const ScriptConcrete& c = f->concretes[index];
  if (c.graphFile.isEmpty()) return fail("trace", c.name.toStdString() + ": " + c.graphError.toStdString(), 1);
  auto model = loadModel(c.graphFile.toStdString());
  if (!model) return fail("trace", model.status().message(), kExitBadInput);
  std::printf("%s\n%s: %zu nodes, %zu library functions\n", c.signature.toUtf8().constData(),
              c.name.toUtf8().constData(), model->graph.size(), model->graph.library.size());
  auto out = args.value("--out");
  if (!out) return std::printf("\n%s", printGraph(model->graph).c_str()), kExitOk;
  if (std::filesystem::exists(*out) && !args.flag("--force"))
    return fail("trace", *out + " exists; pass --force to replace it", kExitUsage);
  if (Status s = writeGraph(model->graph, *out); !s) return fail("trace", s.message(), kExitBadInput);
  std::printf("wrote %s\n", out->c_str());
  return kExitOk;
}

int runCompareScriptCommand(const Args& args) {
  if (args.positional().size() != 2)
    return fail("compare", "usage: flowscope compare SCRIPT.py FUNCTION [--calls N] [--json]", kExitUsage);
  const std::string script = args.positional()[0];
  int64_t calls = 100;
  if (auto c = args.value("--calls"); c && (!parseInt64(*c, &calls) || calls < 1 || calls > 10'000'000))
    return fail("compare", "--calls needs a number from 1 to 10000000", kExitUsage);
  if (!std::filesystem::is_regular_file(script)) return fail("compare", script + ": no such file", kExitBadInput);
  QTemporaryDir dir;
  const QString name = QString::fromStdString(args.positional()[1]);
  Status s = runTraceScript(ScriptRequest{QString::fromStdString(script), dir.path(), name, static_cast<int>(calls)});
  if (!s) return fail("compare", script + ": " + s.message(), kExitBadInput);
  auto result = readScriptComparison(dir.path());
  if (!result) return fail("compare", script + ": " + result.status().message(), kExitBadInput);
  auto manifest = readScriptManifest(dir.path());
  if (manifest && manifest->raised)
    std::fprintf(stderr, "flowscope compare: note: %s raised (%s); compared the calls made before\n", script.c_str(),
                 lastLine(manifest->error).c_str());
  std::printf(
      "%s", args.flag("--json") ? result->rawJson.toUtf8().constData() : comparisonTable(*result).toUtf8().constData());
  return kExitOk;
}

}  // namespace flowscope::cli
