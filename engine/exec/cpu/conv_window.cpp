// TensorFlow's convolution windows (conv_window.h).
#include "exec/cpu/conv_window.h"

#include <algorithm>
#include <string>
#include <vector>

#include "exec/kernel_util.h"
#include "ops/shape_functions.h"

namespace flowscope {
namespace {

// TensorFlow's SAME / VALID / EXPLICIT padding for one spatial dim.
Status padDim(const std::string& padding, const std::vector<int64_t>& explicitPads, int dim, int64_t in, int64_t k,
              int64_t s, int64_t d, int64_t* before, int64_t* after, int64_t* out) {
  int64_t effective = (k - 1) * d + 1;
  if (padding == "SAME") {
    *out = (in + s - 1) / s;
    int64_t total = std::max<int64_t>((*out - 1) * s + effective - in, 0);
    *before = total / 2;
    *after = total - *before;
  } else if (padding == "VALID") {
    *out = in >= effective ? (in - effective) / s + 1 : 0;
    *before = *after = 0;
  } else if (padding == "EXPLICIT") {
    if (explicitPads.size() != 8) return invalidArgument("explicit_paddings must have 8 values");
    *before = explicitPads[static_cast<size_t>(2 * dim)];
    *after = explicitPads[static_cast<size_t>(2 * dim + 1)];
    if (*before < 0 || *after < 0)  // TensorFlow and ONNX reject them too
      return invalidArgument("explicit_paddings must not be negative, got " + std::to_string(*before) + " and " +
                             std::to_string(*after));
    *out = convOutputSize(in, k, s, d, "EXPLICIT", *before, *after);
  } else {
    return invalidArgument("unknown padding '" + padding + "'");
  }
  if (*out <= 0) return invalidArgument("the window does not fit the input");
  return Status::ok();
}

}  // namespace

Expected<Window> windowFor(const Node& node, const Shape& x, int64_t kh, int64_t kw) {
  if (attrString(node, "data_format", "NHWC") != "NHWC")
    return unimplemented(nodeLabel(node) + "the CPU backend runs NHWC only (TensorFlow's CPU kernels too)");
  auto strides = attrInts(node, "strides");
  auto dilations = attrInts(node, "dilations");
  auto explicitPads = attrInts(node, "explicit_paddings");
  if (strides.size() != 4) return invalidArgument(nodeLabel(node) + "strides must have 4 values");
  Window w;
  w.kh = kh;
  w.kw = kw;
  w.sh = strides[1];
  w.sw = strides[2];
  w.dh = dilations.size() == 4 ? dilations[1] : 1;
  w.dw = dilations.size() == 4 ? dilations[2] : 1;
  std::string padding = attrString(node, "padding", "VALID");
  Status s = padDim(padding, explicitPads, 1, x.dim(1), kh, w.sh, w.dh, &w.padTop, &w.padBottom, &w.oh);
  if (s.isOk()) s = padDim(padding, explicitPads, 2, x.dim(2), kw, w.sw, w.dw, &w.padLeft, &w.padRight, &w.ow);
  if (!s.isOk()) return s.withContext(nodeLabel(node) + "input " + x.toString() + ": ");
  return w;
}

}  // namespace flowscope
