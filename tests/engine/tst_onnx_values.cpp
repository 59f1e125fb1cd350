// ONNX values beyond dense tensors: sparse initializers and sparse_value constants (densified, written back
// sparse), sequence-typed graph inputs and outputs (shown, fed and fetched as TensorLists), optionals, and TypeProto
// attributes (kept verbatim for the writer).
#include <QtTest>

#include "engine/onnx_test_util.h"
#include "engine/test_paths.h"
#include "exec/model_runner.h"
#include "exec/resource_manager.h"
#include "io/loader.h"
#include "io/onnx_model.h"
#include "io/onnx_writer.h"
#include "ir/hash.h"
#include "ops/onnx_op_set.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

// A 2x3 float sparse tensor with values at linear indices `at`.
onnx::SparseTensorProto sparse(const std::string& name, const std::vector<int64_t>& at,
                               const std::vector<float>& values) {
  onnx::SparseTensorProto s;
  s.add_dims(2);
  s.add_dims(3);
  auto* v = s.mutable_values();
  v->set_name(name);
  v->set_data_type(onnx::TensorProto::FLOAT);
  v->add_dims(static_cast<int64_t>(values.size()));
  for (float f : values) v->add_float_data(f);
  auto* i = s.mutable_indices();
  i->set_data_type(onnx::TensorProto::INT64);
  i->add_dims(static_cast<int64_t>(at.size()));
  for (int64_t k : at) i->add_int64_data(k);
  return s;
}

// y = x + w + c: w a sparse initializer, c a Constant with a sparse_value.
onnx::ModelProto sparseModel(const onnx::SparseTensorProto& w) {
  onnx::ModelProto m = onnxModel();
  auto* g = m.mutable_graph();
  addValue(g->mutable_input(), "x", {2, 3});
  addValue(g->mutable_output(), "y", {2, 3});
  *g->add_sparse_initializer() = w;
  auto* constant = addNode(g, "Constant", {}, {"c"}, "c");
  auto* attr = constant->add_attribute();
  attr->set_name("sparse_value");
  attr->set_type(onnx::AttributeProto::SPARSE_TENSOR);
  *attr->mutable_sparse_tensor() = sparse("", {0, 5}, {10, 20});
  addNode(g, "Add", {"x", "w"}, {"s"}, "add_w");
  addNode(g, "Add", {"s", "c"}, {"y"}, "add_c");
  return m;
}

std::string writeModel(const QTemporaryDir& dir, const char* name, const onnx::ModelProto& m) {
  const std::string path = dir.filePath(name).toStdString();
  writeBytes(path, m.SerializeAsString());
  return path;
}

void expectLoadError(const std::string& path, const std::string& expected) {
  auto model = loadModel(path);
  QVERIFY2(!model.hasValue(), ("loaded " + path).c_str());
  QVERIFY2(model.status().message().find(expected) != std::string::npos, model.status().message().c_str());
}

void setSequenceType(onnx::ValueInfoProto* v, const std::string& name) {
  v->set_name(name);
  v->mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::FLOAT);
}

// y = SequenceAt(SequenceInsert(seq, x), 0) and the grown sequence as a second output.
onnx::ModelProto sequenceModel() {
  onnx::ModelProto m = onnxModel();
  auto* g = m.mutable_graph();
  setSequenceType(g->add_input(), "seq");
  addValue(g->mutable_input(), "x", {2});
  addValue(g->mutable_output(), "first", {2});
  setSequenceType(g->add_output(), "grown");
  addNode(g, "SequenceInsert", {"seq", "x"}, {"grown"}, "insert");
  auto* zero = addNode(g, "Constant", {}, {"zero"}, "zero");
  auto* attr = zero->add_attribute();
  attr->set_name("value_int");
  attr->set_type(onnx::AttributeProto::INT);
  attr->set_i(0);
  addNode(g, "SequenceAt", {"grown", "zero"}, {"first"}, "at");
  addNode(g, "Optional", {"grown"}, {"wrapped"}, "wrap");  // an optional holding the sequence
  return m;
}

Tensor floats(const Shape& shape, std::vector<float> values) {
  Tensor t(DType::kFloat, shape);
  std::copy(values.begin(), values.end(), t.data<float>());
  return t;
}

}  // namespace

class TestOnnxValues : public QObject {
  Q_OBJECT

 private slots:
  void sparseTensorsAreDensifiedAndWrittenBackSparse() {
    QTemporaryDir dir;
    const std::string path = writeModel(dir, "sparse.onnx", sparseModel(sparse("w", {1, 3, 4}, {1, 2, 3})));
    auto model = loadForTest(path);
    const Node* w = model->graph.findNode("w");
    QVERIFY(w && w->attr(kOnnxSparseAttr));
    ModelRunner runner(model);
    auto out = runner.run({{"x:0", floats(Shape{2, 3}, {0, 0, 0, 0, 0, 0})}}, {"add_c:0"});
    QVERIFY2(out.hasValue(), out.status().message().c_str());
    const std::vector<float> expected{10, 1, 0, 2, 3, 20};  // w at 1, 3, 4; the constant at 0 and 5
    for (int i = 0; i < 6; ++i) QCOMPARE((*out)[0].data<float>()[i], expected[static_cast<size_t>(i)]);

    auto written = modelToOnnx(*model);
    QVERIFY2(written.hasValue(), written.status().message().c_str());
    QCOMPARE(written->graph().sparse_initializer_size(), 1);
    QCOMPARE(written->graph().initializer_size(), 0);
    QCOMPARE(written->graph().sparse_initializer(0).values().name(), std::string("w"));
    QCOMPARE(written->graph().node(0).attribute(0).type(), onnx::AttributeProto::SPARSE_TENSOR);
    const std::string again = dir.filePath("again.onnx").toStdString();
    QVERIFY(writeOnnx(*model, again).isOk());
    QCOMPARE(hashGraph(loadForTest(again)->graph), hashGraph(model->graph));
  }

