// SPIR-V words of every shader, as glslc -mfmt=c wrote them.
#include "exec/vulkan/shader_table.h"

namespace flowscope::vk {
namespace {

const uint32_t kBinary[] =
#include "binary.comp.inc"
    ;
const uint32_t kUnary[] =
#include "unary.comp.inc"
    ;
const uint32_t kBiasAct[] =
#include "bias_act.comp.inc"
    ;
const uint32_t kMatMul[] =
#include "matmul.comp.inc"
    ;
const uint32_t kConv2DGemm[] =
#include "conv2d_gemm.comp.inc"
    ;
const uint32_t kMatMulCoopMat[] =
#include "matmul_coopmat.comp.inc"
    ;
const uint32_t kConv2DGemmCoopMat[] =
#include "conv2d_gemm_coopmat.comp.inc"
    ;
const uint32_t kDepthwiseConv2D[] =
#include "depthwise_conv2d.comp.inc"
    ;
const uint32_t kPool[] =
#include "pool.comp.inc"
    ;
const uint32_t kReduce[] =
#include "reduce.comp.inc"
    ;
const uint32_t kSoftmax[] =
#include "softmax.comp.inc"
    ;
const uint32_t kGather[] =
#include "gather.comp.inc"
    ;
const uint32_t kResize[] =
#include "resize.comp.inc"
    ;
const uint32_t kBatchNorm[] =
#include "batch_norm.comp.inc"
    ;
const uint32_t kCast[] =
#include "cast.comp.inc"
    ;
const uint32_t kGatherAxis[] =
#include "gather_axis.comp.inc"
    ;

const ShaderCode kTable[] = {
    {"binary", kBinary, sizeof(kBinary), 3},
    {"unary", kUnary, sizeof(kUnary), 2},
    {"bias_act", kBiasAct, sizeof(kBiasAct), 3},
    {"matmul", kMatMul, sizeof(kMatMul), 4},
    {"conv2d_gemm", kConv2DGemm, sizeof(kConv2DGemm), 4},
    {"matmul_coopmat", kMatMulCoopMat, sizeof(kMatMulCoopMat), 4},
    {"conv2d_gemm_coopmat", kConv2DGemmCoopMat, sizeof(kConv2DGemmCoopMat), 4},
    {"depthwise_conv2d", kDepthwiseConv2D, sizeof(kDepthwiseConv2D), 4},
    {"pool", kPool, sizeof(kPool), 2},
    {"reduce", kReduce, sizeof(kReduce), 2},
    {"softmax", kSoftmax, sizeof(kSoftmax), 2},
    {"gather", kGather, sizeof(kGather), 2},
    {"resize", kResize, sizeof(kResize), 2},
    {"batch_norm", kBatchNorm, sizeof(kBatchNorm), 6},
    {"cast", kCast, sizeof(kCast), 2},
    {"gather_axis", kGatherAxis, sizeof(kGatherAxis), 3},
};
static_assert(sizeof(kTable) / sizeof(kTable[0]) == static_cast<size_t>(ShaderId::kCount));

}  // namespace

const ShaderCode& shaderCode(ShaderId id) { return kTable[static_cast<size_t>(id)]; }

}  // namespace flowscope::vk
