// ONNX convolutions and pooling in NCHW through oneDNN (1-D, 2-D and 3-D), with FusedConv's activation as a oneDNN
// post-op, and the global poolings as plain loops.
#include <algorithm>
#include <cmath>
#include <limits>

#include "exec/cpu/dnnl_util.h"
#include "exec/cpu/onnx_conv_window.h"
#include "exec/cpu/onnx_kernels.h"
#include "exec/cpu/onnx_max_pool.h"

namespace flowscope {
namespace {

dnnl::memory::dims dimsOf(const std::vector<int64_t>& v) { return dnnl::memory::dims(v.begin(), v.end()); }

// FusedConv's activation ("Relu", "Clip" with activation_params [min, max], ...) as a oneDNN post-op.
Status activationOps(const Node& node, dnnl::post_ops* ops) {
  const std::string a = attrString(node, "activation", "");
  if (a.empty()) return Status::ok();
  const AttrValue* p = node.attr("activation_params");
  std::vector<float> params = p && p->kind() == AttrValue::Kind::kList ? p->list().f : std::vector<float>{};
  if (a == "Clip" && params.size() == 2) {
    ops->append_eltwise(1.0f, dnnl::algorithm::eltwise_clip, params[0], params[1]);
    return Status::ok();
  }
  if (!dnnl_util::activationPostOp(a, params.empty() ? 0.01f : params[0], ops))
    return unimplemented("activation '" + a + "' is not supported");
  return Status::ok();
}

class ConvKernel : public OpKernel {
 public:
  Status compute(KernelContext& ctx) override {
    const Tensor& x = ctx.inputs[0];
    const Tensor& w = ctx.inputs[1];
    const Tensor* b = onnxInput(ctx, 2);
    if (x.dtype() != DType::kFloat || w.dtype() != DType::kFloat)
      return ctx.error("runs in float32, got " + std::string(dtypeName(x.dtype())));
    if (w.shape().rank() < 3 || w.shape().rank() != x.shape().rank())
      return ctx.error("weights " + w.shape().toString() + " do not match input " + x.shape().toString());
    const int64_t group = attrInt(ctx.node, "group", 1);
    const int64_t c = x.shape().dim(1), m = w.shape().dim(0);
    if (group <= 0 || c % group || m % group || w.shape().dim(1) * group != c)
      return ctx.error("input channels " + std::to_string(c) + " do not match weights " + w.shape().toString() +
                       " in " + std::to_string(group) + " groups");
    if (b && b->numElements() != m) return ctx.error("bias must have " + std::to_string(m) + " values");
    if (m_input != x.shape() || m_weights != w.shape() || m_hasBias != (b != nullptr))
      FS_RETURN_IF_ERROR(prepare(ctx, x.shape(), w.shape(), group, b != nullptr));
    Tensor out = Tensor::uninitialized(DType::kFloat, m_output);
    if (!m_reorderedFrom.isValid() || m_reorderedFrom.bytes().data() != w.bytes().data()) {
      m_userWeights.set_data_handle(const_cast<float*>(w.data<float>()));
      m_reorder.execute(dnnl_util::stream(), m_userWeights, m_weightMem);
      m_reorderedFrom = w;
    }
    m_src.set_data_handle(const_cast<float*>(x.data<float>()));
    m_dst.set_data_handle(out.data<float>());
    dnnl_util::ExecArgs args{{DNNL_ARG_SRC, m_src},
                             {DNNL_ARG_WEIGHTS, m_weightMem},
                             {DNNL_ARG_DST, m_dst},
                             {DNNL_ARG_SCRATCHPAD, m_scratchpad}};
    if (b) {
      m_bias.set_data_handle(const_cast<float*>(b->data<float>()));
      args.add(DNNL_ARG_BIAS, m_bias);
    }
    dnnl_util::bindThreadScratchpad(m_scratchpad);
    args.run(m_primitive);
    dnnl_util::stream().wait();
    ctx.outputs[0] = std::move(out);
    return Status::ok();
  }

