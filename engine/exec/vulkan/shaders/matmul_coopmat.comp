#version 450
// MatMul (matmul_io.glsl) on the cooperative-matrix core (fp16 operands, fp32 sums).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#include "matmul_io.glsl"
#include "gemm_coopmat.glsl"

void main() { runGemm(); }
