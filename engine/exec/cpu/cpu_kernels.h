// Registration entry points of the CPU kernel families (one file each under exec/cpu/).
#pragma once

namespace flowscope {

class KernelRegistry;

void registerCpuKernels(KernelRegistry& registry);
void registerElementwiseBinaryKernels(KernelRegistry& registry);
void registerElementwiseUnaryKernels(KernelRegistry& registry);
void registerArrayKernels(KernelRegistry& registry);
void registerSliceKernels(KernelRegistry& registry);
void registerGatherKernels(KernelRegistry& registry);
void registerReductionKernels(KernelRegistry& registry);
void registerMatMulKernels(KernelRegistry& registry);
void registerConvKernels(KernelRegistry& registry);
void registerNnKernels(KernelRegistry& registry);
void registerImageKernels(KernelRegistry& registry);
void registerControlKernels(KernelRegistry& registry);
void registerVariableKernels(KernelRegistry& registry);
void registerTensorArrayKernels(KernelRegistry& registry);
void registerRandomKernels(KernelRegistry& registry);
void registerFunctionKernels(KernelRegistry& registry);
void registerStringKernels(KernelRegistry& registry);

}  // namespace flowscope
