// Vulkan op lowering: shapes and dispatches per op.
#include "exec/vulkan/vulkan_ops.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>

#include "exec/kernel_util.h"
#include "exec/vulkan/lowering_util.h"

namespace flowscope::vk {
namespace {

// Activation codes of activation.glsl.
enum Act : uint32_t { kNone = 0, kRelu = 1, kRelu6 = 2, kElu = 3, kLeakyRelu = 4, kTanh = 5, kSigmoid = 6 };

// ---- elementwise ----

const std::map<std::string, uint32_t>& binaryCodes() {
  static const std::map<std::string, uint32_t> codes = {{"Add", 0},     {"AddV2", 0},   {"Sub", 1},
                                                        {"Mul", 2},     {"RealDiv", 3}, {"Div", 3},
                                                        {"Maximum", 4}, {"Minimum", 5}, {"SquaredDifference", 6},
                                                        {"Pow", 7}};
  return codes;
}

const std::map<std::string, uint32_t>& unaryCodes() {
  static const std::map<std::string, uint32_t> codes = {
      {"Relu", kRelu},  {"Relu6", kRelu6},     {"Elu", kElu},        {"LeakyRelu", kLeakyRelu},
      {"Tanh", kTanh},  {"Sigmoid", kSigmoid}, {"Exp", 16},          {"Log", 17},
      {"Neg", 18},      {"Sqrt", 19},          {"Rsqrt", 20},        {"Square", 21},
      {"Abs", 22},      {"Softplus", 23},      {"Reciprocal", 24},   {"Inv", 24},
      {"Identity", 25}, {"Snapshot", 25},      {"StopGradient", 25}, {"Floor", 26},
      {"Ceil", 27},     {"Round", 28},         {"Sign", 29},         {"Sin", 30},
      {"Cos", 31},      {"Softsign", 32},      {"Selu", 33},         {"Expm1", 34},
      {"Log1p", 35}};
  return codes;
}

// binary.comp on `a` and `b` with NumPy broadcasting, reading inputs 0 and 1 into output 0.
Expected<LoweredNode> broadcastBinary(const NodeView& v, uint32_t code, const Shape& a, const Shape& b) {
  const int rank = std::max(a.rank(), b.rank());
  if (rank > 5) return fail(v, "broadcasting above rank 5 is not supported on Vulkan");
  std::vector<int64_t> dims(static_cast<size_t>(rank));
  Dispatch d = make(ShaderId::kBinary, {in(0), in(1), out(0)}, {code, 0, static_cast<uint32_t>(rank)});
  const auto sa = stridesOf(a), sb = stridesOf(b);
  for (int k = 0; k < rank; ++k) {
    const int ia = k - (rank - a.rank()), ib = k - (rank - b.rank());
    const int64_t da = ia >= 0 ? a.dim(ia) : 1, db = ib >= 0 ? b.dim(ib) : 1;
    if (da != db && da != 1 && db != 1)
      return fail(v, "shapes " + a.toString() + " and " + b.toString() + " do not broadcast");
    dims[static_cast<size_t>(k)] = std::max(da, db);
    d.push[3 + static_cast<size_t>(k)] = static_cast<uint32_t>(dims[static_cast<size_t>(k)]);
    d.push[8 + static_cast<size_t>(k)] = da == 1 ? 0u : static_cast<uint32_t>(sa[static_cast<size_t>(ia)]);
    d.push[13 + static_cast<size_t>(k)] = db == 1 ? 0u : static_cast<uint32_t>(sb[static_cast<size_t>(ib)]);
  }
  Shape shape(dims);
  d.push[1] = static_cast<uint32_t>(shape.numElements());
  spread(d, static_cast<uint64_t>(shape.numElements()), 256);
  return LoweredNode{{shape}, {d}};
}

Expected<LoweredNode> lowerBinary(const NodeView& v) {
  return broadcastBinary(v, binaryCodes().at(v.node.op), v.inputShapes[0], v.inputShapes[1]);
}

Dispatch unaryDispatch(uint32_t code, int64_t count, float alpha) {
  Dispatch d = make(ShaderId::kUnary, {in(0), out(0)}, {code, static_cast<uint32_t>(count), bitsOf(alpha)});
  spread(d, static_cast<uint64_t>(count), 256);
  return d;
}

Expected<LoweredNode> lowerUnary(const NodeView& v) {
  const Shape& s = v.inputShapes[0];
  const float alpha = attrFloat(v.node, "alpha", 0.2f);
  return LoweredNode{{s}, {unaryDispatch(unaryCodes().at(v.node.op), s.numElements(), alpha)}};
}

// A copy with a new shape (Reshape, Squeeze, ExpandDims).
LoweredNode copyAs(const Shape& input, Shape shape) {
  return LoweredNode{{std::move(shape)}, {unaryDispatch(25, input.numElements(), 0)}};
}

Expected<LoweredNode> lowerReshape(const NodeView& v) {
  std::vector<int64_t> dims = intValues(*v.constInputs[1]);
  int64_t known = 1;
  int unknown = -1;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (dims[k] == -1)
      unknown = static_cast<int>(k);
    else
      known *= dims[k];
  }
  const int64_t total = v.inputShapes[0].numElements();
  if (unknown >= 0 && known > 0) dims[static_cast<size_t>(unknown)] = total / known;
  Shape shape(dims);
  if (shape.numElements() != total)
    return fail(v, "cannot reshape " + v.inputShapes[0].toString() + " to " + shape.toString());
  return copyAs(v.inputShapes[0], shape);
}

Expected<LoweredNode> lowerSqueeze(const NodeView& v) {
  const Shape& s = v.inputShapes[0];
  std::vector<int64_t> axes = attrInts(v.node, "squeeze_dims");
  for (auto& a : axes) a = a < 0 ? a + s.rank() : a;
  std::vector<int64_t> dims;
  for (int k = 0; k < s.rank(); ++k) {
    const bool listed = std::find(axes.begin(), axes.end(), k) != axes.end();
    if (s.dim(k) == 1 && (axes.empty() || listed)) continue;
    if (listed) return fail(v, "cannot squeeze dimension " + std::to_string(k) + " of " + s.toString());
    dims.push_back(s.dim(k));
  }
  return copyAs(s, Shape(dims));
}

Expected<LoweredNode> lowerExpandDims(const NodeView& v) {
  const Shape& s = v.inputShapes[0];
  int64_t axis = intValues(*v.constInputs[1]).at(0);
  if (axis < 0) axis += s.rank() + 1;
  if (axis < 0 || axis > s.rank()) return fail(v, "axis out of range for " + s.toString());
  std::vector<int64_t> dims = s.dims();
  dims.insert(dims.begin() + axis, 1);
  return copyAs(s, Shape(dims));
}

Expected<LoweredNode> lowerBiasAdd(const NodeView& v) {
  const Shape& s = v.inputShapes[0];
  if (attrString(v.node, "data_format", "NHWC") != "NHWC") return fail(v, "only NHWC BiasAdd runs on Vulkan");
  const int64_t channels = s.dim(s.rank() - 1);
  if (v.inputShapes[1].numElements() != channels)
    return fail(v, "bias has " + v.inputShapes[1].toString() + ", expected [" + std::to_string(channels) + "]");
  Dispatch d = make(ShaderId::kBiasAct, {in(0), in(1), out(0)},
                    {static_cast<uint32_t>(s.numElements()), static_cast<uint32_t>(channels), kNone, 0});
  spread(d, static_cast<uint64_t>(s.numElements()), 256);
  return LoweredNode{{s}, {d}};
}

// ---- fused epilogues (_FusedMatMul, _FusedConv2D): BiasAdd, then an optional Add, then an optional activation ----

struct FusedEpilogue {
  uint32_t activation = kNone;
  float alpha = 0.2f;
  bool addend = false;  ///< input 3 is added after the bias (convolutions only)
};

Expected<FusedEpilogue> fusedEpilogue(const NodeView& v) {
  const AttrValue* ops = v.node.attr("fused_ops");
  std::vector<std::string> fused = ops ? ops->list().s : std::vector<std::string>{};
  FusedEpilogue e;
  e.addend = fused.size() >= 2 && fused[1] == "Add" && v.node.op == "_FusedConv2D";
  if (e.addend) fused.erase(fused.begin() + 1);
  if (fused.empty() || fused[0] != "BiasAdd" || fused.size() > 2)
    return fail(v, "only BiasAdd [+ Add] [+ activation] fusions run on Vulkan");
  static const std::map<std::string, uint32_t> acts = {{"Relu", kRelu}, {"Relu6", kRelu6},
                                                       {"Elu", kElu},   {"LeakyRelu", kLeakyRelu},
                                                       {"Tanh", kTanh}, {"Sigmoid", kSigmoid}};
  if (fused.size() == 2) {
    auto it = acts.find(fused[1]);
    if (it == acts.end()) return fail(v, "fused activation " + fused[1] + " is not supported on Vulkan");
    e.activation = it->second;
  }
  e.alpha = attrFloat(v.node, "leakyrelu_alpha", 0.2f);
  return e;
}

// A fused Add after the convolution's dispatch: out += input 3 (of the output's shape), then the activation, each
// in place after a barrier.
Status appendFusedAdd(const NodeView& v, const FusedEpilogue& e, const Shape& shape, LoweredNode& lowered) {
  if (v.inputShapes.size() < 4 || v.inputShapes[3] != shape)
    return fail(v, "the fused Add's addend must have the output's shape " + shape.toString());
  FS_ASSIGN_OR_RETURN(LoweredNode sum, broadcastBinary(v, binaryCodes().at("Add"), shape, shape));
  Dispatch add = sum.dispatches[0];
  add.buffers = {out(0), in(3), out(0)};
  add.barrierBefore = true;
  lowered.dispatches.push_back(add);
  if (e.activation == kNone) return Status::ok();
  Dispatch act = unaryDispatch(e.activation, shape.numElements(), e.alpha);
  act.buffers = {out(0), out(0)};
  act.barrierBefore = true;
  lowered.dispatches.push_back(act);
  return Status::ok();
}

// ---- MatMul ----

Expected<LoweredNode> lowerMatMul(const NodeView& v) {
  const std::string& op = v.node.op;
  const bool batched = op == "BatchMatMul" || op == "BatchMatMulV2" || op == "BatchMatMulV3";
  const bool ta = batched ? attrBool(v.node, "adj_x", false) : attrBool(v.node, "transpose_a", false);
  const bool tb = batched ? attrBool(v.node, "adj_y", false) : attrBool(v.node, "transpose_b", false);
  const Shape& a = v.inputShapes[0];
  const Shape& b = v.inputShapes[1];
  if (a.rank() < 2 || b.rank() < 2 || (!batched && (a.rank() != 2 || b.rank() != 2)))
    return fail(v, "matrix shapes " + a.toString() + " and " + b.toString() + " are not supported");
  const int64_t M = ta ? a.dim(a.rank() - 1) : a.dim(a.rank() - 2), K = ta ? a.dim(a.rank() - 2) : a.dim(a.rank() - 1);
  const int64_t K2 = tb ? b.dim(b.rank() - 1) : b.dim(b.rank() - 2), N = tb ? b.dim(b.rank() - 2) : b.dim(b.rank() - 1);
  if (K != K2) return fail(v, "inner dimensions differ: " + a.toString() + " x " + b.toString());
  const int64_t batchA = a.numElements() / (M * K), batchB = b.numElements() / (K * N);
  if (batchA != batchB && batchA != 1 && batchB != 1)
    return fail(v, "batch dimensions of " + a.toString() + " and " + b.toString() + " do not broadcast");
  const int64_t batch = std::max(batchA, batchB);
  std::vector<int64_t> dims = (batchA >= batchB ? a : b).dims();
  dims[dims.size() - 2] = M;
  dims[dims.size() - 1] = N;
  uint32_t hasBias = 0, act = kNone;
  float alpha = 0;
  if (op == "_FusedMatMul") {
    FS_ASSIGN_OR_RETURN(FusedEpilogue epilogue, fusedEpilogue(v));
    hasBias = 1;
    act = epilogue.activation;
    alpha = epilogue.alpha;
  }
  Dispatch d =
      make(gemmShader(v, ShaderId::kMatMul, ShaderId::kMatMulCoopMat), {in(0), in(1), hasBias ? in(2) : out(0), out(0)},
           {static_cast<uint32_t>(M), static_cast<uint32_t>(N), static_cast<uint32_t>(K),
            batchA == 1 ? 0u : static_cast<uint32_t>(M * K), batchB == 1 ? 0u : static_cast<uint32_t>(K * N), ta, tb,
            hasBias, act, bitsOf(alpha), precisionCode(v)});
  FS_RETURN_IF_ERROR(gemmGroups(v, d, M, N, batch));
  return LoweredNode{{Shape(dims)}, {d}};
}

// ---- convolution and pooling (NHWC) ----

struct Window {
  int64_t out = 0, padBefore = 0;
};

Expected<Window> window(const NodeView& v, int64_t in, int64_t k, int64_t stride, int64_t dilation,
                        const std::string& padding, int64_t explicitBefore, int64_t explicitAfter) {
  const int64_t effective = (k - 1) * dilation + 1;
  Window w;
  if (padding == "VALID") {
    w.out = (in - effective) / stride + 1;
  } else if (padding == "SAME") {
    w.out = (in + stride - 1) / stride;
    const int64_t total = std::max<int64_t>((w.out - 1) * stride + effective - in, 0);
    w.padBefore = total / 2;
  } else if (padding == "EXPLICIT") {
    w.out = (in + explicitBefore + explicitAfter - effective) / stride + 1;
    w.padBefore = explicitBefore;
  } else {
    return fail(v, "padding '" + padding + "' is not supported on Vulkan");
  }
  if (w.out <= 0) return fail(v, "the window does not fit the input");
  return w;
}

Expected<LoweredNode> lowerConv(const NodeView& v) {
  const std::string& op = v.node.op;
  const bool depthwise = op.find("DepthwiseConv2dNative") != std::string::npos;  // TF.js's fused one included
  if (attrString(v.node, "data_format", "NHWC") != "NHWC") return fail(v, "only NHWC convolutions run on Vulkan");
  const Shape& x = v.inputShapes[0];
  const Shape& f = v.inputShapes[1];
  if (x.rank() != 4 || f.rank() != 4)
    return fail(v, "expected a 4-D input and filter, got " + x.toString() + " and " + f.toString());
  const int64_t C = x.dim(3);
  if (f.dim(2) != C)
    return fail(v, "filter " + f.toString() + " does not match " + std::to_string(C) + " input channels");
  const int64_t OC = depthwise ? C * f.dim(3) : f.dim(3);
  auto strides = attrInts(v.node, "strides"), dilations = attrInts(v.node, "dilations"),
       explicitPads = attrInts(v.node, "explicit_paddings");
  if (strides.size() != 4) strides = {1, 1, 1, 1};
  if (dilations.size() != 4) dilations = {1, 1, 1, 1};
  if (explicitPads.size() != 8) explicitPads.assign(8, 0);
  const std::string padding = attrString(v.node, "padding", "VALID");
  FS_ASSIGN_OR_RETURN(
      Window h, window(v, x.dim(1), f.dim(0), strides[1], dilations[1], padding, explicitPads[2], explicitPads[3]));
  FS_ASSIGN_OR_RETURN(
      Window w, window(v, x.dim(2), f.dim(1), strides[2], dilations[2], padding, explicitPads[4], explicitPads[5]));
  uint32_t hasBias = 0, act = kNone;
  float alpha = 0;
  FusedEpilogue epilogue;
  if (op.find("Fused") != std::string::npos) {  // _FusedConv2D, _FusedDepthwiseConv2dNative, TF.js's fused depthwise
    FS_ASSIGN_OR_RETURN(epilogue, fusedEpilogue(v));
    hasBias = 1;
    act = epilogue.addend ? kNone : epilogue.activation;  // with an Add, the activation comes after it
    alpha = epilogue.alpha;
  }
  const Shape shape{x.dim(0), h.out, w.out, OC};
  // Depthwise: one output per invocation, in fp32; the others: an implicit GEMM of the patches and the filter.
  Dispatch d =
      make(depthwise ? ShaderId::kDepthwiseConv2D : gemmShader(v, ShaderId::kConv2DGemm, ShaderId::kConv2DGemmCoopMat),
           {in(0), in(1), hasBias ? in(2) : out(0), out(0)},
           {static_cast<uint32_t>(x.dim(0)), static_cast<uint32_t>(x.dim(1)), static_cast<uint32_t>(x.dim(2)),
            static_cast<uint32_t>(C), static_cast<uint32_t>(f.dim(0)), static_cast<uint32_t>(f.dim(1)),
            static_cast<uint32_t>(h.out), static_cast<uint32_t>(w.out), static_cast<uint32_t>(OC),
            static_cast<uint32_t>(strides[1]), static_cast<uint32_t>(strides[2]), static_cast<uint32_t>(dilations[1]),
            static_cast<uint32_t>(dilations[2]), static_cast<uint32_t>(h.padBefore), static_cast<uint32_t>(w.padBefore),
            hasBias, act, bitsOf(alpha), precisionCode(v)});
  if (depthwise)
    spread(d, static_cast<uint64_t>(shape.numElements()), 64);
  else
    FS_RETURN_IF_ERROR(gemmGroups(v, d, x.dim(0) * h.out * w.out, OC, 1));
  LoweredNode lowered{{shape}, {d}};
  if (epilogue.addend) FS_RETURN_IF_ERROR(appendFusedAdd(v, epilogue, shape, lowered));
  return lowered;
}

Expected<LoweredNode> lowerPool(const NodeView& v) {
  if (attrString(v.node, "data_format", "NHWC") != "NHWC") return fail(v, "only NHWC pooling runs on Vulkan");
  const Shape& x = v.inputShapes[0];
  if (x.rank() != 4) return fail(v, "expected a 4-D input, got " + x.toString());
  auto ksize = attrInts(v.node, "ksize"), strides = attrInts(v.node, "strides");
  if (ksize.size() != 4 || strides.size() != 4 || ksize[0] != 1 || ksize[3] != 1)
    return fail(v, "only spatial pooling windows run on Vulkan");
  const std::string padding = attrString(v.node, "padding", "VALID");
  FS_ASSIGN_OR_RETURN(Window h, window(v, x.dim(1), ksize[1], strides[1], 1, padding, 0, 0));
  FS_ASSIGN_OR_RETURN(Window w, window(v, x.dim(2), ksize[2], strides[2], 1, padding, 0, 0));
  const Shape shape{x.dim(0), h.out, w.out, x.dim(3)};
  Dispatch d = make(ShaderId::kPool, {in(0), out(0)},
                    {static_cast<uint32_t>(x.dim(0)), static_cast<uint32_t>(x.dim(1)), static_cast<uint32_t>(x.dim(2)),
                     static_cast<uint32_t>(x.dim(3)), static_cast<uint32_t>(ksize[1]), static_cast<uint32_t>(ksize[2]),
                     static_cast<uint32_t>(h.out), static_cast<uint32_t>(w.out), static_cast<uint32_t>(strides[1]),
                     static_cast<uint32_t>(strides[2]), static_cast<uint32_t>(h.padBefore),
                     static_cast<uint32_t>(w.padBefore), v.node.op == "MaxPool"});
  spread(d, static_cast<uint64_t>(shape.numElements()), 64);
  return LoweredNode{{shape}, {d}};
}

// ---- reductions and softmax ----

Expected<LoweredNode> lowerReduce(const NodeView& v) {
  static const std::map<std::string, uint32_t> codes = {{"Sum", 0}, {"Mean", 1}, {"Max", 2}, {"Min", 3}, {"Prod", 4}};
  const Shape& x = v.inputShapes[0];
  std::vector<int64_t> axes = intValues(*v.constInputs[1]);
  for (auto& a : axes) a = a < 0 ? a + x.rank() : a;
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  if (axes.empty()) return copyAs(x, x);
  for (size_t k = 1; k < axes.size(); ++k)
    if (axes[k] != axes[k - 1] + 1) return fail(v, "only reductions over adjacent axes run on Vulkan");
  if (axes.front() < 0 || axes.back() >= x.rank()) return fail(v, "reduction axis out of range for " + x.toString());
  int64_t outer = 1, reduced = 1, inner = 1;
  std::vector<int64_t> dims;
  const bool keep = attrBool(v.node, "keep_dims", false);
  for (int k = 0; k < x.rank(); ++k) {
    const bool r = k >= axes.front() && k <= axes.back();
    (r ? reduced : k < axes.front() ? outer : inner) *= x.dim(k);
    if (!r)
      dims.push_back(x.dim(k));
    else if (keep)
      dims.push_back(1);
  }
  Dispatch d = make(ShaderId::kReduce, {in(0), out(0)},
                    {static_cast<uint32_t>(outer), static_cast<uint32_t>(reduced), static_cast<uint32_t>(inner),
                     codes.at(v.node.op)});
  spread(d, static_cast<uint64_t>(outer * inner), 64);
  return LoweredNode{{Shape(dims)}, {d}};
}

Expected<LoweredNode> lowerSoftmax(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  if (x.rank() < 1) return fail(v, "softmax needs at least one dimension");
  const int64_t cols = x.dim(x.rank() - 1), rows = x.numElements() / std::max<int64_t>(cols, 1);
  Dispatch d = make(ShaderId::kSoftmax, {in(0), out(0)},
                    {static_cast<uint32_t>(rows), static_cast<uint32_t>(cols), v.node.op == "LogSoftmax"});
  spread(d, static_cast<uint64_t>(rows), 64);
  return LoweredNode{{x}, {d}};
}

// ---- data movement: the gather shader ----

Expected<LoweredNode> lowerTranspose(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  const std::vector<int64_t> perm = intValues(*v.constInputs[1]);
  if (static_cast<int>(perm.size()) != x.rank() || x.rank() > 5)
    return fail(v, "permutation does not fit " + x.toString() + " (rank <= 5)");
  const auto strides = stridesOf(x);
  std::vector<int64_t> dims, inStride;
  for (int64_t p : perm) {
    if (p < 0 || p >= x.rank()) return fail(v, "bad permutation entry " + std::to_string(p));
    dims.push_back(x.dim(static_cast<int>(p)));
    inStride.push_back(strides[static_cast<size_t>(p)]);
  }
  const Shape shape(dims);
  return LoweredNode{{shape}, {gather(0, dims, inStride, stridesOf(shape), 0, 0, {}, {}, 0)}};
}

Expected<LoweredNode> lowerSlice(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  const auto begin = intValues(*v.constInputs[1]);
  auto size = intValues(*v.constInputs[2]);
  if (static_cast<int>(begin.size()) != x.rank() || size.size() != begin.size() || x.rank() > 5)
    return fail(v, "begin/size do not fit " + x.toString());
  const auto strides = stridesOf(x);
  int64_t offset = 0;
  for (size_t k = 0; k < begin.size(); ++k) {
    if (size[k] == -1) size[k] = x.dim(static_cast<int>(k)) - begin[k];
    if (begin[k] < 0 || size[k] < 0 || begin[k] + size[k] > x.dim(static_cast<int>(k)))
      return fail(v, "slice out of range of " + x.toString());
    offset += begin[k] * strides[k];
  }
  const Shape shape(size);
  return LoweredNode{{shape}, {gather(0, size, strides, stridesOf(shape), offset, 0, {}, {}, 0)}};
}

Expected<LoweredNode> lowerPad(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  const auto pads = intValues(*v.constInputs[1]);
  if (static_cast<int>(pads.size()) != 2 * x.rank() || x.rank() > 5)
    return fail(v, "paddings do not fit " + x.toString());
  float value = 0;
  if (v.node.op == "PadV2" && v.constInputs.size() > 2 && v.constInputs[2]) value = v.constInputs[2]->data<float>()[0];
  std::vector<int64_t> dims, before;
  for (int k = 0; k < x.rank(); ++k) {
    dims.push_back(x.dim(k) + pads[2 * static_cast<size_t>(k)] + pads[2 * static_cast<size_t>(k) + 1]);
    before.push_back(pads[2 * static_cast<size_t>(k)]);
  }
  const Shape shape(dims);
  return LoweredNode{{shape}, {gather(0, dims, stridesOf(x), stridesOf(shape), 0, 0, before, x.dims(), value)}};
}

// ---- the table ----

const std::map<std::string, OpLowering>& table() {
  static const std::map<std::string, OpLowering> t = [] {
    std::map<std::string, OpLowering> m;
    for (const auto& [op, code] : binaryCodes()) m[op] = {lowerBinary, {}};
    for (const auto& [op, code] : unaryCodes()) m[op] = {lowerUnary, {}};
    m["BiasAdd"] = {lowerBiasAdd, {}};
    for (const char* op : {"MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", "_FusedMatMul"})
      m[op] = {lowerMatMul, {}};
    for (const char* op : {"Conv2D", "_FusedConv2D", "DepthwiseConv2dNative", "_FusedDepthwiseConv2dNative",
                           "FusedDepthwiseConv2dNative"})  // the last: TF.js's name for the fused one
      m[op] = {lowerConv, {}};
    m["MaxPool"] = {lowerPool, {}};
    m["AvgPool"] = {lowerPool, {}};
    for (const char* op : {"Sum", "Mean", "Max", "Min", "Prod"}) m[op] = {lowerReduce, {1}};
    m["Softmax"] = {lowerSoftmax, {}};
    m["LogSoftmax"] = {lowerSoftmax, {}};
    m["Reshape"] = {lowerReshape, {1}};
    m["Squeeze"] = {lowerSqueeze, {}};
    m["ExpandDims"] = {lowerExpandDims, {1}};
    m["Transpose"] = {lowerTranspose, {1}};
    m["Slice"] = {lowerSlice, {1, 2}};
    m["Pad"] = {lowerPad, {1}};
    m["PadV2"] = {lowerPad, {1, 2}};
    m["ConcatV2"] = {lowerConcat, {}, true};
    m["ResizeBilinear"] = {lowerResize, {1}};
    m["ResizeNearestNeighbor"] = {lowerResize, {1}};
    m["StridedSlice"] = {lowerStridedSlice, {1, 2, 3}};
    m["Split"] = {lowerSplit, {0}};
    m["SplitV"] = {lowerSplit, {1, 2}};
    m["Unpack"] = {lowerUnpack, {}};
    m["Pack"] = {lowerPack, {}};
    m["Fill"] = {lowerFill, {0, 1}};
    m["ZerosLike"] = {lowerFill, {}};
    m["Cast"] = {lowerCast, {}, false, {{0, castSourceTypes()}}};
    m["GatherV2"] = {lowerGather, {2}, false, {{1, indexTypes()}}};
    m["OnesLike"] = {lowerFill, {}};
    for (const char* op : {"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"}) m[op] = {lowerFusedBatchNorm, {}};
    addOnnxLowerings(m);
    return m;
  }();
  return t;
}

}  // namespace

