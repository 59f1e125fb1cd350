// Op schema table: coverage of tf-compat.md §4 and the corpus's ops, arity resolution, defaults, categories.
#include <QtTest>

#include "ir/verify.h"
#include "ops/op_registry.h"

using namespace flowscope;

class TestOps : public QObject {
  Q_OBJECT

 private slots:
  void coversSpecAndCorpusOps_data() {
    QTest::addColumn<QString>("op");
    // tf-compat.md §4 plus every op that a corpus graph or function body uses.
    const char* ops[] = {"Const",
                         "Placeholder",
                         "PlaceholderWithDefault",
                         "Identity",
                         "IdentityN",
                         "StopGradient",
                         "NoOp",
                         "Snapshot",
                         "Add",
                         "AddV2",
                         "Sub",
                         "Mul",
                         "RealDiv",
                         "Div",
                         "FloorDiv",
                         "FloorMod",
                         "Maximum",
                         "Minimum",
                         "Pow",
                         "SquaredDifference",
                         "Equal",
                         "NotEqual",
                         "Less",
                         "LessEqual",
                         "Greater",
                         "GreaterEqual",
                         "LogicalAnd",
                         "LogicalOr",
                         "LogicalNot",
                         "Neg",
                         "Abs",
                         "Exp",
                         "Log",
                         "Sqrt",
                         "Rsqrt",
                         "Square",
                         "Reciprocal",
                         "Tanh",
                         "Sigmoid",
                         "Erf",
                         "Floor",
                         "Ceil",
                         "Round",
                         "Sign",
                         "Sin",
                         "Cos",
                         "Softplus",
                         "Relu",
                         "Relu6",
                         "Elu",
                         "Selu",
                         "LeakyRelu",
                         "AddN",
                         "ClipByValue",
                         "Cast",
                         "Select",
                         "SelectV2",
                         "MatMul",
                         "BatchMatMulV2",
                         "BatchMatMul",
                         "BiasAdd",
                         "Conv2D",
                         "DepthwiseConv2dNative",
                         "Conv2DBackpropInput",
                         "MaxPool",
                         "AvgPool",
                         "FusedBatchNorm",
                         "FusedBatchNormV3",
                         "Softmax",
                         "LogSoftmax",
                         "LRN",
                         "Reshape",
                         "Squeeze",
                         "ExpandDims",
                         "Shape",
                         "Size",
                         "Rank",
                         "Transpose",
                         "ConcatV2",
                         "Pack",
                         "Unpack",
                         "Split",
                         "SplitV",
                         "Slice",
                         "StridedSlice",
                         "Tile",
                         "Fill",
                         "ZerosLike",
                         "OnesLike",
                         "BroadcastTo",
                         "Pad",
                         "PadV2",
                         "MirrorPad",
                         "GatherV2",
                         "GatherNd",
                         "Range",
                         "OneHot",
                         "Sum",
                         "Mean",
                         "Max",
                         "Min",
                         "Prod",
                         "ArgMax",
                         "ArgMin",
                         "TopKV2",
                         "Cumsum",
                         "ResizeBilinear",
                         "ResizeNearestNeighbor",
                         "If",
                         "StatelessIf",
                         "While",
                         "StatelessWhile",
                         "Case",
                         "PartitionedCall",
                         "StatefulPartitionedCall",
                         "Switch",
                         "Merge",
                         "Enter",
                         "Exit",
                         "NextIteration",
                         "LoopCond",
                         "VariableV2",
                         "Assign",
                         "VarHandleOp",
                         "ReadVariableOp",
                         "AssignVariableOp",
                         "RestoreV2",
                         "SaveV2",
                         "_FusedConv2D",
                         "_FusedMatMul",
                         "_Arg",
                         "_Retval",
                         "AssignAddVariableOp",
                         "AudioSpectrogram",
                         "BroadcastGradientArgs",
                         "DecodeWav",
                         "DisableCopyOnRead",
                         "FusedDepthwiseConv2dNative",
                         "MergeV2Checkpoints",
                         "Mfcc",
                         "NonMaxSuppressionV5",
                         "ParseExample",
                         "ParseExampleV2",
                         "RandomUniform",
                         "ResourceApplyGradientDescent",
                         "ScatterNd",
                         "ShardedFilename",
                         "SparseToDense",
                         "StaticRegexFullMatch",
                         "StringJoin",
                         "TensorArrayReadV3",
                         "TensorArrayScatterV3",
                         "TensorArrayV3",
                         "TensorListFromTensor",
                         "TensorListGetItem",
                         "TensorListReserve",
                         "TensorListSetItem",
                         "TensorListStack",
                         "VarIsInitializedOp",
                         "Where",
                         "_FusedDepthwiseConv2dNative"};
    for (const char* op : ops) QTest::newRow(op) << QString(op);
  }
  void coversSpecAndCorpusOps() {
    QFETCH(QString, op);
    const OpSchema* schema = OpRegistry::global().find(op.toStdString());
    QVERIFY2(schema, qPrintable(op));
    QCOMPARE(QString::fromStdString(schema->def.name), op);
    QVERIFY(!schema->def.summary.empty());
    QVERIFY(schema->category != OpCategory::kUnknown);
  }

