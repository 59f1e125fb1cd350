// Category names, as used in resources/op_colors.json and the statistics tables.
#include "ops/op_category.h"

namespace flowscope {

std::string_view categoryName(OpCategory category) {
  switch (category) {
    case OpCategory::kUnknown:
      return "unknown";
    case OpCategory::kInput:
      return "input";
    case OpCategory::kConstant:
      return "constant";
    case OpCategory::kIdentity:
      return "identity";
    case OpCategory::kElementwise:
      return "elementwise";
    case OpCategory::kActivation:
      return "activation";
    case OpCategory::kMatMul:
      return "matmul";
    case OpCategory::kConvolution:
      return "convolution";
    case OpCategory::kPooling:
      return "pooling";
    case OpCategory::kNormalization:
      return "normalization";
    case OpCategory::kReduction:
      return "reduction";
    case OpCategory::kShape:
      return "shape";
    case OpCategory::kControlFlow:
      return "control_flow";
    case OpCategory::kFunctionCall:
      return "function_call";
    case OpCategory::kVariable:
      return "variable";
    case OpCategory::kRandom:
      return "random";
    case OpCategory::kImage:
      return "image";
    case OpCategory::kString:
      return "string";
    case OpCategory::kOther:
      return "other";
  }
  return "other";
}

}  // namespace flowscope
