#version 450
// MatMul (matmul_io.glsl) on the register-blocked fp32 GEMM core.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "matmul_io.glsl"
#include "gemm_tile.glsl"

void main() { runGemm(); }
