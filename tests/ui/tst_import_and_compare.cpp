// The app imports another tool's profile onto the open graph (on the worker; the overlay shows its times) and
// compares the open graph with another file (File > Compare with...): counts, coloured canvases, the list of
// differences selecting on both canvases.
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "canvas/graph_canvas.h"
#include "engine/profile_test_files.h"
#include "main_window.h"
#include "panels/graph_compare_panel.h"
#include "panels/side_by_side_panel.h"
#include "ui/main_window_driver.h"

using namespace flowscope;

using flowscope::testing::exportAndWait;
using flowscope::testing::openAndLayOut;

namespace {

const char* kGraph = R"(node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "r" op: "Relu" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "s" op: "Square" input: "r" attr { key: "T" value { type: DT_FLOAT } } }
)";

}  // namespace

class TestImportAndCompare : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowscopeTests");
    QCoreApplication::setApplicationName("tst_import_and_compare");
  }

  void emptyTabsOfferTheirAction() {
    // Before a comparison or an import, each tab says what it is for and has the button that starts it.
    Session session;
    GraphComparePanel compare(&session);
    SideBySidePanel sideBySide(&session);
    QSignalSpy compareAsked(&compare, &GraphComparePanel::compareRequested);
    QSignalSpy importAsked(&sideBySide, &SideBySidePanel::importRequested);
    auto button = [](QWidget& panel, const QString& text) {
      for (auto* b : panel.findChildren<QPushButton*>())
        if (b->text() == text) return b;
      return static_cast<QPushButton*>(nullptr);
    };
    QPushButton* compareButton = button(compare, "Compare with...");
    QPushButton* importButton = button(sideBySide, "Import profile...");
    QVERIFY(compareButton && importButton);
    QTest::mouseClick(compareButton, Qt::LeftButton);
    QTest::mouseClick(importButton, Qt::LeftButton);
    QCOMPARE(compareAsked.count(), 1);
    QCOMPARE(importAsked.count(), 1);
    QVERIFY(compare.summary().startsWith("Compare the opened graph with another"));
    QVERIFY(sideBySide.summary().contains("ONNX Runtime"));
  }

  void importsATensorBoardProfile() {
    const std::string graph = testing::writeBytes(m_dir.filePath("g.pbtxt").toStdString(), kGraph);
    const std::string events =
        testing::writeBytes(m_dir.filePath("events.out.tfevents.1.app").toStdString(), testing::tfEventsFile(3));
    QVERIFY(Session::looksLikeProfile(QString::fromStdString(events)));
    QVERIFY(!Session::looksLikeProfile(QString::fromStdString(graph)));
    MainWindow window;
    QVERIFY(openAndLayOut(window, QString::fromStdString(graph)));
    QSignalSpy profiled(&window.session(), &Session::profiled);
    QVERIFY(window.session().importProfile(QString::fromStdString(events)).isOk());
    QVERIFY(profiled.wait(20000));
    const ProfileView* view = window.session().profileView();
    QVERIFY(view && view->imported);
    QCOMPARE(view->times.matchedEvents, size_t{9});
    QCOMPARE(view->times.runs, 3);
    QVERIFY(view->notes.front().find("matched 9 of 12 events to 3 nodes") != std::string::npos);
    const QString shot = qEnvironmentVariable("FLOWSCOPE_IMPORT_SCREENSHOT", m_dir.filePath("imported.png"));
    QVERIFY(exportAndWait(window, shot));
    QVERIFY(QImage(shot).width() > 64);
  }

  void ortProfileOnMobilenet() {
    MainWindow window;
    QVERIFY(openAndLayOut(window, QString::fromStdString(testing::sharedProfile("mobilenet_v2.onnx"))));
    QSignalSpy profiled(&window.session(), &Session::profiled);
    QVERIFY(window.session()
                .importProfile(QString::fromStdString(testing::sharedProfile("ort_mobilenet_v2_profile.json")))
                .isOk());
    QVERIFY(profiled.wait(20000));
    const ProfileView* view = window.session().profileView();
    QVERIFY(view->notes.front().find("matched 275 of 280 events to 100 nodes") != std::string::npos);
    window.canvas()->setGroupExpanded("features", true);  // the blocks, each coloured by ORT's time in it
    QSignalSpy ready(window.canvas(), &GraphCanvas::sceneReady);
    QVERIFY(ready.count() > 0 || ready.wait(20000));
    const QString shot = qEnvironmentVariable("FLOWSCOPE_ORT_SCREENSHOT", m_dir.filePath("ort.png"));
    QVERIFY(exportAndWait(window, shot));
  }

  void theirsBesideOurs() {
    const std::string graph = testing::writeBytes(m_dir.filePath("g2.pbtxt").toStdString(), kGraph);
    const std::string events =
        testing::writeBytes(m_dir.filePath("events.out.tfevents.2.app").toStdString(), testing::tfEventsFile(2));
    MainWindow window;
    QVERIFY(openAndLayOut(window, QString::fromStdString(graph)));
    QSignalSpy profiled(&window.session(), &Session::profiled);
    ProfileRequest ours;
    ours.runs = 3;
    ours.optimize = false;
    ours.threads = 1;
    window.session().profile(ours);
    QVERIFY(profiled.wait(30000));
    QVERIFY(window.session().importProfile(QString::fromStdString(events)).isOk());
    QVERIFY(profiled.wait(20000));
    QTableWidget* table = window.sideBySidePanel()->table();
    QCOMPARE(table->rowCount(), 3);  // x, r and s: theirs 10 us each, ours beside them
    int oursTimed = 0;               // r and s; the fed Placeholder runs no kernel here
    for (int row = 0; row < 3; ++row) oursTimed += table->item(row, 3)->data(Qt::DisplayRole).toDouble() > 0;
    QCOMPARE(oursTimed, 2);
    QVERIFY(window.sideBySidePanel()->summary().contains("as loaded"));
    window.session().setOverlayMode(OverlayMode::kRatio);  // the canvas: ours over theirs on the timed nodes
    int ratioBadges = 0;
    for (const QString& badge : window.canvas()->overlay().itemBadge) ratioBadges += badge.startsWith("ours ");
    QCOMPARE(ratioBadges, 2);
    window.tabs()->setCurrentIndex(0);  // the Graph tab, as a user looking at the colours sees it
    QVERIFY(window.grab().save(qEnvironmentVariable("FLOWSCOPE_RATIO_SCREENSHOT", m_dir.filePath("ratio.png"))));
    window.session().setOverlayMode(OverlayMode::kTime);
    table->setCurrentCell(1, 0);
    QCOMPARE(window.session().selection().kind, Selection::Kind::kNode);
    window.tabs()->setCurrentWidget(window.sideBySidePanel());
    const QString shot = qEnvironmentVariable("FLOWSCOPE_SIDE_SCREENSHOT", m_dir.filePath("side.png"));
    QVERIFY(window.grab().save(shot));
  }

  void comparesWithTheOptimizedForm() {
    const QString model = QString(FLOWSCOPE_SHARED_GRAPHS) + "/tensorflow-onnx/tests/models/fc-layers/frozen.pb";
    QProcess optimize;
    optimize.start(FLOWSCOPE_BINARY, {"optimize", model, "--out", m_dir.filePath("opt.pb")});
    QVERIFY(optimize.waitForFinished(60000) && optimize.exitCode() == 0);
    MainWindow window;
    QVERIFY(openAndLayOut(window, model));
    GraphComparePanel* panel = window.graphComparePanel();
    QSignalSpy done(panel, &GraphComparePanel::finished);
    QSignalSpy laidOut(panel->after(), &GraphCanvas::sceneReady);
    window.compareWith(m_dir.filePath("opt.pb"));
    QVERIFY(done.wait(20000));
    QVERIFY(laidOut.count() > 0 || laidOut.wait(20000));
    QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(panel));
    QVERIFY(panel->comparison());
    QCOMPARE(panel->comparison()->removed.size(), size_t{13});
    QCOMPARE(panel->differences()->count(), 16);  // 13 removed, 3 changed
    QVERIFY2(panel->summary().contains("13 removed (5 fused)"), qPrintable(panel->summary()));
    int fused = 0;  // MatMul + BiasAdd of three layers (the last has no activation): listed with their fused node
    for (int row = 0; row < 13; ++row) fused += panel->differences()->item(row)->text().contains("(fused into model/");
    QCOMPARE(fused, 5);
    panel->differences()->setCurrentRow(2);  // model/dense/MatMul: selected before, its fused node after
    QTRY_VERIFY_WITH_TIMEOUT(panel->before()->selectedItem() >= 0, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(panel->after()->selectedItem() >= 0, 20000);
    panel->differences()->setCurrentRow(13);  // the first changed node: selected on both sides
    QTRY_VERIFY_WITH_TIMEOUT(panel->before()->selectedItem() >= 0, 20000);  // once the left scene is laid out
    QVERIFY(panel->before()->selectedItem() >= 0);
    QVERIFY(panel->after()->selectedItem() >= 0);
    const QString shot = qEnvironmentVariable("FLOWSCOPE_COMPARE_SCREENSHOT", m_dir.filePath("compare.png"));
    QVERIFY(panel->grab().save(shot));
  }
};

QTEST_MAIN(TestImportAndCompare)
#include "tst_import_and_compare.moc"
