// Running the built `flowscope` binary from a test: exit code, stdout and stderr.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace flowscope::testing {

struct CliRun {
  int code;
  QString out;
  QString err;
};

/// Runs `flowscope ARGS...`; `program` wraps it (e.g. {"setpriv", "--reuid=65534", ...}) when not empty.
inline CliRun runFlowscope(const QStringList& args, const QStringList& program = {}) {
  QProcess p;
  QStringList all = program;
  all << FLOWSCOPE_BINARY << args;
  p.start(all.first(), all.mid(1));
  p.waitForFinished(300000);
  return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

inline QString testData(const char* name) { return QString(FLOWSCOPE_TEST_DATA) + "/" + name; }
inline QString sharedGraph(const char* path) { return QString(FLOWSCOPE_SHARED_GRAPHS) + "/" + path; }

}  // namespace flowscope::testing
