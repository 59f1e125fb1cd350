// What `flowscope run` feeds and fetches when a new user names things as TensorFlow Serving and TF.js do: random
// string inputs that a tf.Example parser accepts, signature keys and method names, and a cyclic graph named as such.
#include <QtTest>

#include "engine/cli_process.h"

using namespace flowscope::testing;

class TestCliRunInputs : public QObject {
  Q_OBJECT

 private slots:
  // Every node of tests/data/cycle.pbtxt is on its cycle, so there are no sinks: run names the cycle.
  void cycleIsNamed() {
    CliRun r = runFlowscope({"run", testData("cycle.pbtxt")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("cycle") && r.err.contains("'p' -> 'q' -> 'p'"), qPrintable(r.err));
    QVERIFY2(!r.err.contains("nothing to fetch"), qPrintable(r.err));
    CliRun fetched = runFlowscope({"run", testData("cycle.pbtxt"), "--fetch", "q"});
    QCOMPARE(fetched.code, 1);
    QVERIFY2(fetched.err.contains("'p' -> 'q' -> 'p'"), qPrintable(fetched.err));
  }
};

QTEST_APPLESS_MAIN(TestCliRunInputs)
#include "tst_cli_run_inputs.moc"
