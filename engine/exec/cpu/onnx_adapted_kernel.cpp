// Running ONNX nodes as TensorFlow kernels, and the helpers of the ONNX kernels.
#include <cstring>

#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/onnx_kernels.h"
#include "ir/dtype_dispatch.h"
#include "ops/onnx_op_set.h"

namespace flowscope {
namespace {

class AdaptedKernel : public OpKernel {
 public:
  AdaptedKernel(const Node& onnxNode, TfEquivalent tf, std::unique_ptr<OpKernel> inner)
      : m_tf(std::move(tf)), m_inner(std::move(inner)) {
    m_node.name = onnxNode.name;
    m_node.op = m_tf.op;
    m_node.attrs = m_tf.attrs;
    m_label = nodeLabel(onnxNode);
  }

  Status compute(KernelContext& ctx) override {
    std::vector<Tensor> adapted;
    if (m_tf.adapt) {
      auto in = m_tf.adapt(ctx);
      if (!in) return in.status().withContext(m_label);
      adapted = std::move(in).value();
    }
    KernelContext inner{m_node, m_tf.adapt ? adapted : ctx.inputs, ctx.outputs, ctx.exec};
    Status s = m_inner->compute(inner);
    ctx.flops = inner.flops;
    if (s.isOk()) return s;
    std::string message = s.message();
    const std::string tfLabel = nodeLabel(m_node);
    if (message.rfind(tfLabel, 0) == 0) message = message.substr(tfLabel.size());
    return Status(s.code(), m_label + message);
  }

 private:
  TfEquivalent m_tf;
  std::unique_ptr<OpKernel> m_inner;
  Node m_node;
  std::string m_label;
};

}  // namespace

KernelFactory adaptedKernel(TfMapping mapping) {
  return [mapping](const Node& node) -> Expected<std::unique_ptr<OpKernel>> {
    auto tf = mapping(node);
    if (!tf) return tf.status().withContext(nodeLabel(node));
    const KernelFactory* factory = cpuKernelTable().find(tf->op);
    if (!factory) return internalError(nodeLabel(node) + "no CPU kernel " + tf->op + " to run it with");
    Node tfNode;
    tfNode.name = node.name;
    tfNode.op = tf->op;
    tfNode.attrs = tf->attrs;
    FS_ASSIGN_OR_RETURN(auto inner, (*factory)(tfNode));
    return std::unique_ptr<OpKernel>(std::make_unique<AdaptedKernel>(node, std::move(tf).value(), std::move(inner)));
  };
}

KernelFactory sameAs(const std::string& tfOp, AttrMap attrs) {
  return adaptedKernel([tfOp, attrs](const Node& node) -> Expected<TfEquivalent> {
    TfEquivalent tf{tfOp, attrs, nullptr};
    for (const auto& [k, v] : node.attrs)
      if (!tf.attrs.count(k)) tf.attrs.emplace(k, v);
    return tf;
  });
}

namespace {

class ArityCheckedKernel : public OpKernel {
 public:
  ArityCheckedKernel(size_t inputs, KernelFn fn) : m_inputs(inputs), m_fn(fn) {}
  Status compute(KernelContext& ctx) override {
    if (ctx.inputs.size() < m_inputs)
      return ctx.error("needs at least " + std::to_string(m_inputs) + " input" + (m_inputs == 1 ? "" : "s") + ", has " +
                       std::to_string(ctx.inputs.size()));
    return m_fn(ctx);
  }

 private:
  size_t m_inputs;
  KernelFn m_fn;
};

}  // namespace

KernelFactory withInputs(size_t inputs, KernelFn fn) {
  return [inputs, fn](const Node&) -> Expected<std::unique_ptr<OpKernel>> {
    return std::unique_ptr<OpKernel>(std::make_unique<ArityCheckedKernel>(inputs, fn));
  };
}

const Tensor* onnxInput(const KernelContext& ctx, int position) {
  const int k = onnxInputIndex(ctx.node, position);
  return k >= 0 && static_cast<size_t>(k) < ctx.inputs.size() ? &ctx.inputs[static_cast<size_t>(k)] : nullptr;
}

Tensor int64Vector(const std::vector<int64_t>& values) {
  Tensor t(DType::kInt64, Shape{static_cast<int64_t>(values.size())});
  if (!values.empty()) std::memcpy(t.data<int64_t>(), values.data(), values.size() * sizeof(int64_t));
  return t;
}

Tensor scalarOf(DType dtype, double value) {
  Tensor t(dtype, Shape{});
  if (dtype == DType::kBool) {
    *t.data<uint8_t>() = value != 0;
    return t;
  }
  dispatchNumeric(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    *t.data<T>() = static_cast<T>(value);
  });
  return t;
}

float elementAsFloat(const Tensor& t, int64_t i) {
  if (t.dtype() == DType::kFloat) return t.data<float>()[i];
  return static_cast<float>(t.elementAsDouble(i));
}

void registerOnnxKernels(KernelTable& table) {
  registerOnnxElementwiseKernels(table);
  registerOnnxShapeKernels(table);
  registerOnnxTensorKernels(table);
  registerOnnxNnKernels(table);
  registerOnnxReduceKernels(table);
  registerOnnxIndexKernels(table);
  registerOnnxMathKernels(table);
  registerOnnxCastKernels(table);
  registerOnnxScatterKernels(table);
  registerOnnxNmsKernel(table);
  registerOnnxNormKernels(table);
  registerOnnxEinsumKernel(table);
  registerOnnxSignalKernels(table);
  registerOnnxFourierKernels(table);
  registerOnnxLossKernels(table);
  registerOnnxGridSampleKernel(table);
  registerOnnxRoiAlignKernel(table);
  registerOnnxMaxUnpoolKernel(table);
  registerOnnxUniqueKernel(table);
  registerOnnxStringNormalizerKernel(table);
  registerOnnxTfIdfVectorizerKernel(table);
  registerOnnxRandomKernels(table);
  registerOnnxConvKernels(table);
  registerOnnxConvTransposeKernel(table);
  registerOnnxResizeKernels(table);
  registerOnnxSequenceKernels(table);
  registerOnnxQuantKernels(table);
  registerOnnxIntegerKernels(table);
  registerOnnxRecurrentKernels(table);
  registerOnnxControlKernels(table);
  registerOnnxScanKernel(table);
}

}  // namespace flowscope
