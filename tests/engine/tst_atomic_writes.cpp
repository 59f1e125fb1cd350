// Writes under failure: `flowscope convert` of a large graph killed with SIGKILL at several points leaves the
// destination either absent (or as it was) or complete, and never touches the input (engine/base/atomic_file); the
// next write to that destination removes the temporary file the killed writer left.
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include "engine/cli_process.h"

using namespace flowscope::testing;

namespace {

QByteArray digest(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  QCryptographicHash hash(QCryptographicHash::Sha256);
  hash.addData(&f);
  return hash.result();
}

bool writing(const QDir& dir) { return !dir.entryList({".out.pbtxt.tmp-*"}, QDir::Hidden | QDir::Files).isEmpty(); }

// The state letter of a process in /proc (R, S, T for stopped, Z for exited), or 0 when it is gone. QProcess only
// notices an exit in its event loop, which this test has none of.
char processState(qint64 pid) {
  QFile stat(QString("/proc/%1/stat").arg(pid));
  if (!stat.open(QIODevice::ReadOnly)) return 0;
  const QByteArray line = stat.readAll();
  const qsizetype close = line.lastIndexOf(')');  // the command name may hold spaces and parentheses
  return close >= 0 && close + 2 < line.size() ? line[close + 2] : 0;
}

bool exited(qint64 pid) {
  const char state = processState(pid);
  return state == 0 || state == 'Z' || state == 'X';
}

// When `flowscope convert` is killed: a time after it starts, a time after its temporary file appears, or once it
// stopped itself with its file complete and not yet renamed (FLOWSCOPE_TEST_STOP_BEFORE_RENAME): there it is
// killed mid-way by construction, whatever the machine's load.
enum class Kill { kAfterStart, kAfterWriteStarts, kBeforeRename };

// Starts `flowscope convert IN DIR/out.pbtxt --force` and kills it (SIGKILL: no handler, no cleanup) as `when` says.
// 1 when it was killed, 0 when it finished first, -1 when it did not start or failed.
int convertKilled(const QString& in, const QDir& dir, Kill when, int delayMs = 0) {
  QProcess p;
  if (when == Kill::kBeforeRename) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("FLOWSCOPE_TEST_STOP_BEFORE_RENAME", "1");
    p.setProcessEnvironment(env);
  }
  p.start(FLOWSCOPE_BINARY, {"convert", in, dir.filePath("out.pbtxt"), "--force"});
  if (!p.waitForStarted()) return -1;
  QElapsedTimer timer;
  timer.start();
  auto waitUntil = [&](auto reached) {
    while (!reached() && !exited(p.processId()) && timer.elapsed() < 300000) QThread::usleep(200);
  };
  if (when == Kill::kAfterWriteStarts) waitUntil([&] { return writing(dir); });
  if (when == Kill::kBeforeRename) waitUntil([&] { return processState(p.processId()) == 'T'; });
  if (p.waitForFinished(delayMs)) return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 ? 0 : -1;
  p.kill();
  p.waitForFinished();
  return 1;
}

int nodeCount(const QString& path) {
  CliRun r = runFlowscope({"info", path});
  if (r.code != 0) return -1;
  QRegularExpressionMatch m = QRegularExpression("Nodes:\\s+(\\d+)").match(r.out);
  return m.hasMatch() ? m.captured(1).toInt() : -1;
}

}  // namespace

class TestAtomicWrites : public QObject {
  Q_OBJECT

 private slots:
  // A graph whose text conversion takes a few seconds, and how long one uninterrupted conversion takes.
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_input = m_dir.filePath("big.pb");
    CliRun synth = runFlowscope({"synth", "--nodes", "100000", "--out", m_input});
    QVERIFY2(synth.code == 0, qPrintable(synth.err));
    m_inputDigest = digest(m_input);
    m_nodes = nodeCount(m_input);
    QVERIFY(m_nodes > 0);
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(runFlowscope({"convert", m_input, m_dir.filePath("whole.pbtxt")}).code, 0);
    m_convertMs = static_cast<int>(timer.elapsed());
  }

  // Kills while loading and converting (a fraction of the whole time), and while writing (after the temporary file
  // appears).
  void killedConvertLeavesNothingOrAll_data() {
    QTest::addColumn<int>("delayMs");
    QTest::addColumn<Kill>("when");
    QTest::addColumn<bool>("existing");
    for (bool existing : {false, true}) {
      const char* what = existing ? "replacing" : "new";
      for (int percent : {10, 50})
        QTest::addRow("%s, at %d%%", what, percent) << -percent << Kill::kAfterStart << existing;
      for (int ms : {0, 3, 15, 60})
        QTest::addRow("%s, writing + %d ms", what, ms) << ms << Kill::kAfterWriteStarts << existing;
      QTest::addRow("%s, before the rename", what) << 0 << Kill::kBeforeRename << existing;
    }
  }
  void killedConvertLeavesNothingOrAll() {
    QFETCH(int, delayMs);
    QFETCH(Kill, when);
    QFETCH(bool, existing);
    QDir dir(m_dir.filePath(QString("run-%1-%2-%3").arg(delayMs).arg(static_cast<int>(when)).arg(existing)));
    QVERIFY(dir.mkpath("."));
    const QString out = dir.filePath("out.pbtxt");
    const QByteArray old = "node { name: \"old\" op: \"NoOp\" }\n";
    if (existing) {
      QFile f(out);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(old);
    }
    const int delay = delayMs < 0 ? m_convertMs * -delayMs / 100 : delayMs;
    const int killed = convertKilled(m_input, dir, when, delay);
    QVERIFY2(killed >= 0, "convert did not start, or failed on its own");
    if (when == Kill::kBeforeRename) QCOMPARE(killed, 1);
    m_killedWhileWriting += killed == 1 && writing(dir);
    QCOMPARE(digest(m_input), m_inputDigest);  // the input is never written
    if (!QFile::exists(out)) {
      QVERIFY2(!existing, "the old destination disappeared");
      return;
    }
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    if (existing && f.readAll() == old) return;  // killed before the rename: as it was
    QCOMPARE(nodeCount(out), m_nodes);           // else complete: it loads, with every node
  }

  // The kills must catch the writer mid-way (its temporary file left behind), or the test proves nothing: the two
  // kills before the rename do by construction; the timed ones may, as the machine's speed has it.
  void someRunsWereKilledWhileWriting() {
    qInfo("whole conversion %d ms; %d runs killed while writing", m_convertMs, m_killedWhileWriting);
    QVERIFY(m_killedWhileWriting >= 2);
  }

  // What a killed writer left behind (its temporary file) is removed by the next write to the same destination.
  void nextWriteRemovesWhatAKilledWriterLeft() {
    QDir dir(m_dir.filePath("leftover"));
    QVERIFY(dir.mkpath("."));
    QCOMPARE(convertKilled(m_input, dir, Kill::kBeforeRename), 1);
    QVERIFY(writing(dir));
    QCOMPARE(runFlowscope({"convert", m_input, dir.filePath("out.pbtxt"), "--force"}).code, 0);
    QVERIFY2(!writing(dir), qPrintable(dir.entryList(QDir::Hidden | QDir::Files).join(", ")));
    QCOMPARE(nodeCount(dir.filePath("out.pbtxt")), m_nodes);
  }

 private:
  QTemporaryDir m_dir;
  QString m_input;
  QByteArray m_inputDigest;
  int m_nodes = 0;
  int m_convertMs = 0;
  int m_killedWhileWriting = 0;
};

QTEST_APPLESS_MAIN(TestAtomicWrites)
#include "tst_atomic_writes.moc"
