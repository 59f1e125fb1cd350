// The CPU kernels of the ONNX op set ("onnx::Conv", "com.microsoft::QLinearAdd", ...), one family per file, and the
// helpers they share. Where an ONNX op means what a TensorFlow kernel computes, the ONNX kernel adapts its inputs and
// attributes and runs that kernel (AdaptedKernel); the rest are written here (NCHW convolutions through oneDNN).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "exec/kernel_table.h"
#include "exec/kernel_util.h"

namespace flowscope {

void registerOnnxElementwiseKernels(KernelTable& table);
void registerOnnxShapeKernels(KernelTable& table);
void registerOnnxTensorKernels(KernelTable& table);
void registerOnnxNnKernels(KernelTable& table);
void registerOnnxReduceKernels(KernelTable& table);
void registerOnnxIndexKernels(KernelTable& table);
void registerOnnxMathKernels(KernelTable& table);
void registerOnnxCastKernels(KernelTable& table);
void registerOnnxScatterKernels(KernelTable& table);
void registerOnnxNmsKernel(KernelTable& table);
void registerOnnxNormKernels(KernelTable& table);
void registerOnnxEinsumKernel(KernelTable& table);
void registerOnnxSignalKernels(KernelTable& table);
void registerOnnxFourierKernels(KernelTable& table);
void registerOnnxLossKernels(KernelTable& table);
void registerOnnxGridSampleKernel(KernelTable& table);
void registerOnnxRoiAlignKernel(KernelTable& table);
void registerOnnxMaxUnpoolKernel(KernelTable& table);
void registerOnnxUniqueKernel(KernelTable& table);
void registerOnnxStringNormalizerKernel(KernelTable& table);
void registerOnnxTfIdfVectorizerKernel(KernelTable& table);
void registerOnnxRandomKernels(KernelTable& table);
void registerOnnxConvKernels(KernelTable& table);
void registerOnnxConvTransposeKernel(KernelTable& table);
void registerOnnxQuantKernels(KernelTable& table);
void registerOnnxIntegerKernels(KernelTable& table);
void registerOnnxRecurrentKernels(KernelTable& table);
void registerOnnxControlKernels(KernelTable& table);
void registerOnnxScanKernel(KernelTable& table);
void registerOnnxResizeKernels(KernelTable& table);
void registerOnnxSequenceKernels(KernelTable& table);

/// Registers every family above (the CPU table calls this once).
void registerOnnxKernels(KernelTable& table);

/// The input at formal position `position` (optional inputs the file leaves empty are absent); null when absent.
const Tensor* onnxInput(const KernelContext& ctx, int position);
/// A 1-D int64 tensor.
Tensor int64Vector(const std::vector<int64_t>& values);
/// A scalar of `dtype` holding `value` (numeric dtypes).
Tensor scalarOf(DType dtype, double value);
/// Element i of a numeric tensor as float.
float elementAsFloat(const Tensor& t, int64_t i);
/// The values a loop body made for scan output `output`, one per iteration, stacked along a new `axis` (Loop's and
/// Scan's scan outputs); an error when they differ in shape or dtype, or are strings. No iterations: float [0].
Expected<Tensor> stackIterations(const KernelContext& ctx, const std::vector<Tensor>& parts, int64_t axis,
                                 size_t output);

/// Builds the TensorFlow kernel's inputs from the ONNX node's.
using InputAdapter = std::function<Expected<std::vector<Tensor>>(const KernelContext& ctx)>;
/// The TensorFlow op and attrs an ONNX node runs as (attrs read once, when the kernel is built).
struct TfEquivalent {
  std::string op;
  AttrMap attrs;
  InputAdapter adapt;  ///< null: the ONNX inputs as they are
};
using TfMapping = std::function<Expected<TfEquivalent>(const Node& node)>;

/// A kernel factory for `fn` whose kernel first checks that the node has at least `inputs` inputs (ONNX's checker only
/// warns about a node with too few, so a model file may carry one).
KernelFactory withInputs(size_t inputs, KernelFn fn);

/// A kernel factory that runs an ONNX node as a TensorFlow kernel; errors name the ONNX node and op.
KernelFactory adaptedKernel(TfMapping mapping);
/// The same for a fixed op whose attrs the ONNX node already has the TensorFlow way (or needs none).
KernelFactory sameAs(const std::string& tfOp, AttrMap attrs = {});

}  // namespace flowscope
