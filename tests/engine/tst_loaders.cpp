// Loaders on small files written for the tests: every format, round trips, and bad input of every kind.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "base/thread_pool.h"
#include "engine/test_files.h"
#include "graph.pb.h"
#include "io/freeze.h"
#include "io/graph_def_parse.h"
#include "io/graph_writer.h"
#include "io/loader.h"
#include "io/npy.h"
#include "io/proto_parse.h"
#include "io/source.h"
#include "ir/hash.h"
#include "ir/printer.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

std::string dataFile(const char* name) { return std::string(FLOWSCOPE_TEST_DATA) + "/" + name; }

Model mustLoad(const std::string& path) {
  auto model = loadModel(path);
  if (!model) qFatal("loading %s failed: %s", path.c_str(), model.status().message().c_str());
  return std::move(model).value();
}

QString loadError(const std::string& path) {
  auto model = loadModel(path);
  return model ? QString("<loaded>") : QString::fromStdString(model.status().message());
}

bool contains(const std::vector<std::string>& list, const char* needle) {
  for (const auto& s : list)
    if (s.find(needle) != std::string::npos) return true;
  return false;
}

const Tensor& constValue(const Model& m, const char* node) { return m.graph.findNode(node)->attr("value")->tensor(); }

}  // namespace

class TestLoaders : public QObject {
  Q_OBJECT

 private slots:
  void textGraphDef() {
    Model m = mustLoad(dataFile("small_mlp.pbtxt"));
    QCOMPARE(QString::fromStdString(m.format), QString("GraphDef (text)"));
    QCOMPARE(m.graph.size(), size_t(7));
    QCOMPARE(m.graph.versions.producer, 27);
    const Node* probs = m.graph.findNode("probs");
    QCOMPARE(probs->controlInputs, std::vector<std::string>{"dense/bias"});
    QCOMPARE(QString::fromStdString(probs->device), QString("/device:CPU:0"));
    const Tensor& kernel = constValue(m, "dense/kernel");
    QCOMPARE(kernel.shape(), (Shape{4, 3}));
    QCOMPARE(kernel.data<float>()[11], 1.2f);
    const Tensor& bias = constValue(m, "dense/bias");  // one float_val fills the whole tensor
    QCOMPARE(bias.data<float>()[2], 0.5f);
    QCOMPARE(m.graph.findNode("dense/MatMul")->attr("transpose_a")->b(), false);  // default filled in
    QVERIFY(m.problems.empty());
  }

  void functionLibrary() {
    Model m = mustLoad(dataFile("functions.pbtxt"));
    QCOMPARE(m.graph.library.size(), size_t(2));
    const FunctionDef* f = m.graph.library.find("cond_true_1");
    QVERIFY(f);
    QCOMPARE(f->signature.inputs.size(), size_t(2));
    QCOMPARE(QString::fromStdString(f->ret.at("identity")), QString("Identity:output:0"));
    QCOMPARE(QString::fromStdString(f->body->findNode("Identity")->inputs[0].outputArg), QString("z"));
    QCOMPARE(QString::fromStdString(f->argAttrs.at(0).at("_user_specified_name").s()), QString("x"));
    QCOMPARE(m.graph.versions.minConsumer, 12);
    QVERIFY2(m.problems.empty(), m.problems.empty() ? "" : m.problems[0].c_str());
  }