  void everySchemaIsConsistent() {
    for (const auto& schema : OpRegistry::global().all()) {
      for (const auto* args : {&schema.def.inputs, &schema.def.outputs}) {
        for (const auto& arg : *args) {
          for (const std::string* attr : {&arg.typeAttr, &arg.numberAttr, &arg.typeListAttr})
            QVERIFY2(attr->empty() || schema.def.findAttr(*attr),
                     qPrintable(QString::fromStdString(schema.def.name + "." + arg.name + " -> " + *attr)));
        }
      }
    }
    QVERIFY(OpRegistry::global().all().size() > 180);
  }

  void flagsFromTable() {
    const OpRegistry& r = OpRegistry::global();
    QVERIFY(r.find("AddV2")->def.isCommutative);
    QVERIFY(!r.find("Sub")->def.isCommutative);
    QVERIFY(r.find("VarHandleOp")->def.isStateful);
    QVERIFY(r.find("StatefulPartitionedCall")->def.isStateful);
    QVERIFY(!r.find("PartitionedCall")->def.isStateful);
    QVERIFY(r.find("RandomUniform")->def.isStateful);
    QVERIFY(r.find("VariableV2")->def.outputs[0].isRef);
  }

  void flattenArgsByNumberAndTypeList() {
    const OpDef& concat = OpRegistry::global().find("ConcatV2")->def;
    AttrMap attrs{{"N", AttrValue::fromInt(3)},
                  {"T", AttrValue::fromType(DType::kFloat)},
                  {"Tidx", AttrValue::fromType(DType::kInt32)}};
    auto flat = flattenArgs(concat.inputs, attrs);
    QVERIFY(flat.hasValue());
    QCOMPARE(flat->size(), size_t(4));
    QCOMPARE((*flat)[3].dtype, DType::kInt32);
    QCOMPARE((*flat)[2].indexInArg, 2);

    const OpDef& ifOp = OpRegistry::global().find("If")->def;
    AttrList tin;
    tin.type = {DType::kFloat, DType::kInt64};
    AttrMap ifAttrs{{"Tcond", AttrValue::fromType(DType::kBool)}, {"Tin", AttrValue::fromList(tin)}};
    auto ifFlat = flattenArgs(ifOp.inputs, ifAttrs);
    QVERIFY(ifFlat.hasValue());
    QCOMPARE(ifFlat->size(), size_t(3));
    QCOMPARE((*ifFlat)[2].dtype, DType::kInt64);

    auto missing = flattenArgs(concat.inputs, AttrMap{});
    QVERIFY(!missing.hasValue());
    QVERIFY(missing.status().message().find("missing attr 'N'") != std::string::npos);
  }

  void defaultsAreFilled() {
    Node conv;
    conv.name = "conv";
    conv.op = "Conv2D";
    conv.attrs["T"] = AttrValue::fromType(DType::kFloat);
    int added = fillDefaultAttrs(conv, OpRegistry::global().find("Conv2D")->def);
    QVERIFY(added >= 4);
    QCOMPARE(QString::fromStdString(conv.attrs.at("data_format").s()), QString("NHWC"));
    QCOMPARE(conv.attrs.at("dilations").list().i, (std::vector<int64_t>{1, 1, 1, 1}));
    QCOMPARE(conv.attrs.at("use_cudnn_on_gpu").b(), true);
    QVERIFY(!conv.attrs.count("padding"));  // no default: must come from the file
    Node leaky;
    leaky.op = "LeakyRelu";
    fillDefaultAttrs(leaky, OpRegistry::global().find("LeakyRelu")->def);
    QCOMPARE(leaky.attrs.at("alpha").f(), 0.2f);
    QCOMPARE(leaky.attrs.at("T").type(), DType::kFloat);
  }

  void unknownOpsAndLibraryFunctions() {
    const OpRegistry& r = OpRegistry::global();
    QVERIFY(!r.find("Foo"));
    QCOMPARE(r.categoryOf("Foo", nullptr), OpCategory::kUnknown);
    FunctionLibrary library;
    FunctionDef f;
    f.signature.name = "Add";  // shadows a built-in op, as graphdef_foo.pbtxt does
    library.add(f);
    QCOMPARE(r.categoryOf("Add", &library), OpCategory::kFunctionCall);
    QCOMPARE(r.categoryOf("Add", nullptr), OpCategory::kElementwise);
    Graph g;
    g.library = library;
    Node foo;
    foo.name = "foo";
    foo.op = "Foo";
    g.addNode(foo);
    QCOMPARE(r.unknownOpsIn(g), std::vector<std::string>{"Foo"});
  }
};

QTEST_APPLESS_MAIN(TestOps)
#include "tst_ops.moc"