  void brokenSparseTensorsAreNamed() {
    QTemporaryDir dir;
    expectLoadError(writeModel(dir, "range.onnx", sparseModel(sparse("w", {1, 6}, {1, 2}))),
                    "sparse initializer 'w': index 1 is 6, outside the 6 elements of [2,3]");
    expectLoadError(writeModel(dir, "order.onnx", sparseModel(sparse("w", {4, 2}, {1, 2}))),
                    "sparse initializer 'w': index 1 (2) does not follow the one before in ascending order");
    expectLoadError(writeModel(dir, "count.onnx", sparseModel(sparse("w", {1, 2, 3}, {1, 2}))),
                    "sparse initializer 'w': indices have shape [3]");
    onnx::SparseTensorProto empty = sparse("w", {1, 3}, {1, 2});  // raw_data present but empty: libonnx 1.12's
    empty.mutable_indices()->set_raw_data("");                    // checker read past it (found by fuzzing)
    expectLoadError(writeModel(dir, "empty.onnx", sparseModel(empty)), "raw_data has 0 bytes");
    onnx::SparseTensorProto huge = sparse("w", {1}, {1});
    huge.set_dims(0, int64_t{1} << 40);
    expectLoadError(writeModel(dir, "huge.onnx", sparseModel(huge)), "sparse initializer 'w': dense shape");
  }

  void sequencesAreShownFedAndFetched() {
    QTemporaryDir dir;
    const std::string path = writeModel(dir, "seq.onnx", sequenceModel());
    auto model = loadForTest(path);
    const Node* seq = model->graph.findNode("seq");
    QVERIFY(seq && seq->attr(kOnnxTypeAttr));
    QCOMPARE(seq->attr(kOnnxTypeAttr)->s(), std::string("seq(tensor(float))"));
    QCOMPARE(model->signatures[0].inputs[0].dtype, DType::kVariant);
    const Node* insert = model->graph.findNode("insert");  // a node's sequence output shows its type too
    QVERIFY(insert && insert->attr(kOnnxTypeAttr));
    QCOMPARE(insert->attr(kOnnxTypeAttr)->s(), std::string("seq(tensor(float))"));
    ModelRunner runner(model);
    const Tensor handle = ResourceManager::variantTensor(runner.resources().newTensorList({floats(Shape{2}, {7, 8})}));
    auto out = runner.run({{"seq:0", handle}, {"x:0", floats(Shape{2}, {1, 2})}}, {"at:0", "insert:0", "wrap:0"});
    QVERIFY2(out.hasValue(), out.status().message().c_str());
    QCOMPARE((*out)[0].data<float>()[0], 7.0f);  // the fed element stays first; x went to the back
    auto grown = runner.sequenceOf((*out)[1]);
    QVERIFY2(grown, "a fetched sequence stays readable after the run");
    QCOMPARE(grown->size(), size_t{2});
    QCOMPARE((*grown)[1].data<float>()[1], 2.0f);
    auto wrapped = runner.sequenceOf((*out)[2]);
    QVERIFY(ModelRunner::isOptional((*out)[2]) && wrapped && wrapped->size() == 1);
    QVERIFY2(runner.sequenceOf((*wrapped)[0]), "the sequence inside a fetched optional stays readable too");

    auto written = modelToOnnx(*model);
    QVERIFY2(written.hasValue(), written.status().message().c_str());
    QVERIFY(written->graph().input(0).type().has_sequence_type());
    QVERIFY(written->graph().output(1).type().has_sequence_type());
  }

  void optionalsRunAndTheirTypeAttributeIsKept() {
    onnx::ModelProto m = onnxModel();
    auto* g = m.mutable_graph();
    addValue(g->mutable_input(), "x", {2});
    auto* out = g->add_output();
    out->set_name("has");
    out->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
    auto* optional = addNode(g, "Optional", {}, {"none"}, "none");
    auto* attr = optional->add_attribute();
    attr->set_name("type");
    attr->set_type(onnx::AttributeProto::TYPE_PROTO);
    attr->mutable_tp()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    addNode(g, "OptionalHasElement", {"none"}, {"has"}, "has");
    m.mutable_opset_import(0)->set_version(16);
    QTemporaryDir dir;
    auto model = loadForTest(writeModel(dir, "optional.onnx", m));
    const Node* node = model->graph.findNode("none");
    QVERIFY(node && node->attr("type"));
    QCOMPARE(node->attr("type")->s(), std::string("tensor(float)"));  // the inspector's text
    ModelRunner runner(model);
    auto run = runner.run({{"x:0", floats(Shape{2}, {1, 2})}}, {"has:0", "none:0"});
    QVERIFY2(run.hasValue(), run.status().message().c_str());
    QCOMPARE((*run)[0].data<bool>()[0], false);  // an optional made without a value
    QVERIFY(ModelRunner::isOptional((*run)[1]));
    QVERIFY(runner.sequenceOf((*run)[1]) && runner.sequenceOf((*run)[1])->empty());
    auto written = modelToOnnx(*model);
    QVERIFY2(written.hasValue(), written.status().message().c_str());
    const auto& kept = written->graph().node(0).attribute(0);
    QCOMPARE(kept.type(), onnx::AttributeProto::TYPE_PROTO);
    QCOMPARE(kept.tp().tensor_type().elem_type(), static_cast<int32_t>(onnx::TensorProto::FLOAT));
  }
};

QTEST_GUILESS_MAIN(TestOnnxValues)
#include "tst_onnx_values.moc"
