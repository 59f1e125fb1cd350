// The CPU backend's kernel table: every family registers here.
#include "exec/cpu/cpu_kernels.h"

#include "exec/cpu/onnx_kernels.h"
#include "exec/function_call_kernels.h"

namespace flowscope {
namespace {

KernelTable buildCpuKernelTable() {
  KernelTable table;
  registerElementwiseBinaryKernels(table);
  registerElementwiseUnaryKernels(table);
  registerIdentityKernels(table);
  registerShapeKernels(table);
  registerConcatSplitKernels(table);
  registerReorderKernels(table);
  registerFillKernels(table);
  registerPadKernels(table);
  registerSelectKernels(table);
  registerSliceKernels(table);
  registerGatherKernels(table);
  registerReductionKernels(table);
  registerMatMulKernels(table);
  registerConvKernels(table);
  registerPoolKernels(table);
  registerNnKernels(table);
  registerImageKernels(table);
  registerDetectionKernels(table);
  registerCombinedNmsKernels(table);
  registerParseExampleKernels(table);
  registerControlKernels(table);
  registerVariableKernels(table);
  registerTensorArrayKernels(table);
  registerRandomKernels(table);
  registerFunctionCallKernels(table);
  registerStringKernels(table);
  registerOnnxKernels(table);
  table.seal();
  return table;
}

}  // namespace

const KernelTable& cpuKernelTable() {
  static const KernelTable table = buildCpuKernelTable();
  return table;
}

}  // namespace flowscope