  void roundTrips_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("mlp") << "small_mlp.pbtxt";
    QTest::newRow("functions") << "functions.pbtxt";
    QTest::newRow("tf1 loop") << "while_v1.pbtxt";
    QTest::newRow("unknown op") << "unknown_op.pbtxt";
  }
  void roundTrips() {
    QFETCH(QString, file);
    Model m = mustLoad(dataFile(file.toUtf8().constData()));
    QTemporaryDir dir;
    for (const char* ext : {".pb", ".pbtxt"}) {
      std::string out = dir.filePath("out").toStdString() + ext;
      QVERIFY(writeGraph(m.graph, out).isOk());
      Model again = mustLoad(out);
      QCOMPARE(again.format, std::string(ext == std::string(".pb") ? "GraphDef (binary)" : "GraphDef (text)"));
      QCOMPARE(hashGraph(again.graph), hashGraph(m.graph));
      QCOMPARE(printGraph(again.graph), printGraph(m.graph));
    }
  }

  // experimental_debug_info (the nodes and functions a node was rewritten from) is kept, hashed and written back.
  void debugInfoRoundTrips() {
    QTemporaryDir dir;
    const std::string plain = "node { name: 'a' op: 'NoOp' }\n";
    const std::string withInfo =
        "node { name: 'a' op: 'NoOp' experimental_debug_info { original_node_names: 'x' original_node_names: 'y' "
        "original_func_names: 'f' } }\n";
    writeBytes(dir.filePath("plain.pbtxt").toStdString(), plain);
    writeBytes(dir.filePath("info.pbtxt").toStdString(), withInfo);
    Model without = mustLoad(dir.filePath("plain.pbtxt").toStdString());
    Model with = mustLoad(dir.filePath("info.pbtxt").toStdString());
    QVERIFY(!without.graph.node(0).debugInfo);
    const auto& info = with.graph.node(0).debugInfo;
    QVERIFY(info);
    QCOMPARE(info->originalNodeNames, (std::vector<std::string>{"x", "y"}));
    QCOMPARE(info->originalFuncNames, (std::vector<std::string>{"f"}));
    QVERIFY(hashGraph(with.graph) != hashGraph(without.graph));
    const std::string out = dir.filePath("out.pb").toStdString();
    QVERIFY(writeGraph(with.graph, out).isOk());
    Model again = mustLoad(out);
    QVERIFY(again.graph.node(0).debugInfo);
    QCOMPARE(again.graph.node(0).debugInfo->originalNodeNames, info->originalNodeNames);
    QCOMPARE(hashGraph(again.graph), hashGraph(with.graph));
  }

  void writesAreAtomic() {
    Model m = mustLoad(dataFile("small_mlp.pbtxt"));
    QTemporaryDir dir;
    std::string out = dir.filePath("graph.pb").toStdString();
    writeBytes(out, "previous content");
    QVERIFY(writeGraph(m.graph, out).isOk());
    QVERIFY(readText(out) != "previous content");
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);  // no temporary left behind
    Status failed = writeGraph(m.graph, dir.filePath("no/such/dir/graph.pb").toStdString());
    QVERIFY(!failed.isOk());
    QVERIFY(failed.message().find("no/such/dir/graph.pb") != std::string::npos);
  }

  void savedModelWithVariables() {
    QTemporaryDir dir;
    writeSavedModel(dir.path().toStdString());
    Model m = mustLoad(dir.path().toStdString());
    QCOMPARE(QString::fromStdString(m.format), QString("SavedModel"));
    QCOMPARE(m.tags, std::vector<std::string>{"serve"});
    QCOMPARE(m.signatures.size(), size_t(1));
    QCOMPARE(QString::fromStdString(m.signatures[0].inputs[0].tensorName), QString("x:0"));
    QCOMPARE(m.variables.size(), size_t(2));
    for (const auto& v : m.variables) {
      QVERIFY(v.value.isValid());
      QCOMPARE(v.node, v.checkpointKey);
    }
    QVERIFY(m.warnings.empty());
    // The saved_model.pb file itself opens the same way (content sniffing, variables found beside it).
    Model viaFile = mustLoad(dir.filePath("saved_model.pb").toStdString());
    QCOMPARE(viaFile.variables.size(), size_t(2));
  }

  void savedModelFreezes() {
    QTemporaryDir dir;
    writeSavedModel(dir.path().toStdString());
    Model m = mustLoad(dir.path().toStdString());
    auto frozen = freezeModel(m);
    QVERIFY(frozen.hasValue());
    QCOMPARE(frozen->frozenVariables, size_t(2));
    const Node* w = frozen->graph.findNode("w");
    QCOMPARE(QString::fromStdString(w->op), QString("Const"));
    QCOMPARE(w->attr("value")->tensor().data<float>()[0], 0.5f);
  }

  void savedModelProblems_data() {
    QTest::addColumn<int>("caseId");
    QTest::addColumn<QString>("expected");
    QTest::newRow("corrupt checksum") << 0 << "variable 'b': checksum mismatch";
    QTest::newRow("missing data shard") << 1 << "variables.data-00000-of-00001";
    QTest::newRow("wrong tag") << 2 << "no meta graph has the tag 'serve'; available tag sets: {train}";
  }
  void savedModelProblems() {
    QFETCH(int, caseId);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    SavedModelOptions options;
    options.corruptChecksum = caseId == 0;
    options.dropDataShard = caseId == 1;
    if (caseId == 2) options.tag = "train";
    writeSavedModel(dir.path().toStdString(), options);
    LoadOptions load;
    load.tag = "serve";  // asked for explicitly
    auto model = loadModel(dir.path().toStdString(), load);
    QString error = model ? QString("<loaded>") : QString::fromStdString(model.status().message());
    QVERIFY2(error.contains(expected), qPrintable(error));
  }

  void savedModelWithoutServeTagOpensByDefault() {
    QTemporaryDir dir;
    SavedModelOptions options;
    options.tag = "train";
    writeSavedModel(dir.path().toStdString(), options);
    Model m = mustLoad(dir.path().toStdString());
    QCOMPARE(m.tags, std::vector<std::string>{"train"});
    QVERIFY(contains(m.warnings, "no meta graph is tagged 'serve'"));
  }

  void savedModelMissingVariable() {
    QTemporaryDir dir;
    SavedModelOptions options;
    options.variables = {{"w", 0.5f}};
    writeSavedModel(dir.path().toStdString(), options);
    Model m = mustLoad(dir.path().toStdString());  // still shown
    QVERIFY(contains(m.warnings, "variable node 'b' has no value in the checkpoint"));
    auto frozen = freezeModel(m);
    QVERIFY(frozen.hasValue());  // 'b' stays a VariableV2: nothing is invented
    QCOMPARE(QString::fromStdString(frozen->graph.findNode("b")->op), QString("VariableV2"));
  }

  void metaGraphBinaryAndText() {
    QTemporaryDir dir;
    writeMetaGraph(dir.filePath("model.meta").toStdString(), false);
    writeMetaGraph(dir.filePath("model.meta.pbtxt").toStdString(), true);
    for (const char* name : {"model.meta", "model.meta.pbtxt"}) {
      Model m = mustLoad(dir.filePath(name).toStdString());
      QCOMPARE(QString::fromStdString(m.format), QString("MetaGraphDef"));
      QCOMPARE(m.graph.size(), size_t(7));
      QCOMPARE(m.tags, std::vector<std::string>{"serve"});
      QCOMPARE(m.signatures.size(), size_t(1));
      QCOMPARE(QString::fromStdString(m.signatures[0].outputs[0].tensorName), QString("y:0"));
    }
  }

  // A binary GraphDef whose first node is a Const of 2 MB (a length varint of 3 bytes, as in an optimized ONNX
  // ResNet-18 written as .pb) is a GraphDef, not a MetaGraphDef whose MetaInfoDef fails to parse.
  void binaryGraphDefStartingWithALargeConst() {
    tensorflow::GraphDef def;
    auto* big = def.add_node();
    big->set_name("fc.weight");
    big->set_op("Const");
    auto& value = (*big->mutable_attr())["value"];
    value.mutable_tensor()->set_dtype(tensorflow::DT_FLOAT);
    value.mutable_tensor()->mutable_tensor_shape()->add_dim()->set_size(512 * 1000);
    value.mutable_tensor()->set_tensor_content(std::string(512 * 1000 * 4, '\0'));
    (*big->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
    auto* y = def.add_node();
    y->set_name("y");
    y->set_op("Identity");
    y->add_input("fc.weight");
    (*y->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
    QTemporaryDir dir;
    const std::string path = dir.filePath("optimized.pb").toStdString();
    std::ofstream(path, std::ios::binary) << def.SerializeAsString();
    Model m = mustLoad(path);
    QCOMPARE(QString::fromStdString(m.format), QString("GraphDef (binary)"));
    QCOMPARE(m.graph.size(), size_t(2));
  }

  void directoryWithoutModel() {
    QTemporaryDir dir;
    QString error = loadError(dir.path().toStdString());
    QVERIFY2(error.contains("neither a SavedModel"), qPrintable(error));
  }

  void tfjsModel_data() {
    QTest::addColumn<bool>("byteArrays");
    QTest::newRow("base64 strings") << false;
    QTest::newRow("byte-array strings") << true;
  }
  void tfjsModel() {
    QFETCH(bool, byteArrays);
    QTemporaryDir dir;
    TfjsOptions options;
    options.byteArrayStrings = byteArrays;
    writeTfjsModel(dir.path().toStdString(), options);
    Model m = mustLoad(dir.filePath("model.json").toStdString());
    QCOMPARE(QString::fromStdString(m.format), QString("TF.js graph model"));
    QCOMPARE(m.graph.size(), size_t(6));
    QCOMPARE(QString::fromStdString(m.graph.findNode("y")->attr("data_format")->s()), QString("NHWC"));
    QCOMPARE(constValue(m, "W").data<float>()[3], 4.0f);
    QCOMPARE(constValue(m, "b").data<float>()[0], 1.0f);  // uint8: -1 + 0.5 * 4
    QCOMPARE(constValue(m, "b").data<float>()[1], -0.5f);
    QCOMPARE(constValue(m, "h").data<float>()[2], 1024.0f);  // float16
    QCOMPARE(m.signatures.size(), size_t(1));
    QCOMPARE(QString::fromStdString(m.signatures[0].inputs[0].tensorName), QString("x:0"));
    QVERIFY(m.missingWeights.empty());
    // A directory holding model.json opens too.
    QCOMPARE(mustLoad(dir.path().toStdString()).graph.size(), size_t(6));
  }

  void tfjsProblems() {
    QTemporaryDir dir;
    TfjsOptions truncated;
    truncated.truncateWeights = true;
    writeTfjsModel(dir.path().toStdString(), truncated);
    QString error = loadError(dir.filePath("model.json").toStdString());
    QVERIFY2(error.contains("weight 'h'") && error.contains("model.json"), qPrintable(error));

    QTemporaryDir dir2;
    TfjsOptions missing;
    missing.omitShard = true;
    writeTfjsModel(dir2.path().toStdString(), missing);
    Model m = mustLoad(dir2.filePath("model.json").toStdString());  // shown without weights
    QCOMPARE(m.missingWeights.size(), size_t(3));
    QVERIFY(contains(m.warnings, "weights.bin is missing"));
    auto frozen = freezeModel(m);
    QVERIFY(!frozen.hasValue());
    QVERIFY(frozen.status().message().find("weights have no values") != std::string::npos);

    QTemporaryDir dir3;
    writeBytes(dir3.filePath("model.json").toStdString(), "{\"modelTopology\": {\"node\": [ }");
    error = loadError(dir3.filePath("model.json").toStdString());
    QVERIFY2(error.contains("not valid JSON at byte"), qPrintable(error));
    writeBytes(dir3.filePath("model.json").toStdString(), "{\"modelTopology\": 1e999}");
    error = loadError(dir3.filePath("model.json").toStdString());
    QVERIFY2(error.contains("model.json: not valid JSON") && error.contains("number overflow"), qPrintable(error));
  }

  void badGraphFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("huge declared size") << "huge_splat.pbtxt"
                                        << "node 0 'big' (op Const): attr 'value': tensor of shape [1000000,1000000]";
    QTest::newRow("content size") << "bad_content_size.pbtxt"
                                  << "tensor_content has 4 bytes but float32 [2] needs 8";
    QTest::newRow("text syntax") << "malformed.pbtxt"
                                 << "line 3, column";
  }
  void badGraphFiles() {
    QFETCH(QString, file);
    QFETCH(QString, expected);
    QString error = loadError(dataFile(file.toUtf8().constData()));
    QVERIFY2(error.contains(expected), qPrintable(error));
    QVERIFY2(error.contains(file), qPrintable(error));  // names the file
  }

  void verifierProblemsAreReported_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("cycle") << "cycle.pbtxt"
                           << "cycle in the graph's edges";
    QTest::newRow("dangling") << "dangling.pbtxt"
                              << "input 0 'missing_node' names no node";
    QTest::newRow("dangling control") << "dangling.pbtxt"
                                      << "control input '^also_missing' names no node";
  }
  void verifierProblemsAreReported() {
    QFETCH(QString, file);
    QFETCH(QString, expected);
    Model m = mustLoad(dataFile(file.toUtf8().constData()));  // a viewer still shows it
    QVERIFY2(contains(m.problems, expected.toUtf8().constData()), m.problems.empty() ? "none" : m.problems[0].c_str());
  }

  void unknownOpsLoad() {
    Model m = mustLoad(dataFile("unknown_op.pbtxt"));
    QCOMPARE(m.graph.size(), size_t(2));
    QVERIFY(contains(m.warnings, "MyCompanyCustomOp"));
    QCOMPARE(QString::fromStdString(m.graph.findNode("custom")->attr("flavour")->s()), QString("vanilla"));
  }

  void truncatedBinary() {
    Model m = mustLoad(dataFile("small_mlp.pbtxt"));
    auto bytes = serializeGraph(m.graph, GraphFormat::kBinary);
    QVERIFY(bytes.hasValue());
    QTemporaryDir dir;
    std::string path = dir.filePath("truncated.pb").toStdString();
    writeBytes(path, bytes->substr(0, bytes->size() / 2));
    QString error = loadError(path);
    QVERIFY2(error.contains("truncated.pb") && error.contains("byte offset") && error.contains("GraphDef.node["),
             qPrintable(error));
  }

  // A large GraphDef parses in pieces on several threads: the same message as one parse, functions and versions
  // included, on an arena or not; a broken file gets the one-piece parse's error.
  void graphDefParsesInPieces() {
    auto bytes = serializeGraph(mustLoad(dataFile("functions.pbtxt")).graph, GraphFormat::kBinary);
    QVERIFY(bytes.hasValue());
    tensorflow::GraphDef whole;
    QVERIFY(parseBinaryProto(*bytes, &whole, "f.pb").isOk());
    QVERIFY(whole.node_size() >= 3 && whole.library().function_size() == 2 && whole.has_versions());
    google::protobuf::Arena arena;
    for (size_t pieces : {size_t(2), size_t(3), size_t(64)}) {
      tensorflow::GraphDef heap;
      auto* onArena = google::protobuf::Arena::CreateMessage<tensorflow::GraphDef>(&arena);
      for (tensorflow::GraphDef* graph : {&heap, onArena}) {
        QVERIFY(parseGraphDefInPieces(*bytes, graph, "f.pb", pieces).isOk());
        QCOMPARE(QString::fromStdString(graph->DebugString()), QString::fromStdString(whole.DebugString()));
      }
    }
    const std::string broken = bytes->substr(0, bytes->size() - 3);
    tensorflow::GraphDef a, b;
    Status one = parseBinaryProto(broken, &a, "f.pb"), split = parseGraphDefInPieces(broken, &b, "f.pb", 3);
    QVERIFY(!one.isOk());
    QCOMPARE(QString::fromStdString(split.message()), QString::fromStdString(one.message()));
  }

  // A large file is read in pieces on the intra-op threads into a buffer that was not zero-filled: every byte
  // arrives, and errors name the path and the cause.
  void readsFileBytesInPieces() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("big.bin").toStdString();
    std::string content(static_cast<size_t>(21u << 20) + 3, '\0');  // three pieces, the last one short
    uint32_t state = 12345;
    for (char& c : content) c = static_cast<char>((state = state * 1664525u + 1013904223u) >> 24);
    writeBytes(path, content);
    setIntraOpThreads(2);
    auto bytes = readFileBytes(path);
    QVERIFY(bytes.hasValue());
    QCOMPARE(bytes->size, content.size());
    QVERIFY(bytes->view() == content);
    auto tooLarge = readFileBytes(path, 1000);
    QVERIFY(!tooLarge && tooLarge.status().code() == ErrorCode::kOutOfRange);
    QCOMPARE(tooLarge.status().message(), path + ": file is 22 MB, more than the 1 KB supported");
    auto missing = readFileBytes(dir.filePath("none.bin").toStdString());
    QVERIFY(!missing &&
            missing.status().message().find("none.bin: cannot open for reading: No such file") != std::string::npos);
    auto directory = readFileBytes(dir.path().toStdString());
    QVERIFY(!directory && directory.status().message().find("not a regular file") != std::string::npos);
  }

  // Broken .npy files get an error naming the file and the problem, never an exception: among them the 20-digit
  // dimension the npy fuzzer found (std::stoll threw out_of_range) and a header longer than NumPy reads.
  void npyProblems_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    auto npy = [](const QByteArray& header, const QByteArray& body = {}) {
      QByteArray out("\x93NUMPY\x01\x00", 8);
      out.append(char(header.size() & 0xff)).append(char(header.size() >> 8)).append(header).append(body);
      return out;
    };
    QTest::newRow("magic") << QByteArray("NUMPY\x01\x00\x10\x00{}", 12) << "not a .npy file (bad magic)";
    QTest::newRow("truncated") << npy("{'descr': '<f4'").left(14) << "truncated .npy header";
    QTest::newRow("huge dimension")
        << npy("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999, 3), }")
        << "shape dimension 99999999999999999999 is out of range";
    QTest::newRow("long header") << npy(QByteArray(20000, ' ')) << ".npy header is 20000 bytes, more than the 10000";
    QTest::newRow("short data") << npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", "1234")
                                << "holds 4 data bytes, shape [2] needs 8";
    QTest::newRow("dtype") << npy("{'descr': '<c16', 'fortran_order': False, 'shape': (2,), }")
                           << "unsupported .npy dtype '<c16'";
  }
  void npyProblems() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const std::string path = dir.filePath("bad.npy").toStdString();
    writeBytes(path, bytes.toStdString());
    auto tensor = readNpy(path);
    QVERIFY(!tensor);
    const QString message = QString::fromStdString(tensor.status().message());
    QVERIFY2(message.startsWith(QString::fromStdString(path) + ": ") && message.contains(expected),
             qPrintable(message));
  }

  void wireTypeErrors() {
    tensorflow::GraphDef graph;
    // A mismatched wire type is an unknown field for protobuf (kept, not an error), as TensorFlow reads it.
    QVERIFY(parseBinaryProto(std::string("\x08\x01", 2), &graph, "x.pb").isOk());
    // A NodeDef that claims more bytes than the file holds.
    Status s = parseBinaryProto(std::string("\x0a\x05\x0a\x01", 4), &graph, "x.pb");
    QVERIFY(!s.isOk());
    QVERIFY2(s.message().find("x.pb: malformed protobuf at byte offset 0 in GraphDef.node[0]: length-delimited field "
                              "claims 5 bytes but only 2 remain") != std::string::npos,
             s.message().c_str());
    // Inside a NodeDef: the name field (a string) holds a varint.
    s = parseBinaryProto(std::string("\x0a\x02\x08\x01", 4), &graph, "x.pb");
    QVERIFY(s.isOk());
    // A NodeDef whose name is not UTF-8.
    s = parseBinaryProto(std::string("\x0a\x03\x0a\x01\xff", 5), &graph, "x.pb");
    QVERIFY2(s.message().find("GraphDef.node[0].name: string field is not valid UTF-8") != std::string::npos,
             s.message().c_str());
  }

  void emptyAndUnknownFiles() {
    QTemporaryDir dir;
    std::string empty = dir.filePath("empty.pb").toStdString();
    writeBytes(empty, "");
    QVERIFY(loadError(empty).contains("file is empty"));
    std::string noise = dir.filePath("noise.bin").toStdString();
    writeBytes(noise, std::string("\xff\xfe\xfd\xfc garbage", 12));
    QVERIFY(loadError(noise).contains("unrecognized format"));
    QVERIFY(loadError(dir.filePath("absent.pb").toStdString()).contains("no such file"));
  }
};

QTEST_APPLESS_MAIN(TestLoaders)
#include "tst_loaders.moc"
