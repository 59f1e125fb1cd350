// ONNX: the loader on the corpus's models and on broken files, the writer's round trip, and the real models run
// against ONNX Runtime's outputs (tests/data/onnx, written by ort_reference.mjs).
#include <QtTest>

#include "engine/onnx_test_util.h"
#include "engine/test_paths.h"
#include "exec/model_runner.h"
#include "io/loader.h"
#include "io/npy.h"
#include "io/onnx_writer.h"
#include "ir/hash.h"
#include "ops/onnx_op_set.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

std::string profiles(const std::string& name) { return std::string(FLOWSCOPE_SHARED_GRAPHS) + "/../profiles/" + name; }

const char* kMobileNet = "mobilenet_v2.onnx";
const char* kQuant = "nnstreamer/tests/test_models/models/mobilenet_v2_quant.onnx";
const char* kSilero = "npm-ricky0123-vad-web/dist/silero_vad_v5.onnx";

std::string modelPath(const QString& which) {
  if (which == "mobilenet_v2") return profiles(kMobileNet);
  return corpus(which == "mobilenet_v2_quant" ? kQuant : kSilero);
}

// Loading a file the test wrote must fail with a message holding `expected`.
void expectLoadError(const std::string& path, const std::string& expected) {
  auto model = loadModel(path);
  QVERIFY2(!model.hasValue(), ("loaded " + path).c_str());
  QVERIFY2(model.status().message().find(expected) != std::string::npos, model.status().message().c_str());
  QVERIFY2(model.status().message().find(path) != std::string::npos, "the error does not name the file");
}

// A graph y = Relu(x) with one float initializer 'w' added to it: w + x.
onnx::ModelProto reluModel() {
  onnx::ModelProto m = onnxModel();
  auto* g = m.mutable_graph();
  addValue(g->mutable_input(), "x", {4});
  addValue(g->mutable_output(), "y", {4});
  auto* w = g->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(4);
  for (float v : {1.0f, -2.0f, 3.0f, -4.0f}) w->add_float_data(v);
  addNode(g, "Add", {"x", "w"}, {"s"}, "block/add");
  addNode(g, "Relu", {"s"}, {"y"}, "block/relu");
  return m;
}

// Writes `m` to `path` and loads it: true when it opens with a warning holding `expected`.
bool opensWithWarning(const std::string& path, const onnx::ModelProto& m, const std::string& expected) {
  writeBytes(path, m.SerializeAsString());
  auto model = loadForTest(path);
  return std::any_of(model->warnings.begin(), model->warnings.end(),
                     [&](const std::string& w) { return w.find(expected) != std::string::npos; });
}

}  // namespace

class TestOnnx : public QObject {
  Q_OBJECT

