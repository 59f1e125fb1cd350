// The one line the window's header shows about an opened model, in the UI's language.
#pragma once

#include <QString>

#include "ir/model.h"

namespace flowscope {

/// "ONNX opset 12, 420 nodes, 9 op types, 1 signature": functions, signatures and variables are named only where
/// there are some.
QString describeModel(const Model& model, size_t opTypes);

}  // namespace flowscope
