// The pass stepper: the pipeline runs in the background, every pass is listed, and stepping to a pass shows before
// and after with the diff colours on the right nodes.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

#include "canvas/graph_canvas.h"
#include "models/pass_list_model.h"
#include "panels/pass_stepper.h"
#include "passes/graph_diff.h"
#include "session/session.h"

using namespace flowscope;

namespace {

bool openFusionGraph(Session& session) {
  QSignalSpy opened(&session, &Session::opened);
  session.open(QString(FLOWSCOPE_TEST_DATA) + "/passes/fusion.pbtxt");
  return opened.wait(10000);
}

bool optimize(Session& session) {
  QSignalSpy done(&session, &Session::optimized);
  session.optimize();
  return done.wait(20000);
}

}  // namespace

class TestPassStepper : public QObject {
  Q_OBJECT

 private slots:
  void showsTheFirstChangeWithItsColumnsInSight() {
    Session session;
    QVERIFY(openFusionGraph(session));
    PassStepper stepper(&session);
    stepper.resize(1400, 800);
    stepper.show();
    QVERIFY(optimize(session));
    const auto& records = session.pipeline()->records;
    const auto first = std::find_if(records.begin(), records.end(), [](const PassRecord& r) { return r.changed; });
    QVERIFY(first != records.end() && first != records.begin());  // a pass that changed nothing comes first
    QCOMPARE(session.currentPass(), static_cast<int>(first - records.begin()));
    QVERIFY(stepper.summary().startsWith(QString::fromStdString(first->pass)));
    auto* table = stepper.findChild<QTableView*>();
    int columns = 0;
    for (int column = 0; column < PassListModel::kWhat; ++column) columns += table->columnWidth(column);
    QVERIFY2(table->viewport()->width() >= columns,
             qPrintable(QString("%1 < %2").arg(table->viewport()->width()).arg(columns)));
  }

  void stepsThroughPassesWithDiffColours() {
    Session session;
    QVERIFY(openFusionGraph(session));
    PassStepper stepper(&session);
    stepper.resize(1400, 800);
    QAbstractItemModelTester tester(stepper.passes(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(optimize(session));
    const PipelineResult* result = session.pipeline();
    QVERIFY(result && !result->records.empty());
    QCOMPARE(stepper.findChild<QTableView*>()->model()->rowCount(), static_cast<int>(result->records.size()));
    // The remapper replaces the Relu by a _FusedConv2D of the same name (changed) and drops the Conv2D (removed).
    int remap = -1;
    for (size_t i = 0; i < result->records.size(); ++i)
      if (result->records[i].pass == "remapper" && result->records[i].changed && remap < 0) remap = static_cast<int>(i);
    QVERIFY(remap >= 0);
    QSignalSpy beforeReady(stepper.before(), &GraphCanvas::sceneReady);
    QSignalSpy afterReady(stepper.after(), &GraphCanvas::sceneReady);
    session.setCurrentPass(remap);
    QVERIFY(beforeReady.count() > 0 || beforeReady.wait(10000));
    QVERIFY(afterReady.count() > 0 || afterReady.wait(10000));
    QCOMPARE(session.currentPass(), remap);
    QCOMPARE(stepper.findChild<QTableView*>()->currentIndex().row(), remap);
    QVERIFY(stepper.summary().startsWith("remapper"));
    // Read the overlay through a render: the fused node's box is amber, the removed conv's box red.
    const Graph& after = stepper.after()->layout()->graph();
    const Graph& before = stepper.before()->layout()->graph();
    QVERIFY(after.findNode("conv_relu") && after.findNode("conv_relu")->op == "_FusedConv2D");
    QVERIFY(before.findNode("conv") && !after.findNode("conv"));
    const GraphDiff diff = diffGraphs(before, after);  // the conv is gone into the fused node, and the summary says so
    QCOMPARE(diff.fusedInto.at("conv"), std::string("conv_relu"));
    QVERIFY2(stepper.summary().contains(QString("(%1 fused into other nodes)").arg(diff.fusedInto.size())),
             qPrintable(stepper.summary()));
    auto pixelAt = [](GraphCanvas* canvas, const std::string& name) {
      auto scene = canvas->scene();
      const Rect& r =
          scene
              ->items[static_cast<size_t>(scene->itemOfNode[static_cast<size_t>(canvas->layout()->graph().find(name))])]
              .rect;
      QImage image = canvas->grab().toImage();  // first: showing may resize, and the view follows the size
      const double zoom = canvas->zoom();
      const QPointF tl = canvas->topLeft();
      // Sample just inside the box's left edge, away from the label.
      return QColor(image.pixel(static_cast<int>((r.x + 3 - tl.x()) * zoom) + 2,
                                static_cast<int>((r.y + r.h / 2 - tl.y()) * zoom)));
    };
    QCOMPARE(pixelAt(stepper.after(), "conv_relu"), PassStepper::changedColor());
    QCOMPARE(pixelAt(stepper.before(), "conv"), PassStepper::removedColor());
    if (qEnvironmentVariableIsSet("FLOWSCOPE_SAVE_SCREENSHOTS"))
      stepper.grab().save(qEnvironmentVariable("FLOWSCOPE_SAVE_SCREENSHOTS") + "/pass-stepper.png");
    // Both views follow each other.
    stepper.after()->setView(0.8, QPointF(10, 20));
    stepper.after()->fitToView();
    QCOMPARE(stepper.before()->zoom(), stepper.after()->zoom());
    QCOMPARE(stepper.before()->topLeft(), stepper.after()->topLeft());
  }

  void cancelStops() {
    Session session;
    QVERIFY(openFusionGraph(session));
    PassStepper stepper(&session);
    QSignalSpy failed(&session, &Session::optimizeFailed);
    QSignalSpy done(&session, &Session::optimized);
    session.optimize();
    session.cancelOptimize();
    // A tiny graph may finish before the cancel lands.
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() + done.count() == 1, 20000);
    if (failed.count()) QVERIFY(stepper.summary().contains("cancelled"));
  }
};

QTEST_MAIN(TestPassStepper)
#include "tst_pass_stepper.moc"
