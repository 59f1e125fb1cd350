// The app imports another tool's profile onto the open graph (on the worker; the overlay shows its times) and
// compares the open graph with another file (File > Compare with...): counts, coloured canvases, the list of
// differences selecting on both canvases.
#include <QListWidget>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "canvas/graph_canvas.h"
#include "engine/profile_test_files.h"
#include "main_window.h"
#include "panels/graph_compare_panel.h"

using namespace flowscope;

namespace {

bool openAndLayOut(MainWindow& window, const QString& path) {
  window.resize(1200, 800);
  window.show();
  QSignalSpy loaded(&window, &MainWindow::modelLoaded);
  QSignalSpy ready(window.canvas(), &GraphCanvas::sceneReady);
  window.openFile(path);
  return loaded.wait(20000) && (ready.count() > 0 || ready.wait(20000));
}

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
    QVERIFY(window.exportCanvas(shot).isOk());
    QVERIFY(QImage(shot).width() > 64);
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
    QVERIFY(panel->summary().contains("13 removed"));
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
