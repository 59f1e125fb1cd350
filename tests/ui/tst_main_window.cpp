// The main window under the offscreen platform: loading in the background, the node list, failures shown.
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

#include <QCheckBox>
#include <QLineEdit>

#include "canvas/graph_canvas.h"
#include "main_window.h"
#include "panels/inspector_panel.h"
#include "panels/profile_panel.h"
#include "panels/timeline_view.h"
#include "models/op_stats_model.h"
#include "models/node_table_model.h"

using namespace flowscope;

class TestMainWindow : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowscopeTests");
    QCoreApplication::setApplicationName("tst_main_window");
  }

  void loadsAndListsNodes() {
    MainWindow window;
    window.show();
    QSignalSpy loaded(&window, &MainWindow::modelLoaded);
    window.openFile(QString(FLOWSCOPE_TEST_DATA) + "/small_mlp.pbtxt");
    QVERIFY(loaded.wait(10000));
    QVERIFY(window.model());
    auto* table = window.findChild<QTableView*>("nodeTable");
    QVERIFY(table);
    QCOMPARE(table->model()->rowCount(), 7);
    QVERIFY(window.windowTitle().contains("small_mlp.pbtxt"));
  }

  void searchSelectInspect() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::modelLoaded);
    QSignalSpy ready(window.canvas(), &GraphCanvas::sceneReady);
    window.openFile(QString(FLOWSCOPE_TEST_DATA) + "/small_mlp.pbtxt");
    QVERIFY(loaded.wait(10000));
    QVERIFY(ready.count() > 0 || ready.wait(10000));
    auto* table = window.findChild<QTableView*>("nodeTable");
    auto* search = window.findChild<QLineEdit*>("nodeSearch");
    auto* regex = window.findChild<QCheckBox*>();
    QVERIFY(table && search && regex);
    search->setText("MatMul");  // by op
    QCOMPARE(table->model()->rowCount(), 1);
    regex->setChecked(true);
    search->setText("^(x|Relu)$");  // a regular expression over names and ops
    QCOMPARE(table->model()->rowCount(), 2);
    search->setText("MatMul");
    table->setCurrentIndex(table->model()->index(0, 0));
    // The canvas selects the node, the inspector shows its op, doc line, inputs with dtype and shape.
    QVERIFY(window.canvas()->selectedItem() >= 0);
    const QString text = window.inspector()->toPlainText();
    QVERIFY2(text.contains("MatMul") && text.contains("float32"), qPrintable(text));
    QVERIFY2(text.contains("Inputs") && text.contains("transpose_a"), qPrintable(text));
  }

  void profileOverlayTimelineExports() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::modelLoaded);
    QSignalSpy ready(window.canvas(), &GraphCanvas::sceneReady);
    window.openFile(QString(FLOWSCOPE_TEST_DATA) + "/small_mlp.pbtxt");
    QVERIFY(loaded.wait(10000));
    QVERIFY(ready.count() > 0 || ready.wait(10000));
    ProfilePanel* panel = window.profilePanel();
    QSignalSpy profiled(panel, &ProfilePanel::profiled);
    panel->profile(3);
    QVERIFY(profiled.wait(20000));
    QAbstractItemModelTester tester(panel->opStats(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(panel->opStats()->rowCount() >= 4);
    const auto matmul = static_cast<size_t>(window.model()->graph.find("dense/MatMul"));
    QVERIFY(panel->nodeSeconds()[matmul] > 0);
    // The heat overlay: the slowest item is drawn in the hottest colour.
    QVERIFY(GraphCanvas::heatColor(1.0) != GraphCanvas::heatColor(0.0));
    // Timeline: one event per node per run, and clicking one selects its node on the canvas.
    TimelineView* timeline = panel->timeline();
    QCOMPARE(timeline->events().size(), size_t(3 * 6));
    timeline->resize(800, 120);
    int index = 0;
    for (size_t i = 0; i < timeline->events().size(); ++i)
      if (timeline->events()[i].name == "dense/MatMul") index = static_cast<int>(i);
    QSignalSpy clicked(panel, &ProfilePanel::nodeClicked);
    // Events of microseconds are a pixel wide and may overlap: expect the node of whichever event is at the point.
    const QPoint at = timeline->eventRect(index).center().toPoint();
    const int hit = timeline->eventAt(at);
    QVERIFY(hit >= 0);
    const auto expected = static_cast<size_t>(window.model()->graph.find(timeline->events()[static_cast<size_t>(hit)].name));
    QTest::mouseClick(timeline, Qt::LeftButton, Qt::NoModifier, at);
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.first().first().value<size_t>(), expected);
    QCOMPARE(window.canvas()->selectedItem(), static_cast<int>(window.canvas()->scene()->itemOfNode[expected]));
    // Chrome trace out and back in.
    QTemporaryDir dir;
    QVERIFY(panel->exportChromeTrace(dir.filePath("trace.json")).isOk());
    QVERIFY(panel->importChromeTrace(dir.filePath("trace.json")).isOk());
    QCOMPARE(panel->timeline()->events().size(), size_t(18));
    // Exports and theme.
    QVERIFY(window.exportCanvas(dir.filePath("graph.png")).isOk());
    QVERIFY(window.exportCanvas(dir.filePath("graph.svg")).isOk());
    QVERIFY(QImage(dir.filePath("graph.png")).width() > 64);
    QFile svg(dir.filePath("graph.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly) && svg.readAll().contains("<svg"));
    window.setTheme("dark");
    QCOMPARE(window.canvas()->theme().name, QString("dark"));
    window.setTheme("light");
  }

  void failureIsShownNotFatal() {
    MainWindow window;
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openFile(QString(FLOWSCOPE_TEST_DATA) + "/huge_splat.pbtxt");
    QVERIFY(failed.wait(10000));
    QVERIFY(failed.first().first().toString().contains("huge_splat.pbtxt"));
    bool shown = false;
    for (auto* label : window.findChildren<QLabel*>()) shown |= label->text().contains("Could not open");
    QVERIFY(shown);
    QVERIFY(!window.model());
  }

  void nodeModelPassesTester() {
    NodeTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto m = std::make_shared<Model>();
    Node n;
    n.name = "a";
    n.op = "Relu";
    m->graph.addNode(n);
    model.setModel(m);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.data(model.index(0, NodeTableModel::kCategory), Qt::DisplayRole).toString(), QString("activation"));
    model.setModel(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