 private:
  Status prepare(const KernelContext& ctx, const Shape& x, const Shape& w, int64_t group, bool hasBias) {
    std::vector<int64_t> kernel(w.dims().begin() + 2, w.dims().end());
    auto win = onnxWindow(ctx.node, x, kernel);
    if (!win) return ctx.error(win.status().message());
    const int64_t m = w.dim(0);
    std::vector<int64_t> outDims{x.dim(0), m};
    outDims.insert(outDims.end(), win->out.begin(), win->out.end());
    std::vector<int64_t> weightDims = w.dims();
    if (group > 1) {
      weightDims = {group, m / group};
      weightDims.insert(weightDims.end(), w.dims().begin() + 1, w.dims().end());
    }
    using namespace dnnl_util;
    auto srcDesc = dense(x.dims(), DType::kFloat);
    auto dstDesc = dense(outDims, DType::kFloat);
    auto userWeights = dense(weightDims, DType::kFloat);
    dnnl::memory::desc anyWeights(dimsOf(weightDims), dnnl::memory::data_type::f32, dnnl::memory::format_tag::any);
    auto biasDesc = dense({m}, DType::kFloat);
    std::vector<int64_t> dil;
    for (int64_t d : win->dilations) dil.push_back(d - 1);
    const auto kind = dnnl::prop_kind::forward_inference;
    const auto algo = dnnl::algorithm::convolution_direct;
    dnnl::primitive_attr attr;
    dnnl::post_ops ops;
    FS_RETURN_IF_ERROR(activationOps(ctx.node, &ops).withContext(nodeLabel(ctx.node)));
    attr.set_post_ops(ops);
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);  // see dnnl_util.h
    // The op descriptor inside the try too: oneDNN checks the geometry there.
    try {
      auto desc = hasBias
                      ? dnnl::convolution_forward::desc(kind, algo, srcDesc, anyWeights, biasDesc, dstDesc,
                                                        dimsOf(win->strides), dimsOf(dil), dimsOf(win->padBegin),
                                                        dimsOf(win->padEnd))
                      : dnnl::convolution_forward::desc(kind, algo, srcDesc, anyWeights, dstDesc, dimsOf(win->strides),
                                                        dimsOf(dil), dimsOf(win->padBegin), dimsOf(win->padEnd));
      dnnl::convolution_forward::primitive_desc pd(desc, attr, engine());
      m_primitive = dnnl::convolution_forward(pd);
      m_scratchpad = dnnl::memory(pd.scratchpad_desc(), engine(), nullptr);
      m_src = dnnl::memory(srcDesc, engine(), nullptr);
      m_dst = dnnl::memory(dstDesc, engine(), nullptr);
      m_bias = dnnl::memory(biasDesc, engine(), nullptr);
      m_userWeights = dnnl::memory(userWeights, engine(), nullptr);
      m_weightMem = packedMemory(pd.weights_desc(), &m_weightBytes);
      m_reorder = dnnl::reorder(m_userWeights, m_weightMem);
    } catch (const dnnl::error& e) {
      return ctx.error(std::string("oneDNN could not create the convolution: ") + e.what());
    }
    m_input = x;
    m_weights = w;
    m_hasBias = hasBias;
    m_output = Shape(outDims);
    m_reorderedFrom = Tensor();
    return Status::ok();
  }

  Shape m_input = Shape::unknownRank(), m_weights = Shape::unknownRank(), m_output;
  bool m_hasBias = false;
  dnnl::convolution_forward m_primitive;
  dnnl::memory m_src, m_dst, m_bias, m_userWeights, m_weightMem, m_scratchpad;
  PackedBytes m_weightBytes;  // under m_weightMem
  dnnl::reorder m_reorder;
  Tensor m_reorderedFrom;
};

class PoolKernel : public OpKernel {
 public:
  explicit PoolKernel(bool max) : m_max(max) {}

  Status compute(KernelContext& ctx) override {
    const Tensor& x = ctx.inputs[0];
    const auto dilations = attrInts(ctx.node, "dilations");
    if (m_max && (x.dtype() != DType::kFloat || ctx.outputs.size() > 1 ||
                  std::any_of(dilations.begin(), dilations.end(), [](int64_t d) { return d != 1; })))
      return windowMaxPool(ctx);  // what oneDNN's pooling does not do
    if (x.dtype() != DType::kFloat || x.shape().rank() < 3)
      return ctx.error("expects float32 N, C, spatial..., got " + std::string(dtypeName(x.dtype())) + " " +
                       x.shape().toString());
    if (m_input != x.shape()) FS_RETURN_IF_ERROR(prepare(ctx, x.shape()));
    Tensor out = Tensor::uninitialized(DType::kFloat, m_output);
    m_src.set_data_handle(const_cast<float*>(x.data<float>()));
    m_dst.set_data_handle(out.data<float>());
    dnnl_util::ExecArgs{{DNNL_ARG_SRC, m_src}, {DNNL_ARG_DST, m_dst}}.run(m_primitive);
    dnnl_util::stream().wait();
    ctx.outputs[0] = std::move(out);
    return Status::ok();
  }

