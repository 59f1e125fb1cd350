// Helpers shared by the Vulkan op lowerings (vulkan_ops.cpp and the lower_*.cpp files): dispatch construction,
// workgroup spreading, errors naming the node, and the strided gather dispatch; plus the lowerings kept in their own
// files.
#pragma once

#include <algorithm>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "exec/kernel_util.h"
#include "exec/vulkan/vulkan_ops.h"

namespace flowscope::vk {

inline uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/// 1D work of `count` invocations in workgroups of `local`, folded into x and y (x is capped at 65535 groups).
inline void spread(Dispatch& d, uint64_t count, uint32_t local) {
  constexpr uint64_t kMaxGroups = 65535;
  const uint64_t groups = std::max<uint64_t>(1, (count + local - 1) / local);
  d.groups[0] = static_cast<uint32_t>(std::min<uint64_t>(groups, kMaxGroups));
  d.groups[1] = static_cast<uint32_t>((groups + kMaxGroups - 1) / kMaxGroups);
}

inline Dispatch make(ShaderId shader, std::vector<Operand> buffers, std::initializer_list<uint32_t> push) {
  Dispatch d;
  d.shader = shader;
  d.buffers = std::move(buffers);
  std::copy(push.begin(), push.end(), d.push.begin());
  return d;
}

/// The GEMM shader for the node's precision: the cooperative-matrix core at fp16 where the device has one, else the
/// fp32 core (which rounds the operands to the precision as it stages them).
inline bool onMatrixUnits(const NodeView& v) {
  return v.gemm.precision == Precision::kFp16 && v.gemm.cooperativeMatrix;
}
inline ShaderId gemmShader(const NodeView& v, ShaderId fp32Core, ShaderId matrixUnits) {
  return onMatrixUnits(v) ? matrixUnits : fp32Core;
}
/// The push constant shaders/precision.glsl reads.
inline uint32_t precisionCode(const NodeView& v) {
  return v.gemm.precision == Precision::kFp16 ? 1u : v.gemm.precision == Precision::kBf16 ? 2u : 0u;
}

inline Operand in(int i) { return {false, i}; }
inline Operand out(int i) { return {true, i}; }

inline Status fail(const NodeView& v, const std::string& what) { return invalidArgument(nodeLabel(v.node) + what); }

/// Workgroups of a GEMM (MatMul, the implicit-GEMM convolution) on the core gemmShader picks: one per tile of the
/// rows x columns result (64x64 on gemm_tile.glsl's fp32 core, 128x128 on the matrix units), per batch; an error
/// naming the node when that takes more than 65535 groups along an axis.
inline Status gemmGroups(const NodeView& v, Dispatch& d, int64_t rows, int64_t columns, int64_t batch) {
  constexpr int64_t kMaxGroups = 65535;
  const int64_t kTile = onMatrixUnits(v) ? 128 : 64;
  const int64_t rowGroups = (rows + kTile - 1) / kTile, columnGroups = (columns + kTile - 1) / kTile;
  if (rowGroups > kMaxGroups || columnGroups > kMaxGroups || batch > kMaxGroups)
    return fail(v, std::to_string(rows) + " x " + std::to_string(columns) + " (x " + std::to_string(batch) +
                       ") is larger than one Vulkan dispatch covers");
  d.groups[0] = static_cast<uint32_t>(std::max<int64_t>(columnGroups, 1));
  d.groups[1] = static_cast<uint32_t>(std::max<int64_t>(rowGroups, 1));
  d.groups[2] = static_cast<uint32_t>(std::max<int64_t>(batch, 1));
  return Status::ok();
}

/// A gather over `iter` dims (rank <= 5): reads input `input` at inOffset + (c - padBefore).inStride, writes output
/// `output` at outOffset + c.outStride. Strides may be negative (unsigned arithmetic wraps to the right element).
Dispatch gather(int input, const std::vector<int64_t>& iter, const std::vector<int64_t>& inStride,
                const std::vector<int64_t>& outStride, int64_t inOffset, int64_t outOffset,
                const std::vector<int64_t>& padBefore, const std::vector<int64_t>& inDims, float padValue,
                int output = 0);

/// An op's row in the lowering table.
struct OpLowering {
  std::function<Expected<LoweredNode>(const NodeView&)> lower;
  std::vector<size_t> parameters;      ///< inputs read at compile time from Consts
  bool variadicParameterLast = false;  ///< ConcatV2: the last input is the axis
  /// Buffer inputs that may also be one of these integer types (values from the host: Cast's source, indices).
  std::map<size_t, std::vector<DType>> integerInputs = {};
};

/// Adds the ONNX ops that run as a TensorFlow op's lowering (lower_onnx.cpp).
void addOnnxLowerings(std::map<std::string, OpLowering>& table);

Expected<LoweredNode> lowerResize(const NodeView& v);          ///< lower_resize.cpp
Expected<LoweredNode> lowerStridedSlice(const NodeView& v);    ///< lower_strided_slice.cpp
Expected<LoweredNode> lowerFusedBatchNorm(const NodeView& v);  ///< lower_batch_norm.cpp
Expected<LoweredNode> lowerSplit(const NodeView& v);           ///< Split, SplitV: lower_split_pack.cpp
Expected<LoweredNode> lowerUnpack(const NodeView& v);          ///< lower_split_pack.cpp
Expected<LoweredNode> lowerPack(const NodeView& v);            ///< lower_split_pack.cpp
Expected<LoweredNode> lowerConcat(const NodeView& v);          ///< ConcatV2: lower_split_pack.cpp
Expected<LoweredNode> lowerFill(const NodeView& v);            ///< Fill, ZerosLike, OnesLike: lower_fill.cpp
Expected<LoweredNode> lowerCast(const NodeView& v);            ///< Cast, onnx::Cast: lower_cast_gather.cpp
Expected<LoweredNode> lowerGather(const NodeView& v);          ///< GatherV2, onnx::Gather: lower_cast_gather.cpp
/// The integer types Cast reads from the host, and those of indices.
const std::vector<DType>& castSourceTypes();
const std::vector<DType>& indexTypes();

}  // namespace flowscope::vk
