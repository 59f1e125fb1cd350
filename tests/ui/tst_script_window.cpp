// Opened Python scripts in the main window (offscreen): the Functions list fills, a chosen concrete function's graph
// shows on the canvas (its loop body opens as a function), its sources and the eager-vs-graph comparison show; a
// script that raises leaves the app running with the error shown; Cancel kills a script that never ends.
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTreeWidget>
#include <QtTest>
#include <csignal>

#include "canvas/graph_canvas.h"
#include "main_window.h"
#include "panels/compare_panel.h"
#include "panels/script_panel.h"
#include "panels/script_source_view.h"

using namespace flowscope;

namespace {

QString script(const char* name) { return QString(FLOWSCOPE_TEST_DATA) + "/python/" + name; }

bool hasOp(const Graph& graph, const char* op) {
  for (size_t i = 0; i < graph.size(); ++i)
    if (graph.node(i).op == op) return true;
  return false;
}

// Opens the script and waits for its Functions list (the runner starts a Python process: allow a minute).
bool openScript(MainWindow& window, const QString& path) {
  window.resize(1200, 800);
  window.show();
  QSignalSpy listed(window.scriptPanel(), &ScriptPanel::listed);
  window.openFile(path);
  return listed.wait(60000);
}

}  // namespace

class TestScriptWindow : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowscopeTests");
    QCoreApplication::setApplicationName("tst_script_window");
  }

  void listsFunctionsAndShowsTheirGraphs() {
    MainWindow window;
    QSignalSpy loaded(&window, &MainWindow::modelLoaded);
    QVERIFY(openScript(window, script("two_functions.py")));
    const ScriptManifest* manifest = window.scriptPanel()->manifest();
    QVERIFY(manifest && !manifest->raised);
    QCOMPARE(manifest->functions.size(), size_t(2));
    QCOMPARE(window.scriptPanel()->tree()->topLevelItemCount(), 2);
    QVERIFY(window.scriptOutput()->toPlainText().contains("tf.Tensor(285, shape=(), dtype=int32)"));
    // The first concrete function opens by itself: scaled_relu's branch.
    QVERIFY(loaded.count() > 0 || loaded.wait(20000));
    QVERIFY(hasOp(window.model()->graph, "StatelessIf"));
    // Choosing running_sum shows its loop, whose body opens as a function subgraph.
    loaded.clear();
    QSignalSpy ready(window.canvas(), &GraphCanvas::sceneReady);
    window.scriptPanel()->choose(1, 0);
    QVERIFY(loaded.wait(20000));
    QVERIFY(ready.wait(20000));
    QVERIFY(hasOp(window.model()->graph, "StatelessWhile"));
    QVERIFY(!window.canvas()->scene()->items.empty());
    std::string body;
    for (const auto& f : window.model()->graph.library.functions())
      if (f.signature.name.rfind("while_body", 0) == 0) body = f.signature.name;
    QVERIFY(!body.empty());
    QVERIFY(window.openFunction(body));
    QCOMPARE(window.navigation().depth(), 1);
    // Its sources, side by side, and its signature.
    QVERIFY(window.sourceView()->original()->toPlainText().contains("def running_sum(n):"));
    QVERIFY(window.sourceView()->autograph()->toPlainText().contains("running_sum"));
    QVERIFY(window.sourceView()->signature()->toPlainText().contains("__inference_running_sum"));
    QVERIFY(window.sourceView()->signature()->toPlainText().contains("n: int32 Tensor, shape=()"));
    // Eager vs graph on the call the script made, in another process.
    QSignalSpy compared(window.comparePanel(), &ComparePanel::compared);
    window.comparePanel()->compareScript(5);
    QVERIFY(window.comparePanel()->isRunning());
    QVERIFY(compared.wait(60000));
    const ScriptComparison* result = window.comparePanel()->scriptResult();
    QVERIFY(result);
    QCOMPARE(result->function, QString("running_sum"));
    QCOMPARE(result->recordedCalls, 1);
    QVERIFY(result->outputsEqual);
    QVERIFY(result->eagerMedianUs > 0 && result->graphMedianUs > 0);
  }

  void survivesAScriptThatRaises() {
    MainWindow window;
    QSignalSpy loaded(&window, &MainWindow::modelLoaded);
    QVERIFY(openScript(window, script("raises.py")));
    const ScriptManifest* manifest = window.scriptPanel()->manifest();
    QVERIFY(manifest && manifest->raised);
    QVERIFY(manifest->error.contains("RuntimeError: this script fails on purpose"));
    QVERIFY(window.scriptPanel()->statusText().contains("raised"));
    QVERIFY(window.scriptOutput()->toPlainText().contains("this script fails on purpose"));
    // What it traced before raising is still listed and shown.
    QCOMPARE(manifest->functions.size(), size_t(1));
    QVERIFY(loaded.count() > 0 || loaded.wait(20000));
    QVERIFY(window.isVisible());
  }

  void cancelKillsAScriptThatNeverEnds() {
    MainWindow window;
    window.show();
    ScriptPanel* panel = window.scriptPanel();
    QSignalSpy failed(panel, &ScriptPanel::failed);
    window.openFile(script("forever.py"));
    QTRY_VERIFY_WITH_TIMEOUT(window.scriptOutput()->toPlainText().contains("started"), 60000);
    const qint64 pid = panel->processId();
    QVERIFY(pid > 0);
    QVERIFY(panel->isRunning());
    panel->cancel();
    QVERIFY(failed.count() > 0 || failed.wait(10000));
    QVERIFY(!panel->isRunning());
    QVERIFY(panel->statusText().contains("cancelled"));
    QCOMPARE(::kill(static_cast<pid_t>(pid), 0), -1);  // reaped: no such process
    QVERIFY(window.isVisible());
  }
};

QTEST_MAIN(TestScriptWindow)
#include "tst_script_window.moc"
