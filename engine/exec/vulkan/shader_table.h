// The compute shaders (GLSL under shaders/, compiled to SPIR-V by glslc at build time and embedded).
#pragma once

#include <cstddef>
#include <cstdint>

namespace flowscope::vk {

enum class ShaderId {
  kBinary,
  kUnary,
  kBiasAct,
  kMatMul,
  kConv2DGemm,
  kMatMulCoopMat,      ///< on devices with fp16 cooperative matrices (VulkanDevice::cooperativeMatrix)
  kConv2DGemmCoopMat,  ///< likewise
  kDepthwiseConv2D,
  kPool,
  kReduce,
  kSoftmax,
  kGather,
  kResize,
  kBatchNorm,
  kCast,
  kGatherAxis,
  kCount
};

struct ShaderCode {
  const char* name;
  const uint32_t* words;
  size_t bytes;
  uint32_t bindings;  ///< storage buffers, bound 0..bindings-1
};

const ShaderCode& shaderCode(ShaderId id);

}  // namespace flowscope::vk