Dispatch gather(int input, const std::vector<int64_t>& iter, const std::vector<int64_t>& inStride,
                const std::vector<int64_t>& outStride, int64_t inOffset, int64_t outOffset,
                const std::vector<int64_t>& padBefore, const std::vector<int64_t>& inDims, float padValue, int output) {
  Dispatch d = make(ShaderId::kGather, {in(input), out(output)}, {});
  int64_t count = 1;
  for (int64_t n : iter) count *= n;
  d.push[0] = static_cast<uint32_t>(iter.size());
  d.push[1] = static_cast<uint32_t>(count);
  d.push[2] = static_cast<uint32_t>(inOffset);
  d.push[3] = static_cast<uint32_t>(outOffset);
  d.push[4] = bitsOf(padValue);
  for (size_t k = 0; k < iter.size(); ++k) {
    d.push[5 + k] = static_cast<uint32_t>(iter[k]);
    d.push[10 + k] = static_cast<uint32_t>(inStride[k]);
    d.push[15 + k] = static_cast<uint32_t>(outStride[k]);
    d.push[20 + k] = static_cast<uint32_t>(padBefore.empty() ? 0 : padBefore[k]);
    d.push[25 + k] = static_cast<uint32_t>(inDims.empty() ? iter[k] : inDims[k]);
  }
  spread(d, static_cast<uint64_t>(count), 256);
  return d;
}

