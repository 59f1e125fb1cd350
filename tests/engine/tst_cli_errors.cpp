// Every command's error for a file it cannot use names the path and the cause: a missing file, a directory that is
// not a model, a permission error, and a full disk (/dev/full as the output, which must stay a device).
#include <sys/stat.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>

#include "engine/cli_process.h"

using namespace flowscope::testing;

namespace {

// As root, permissions do not apply: the permission cases run the binary as nobody.
QStringList unprivileged() {
  if (::geteuid() != 0) return {};
  return {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"};
}

bool isCharDevice(const char* path) {
  struct stat s {};
  return ::stat(path, &s) == 0 && S_ISCHR(s.st_mode);
}

// The commands that read a model, with FILE standing for the path under test.
void addReadingCommands() {
  QTest::addColumn<QStringList>("args");
  QTest::newRow("info") << QStringList{"info", "FILE"};
  QTest::newRow("convert") << QStringList{"convert", "FILE", "OUT.pb"};
  QTest::newRow("run") << QStringList{"run", "FILE"};
  QTest::newRow("profile") << QStringList{"profile", "FILE", "--runs", "1"};
  QTest::newRow("optimize") << QStringList{"optimize", "FILE"};
  QTest::newRow("screenshot") << QStringList{"screenshot", "FILE", "--out", "OUT.png"};
  QTest::newRow("run --input npy") << QStringList{"run", testData("small_mlp.pbtxt"), "--input", "x=FILE"};
}

QStringList substitute(QStringList args, const QString& file, const QTemporaryDir& dir) {
  for (QString& a : args) {
    a.replace("FILE", file);
    if (a.startsWith("OUT.")) a = dir.filePath(a);
  }
  return args;
}

bool saysBoth(const CliRun& r, const QString& path, const QString& cause) {
  if (r.code == 1 && r.err.contains(path) && r.err.contains(cause, Qt::CaseInsensitive)) return true;
  qWarning("exit %d, stderr: %s", r.code, qPrintable(r.err));
  return false;
}

}  // namespace

class TestCliErrors : public QObject {
  Q_OBJECT

 private slots:
  void missingFile_data() { addReadingCommands(); }
  void missingFile() {
    QFETCH(QStringList, args);
    QTemporaryDir dir;
    const QString missing = dir.filePath("no_such_model.npy");
    QVERIFY(saysBoth(runFlowscope(substitute(args, missing, dir)), missing, "no such file or directory"));
  }

  void directoryThatIsNotAModel_data() { addReadingCommands(); }
  void directoryThatIsNotAModel() {
    QFETCH(QStringList, args);
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir("empty.npy"));
    const QString empty = dir.filePath("empty.npy");
    const bool npy = args.contains("x=FILE");
    QVERIFY(saysBoth(runFlowscope(substitute(args, empty, dir)), empty,
                     npy ? "is a directory" : "neither a SavedModel (no saved_model.pb) nor a TF.js model"));
  }

  void unreadableFile_data() { addReadingCommands(); }
  void unreadableFile() {
    QFETCH(QStringList, args);
    QTemporaryDir dir;
    QVERIFY(QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                                  QFileDevice::ReadOther | QFileDevice::ExeOther));
    const bool npy = args.contains("x=FILE");
    const QString locked = dir.filePath(npy ? "locked.npy" : "locked.pbtxt");
    QVERIFY(QFile::copy(testData("small_mlp.pbtxt"), locked));
    QVERIFY(QFile::setPermissions(locked, {}));
    QVERIFY(saysBoth(runFlowscope(substitute(args, locked, dir), unprivileged()), locked, "permission denied"));
  }

  // Outputs: a full disk, a directory nobody may write, a missing parent directory.
  void unwritableOutputs_data() {
    QTest::addColumn<QStringList>("args");
    const QString mlp = testData("small_mlp.pbtxt");
    QTest::newRow("convert") << QStringList{"convert", mlp, "OUT", "--force"};
    QTest::newRow("synth") << QStringList{"synth", "--nodes", "100", "--out", "OUT", "--force"};
    QTest::newRow("optimize --out") << QStringList{"optimize", mlp, "--out", "OUT", "--force"};
    QTest::newRow("profile --trace") << QStringList{"profile", mlp, "--runs", "1", "--trace", "OUT"};
    QTest::newRow("trace --out") << QStringList{"trace", "power", "--out", "OUT", "--force"};
    QTest::newRow("screenshot") << QStringList{"screenshot", mlp, "--out", "OUT"};
  }
  void unwritableOutputs() {
    QFETCH(QStringList, args);
    if (!isCharDevice("/dev/full")) QSKIP("no /dev/full");
    QTemporaryDir dir;
    auto with = [&](const QString& out) {
      return QStringList(args).replaceInStrings(QRegularExpression("^OUT$"), out);
    };
    QVERIFY(saysBoth(runFlowscope(with("/dev/full")), "/dev/full", "no space left on device"));
    QVERIFY2(isCharDevice("/dev/full"), "the write replaced /dev/full");
    const QString missing = dir.filePath("missing/out.pb");
    QVERIFY(saysBoth(runFlowscope(with(missing)), missing, "no such file or directory"));
    QVERIFY(QDir(dir.path()).mkdir("readonly"));
    QVERIFY(QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                                  QFileDevice::ReadOther | QFileDevice::ExeOther));
    const QString denied = dir.filePath("readonly/out.pb");
    QVERIFY(QFile::setPermissions(dir.filePath("readonly"), QFileDevice::ReadOwner | QFileDevice::ExeOwner |
                                                                QFileDevice::ReadOther | QFileDevice::ExeOther));
    QVERIFY(saysBoth(runFlowscope(with(denied), unprivileged()), denied, "permission denied"));
  }

  // Output directories: run --output and optimize --dump-after where a file (or a device) is in the way.
  void unusableOutputDirectories() {
    const QString mlp = testData("small_mlp.pbtxt");
    CliRun run = runFlowscope({"run", mlp, "--output", "/dev/full/outputs"});
    QVERIFY(saysBoth(run, "/dev/full/outputs", "not a directory"));
    CliRun dump = runFlowscope({"optimize", mlp, "--dump-after", "/dev/full/dumps"});
    QVERIFY(saysBoth(dump, "/dev/full/dumps", "not a directory"));
    QVERIFY(isCharDevice("/dev/full"));
  }
};

QTEST_APPLESS_MAIN(TestCliErrors)
#include "tst_cli_errors.moc"
