// Op categories: used for colouring in the canvas and grouping in statistics.
#pragma once

#include <string_view>

namespace flowscope {

enum class OpCategory {
  kUnknown,  ///< neither a registered op nor a library function
  kInput,    ///< placeholders and arguments
  kConstant,
  kIdentity,     ///< forwarding ops: Identity, Snapshot, StopGradient
  kElementwise,  ///< arithmetic and comparisons
  kActivation,
  kMatMul,
  kConvolution,
  kPooling,
  kNormalization,
  kReduction,
  kShape,  ///< array manipulation: reshape, concat, slice, gather
  kControlFlow,
  kFunctionCall,
  kVariable,
  kRandom,
  kImage,
  kString,  ///< string, parsing and checkpoint I/O
  kOther,
};

std::string_view categoryName(OpCategory category);

}  // namespace flowscope