 private:
  Status prepare(const KernelContext& ctx, const Shape& x) {
    auto win = onnxWindow(ctx.node, x, attrInts(ctx.node, "kernel_shape"), attrInt(ctx.node, "ceil_mode", 0) != 0);
    if (!win) return ctx.error(win.status().message());
    if (std::any_of(win->dilations.begin(), win->dilations.end(), [](int64_t d) { return d != 1; }))
      return ctx.error("dilated pooling is not supported");
    std::vector<int64_t> outDims{x.dim(0), x.dim(1)};
    outDims.insert(outDims.end(), win->out.begin(), win->out.end());
    const bool includePad = attrInt(ctx.node, "count_include_pad", 0) != 0;
    const auto algo = m_max        ? dnnl::algorithm::pooling_max
                      : includePad ? dnnl::algorithm::pooling_avg_include_padding
                                   : dnnl::algorithm::pooling_avg_exclude_padding;
    using namespace dnnl_util;
    auto srcDesc = dense(x.dims(), DType::kFloat);
    auto dstDesc = dense(outDims, DType::kFloat);
    try {
      dnnl::pooling_forward::desc desc(dnnl::prop_kind::forward_inference, algo, srcDesc, dstDesc, dimsOf(win->strides),
                                       dimsOf(win->kernel), dimsOf(win->padBegin), dimsOf(win->padEnd));
      m_primitive = dnnl::pooling_forward(dnnl::pooling_forward::primitive_desc(desc, engine()));
    } catch (const dnnl::error& e) {
      return ctx.error(std::string("oneDNN could not create the pooling: ") + e.what());
    }
    m_src = dnnl::memory(srcDesc, engine(), nullptr);
    m_dst = dnnl::memory(dstDesc, engine(), nullptr);
    m_input = x;
    m_output = Shape(outDims);
    return Status::ok();
  }

  bool m_max;
  Shape m_input = Shape::unknownRank(), m_output;
  dnnl::pooling_forward m_primitive;
  dnnl::memory m_src, m_dst;
};

template <bool Max>
Status globalPool(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  if (x.dtype() != DType::kFloat || x.shape().rank() < 3) return ctx.error("expects float32 N, C, spatial...");
  const int64_t rows = x.shape().dim(0) * x.shape().dim(1);
  const int64_t len = rows ? x.numElements() / rows : 0;
  std::vector<int64_t> dims(static_cast<size_t>(x.shape().rank()), 1);
  dims[0] = x.shape().dim(0);
  dims[1] = x.shape().dim(1);
  Tensor out = Tensor::uninitialized(DType::kFloat, Shape(dims));
  const float* in = x.data<float>();
  float* o = out.data<float>();
  parallelFor(rows, len, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const float* row = in + r * len;
      float acc = Max ? -std::numeric_limits<float>::infinity() : 0.0f;
      for (int64_t i = 0; i < len; ++i) acc = Max ? std::max(acc, row[i]) : acc + row[i];
      o[r] = Max ? acc : acc / static_cast<float>(len);
    }
  });
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

template <typename K, typename... Args>
KernelFactory factory(Args... args) {
  return [=](const Node&) -> Expected<std::unique_ptr<OpKernel>> {
    return std::unique_ptr<OpKernel>(std::make_unique<K>(args...));
  };
}

}  // namespace

void registerOnnxConvKernels(KernelTable& r) {
  r.add("onnx::Conv", factory<ConvKernel>());
  r.add("com.microsoft::FusedConv", factory<ConvKernel>());
  r.add("onnx::MaxPool", factory<PoolKernel>(true));
  r.add("onnx::AveragePool", factory<PoolKernel>(false));
  r.addFn("onnx::GlobalAveragePool", globalPool<false>);
  r.addFn("onnx::GlobalMaxPool", globalPool<true>);
}

}  // namespace flowscope
