// The Eager vs Graph tab: a gallery function compared in the background, both timelines and op tables filled,
// the traced graph on its canvas with its signature; cancel and unknown names handled.
#include <QAbstractItemModelTester>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QtTest>
#include <set>

#include "canvas/graph_canvas.h"
#include "models/op_stats_model.h"
#include "panels/compare_panel.h"
#include "panels/timeline_view.h"
#include "session/engine_worker.h"

using namespace flowscope;

class TestComparePanel : public QObject {
  Q_OBJECT

 private slots:
  void comparesAndShowsBothSides() {
    EngineWorker worker;
    ComparePanel panel(&worker);
    panel.resize(1400, 800);
    QSignalSpy done(&panel, &ComparePanel::compared);
    QSignalSpy ready(panel.graphCanvas(), &GraphCanvas::sceneReady);
    // Before a run a timeline names no thread lanes (it said "thread 0" under "No profile yet"); after, it does.
    auto laneLabelColours = [](TimelineView* timeline) {
      const QImage lane = timeline->grab().toImage().copy(4, 18, 52, 22);
      std::set<QRgb> colours;
      for (int y = 0; y < lane.height(); ++y)
        for (int x = 0; x < lane.width(); ++x) colours.insert(lane.pixel(x, y));
      return colours.size();
    };
    QCOMPARE(laneLabelColours(panel.eagerTimeline()), size_t(1));
    panel.compare("power", 40);
    QVERIFY(panel.isRunning() || done.count() == 1);
    QVERIFY(done.count() == 1 || done.wait(60000));
    auto result = panel.result();
    QVERIFY(result);
    QCOMPARE(result->calls, 40);
    QVERIFY(result->eagerSeconds > 0 && result->graphSeconds > 0);
    // Timelines: the first 10 calls of each, on one time scale.
    for (TimelineView* timeline : {panel.eagerTimeline(), panel.graphTimeline()}) {
      QVERIFY(!timeline->events().empty());
      for (const auto& e : timeline->events()) QVERIFY(e.run < 10);
    }
    QCOMPARE(panel.eagerTimeline()->span(), panel.graphTimeline()->span());
    QVERIFY(laneLabelColours(panel.eagerTimeline()) > 1);
    QAbstractItemModelTester eagerTester(panel.eagerOps(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester graphTester(panel.graphOps(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(panel.eagerOps()->rowCount() > 0);
    QVERIFY(panel.graphOps()->rowCount() > 0);
    // power multiplies matrices: eagerly every call runs MatMul ops.
    bool eagerMul = false;
    for (int row = 0; row < panel.eagerOps()->rowCount(); ++row)
      eagerMul |= panel.eagerOps()->index(row, OpStatsModel::kOp).data().toString() == "MatMul";
    QVERIFY2(eagerMul, qPrintable(panel.eagerOps()->index(0, OpStatsModel::kOp).data().toString()));
    QVERIFY(ready.count() > 0 || ready.wait(30000));
    QVERIFY(panel.graphCanvas()->scene()->itemOfNode.size() == result->concrete->graph().size());
    const QString signature = panel.findChild<QPlainTextEdit*>()->toPlainText();
    QVERIFY(signature.contains("__inference_power"));
    QVERIFY(signature.contains("Args:"));
    QVERIFY(panel.summary().contains("power, 40 calls"));
  }

  void cancelStopsALongComparison() {
    EngineWorker worker;
    ComparePanel panel(&worker);
    QSignalSpy done(&panel, &ComparePanel::compared);
    QSignalSpy failed(&panel, &ComparePanel::failed);
    panel.compare("small_convnet", 1000000);
    QVERIFY(panel.isRunning());
    panel.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isRunning(), 30000);
    QCoreApplication::processEvents();
    QCOMPARE(done.count(), 0);
    QCOMPARE(failed.count(), 0);  // cancelling is not a failure
    QVERIFY(!panel.result());
  }

  void unknownFunctionIsAnError() {
    EngineWorker worker;
    ComparePanel panel(&worker);
    QSignalSpy failed(&panel, &ComparePanel::failed);
    panel.compare("no_such_function", 10);
    QCOMPARE(failed.count(), 1);
    QVERIFY(!panel.isRunning());
  }
};

QTEST_MAIN(TestComparePanel)
#include "tst_compare_panel.moc"
