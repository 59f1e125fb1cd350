// The main window under the offscreen platform: loading in the background, the node list, failures shown.
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QtTest>

#include <QCheckBox>
#include <QLineEdit>

#include <QMenu>
#include <QTemporaryDir>
#include <QToolButton>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "canvas/graph_canvas.h"
#include "io/graph_writer.h"
#include "io/npy.h"
#include "ir/synthetic_graph.h"
#include "main_window.h"
#include "models/node_table_model.h"
#include "models/op_stats_model.h"
#include "models/outline_model.h"
#include "panels/breadcrumb_bar.h"
#include "panels/graph_view.h"
#include "panels/inputs_dialog.h"
#include "panels/inspector_panel.h"
#include "panels/outline_panel.h"
#include "panels/profile_panel.h"
#include "panels/task_indicator.h"
#include "panels/timeline_view.h"
#include "ui/main_window_driver.h"
#include "workflow/run_request.h"

#include <nlohmann/json.hpp>

using namespace flowscope;

using flowscope::testing::exportAndWait;
using flowscope::testing::openAndLayOut;

namespace {

// Threads of this process whose name is the process's: OpenMP's threads and the engine worker's (a thread takes the
// name of the one that made it), not Qt's named ones or the engine's background thread ("fs-background").
int threadsNamedLikeTheProcess() {
  const auto name = [](const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed() : QByteArray();
  };
  const QByteArray self = name("/proc/self/comm");
  int count = 0;
  for (const QString& task : QDir("/proc/self/task").entryList(QDir::Dirs | QDir::NoDotAndDotDot))
    count += name("/proc/self/task/" + task + "/comm") == self;
  return count;
}

}  // namespace

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
    // The header counts what the file has, in agreement with its numbers: no "0 functions", no "1 signatures".
    auto* header = window.findChild<QLabel*>("modelHeader");
    QVERIFY(header);
    QVERIFY2(header->text().endsWith("GraphDef (text), 7 nodes, 6 op types"), qPrintable(header->text()));
  }

  void searchSelectInspect() {
    MainWindow window;
    QVERIFY(openAndLayOut(window, QString(FLOWSCOPE_TEST_DATA) + "/small_mlp.pbtxt"));
    QSignalSpy ready(window.canvas(), &GraphCanvas::sceneReady);
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
    QTRY_VERIFY(window.inspector()->toPlainText().contains("float32"));  // shapes are inferred in the background
    const QString text = window.inspector()->toPlainText();
    QVERIFY2(text.contains("MatMul") && text.contains("float32"), qPrintable(text));
    QVERIFY2(text.contains("Inputs") && text.contains("transpose_a"), qPrintable(text));
  }

  // Optimized, MatMul + BiasAdd + Relu run as one _FusedMatMul under the Relu's name: its time shows on the MatMul,
  // the other two are marked fused into it (the inspector says so), and clicking the kernel in the timeline selects
  // the MatMul.
  void fusedKernelsShowOnTheUsersNodes() {
    MainWindow window;
    QVERIFY(openAndLayOut(window, QString(FLOWSCOPE_TEST_DATA) + "/small_mlp.pbtxt"));
    ProfilePanel* panel = window.profilePanel();
    QSignalSpy profiled(&window.session(), &Session::profiled);
    panel->setOptimize(true);
    panel->profile(2);
    QVERIFY(profiled.wait(20000));
    const Graph& graph = window.model()->graph;
    const auto at = [&](const char* name) { return static_cast<size_t>(graph.find(name)); };
    const NodeTimes& times = window.session().profileView()->times;
    QVERIFY(times.seconds[at("dense/MatMul")] > 0);
    for (const char* part : {"dense/BiasAdd", "dense/Relu"}) {
      QCOMPARE(times.seconds[at(part)], 0.0);
      QCOMPARE(times.fusedInto[at(part)], int64_t(at("dense/MatMul")));
    }
    // The inspector says which kernel computed a node, and what the kernel computed.
    window.session().selectInOpenedGraph(at("dense/BiasAdd"));
    QTRY_VERIFY2(window.inspector()->toPlainText().contains("Ran inside the fused kernel of dense/MatMul"),
                 qPrintable(window.inspector()->toPlainText()));
    window.session().selectInOpenedGraph(at("dense/MatMul"));
    QTRY_VERIFY2(window.inspector()->toPlainText().contains("one fused kernel with dense/BiasAdd, dense/Relu"),
                 qPrintable(window.inspector()->toPlainText()));
    const QString inspected = window.inspector()->toPlainText();  // the time first, above the inputs
    QVERIFY2(inspected.indexOf("us per run") < inspected.indexOf("Inputs"), qPrintable(inspected));
    TimelineView* timeline = panel->timeline();
    timeline->resize(800, 120);
    int fused = -1;
    for (size_t i = 0; i < timeline->events().size() && fused < 0; ++i)
      if (timeline->events()[i].op == "_FusedMatMul") fused = static_cast<int>(i);
    QVERIFY(fused >= 0);
    QCOMPARE(timeline->events()[static_cast<size_t>(fused)].name, std::string("dense/Relu"));
    const QPoint point = timeline->eventRect(fused).center().toPoint();
    QVERIFY(timeline->eventAt(point) >= 0);
    if (timeline->events()[static_cast<size_t>(timeline->eventAt(point))].op != "_FusedMatMul")
      QSKIP("another event covers the fused kernel's pixels at this width");
    QTest::mouseClick(timeline, Qt::LeftButton, Qt::NoModifier, point);
    QCOMPARE(window.session().selection(), Selection::ofNode(at("dense/MatMul")));
  }

  void profileOverlayTimelineExports() {
    MainWindow window;
    QVERIFY(openAndLayOut(window, QString(FLOWSCOPE_TEST_DATA) + "/small_mlp.pbtxt"));
    QSignalSpy ready(window.canvas(), &GraphCanvas::sceneReady);
    ProfilePanel* panel = window.profilePanel();
    QSignalSpy profiled(&window.session(), &Session::profiled);
    panel->setOptimize(false);  // the graph as loaded: every node runs under its own name
    panel->profile(3);
    QVERIFY(profiled.wait(20000));
    QAbstractItemModelTester tester(panel->opStats(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(panel->opStats()->rowCount() >= 4);
    const auto matmul = static_cast<size_t>(window.model()->graph.find("dense/MatMul"));
    QVERIFY(window.session().profileView()->times.seconds[matmul] > 0);
    // The heat overlay: the slowest item is drawn in the hottest colour.
    QVERIFY(GraphCanvas::heatColor(1.0) != GraphCanvas::heatColor(0.0));
    // Timeline: one event per node per run, and clicking one selects its node on the canvas.
    TimelineView* timeline = panel->timeline();
    QCOMPARE(timeline->events().size(), size_t(3 * 6));
    timeline->resize(800, 120);
    int index = 0;
    for (size_t i = 0; i < timeline->events().size(); ++i)
      if (timeline->events()[i].name == "dense/MatMul") index = static_cast<int>(i);
    // Events of microseconds are a pixel wide and may overlap: expect the node of whichever event is at the point.
    const QPoint at = timeline->eventRect(index).center().toPoint();
    const int hit = timeline->eventAt(at);
    QVERIFY(hit >= 0);
    const auto expected =
        static_cast<size_t>(window.model()->graph.find(timeline->events()[static_cast<size_t>(hit)].name));
    QTest::mouseClick(timeline, Qt::LeftButton, Qt::NoModifier, at);
    QCOMPARE(window.session().selection(), Selection::ofNode(expected));
    QCOMPARE(window.canvas()->selectedItem(), static_cast<int>(window.canvas()->scene()->itemOfNode[expected]));
    // Chrome trace out and back in.
    QTemporaryDir dir;
    QVERIFY(window.session().exportProfile(dir.filePath("trace.json")).isOk());
    QSignalSpy imported(&window.session(), &Session::profiled);
    QVERIFY(window.session().importProfile(dir.filePath("trace.json")).isOk());  // on the worker
    QVERIFY(imported.wait(20000));
    QCOMPARE(panel->timeline()->events().size(), size_t(18));
    // Exports and theme.
    QVERIFY(exportAndWait(window, dir.filePath("graph.png")));
    QVERIFY(exportAndWait(window, dir.filePath("graph.svg")));
    QVERIFY(QImage(dir.filePath("graph.png")).width() > 64);
    QFile svg(dir.filePath("graph.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly) && svg.readAll().contains("<svg"));
    // The view only: what the canvas shows, at its size and zoom.
    window.canvas()->setView(window.canvas()->zoom() * 3, window.canvas()->topLeft());
    QVERIFY(exportAndWait(window, dir.filePath("view.png"), true));
    QCOMPARE(QImage(dir.filePath("view.png")).size(), window.canvas()->size());
    QVERIFY(exportAndWait(window, dir.filePath("view.svg"), true));
    window.setTheme("dark");
    QCOMPARE(window.canvas()->theme().name, QString("dark"));
    window.setTheme("light");
  }

  // Opening, optimizing and profiling leave no OpenMP threads behind, on the UI thread or on the worker's: once the
  // process holds more OpenMP threads than cores, libgomp stops spinning and every parallel region sleeps and wakes
  // its threads (a profile in the app ran 2.6x slower than the CLI's). OpenMP's threads carry the process's name;
  // opening a large graph and profiling it must not leave any.
  void noOpenMpThreadsOutliveTheirJobs() {
    QTemporaryDir dir;
    SyntheticGraphOptions options;
    options.nodes = 3000;  // enough for the node walks on opening to go parallel if they ran on the UI thread
    const QString path = dir.filePath("synthetic.pb");
    QVERIFY(writeGraph(makeSyntheticGraph(options), path.toStdString()));
    MainWindow window;
    QVERIFY(window.session().worker().waitForIdle(20000));
    const int started = threadsNamedLikeTheProcess();
    QVERIFY(openAndLayOut(window, path));
    QVERIFY(window.session().worker().waitForIdle(20000));
    // A job's OpenMP threads leave just after it (libgomp tells them to when their master thread ends).
    QTRY_VERIFY2_WITH_TIMEOUT(
        threadsNamedLikeTheProcess() <= started,
        qPrintable(QString("%1 threads after opening, %2 before").arg(threadsNamedLikeTheProcess()).arg(started)),
        3000);
    QSignalSpy profiled(&window.session(), &Session::profiled);
    for (int i = 0; i < 3; ++i) {
      window.profilePanel()->profile(2);
      QVERIFY(profiled.wait(60000));
      QVERIFY(window.session().worker().waitForIdle(20000));
    }
    QTRY_VERIFY2_WITH_TIMEOUT(
        threadsNamedLikeTheProcess() <= started,
        qPrintable(QString("%1 threads after profiling, %2 before").arg(threadsNamedLikeTheProcess()).arg(started)),
        3000);
  }

  // An export runs on the worker: it shows in the task strip, Esc cancels it (nothing is written), and a failure
  // names the path and the cause.
  void exportRunsInTheBackground() {
    QTemporaryDir dir;
    SyntheticGraphOptions options;
    options.nodes = 1500;  // expanded, a picture of thousands of pixels: painting it takes a while
    const QString path = dir.filePath("synthetic.pb");
    QVERIFY(writeGraph(makeSyntheticGraph(options), path.toStdString()));
    MainWindow window;
    QVERIFY(openAndLayOut(window, path));
    QSignalSpy ready(window.canvas(), &GraphCanvas::sceneReady);
    window.canvas()->expandAll();
    QVERIFY(ready.wait(60000));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QSignalSpy finished(&window, &MainWindow::exportFinished);
    const QString png = dir.filePath("cancelled.png");
    QVERIFY(window.exportCanvas(png).isOk());
    QVERIFY(window.taskIndicator()->text().contains("cancelled.png"));
    QTest::keyClick(&window, Qt::Key_Escape);  // a job still queued ends within the key press, a running one later
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
    QCOMPARE(finished.first().at(1).toBool(), false);
    QVERIFY2(finished.first().at(2).toString().contains("cancelled"), qPrintable(finished.first().at(2).toString()));
    QVERIFY(!QFile::exists(png));
    QString error;
    QVERIFY(!exportAndWait(window, dir.filePath("no/such/dir/graph.png"), false, 20000, &error));
    QVERIFY2(error.contains("no/such/dir/graph.png") && error.contains("No such file"), qPrintable(error));
    QCOMPARE(window.statusBar()->currentMessage(), error);
  }

  // Esc on an export that no worker thread has started yet: it is dropped from the queue and still ends, once.
  void cancellingAQueuedExportEndsIt() {
    MainWindow window;
    QVERIFY(openAndLayOut(window, QString(FLOWSCOPE_TEST_DATA) + "/small_mlp.pbtxt"));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    auto release = std::make_shared<std::atomic<bool>>(false);
    auto busy = std::make_shared<std::atomic<int>>(0);
    const int threads = window.session().worker().threadCount();
    for (int i = 0; i < threads; ++i)
      window.session().worker().submit<int>(
          QString("hold:%1").arg(i), {}, &window,
          [release, busy](JobControl&) {
            ++*busy;
            while (!release->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return 0;
          },
          [](int) {});
    QTRY_COMPARE(busy->load(), threads);
    QSignalSpy finished(&window, &MainWindow::exportFinished);
    QTemporaryDir dir;
    const QString png = dir.filePath("queued.png");
    QVERIFY(window.exportCanvas(png).isOk());
    QTest::keyClick(&window, Qt::Key_Escape);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.first().at(1).toBool(), false);
    QVERIFY2(finished.first().at(2).toString().contains("cancelled"), qPrintable(finished.first().at(2).toString()));
    release->store(true);
    QVERIFY(window.session().worker().waitForIdle(20000));
    QCoreApplication::processEvents();
    QCOMPARE(finished.size(), 1);
    QVERIFY(!QFile::exists(png));
    QVERIFY(exportAndWait(window, png));  // Esc's shortcut and the export bookkeeping are still right
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

  // If branches open as subgraphs (from the inspector's Calls list or a double-click's menu) with a breadcrumb back.
  void opensFunctionBodiesWithBreadcrumb() {
    MainWindow window;
    QVERIFY(openAndLayOut(window, QString(FLOWSCOPE_TEST_DATA) + "/functions.pbtxt"));
    QSignalSpy ready(window.canvas(), &GraphCanvas::sceneReady);
    const size_t cond = static_cast<size_t>(window.model()->graph.find("cond"));
    window.session().select(Selection::ofNode(cond));
    QVERIFY(window.inspector()->toHtml().contains("function:cond_true_1"));
    ready.clear();
    emit window.inspector()->anchorClicked(QUrl("function:cond_true_1"));
    const auto body = window.shownModel();
    QVERIFY(body != window.model());
    QCOMPARE(body->graph.size(), size_t(5));  // _Arg x, y; add; Identity; _Retval identity
    QCOMPARE(body->graph.node(static_cast<size_t>(body->graph.find("x"))).op, std::string("_Arg"));
    const Node& ret = body->graph.node(static_cast<size_t>(body->graph.find("identity")));
    QCOMPARE(ret.op, std::string("_Retval"));
    QCOMPARE(ret.inputs.at(0).node, std::string("Identity"));
    QVERIFY(ready.wait(10000));
    QCOMPARE(window.canvas()->scene()->itemOfNode.size(), size_t(5));
    QCOMPARE(window.findChild<QTableView*>("nodeTable")->model()->rowCount(), 5);
    QVERIFY(window.breadcrumb()->isVisible());
    QCOMPARE(window.navigation().crumbs(), QStringList({"functions.pbtxt", "cond_true_1"}));
    // Back through the breadcrumb.
    auto buttons = window.breadcrumb()->findChildren<QToolButton*>();
    QCOMPARE(buttons.size(), 2);
    QVERIFY(!buttons[1]->isEnabled());  // where we are
    QTest::mouseClick(buttons[0], Qt::LeftButton);
    QCOMPARE(window.shownModel(), window.model());
    QVERIFY(!window.breadcrumb()->isVisible());
    // A double-click on If offers both branches.
    emit window.canvas()->nodeActivated(cond);
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    QVERIFY(menu);
    QCOMPARE(menu->actions().size(), 2);
    QAction* elseBranch = nullptr;
    for (QAction* a : menu->actions())
      if (a->text().contains("cond_false_1")) elseBranch = a;
    QVERIFY(elseBranch);
    elseBranch->trigger();
    menu->close();
    QCOMPARE(window.navigation().crumbs().last(), QString("cond_false_1"));
    QVERIFY(window.shownModel()->graph.find("mul") >= 0);
    // A name the library lacks is an error message, not a crash; the view stays.
    QVERIFY(!window.openFunction("no_such_function"));
    QCOMPARE(window.navigation().crumbs().last(), QString("cond_false_1"));
  }

  // The outline mirrors the canvas's expansion and drives it (keyboard included); rows select on the canvas.
  void outlineFollowsAndDrivesTheCanvas() {
    QTemporaryDir dir;
    SyntheticGraphOptions options;
    options.nodes = 400;
    const QString path = dir.filePath("synthetic.pb");
    QVERIFY(writeGraph(makeSyntheticGraph(options), path.toStdString()));
    MainWindow window;
    QVERIFY(openAndLayOut(window, path));
    QSignalSpy ready(window.canvas(), &GraphCanvas::sceneReady);
    OutlinePanel* outline = window.outline();
    OutlineModel* model = outline->outline();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model->rowCount() >= 1);  // the "model" scope first, then nodes outside it
    const QModelIndex top = model->index(0, 0);
    QCOMPARE(top.data().toString(), QString("model"));
    QCOMPARE(model->groupAt(top), window.canvas()->layout()->tree().find("model"));
    QVERIFY(model->rowCount(top) >= 1);
    // Expanding on the canvas opens the row.
    ready.clear();
    window.canvas()->toggleGroup("model");
    QVERIFY(ready.wait(10000));
    QVERIFY(outline->isExpanded(top));
    // The keyboard in the tree: Right on a closed child scope opens it on the canvas too.
    const QModelIndex stage = model->index(0, 0, top);
    QVERIFY(model->groupAt(stage) > 0 && model->rowCount(stage) > 1);
    const std::string stagePath = "model/" + stage.data().toString().toStdString();
    outline->setFocus();
    outline->setCurrentIndex(stage);
    ready.clear();
    QTest::keyClick(outline, Qt::Key_Right);
    QVERIFY(outline->isExpanded(stage));
    QVERIFY(window.canvas()->expanded().count(stagePath));
    QVERIFY(ready.wait(10000));
    QTest::keyClick(outline, Qt::Key_Left);  // and Left closes it
    QVERIFY(!window.canvas()->expanded().count(stagePath));
    // Choosing a node row selects it on the canvas and in the inspector.
    const size_t conv = static_cast<size_t>(window.model()->graph.find("model/stage_0/block_0/layer_0/unit_0/Conv2D"));
    QVERIFY(ready.wait(10000));
    outline->setCurrentIndex(model->nodeIndex(conv));
    const int item = window.canvas()->selectedItem();
    QVERIFY(item >= 0);
    QCOMPARE(window.canvas()->scene()->itemOfNode[conv], static_cast<int64_t>(item));
    QVERIFY(window.inspector()->toHtml().contains("Conv2D"));
  }

  // Closing the document empties the outline (it used to keep the closed graph's tree, and its layout, alive).
  void closingEmptiesTheOutline() {
    MainWindow window;
    QVERIFY(openAndLayOut(window, QString(FLOWSCOPE_TEST_DATA) + "/small_mlp.pbtxt"));
    QVERIFY(window.outline()->outline()->rowCount() > 0);
    window.session().close();
    QCOMPARE(window.outline()->outline()->rowCount(), 0);
    QVERIFY(!window.outline()->outline()->layout());
  }

  // The profiler feeds inputs from .npy files or literals; a bad file stops it with a message naming the file.
  void profileInputsFromNpy() {
    MainWindow window;
    QSignalSpy loaded(&window, &MainWindow::modelLoaded);
    window.openFile(QString(FLOWSCOPE_TEST_DATA) + "/small_mlp.pbtxt");
    QVERIFY(loaded.wait(10000));
    auto inputs = runInputs(*window.model());
    QVERIFY(inputs && inputs->size() == 1);
    // The dialog lists the input and returns what was typed (empty and "random" mean random).
    InputsDialog dialog(*inputs, {});
    auto* field = dialog.findChild<QLineEdit*>(QString::fromStdString("input:" + inputs->front().label));
    QVERIFY(field);
    QVERIFY(dialog.specs().empty());
    QTemporaryDir dir;
    std::vector<int64_t> dims = inputs->front().shape.dims();
    for (auto& d : dims) d = d < 0 ? 2 : d;
    Tensor ones(DType::kFloat, Shape(dims));
    for (int64_t i = 0; i < ones.numElements(); ++i) ones.data<float>()[i] = 1.0f;
    const std::string npy = dir.filePath("x.npy").toStdString();
    QVERIFY(writeNpy(npy, ones));
    field->setText(QString::fromStdString(npy));
    QCOMPARE(dialog.specs().at(inputs->front().label), npy);
    ProfilePanel* panel = window.profilePanel();
    panel->setOptimize(false);  // reads the MatMul's input size under its own name
    panel->setInputSpecs(dialog.specs());
    QSignalSpy profiled(&window.session(), &Session::profiled);
    QSignalSpy failed(&window.session(), &Session::profileFailed);
    auto matmulBytesIn = [&window] {
      for (const auto& e : window.session().profileView()->profile->events())
        if (e.name == "dense/MatMul") return e.bytesIn;
      return int64_t(-1);
    };
    panel->setInputSpecs({});
    panel->profile(1);
    QVERIFY(profiled.wait(20000));
    const int64_t randomBytes = matmulBytesIn();  // random inputs: 1 per unknown dim
    panel->setInputSpecs(dialog.specs());
    panel->profile(2);
    QVERIFY(profiled.wait(20000));
    // The file's batch is 2 rows, random inputs 1 (per unknown dim): the MatMul reads one more row of x.
    QCOMPARE(matmulBytesIn() - randomBytes, ones.numElements() * 4 / 2);
    panel->setInputSpecs({{inputs->front().label, dir.filePath("missing.npy").toStdString()}});
    panel->profile(1);
    QVERIFY(failed.wait(20000));
    QVERIFY2(failed.first().first().toString().contains("missing.npy"), qPrintable(failed.first().first().toString()));
  }

  // Loading shows in the status bar with a Cancel button; a cancelled load is dropped and the window stays as it was.
  void loadingCanBeCancelled() {
    MainWindow window;
    window.show();
    QSignalSpy loaded(&window, &MainWindow::modelLoaded);
    window.openFile(QString(FLOWSCOPE_TEST_DATA) + "/small_mlp.pbtxt");
    QVERIFY(window.isLoading());
    QVERIFY(window.taskIndicator()->isVisible());
    QVERIFY(window.taskIndicator()->text().contains("small_mlp.pbtxt"));
    window.cancelLoading();
    QVERIFY(!window.isLoading());
    QVERIFY(!window.taskIndicator()->isVisible());
    QTest::qWait(300);  // the abandoned load finishes in the background and is dropped
    QCOMPARE(loaded.count(), 0);
    QVERIFY(!window.model());
    window.openFile(QString(FLOWSCOPE_TEST_DATA) + "/functions.pbtxt");  // and the next load works
    QVERIFY(loaded.wait(10000));
    QVERIFY(window.model()->graph.find("cond") >= 0);
  }

  // Profiling on a Vulkan device (lavapipe in CI): GPU events in the timeline, device colours on the canvas.
  void profileOnVulkanWithDeviceColours() {
    MainWindow window;
    QVERIFY(openAndLayOut(window, QString(FLOWSCOPE_TEST_DATA) + "/small_mlp.pbtxt"));
    QSignalSpy ready(window.canvas(), &GraphCanvas::sceneReady);
    ProfilePanel* panel = window.profilePanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->devicesListed(), 10000);
    if (panel->deviceCount() < 3) QSKIP("no Vulkan device on this machine; CI installs mesa-vulkan-drivers");
    panel->setDevice(1);  // CPU, the Vulkan devices, then the null backend
    QVERIFY(panel->request(2).device.rfind("vulkan:", 0) == 0);
    QSignalSpy profiled(&window.session(), &Session::profiled);
    panel->profile(2);
    QVERIFY(profiled.wait(30000));
    size_t vulkanEvents = 0;
    for (const auto& e : window.session().profileView()->profile->events()) vulkanEvents += e.backend == "vulkan";
    QVERIFY(vulkanEvents > 0);
    window.canvas()->expandAll();
    QVERIFY(ready.wait(10000));
    window.session().setOverlayMode(OverlayMode::kDevice);
    const auto& fills = window.canvas()->overlay().itemFill;
    QVERIFY(std::count(fills.begin(), fills.end(), GraphView::vulkanColour()) > 0);
    window.session().setOverlayMode(OverlayMode::kTime);
    const auto& heat = window.canvas()->overlay().itemFill;
    QVERIFY(std::count(heat.begin(), heat.end(), GraphView::vulkanColour()) == 0);
  }

  // The app's profile of a file equals `flowscope profile`'s for the same options: optimized or not, the same nodes
  // run with the same ops the same number of times, on the same device.
  void guiProfileEqualsCliProfile_data() {
    QTest::addColumn<bool>("optimize");
    QTest::newRow("optimized (the default)") << true;
    QTest::newRow("as loaded") << false;
  }
  void guiProfileEqualsCliProfile() {
    QFETCH(bool, optimize);
    const QString file = QString(FLOWSCOPE_TEST_DATA) + "/passes/fusion.pbtxt";
    QProcess cli;
    QStringList args{"profile", file, "--runs", "3", "--json"};
    if (!optimize) args << "--no-optimize";
    cli.start(FLOWSCOPE_BINARY, args);
    QVERIFY(cli.waitForFinished(60000) && cli.exitCode() == 0);
    const auto json = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
    MainWindow window;
    QVERIFY(openAndLayOut(window, file));
    QSignalSpy profiled(&window.session(), &Session::profiled);
    window.profilePanel()->setOptimize(optimize);
    window.profilePanel()->profile(3);
    QVERIFY(profiled.wait(30000));
    const ProfileView& view = *window.session().profileView();
    QCOMPARE(view.optimized, json["optimized"].get<bool>());
    QCOMPARE(view.nodesRun, json["nodes"].get<size_t>());
    QCOMPARE(view.device, json["device"].get<std::string>());
    QCOMPARE(view.runs(), json["runs"].get<int>());
    std::map<std::string, int64_t> gui, cliOps;
    for (const auto& row : view.profile->byOp()) gui[row.key] = row.count / view.runs();
    for (const auto& row : json["ops"]) cliOps[row["op"].get<std::string>()] = row["count"].get<int64_t>();
    QCOMPARE(gui, cliOps);
    if (optimize) QVERIFY(gui.count("_FusedConv2D"));  // the optimizer ran in both
    // The op table shows the same rows.
    QCOMPARE(window.profilePanel()->opStats()->rowCount(), static_cast<int>(cliOps.size()));
  }

  // The null backend runs nothing, yet every node is profiled: the views fill from its events.
  void profileOnTheNullBackend() {
    MainWindow window;
    QVERIFY(openAndLayOut(window, QString(FLOWSCOPE_TEST_DATA) + "/small_mlp.pbtxt"));
    ProfilePanel* panel = window.profilePanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->devicesListed(), 10000);
    panel->setDevice(panel->deviceCount() - 1);  // the null backend is the table's last row
    QCOMPARE(panel->request(1).device, std::string("null"));
    panel->setOptimize(false);
    QSignalSpy profiled(&window.session(), &Session::profiled);
    panel->profile(4);
    QVERIFY(profiled.wait(20000));
    const ProfileView& view = *window.session().profileView();
    QCOMPARE(view.device, std::string("null (runs nothing)"));
    QCOMPARE(view.profile->size(), size_t(4 * 6));  // 6 nodes run (x is fed), 4 runs
    for (const auto& e : view.profile->events()) QCOMPARE(e.backend, std::string("null"));
    QCOMPARE(view.times.unmatchedEvents, size_t(0));
    QCOMPARE(panel->timeline()->events().size(), size_t(24));
    QVERIFY(panel->opStats()->rowCount() >= 5);
    QVERIFY(panel->statusText().contains("null"));
    QVERIFY2(!panel->statusText().contains("precision"), qPrintable(panel->statusText()));  // fp32 goes unsaid
    panel->setPrecision(Precision::kBf16);  // the null backend computes nothing, in fp32: the status says so
    QCOMPARE(panel->request(1).precision, Precision::kBf16);
    panel->profile(1);
    QVERIFY(profiled.wait(20000));
    QVERIFY2(panel->statusText().contains("precision fp32 (the null backend computes in fp32; bf16 applies to Vulkan)"),
             qPrintable(panel->statusText()));
    const auto& fills = window.canvas()->overlay().itemFill;  // the heat overlay is on
    QVERIFY(std::count_if(fills.begin(), fills.end(), [](const QColor& c) { return c.isValid(); }) > 0);
  }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