bool isParameterInput(const std::string& op, size_t input, size_t inputCount) {
  auto it = table().find(op);
  if (it == table().end()) return false;
  if (it->second.variadicParameterLast && input + 1 == inputCount) return true;
  return std::find(it->second.parameters.begin(), it->second.parameters.end(), input) != it->second.parameters.end();
}

bool supports(const Node& node, const std::vector<DType>& inputTypes, const std::vector<const Tensor*>& constInputs,
              std::string* why) {
  auto it = table().find(node.op);
  if (it == table().end()) {
    *why = "no Vulkan kernel for " + node.op;
    return false;
  }
  for (size_t i = 0; i < inputTypes.size(); ++i) {
    const bool parameter = isParameterInput(node.op, i, inputTypes.size());
    if (parameter) {
      if (i >= constInputs.size() || !constInputs[i]) {
        *why = "input " + std::to_string(i) + " must be a constant on Vulkan";
        return false;
      }
    } else if (inputTypes[i] != DType::kFloat) {
      const auto integers = it->second.integerInputs.find(i);
      const bool taken = integers != it->second.integerInputs.end() &&
                         std::count(integers->second.begin(), integers->second.end(), inputTypes[i]) > 0;
      if (taken) continue;
      *why = std::string("Vulkan kernels take float32") +
             (it->second.integerInputs.empty() ? "" : " (and integers only where the op reads them from the host)") +
             ", input " + std::to_string(i) + " is " + std::string(dtypeName(inputTypes[i]));
      return false;
    }
  }
  return true;
}

Expected<LoweredNode> lower(const NodeView& view) {
  auto it = table().find(view.node.op);
  if (it == table().end()) return unimplemented(nodeLabel(view.node) + "no Vulkan kernel");
  for (const Shape& s : view.inputShapes)
    if (!s.isFullyDefined())
      return invalidArgument(nodeLabel(view.node) + "input shape " + s.toString() + " is not known");
  return it->second.lower(view);
}

std::vector<std::string> supportedOps() {
  std::vector<std::string> ops;
  for (const auto& [op, entry] : table()) ops.push_back(op);
  return ops;
}

}  // namespace flowscope::vk
