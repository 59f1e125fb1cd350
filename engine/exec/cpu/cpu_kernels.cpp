// The CPU backend's kernel table: every family registers here.
#include "exec/cpu/cpu_kernels.h"

namespace flowscope {

void registerCpuKernels(KernelRegistry& registry) {
  registerElementwiseBinaryKernels(registry);
  registerElementwiseUnaryKernels(registry);
  registerArrayKernels(registry);
  registerSliceKernels(registry);
  registerGatherKernels(registry);
  registerReductionKernels(registry);
  registerMatMulKernels(registry);
  registerConvKernels(registry);
  registerNnKernels(registry);
  registerImageKernels(registry);
  registerControlKernels(registry);
  registerVariableKernels(registry);
  registerTensorArrayKernels(registry);
  registerRandomKernels(registry);
  registerFunctionKernels(registry);
  registerStringKernels(registry);
}

}  // namespace flowscope