 private slots:
  void loadsAndRunsSmallModel() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("relu.onnx").toStdString();
    writeBytes(path, reluModel().SerializeAsString());
    auto model = loadForTest(path);
    QCOMPARE(QString::fromStdString(model->format), QString("ONNX"));
    QVERIFY(model->graph.findNode("block/relu"));
    QCOMPARE(QString::fromStdString(model->graph.findNode("block/relu")->op), QString("onnx::Relu"));
    QVERIFY2(model->problems.empty(), model->problems.empty() ? "" : model->problems[0].c_str());
    Tensor x(DType::kFloat, Shape{4});
    for (int i = 0; i < 4; ++i) x.data<float>()[i] = 1.5f;
    ModelRunner runner(model);
    auto out = runner.run({{"x:0", x}}, {model->signatures[0].outputs[0].tensorName});
    QVERIFY2(out.hasValue(), out.status().message().c_str());
    const std::vector<float> expected{2.5f, 0.0f, 4.5f, 0.0f};
    for (int i = 0; i < 4; ++i) QCOMPARE((*out)[0].data<float>()[i], expected[static_cast<size_t>(i)]);
  }

  void rejectsBrokenFiles() {
    QTemporaryDir dir;
    auto file = [&](const char* name) { return dir.filePath(name).toStdString(); };
    const std::string good = reluModel().SerializeAsString();
    writeBytes(file("truncated.onnx"), good.substr(0, good.size() - 9));
    expectLoadError(file("truncated.onnx"), "truncated.onnx");

    // Graph field with a node field (1, length-delimited in GraphProto) written as a varint.
    writeBytes(file("wire.onnx"), std::string("\x08\x08\x3a\x02\x08\x01", 6));
    expectLoadError(file("wire.onnx"), "wire.onnx");

    onnx::ModelProto noType = reluModel();
    noType.mutable_graph()->mutable_input(0)->clear_type();
    writeBytes(file("notype.onnx"), noType.SerializeAsString());
    expectLoadError(file("notype.onnx"), "graph input 'x' has no type");

    onnx::ModelProto huge = reluModel();
    auto* w = huge.mutable_graph()->mutable_initializer(0);
    w->clear_float_data();
    w->set_dims(0, int64_t{1} << 40);
    w->set_raw_data(std::string(16, '\0'));
    writeBytes(file("huge.onnx"), huge.SerializeAsString());
    expectLoadError(file("huge.onnx"), "initializer 'w'");

    onnx::ModelProto dangling = reluModel();
    dangling.mutable_graph()->mutable_node(1)->set_input(0, "nowhere");
    writeBytes(file("dangling.onnx"), dangling.SerializeAsString());
    expectLoadError(file("dangling.onnx"), "input 0 'nowhere' names no value");
  }

  void rejectsBadExternalData() {
    QTemporaryDir dir;
    onnx::ModelProto m = reluModel();
    auto* w = m.mutable_graph()->mutable_initializer(0);
    w->clear_float_data();
    w->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* location = w->add_external_data();
    location->set_key("location");
    location->set_value("weights.bin");
    const std::string path = dir.filePath("external.onnx").toStdString();
    writeBytes(path, m.SerializeAsString());
    expectLoadError(path, "weights.bin is missing");

    writeBytes(dir.filePath("weights.bin").toStdString(), std::string(8, '\0'));  // 2 floats of the 4 declared
    expectLoadError(path, "needs 16");

    auto* length = w->add_external_data();
    length->set_key("length");
    length->set_value("16");
    writeBytes(path, m.SerializeAsString());
    expectLoadError(path, "shorter than offset 0 + length 16");

    writeBytes(dir.filePath("weights.bin").toStdString(), std::string(16, '\0'));
    QVERIFY(loadModel(path).hasValue());
  }

  void reportsCycles() {
    QTemporaryDir dir;
    onnx::ModelProto m = reluModel();
    m.mutable_graph()->mutable_node(0)->set_input(0, "y");  // Add reads Relu's output, Relu reads Add's
    const std::string path = dir.filePath("cycle.onnx").toStdString();
    writeBytes(path, m.SerializeAsString());
    auto model = loadModel(path);
    QVERIFY(model.hasValue());
    bool cycle = false;
    for (const auto& p : model->problems) cycle |= p.find("cycle") != std::string::npos;
    QVERIFY(cycle);
  }

  void subgraphsSeeOuterValuesOnly() {
    QTemporaryDir dir;
    onnx::ModelProto m = onnxModel();
    auto* g = m.mutable_graph();
    addValue(g->mutable_input(), "c", {}, onnx::TensorProto::BOOL);
    addValue(g->mutable_input(), "x", {2});
    addValue(g->mutable_output(), "y", {2});
    auto* ifNode = addNode(g, "If", {"c"}, {"y"}, "branch");
    for (const char* branch : {"then_branch", "else_branch"}) {
      auto* attr = ifNode->add_attribute();
      attr->set_name(branch);
      attr->set_type(onnx::AttributeProto::GRAPH);
      auto* body = attr->mutable_g();
      body->set_name(branch);
      addValue(body->mutable_output(), std::string(branch) + "_out", {2});
      addNode(body, std::string(branch) == "then_branch" ? "Relu" : "Neg", {"x"}, {std::string(branch) + "_out"});
    }
    const std::string path = dir.filePath("if.onnx").toStdString();
    writeBytes(path, m.SerializeAsString());
    auto model = loadForTest(path);
    QCOMPARE(static_cast<int>(model->graph.library.size()), 2);
    const Node* node = model->graph.findNode("branch");
    QVERIFY(node);
    QCOMPARE(static_cast<int>(node->inputs.size()), 2);  // the condition and the captured x
    ModelRunner runner(model);
    Tensor x(DType::kFloat, Shape{2});
    x.data<float>()[0] = -1;
    x.data<float>()[1] = 2;
    for (bool c : {true, false}) {
      auto out = runner.run({{"c:0", Tensor::scalar<uint8_t>(DType::kBool, c)}, {"x:0", x}}, {"branch:0"});
      QVERIFY2(out.hasValue(), out.status().message().c_str());
      QCOMPARE((*out)[0].data<float>()[0], c ? 0.0f : 1.0f);
      QCOMPARE((*out)[0].data<float>()[1], c ? 2.0f : -2.0f);
    }

    g->mutable_node(0)->mutable_attribute(0)->mutable_g()->mutable_node(0)->set_input(0, "missing");
    writeBytes(path, m.SerializeAsString());
    expectLoadError(path,
                    "'missing' names no value of the graph (no node output, graph input or initializer here "
                    "or in an enclosing graph)");
  }

  // GatherElements counts negative indices from the end and names the node and the range of a bad index; so does
  // GatherND for the dim it addresses.
  void gatherKernelsTakeNegativeIndicesAndNameBadOnes() {
    QTemporaryDir dir;
    onnx::ModelProto m = onnxModel();
    auto* g = m.mutable_graph();
    addValue(g->mutable_input(), "x", {2, 3});
    addValue(g->mutable_input(), "i", {2, 2}, onnx::TensorProto::INT64);
    addValue(g->mutable_output(), "e", {2, 2});
    addValue(g->mutable_output(), "n", {2});
    auto* elements = addNode(g, "GatherElements", {"x", "i"}, {"e"}, "elements");
    auto* axis = elements->add_attribute();
    axis->set_name("axis");
    axis->set_type(onnx::AttributeProto::INT);
    axis->set_i(1);
    addNode(g, "GatherND", {"x", "i"}, {"n"}, "nd");
    const std::string path = dir.filePath("gather.onnx").toStdString();
    writeBytes(path, m.SerializeAsString());
    ModelRunner runner(loadForTest(path));
    Tensor x(DType::kFloat, Shape{2, 3});
    for (int k = 0; k < 6; ++k) x.data<float>()[k] = static_cast<float>(10 * k);
    Tensor i(DType::kInt64, Shape{2, 2});
    const int64_t picks[] = {-1, 0, 1, -2};
    std::copy(picks, picks + 4, i.data<int64_t>());
    auto out = runner.run({{"x:0", x}, {"i:0", i}}, {"elements:0", "nd:0"});
    QVERIFY2(out.hasValue(), out.status().message().c_str());
    const float elementsWant[] = {20, 0, 40, 40},
                ndWant[] = {30, 40};  // x[0][2] x[0][0] x[1][1] x[1][1]; x[1][0] x[1][1]
    for (int k = 0; k < 4; ++k) QCOMPARE((*out)[0].data<float>()[k], elementsWant[k]);
    for (int k = 0; k < 2; ++k) QCOMPARE((*out)[1].data<float>()[k], ndWant[k]);
    i.data<int64_t>()[2] = 3;
    auto bad = runner.run({{"x:0", x}, {"i:0", i}}, {"elements:0"});
    QVERIFY(!bad.hasValue());
    const std::string message = bad.status().message();
    QVERIFY2(message.find("elements") != std::string::npos && message.find("GatherElements") != std::string::npos &&
                 message.find("index 3 is not in [-3, 3)") != std::string::npos,
             message.c_str());
    i.data<int64_t>()[2] = -3;
    bad = runner.run({{"x:0", x}, {"i:0", i}}, {"nd:0"});
    QVERIFY(!bad.hasValue());
    QVERIFY2(bad.status().message().find("index -3 is not in [-2, 2) of data dim 0") != std::string::npos,
             bad.status().message().c_str());
  }

  // Formal positions skip absent inputs (repeated and unsorted too, negative ones ignored); captured trailing
  // inputs are no formal input. The one-position lookup kernels use agrees with the list.
  void formalInputIndexMatchesPositions() {
    const std::vector<std::pair<std::vector<int64_t>, std::vector<int>>> cases = {{{}, {0, 1, 2, 3}},
                                                                                  {{1}, {0, 2, 3, 4}},
                                                                                  {{0, 2}, {1, 3, 4, 5}},
                                                                                  {{3, 1, 1}, {0, 2, 4, 5}},
                                                                                  {{-1, 5}, {0, 1, 2, 3}}};
    for (const auto& [absent, all] : cases)
      for (int64_t captures : {0, 1}) {
        Node node;
        node.inputs.resize(4);
        if (!absent.empty()) {
          AttrList list;
          list.i = absent;
          node.attrs[kOnnxAbsentInputsAttr] = AttrValue::fromList(list);
        }
        if (captures) node.attrs[kOnnxCapturesAttr] = AttrValue::fromInt(captures);
        const std::vector<int> positions(all.begin(), all.end() - captures);
        QCOMPARE(onnxFormalPositions(node), positions);
        for (int position = 0; position < 8; ++position) {
          const auto at = std::find(positions.begin(), positions.end(), position);
          const int expected = at == positions.end() ? -1 : static_cast<int>(at - positions.begin());
          QCOMPARE(onnxInputIndex(node, position), expected);
        }
      }
  }

  // Scan: the state carried through slices of x taken along axis 1 in reverse, an outer value captured by the body,
  // and the scan output stacked along axis 1, reversed too.
  void scanRunsAlongItsAxesAndDirections() {
    QTemporaryDir dir;
    onnx::ModelProto m = onnxModel();
    auto* g = m.mutable_graph();
    addValue(g->mutable_input(), "s0", {2, 2});
    addValue(g->mutable_input(), "x", {2, 3, 2});
    addValue(g->mutable_input(), "w", {2});
    addValue(g->mutable_output(), "s", {2, 2});
    addValue(g->mutable_output(), "y", {2, 3, 2});
    auto* scan = addNode(g, "Scan", {"s0", "x"}, {"s", "y"}, "scan");
    auto intAttr = [&](const char* name, std::vector<int64_t> values) {
      auto* a = scan->add_attribute();
      a->set_name(name);
      if (values.size() == 1 && std::string(name) == "num_scan_inputs") {
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(values[0]);
        return;
      }
      a->set_type(onnx::AttributeProto::INTS);
      for (int64_t v : values) a->add_ints(v);
    };
    intAttr("num_scan_inputs", {1});
    intAttr("scan_input_axes", {1});
    intAttr("scan_input_directions", {1});
    intAttr("scan_output_axes", {-2});
    intAttr("scan_output_directions", {1});
    auto* attr = scan->add_attribute();
    attr->set_name("body");
    attr->set_type(onnx::AttributeProto::GRAPH);
    auto* body = attr->mutable_g();
    body->set_name("body");
    addValue(body->mutable_input(), "s_in", {2, 2});
    addValue(body->mutable_input(), "x_in", {2, 2});
    addValue(body->mutable_output(), "s_out", {2, 2});
    addValue(body->mutable_output(), "y_out", {2, 2});
    addNode(body, "Add", {"s_in", "x_in"}, {"t"});
    addNode(body, "Add", {"t", "w"}, {"s_out"});  // w: captured from the outer graph
    addNode(body, "Identity", {"s_out"}, {"y_out"});
    const std::string path = dir.filePath("scan.onnx").toStdString();
    writeBytes(path, m.SerializeAsString());
    auto model = loadForTest(path);
    const Tensor s0 = formulaTensor(Shape{2, 2}, 1), x = formulaTensor(Shape{2, 3, 2}, 2), w = formulaTensor({2}, 3);
    ModelRunner runner(model);
    auto out = runner.run({{"s0:0", s0}, {"x:0", x}, {"w:0", w}}, {"scan:0", "scan:1"});
    QVERIFY2(out.hasValue(), out.status().message().c_str());
    QCOMPARE((*out)[1].shape(), Shape({2, 3, 2}));
    std::vector<float> state(s0.data<float>(), s0.data<float>() + 4);
    for (int i = 0; i < 3; ++i) {  // iteration i reads slice 2 - i and its value lands at position 2 - i
      for (int b = 0; b < 2; ++b)
        for (int c = 0; c < 2; ++c) {
          float& v = state[static_cast<size_t>(b * 2 + c)];
          v += x.data<float>()[b * 6 + (2 - i) * 2 + c] + w.data<float>()[c];
          QCOMPARE((*out)[1].data<float>()[b * 6 + (2 - i) * 2 + c], v);
        }
    }
    for (int k = 0; k < 4; ++k) QCOMPARE((*out)[0].data<float>()[k], state[static_cast<size_t>(k)]);

    scan->mutable_attribute(1)->set_ints(0, 3);  // no axis 3 in a rank-3 input
    writeBytes(path, m.SerializeAsString());
    auto bad = ModelRunner(loadForTest(path)).run({{"s0:0", s0}, {"x:0", x}, {"w:0", w}}, {"scan:0"});
    QVERIFY(!bad.hasValue());
    QVERIFY2(bad.status().message().find("'scan'") != std::string::npos &&
                 bad.status().message().find("scan input axis 3 is out of range for rank 3") != std::string::npos,
             bad.status().message().c_str());
  }

  void newerOpsetStillOpens() {
    QTemporaryDir dir;
    onnx::ModelProto m = reluModel();
    m.mutable_opset_import(0)->set_version(99);
    const std::string path = dir.filePath("new.onnx").toStdString();
    writeBytes(path, m.SerializeAsString());
    auto model = loadForTest(path);
    bool said = false;
    for (const auto& w : model->warnings) said |= w.find("opset ai.onnx 99 is newer") != std::string::npos;
    QVERIFY(said);
  }

  // A convolution whose input and weight ranks differ crashed libonnx 1.12's shape inference (the fuzz campaign found
  // it); guarded, the model opens with a warning naming the node.
  void convolutionRankMismatchOpensWithAWarning() {
    QTemporaryDir dir;
    for (const char* op : {"Conv", "ConvTranspose"}) {
      onnx::ModelProto m = onnxModel();
      auto* g = m.mutable_graph();
      addValue(g->mutable_input(), "x", {1, 1, 7});
      addValue(g->mutable_input(), "w", {1, 1, 1, 1});
      addValue(g->mutable_output(), "y", {});
      addNode(g, op, {"x", "w"}, {"y"}, "conv");
      QVERIFY2(opensWithWarning(dir.filePath(QString(op) + ".onnx").toStdString(), m, "rank 3 and the weight rank 4"),
               op);
    }
  }

  // A zero stride divided by zero in libonnx 1.12's convolution and pooling shape inference (found by fuzzing);
  // guarded, the model opens with a warning and only running the node fails, naming it.
  void zeroStrideOpensWithAWarning() {
    QTemporaryDir dir;
    for (const char* op : {"Conv", "MaxPool", "AveragePool"}) {
      onnx::ModelProto m = onnxModel();
      auto* g = m.mutable_graph();
      addValue(g->mutable_input(), "x", {1, 1, 7, 5});
      addValue(g->mutable_output(), "y", {});
      auto* node = addNode(g, op, {"x"}, {"y"}, "window");
      if (std::string(op) == "Conv") {
        addValue(g->mutable_input(), "w", {1, 1, 3, 3});
        node->add_input("w");
      }
      for (auto [name, values] : {std::pair{"kernel_shape", std::vector<int64_t>{3, 3}}, {"strides", {2, 0}}}) {
        auto* attr = node->add_attribute();
        attr->set_name(name);
        attr->set_type(onnx::AttributeProto::INTS);
        for (int64_t v : values) attr->add_ints(v);
      }
      QVERIFY2(opensWithWarning(dir.filePath(QString(op) + ".onnx").toStdString(), m, "'strides' has 0"), op);
    }
  }

  // DepthToSpace's and SpaceToDepth's blocksize 2^32, whose square overflows to 0, divided by zero in libonnx 1.12's
  // shape inference (tst_onnx_kernel_errors found it); guarded, the model opens with a warning.
  void hugeBlocksizeOpensWithAWarning() {
    QTemporaryDir dir;
    for (const char* op : {"DepthToSpace", "SpaceToDepth"}) {
      onnx::ModelProto m = onnxModel();
      auto* g = m.mutable_graph();
      addValue(g->mutable_input(), "x", {1, 4, 2, 2});
      addValue(g->mutable_output(), "y", {});
      auto* attr = addNode(g, op, {"x"}, {"y"}, "blocks")->add_attribute();
      attr->set_name("blocksize");
      attr->set_type(onnx::AttributeProto::INT);
      attr->set_i(int64_t{1} << 32);
      QVERIFY2(opensWithWarning(dir.filePath(QString(op) + ".onnx").toStdString(), m, "'blocksize' has 4294967296"),
               op);
    }
  }

  void corpusModels_data() {
    QTest::addColumn<QString>("which");
    QTest::addColumn<int>("functions");
    QTest::newRow("mobilenet_v2") << "mobilenet_v2" << 0;
    QTest::newRow("mobilenet_v2_quant") << "mobilenet_v2_quant" << 0;
    QTest::newRow("silero_vad") << "silero_vad" << 50;
  }
  void corpusModels() {
    QFETCH(QString, which);
    QFETCH(int, functions);
    if (!haveCorpus()) QSKIP("../shared/graphs is not beside the checkout");
    auto model = loadForTest(modelPath(which));
    QCOMPARE(QString::fromStdString(model->format), QString("ONNX"));
    QCOMPARE(static_cast<int>(model->graph.library.size()), functions);
    QVERIFY2(model->problems.empty(), model->problems.empty() ? "" : model->problems[0].c_str());
    for (const auto& w : model->warnings) QVERIFY2(w.find("unknown ops") == std::string::npos, w.c_str());
    QCOMPARE(static_cast<int>(model->signatures.size()), 1);

    // Written as .onnx and read again: the same graph, library and signature.
    QTemporaryDir dir;
    const std::string out = dir.filePath("again.onnx").toStdString();
    Status written = writeOnnx(*model, out);
    QVERIFY2(written.isOk(), written.message().c_str());
    auto again = loadForTest(out);
    QCOMPARE(hashGraph(again->graph), hashGraph(model->graph));
    QCOMPARE(again->signatures[0].outputs.size(), model->signatures[0].outputs.size());
  }

  void matchesOnnxRuntime_data() {
    QTest::addColumn<QString>("which");
    QTest::newRow("mobilenet_v2") << "mobilenet_v2";
    QTest::newRow("mobilenet_v2_quant") << "mobilenet_v2_quant";
    QTest::newRow("silero_vad") << "silero_vad";
  }
  void matchesOnnxRuntime() {
    QFETCH(QString, which);
    if (!haveCorpus()) QSKIP("../shared/graphs is not beside the checkout");
    auto model = loadForTest(modelPath(which));
    const Signature& sig = model->signatures[0];
    std::vector<std::pair<std::string, Tensor>> feeds;
    for (const auto& in : sig.inputs) {
      if (in.key == "sr") {
        feeds.emplace_back(in.tensorName, Tensor::scalar<int64_t>(DType::kInt64, 16000));
        continue;
      }
      Shape shape = in.key == "state" ? Shape{2, 1, 128} : in.shape.rank() == 2 ? Shape{1, 512} : Shape{1, 3, 224, 224};
      feeds.emplace_back(in.tensorName, formulaTensor(shape, in.key == "state"       ? 0.1f
                                                             : which == "silero_vad" ? 0.5f
                                                                                     : 1.0f));
    }
    std::vector<std::string> fetches;
    for (const auto& out : sig.outputs) fetches.push_back(out.tensorName);
    ModelRunner runner(model);
    auto out = runner.run(feeds, fetches);
    QVERIFY2(out.hasValue(), out.status().message().c_str());
    // Again, with each kernel's prepared primitives: MobileNetV2's first convolution once crashed on its second run
    // when the inter-op executor gave it to another thread (oneDNN's per-thread scratchpad).
    for (int again = 0; again < 3; ++again) {
      auto next = runner.run(feeds, fetches);
      QVERIFY2(next.hasValue(), next.status().message().c_str());
      for (size_t k = 0; k < next->size(); ++k) QVERIFY((*next)[k].contentEquals((*out)[k]));
    }
    for (size_t k = 0; k < sig.outputs.size(); ++k) {
      const std::string ref = dataFile("onnx/" + which.toStdString() + "." + sig.outputs[k].key + ".npy");
      auto expected = readNpy(ref);
      QVERIFY2(expected.hasValue(), expected.status().message().c_str());
      QCOMPARE((*out)[k].shape(), expected->shape());
      const double error = relativeError((*out)[k], *expected);
      qInfo("%s %s: relative error %.3g", qPrintable(which), sig.outputs[k].key.c_str(), error);
      QVERIFY2(error <= 1e-4, std::to_string(error).c_str());
    }
  }
};

QTEST_GUILESS_MAIN(TestOnnx)
#include "tst_onnx.moc"
