// Per-op shape functions and the context they read and write. The table lives in shape_functions.cpp;
// the functions themselves are grouped by op family in shape_functions_*.cpp.
#pragma once

#include <optional>
#include <vector>

#include "ir/node.h"
#include "ops/shape_inference.h"

namespace flowscope {

struct ShapeContext {
  explicit ShapeContext(const Node& n) : node(n) {}
  const Node& node;
  std::vector<TensorInfo> inputs;
  std::vector<const Tensor*> constants;  ///< the value of input i when known, else nullptr
  std::vector<TensorInfo> outputs;       ///< dtypes prefilled from the schema; shape functions set shapes
  std::vector<Tensor> constantOutputs;   ///< values a shape function could compute (e.g. Shape of a known shape)

  const Shape& in(size_t i) const;
  /// Input i as a list of int64 (from an int32/int64 constant); nullopt when not constant.
  std::optional<std::vector<int64_t>> constInts(size_t i) const;
  void set(size_t output, Shape shape) {
    if (output < outputs.size()) outputs[output].shape = std::move(shape);
  }
  void setAll(const Shape& shape) {
    for (auto& o : outputs) o.shape = shape;
  }
  int64_t intAttr(const char* name, int64_t fallback) const;
  bool boolAttr(const char* name, bool fallback) const;
  std::string stringAttr(const char* name, const std::string& fallback) const;
  std::vector<int64_t> intsAttr(const char* name) const;
};

/// Runs the op's shape function if one is registered; leaves outputs unknown otherwise.
void runShapeFunction(ShapeContext& ctx);

// Families (shape_functions_nn.cpp, shape_functions_array.cpp, shape_functions_detection.cpp).
void shapeMatMul(ShapeContext& ctx);
void shapeBatchMatMul(ShapeContext& ctx);
void shapeConv2D(ShapeContext& ctx);
void shapeDepthwiseConv2D(ShapeContext& ctx);
void shapePool(ShapeContext& ctx);
void shapeFusedBatchNorm(ShapeContext& ctx);
void shapeResize(ShapeContext& ctx);
void shapeDecodeWav(ShapeContext& ctx);
void shapeAudioSpectrogram(ShapeContext& ctx);
void shapeMfcc(ShapeContext& ctx);
void shapeReshape(ShapeContext& ctx);
void shapeSqueeze(ShapeContext& ctx);
void shapeExpandDims(ShapeContext& ctx);
void shapeShape(ShapeContext& ctx);
void shapeTranspose(ShapeContext& ctx);
void shapeConcat(ShapeContext& ctx);
void shapePack(ShapeContext& ctx);
void shapeUnpack(ShapeContext& ctx);
void shapeSplit(ShapeContext& ctx);
void shapeSlice(ShapeContext& ctx);
void shapeStridedSlice(ShapeContext& ctx);
void shapeTile(ShapeContext& ctx);
void shapeFill(ShapeContext& ctx);
void shapePad(ShapeContext& ctx);
void shapeReduction(ShapeContext& ctx);
void shapeArgMax(ShapeContext& ctx);
void shapeGather(ShapeContext& ctx);
void shapeRange(ShapeContext& ctx);
void shapeTopK(ShapeContext& ctx);
void shapeOneHot(ShapeContext& ctx);
void shapeNms(ShapeContext& ctx);
void shapeCombinedNms(ShapeContext& ctx);
void shapeParseExample(ShapeContext& ctx);

/// Output size of one spatial dim under TensorFlow's SAME/VALID rules; -1 when unknown.
int64_t convOutputSize(int64_t in, int64_t kernel, int64_t stride, int64_t dilation, const std::string& padding,
                       int64_t padBefore = 0, int64_t padAfter = 0);

}  // namespace flowscope
