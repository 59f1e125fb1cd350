// What a script run left behind (trace_script's manifest.json and compare.json), read into plain structs for the
// Functions panel, the source view, the comparison and the CLI.
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

#include "base/status.h"

namespace flowscope {

struct ScriptConcrete {
  QString name;       ///< __inference_f_1
  QString signature;  ///< pretty-printed, or why there is none
  QString graphFile;  ///< absolute path of its binary GraphDef; empty when it could not be written
  QString graphError;
  int callCount = 0;  ///< recorded calls that ran this trace
  QStringList calls;  ///< the first calls' arguments, one line each
};

struct ScriptFunction {
  QString name, qualname, file;
  int line = 0;
  QString source;           ///< the Python source, or why it is missing
  QString autographSource;  ///< autograph.to_code's output, or its error
  bool autographFailed = false;
  int tracingCount = 0, callCount = 0, eagerCalls = 0;
  std::vector<ScriptConcrete> concretes;
};

struct ScriptManifest {
  QString dir, script;
  bool raised = false;
  QString error;  ///< the script's traceback when it raised
  std::vector<ScriptFunction> functions;
};

struct ScriptComparison {
  QString function;
  int rounds = 0, recordedCalls = 0;
  double eagerMedianUs = 0, graphMedianUs = 0;
  double eagerSeconds = 0, graphSeconds = 0;  ///< totals over every timed call
  double speedup = 0;                         ///< eager median / graph median
  bool outputsEqual = false;
  double maxAbsDifference = -1;  ///< -1: not comparable (different structure or shape)
  QStringList concretes;
  QString rawJson;
};

Expected<ScriptManifest> readScriptManifest(const QString& dir);
/// compare.json; its "error" becomes the status.
Expected<ScriptComparison> readScriptComparison(const QString& dir);
/// "graph is 2.50x faster than eager (median per call); outputs equal".
QString comparisonVerdict(const ScriptComparison& c);
/// The comparison as the CLI prints it.
QString comparisonTable(const ScriptComparison& c);

}  // namespace flowscope
