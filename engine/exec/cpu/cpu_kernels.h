// The CPU backend's kernel table and the registration entry points of its kernel families (one file each).
#pragma once

#include "exec/kernel_table.h"

namespace flowscope {

/// Every CPU kernel, by op (built once, on first use).
const KernelTable& cpuKernelTable();

void registerElementwiseBinaryKernels(KernelTable& registry);
void registerElementwiseUnaryKernels(KernelTable& registry);
void registerIdentityKernels(KernelTable& registry);
void registerShapeKernels(KernelTable& registry);
void registerConcatSplitKernels(KernelTable& registry);
void registerReorderKernels(KernelTable& registry);
void registerFillKernels(KernelTable& registry);
void registerPadKernels(KernelTable& registry);
void registerSelectKernels(KernelTable& registry);
void registerSliceKernels(KernelTable& registry);
void registerGatherKernels(KernelTable& registry);
void registerReductionKernels(KernelTable& registry);
void registerMatMulKernels(KernelTable& registry);
void registerConvKernels(KernelTable& registry);
void registerPoolKernels(KernelTable& registry);
void registerNnKernels(KernelTable& registry);
void registerImageKernels(KernelTable& registry);
void registerDetectionKernels(KernelTable& registry);
void registerCombinedNmsKernels(KernelTable& registry);
void registerParseExampleKernels(KernelTable& registry);
void registerControlKernels(KernelTable& registry);
void registerVariableKernels(KernelTable& registry);
void registerTensorArrayKernels(KernelTable& registry);
void registerRandomKernels(KernelTable& registry);
void registerStringKernels(KernelTable& registry);

}  // namespace flowscope
