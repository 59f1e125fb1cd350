// Every item model of the app under QAbstractItemModelTester, filled with real data: the node list, the op
// statistics, the pass list and the outline.
#include <QAbstractItemModelTester>
#include <QtTest>

#include "io/loader.h"
#include "layout/graph_layout.h"
#include "models/node_table_model.h"
#include "models/op_stats_model.h"
#include "models/outline_model.h"
#include "models/pass_list_model.h"
#include "workflow/optimize_model.h"
#include "workflow/prepared_run.h"

using namespace flowscope;

namespace {

std::shared_ptr<const Model> load(const char* name) {
  auto model = loadModel(std::string(FLOWSCOPE_TEST_DATA) + "/" + name);
  return model ? std::make_shared<const Model>(std::move(model).value()) : nullptr;
}

}  // namespace

class TestModels : public QObject {
  Q_OBJECT

 private slots:
  void nodeTable() {
    NodeTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto graph = load("small_mlp.pbtxt");
    QVERIFY(graph);
    model.setModel(graph);
    QCOMPARE(model.rowCount(), 7);
    QCOMPARE(model.columnCount(), int(NodeTableModel::kColumnCount));
    const int matmul = static_cast<int>(graph->graph.find("dense/MatMul"));
    QCOMPARE(model.index(matmul, NodeTableModel::kOp).data().toString(), QString("MatMul"));
    QCOMPARE(model.index(matmul, NodeTableModel::kOutputs).data().toString(), QString("float32"));
    QCOMPARE(model.headerData(NodeTableModel::kCategory, Qt::Horizontal, Qt::DisplayRole).toString(),
             QString("Category"));
    model.setModel(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  void opStats() {
    OpStatsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto graph = load("small_mlp.pbtxt");
    RunSetup setup;
    setup.optimize = false;
    auto prepared = prepareRun(graph, setup);
    QVERIFY(prepared.hasValue());
    auto run = profileRun(*prepared, {2, 0, {}, false});
    QVERIFY(run.hasValue());
    Roofline roofline{100, 50, {}, 1};  // 100 GFLOP/s, 50 GB/s
    model.setStats(run->profile.byOp(), 2, roofline);
    QCOMPARE(model.rowCount(), 5);  // Const, MatMul, BiasAdd, Relu, Softmax
    int matmul = -1;
    for (int r = 0; r < model.rowCount(); ++r)
      if (model.index(r, OpStatsModel::kOp).data().toString() == "MatMul") matmul = r;
    QVERIFY(matmul >= 0);
    QCOMPARE(model.index(matmul, OpStatsModel::kCount).data().toLongLong(), 1LL);  // per run
    QVERIFY(model.index(matmul, OpStatsModel::kTotal).data(Qt::UserRole).toDouble() > 0);
    // FLOPs over time: the rate the table shows is the profile's, and the roofline column says which limit applies.
    const OpStats stats = run->profile.byOp()[static_cast<size_t>(matmul)];
    const double gflops = static_cast<double>(stats.flops) / static_cast<double>(stats.totalNs);
    QCOMPARE(model.index(matmul, OpStatsModel::kGflops).data(Qt::UserRole).toDouble(), gflops);
    QVERIFY(gflops > 0);
    const QString roof = model.index(matmul, OpStatsModel::kRoofline).data().toString();
    QVERIFY2(roof.endsWith("% FMA") || roof.endsWith("% DRAM"), qPrintable(roof));
    model.setStats(run->profile.byOp(), 2, {});  // an imported profile: no roofline, no share
    QCOMPARE(model.index(matmul, OpStatsModel::kRoofline).data().toString(), QString());
  }

  void passList() {
    PassListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto pipeline = optimizeForViewing(load("passes/fusion.pbtxt"), PipelineOptions{});
    QVERIFY(pipeline.hasValue());
    model.setPipeline(&*pipeline);
    QCOMPARE(model.rowCount(), static_cast<int>(pipeline->records.size()));
    QCOMPARE(model.index(0, PassListModel::kNumber).data().toInt(), 1);
    QCOMPARE(model.index(0, PassListModel::kPass).data().toString(), QString::fromStdString(pipeline->records[0].pass));
    bool remapped = false;
    for (int r = 0; r < model.rowCount(); ++r)
      remapped |= model.index(r, PassListModel::kPass).data().toString() == "remapper" &&
                  model.index(r, PassListModel::kChanged).data().toString() == "yes";
    QVERIFY(remapped);
    model.setPipeline(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  void outline() {
    OutlineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto graph = load("small_mlp.pbtxt");
    model.setLayout(std::make_shared<GraphLayout>(std::shared_ptr<const Graph>(graph, &graph->graph)));
    QVERIFY(model.rowCount() >= 2);  // the "dense" scope, then the nodes at the top level
    const QModelIndex dense = model.index(0, 0);
    QCOMPARE(dense.data().toString(), QString("dense"));
    QCOMPARE(model.rowCount(dense), 5);  // kernel, bias, MatMul, BiasAdd, Relu
    const QModelIndex node = model.index(0, 0, dense);
    QVERIFY(model.nodeAt(node) >= 0);
    QCOMPARE(model.parent(node), dense);
  }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"
