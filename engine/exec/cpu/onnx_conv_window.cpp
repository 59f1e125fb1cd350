// ONNX convolution and pooling windows.
#include "exec/cpu/onnx_conv_window.h"

#include <string>

#include "exec/kernel_util.h"

namespace flowscope {
namespace {

std::vector<int64_t> intsOr(const Node& node, const char* name, size_t n, int64_t fallback) {
  std::vector<int64_t> v = attrInts(node, name);
  return v.empty() ? std::vector<int64_t>(n, fallback) : v;
}

// ONNX requires pads >= 0 (a negative one would crop): an error naming the first that is not.
Status padsNotNegative(const std::vector<int64_t>& pads) {
  for (size_t i = 0; i < pads.size(); ++i)
    if (pads[i] < 0)
      return invalidArgument("pads must not be negative, got " + std::to_string(pads[i]) + " at " + std::to_string(i));
  return Status::ok();
}

// The kernel, strides and dilations of a window over `x`, checked to have one spatial axis per kernel axis.
Expected<OnnxWindow> windowAxes(const Node& node, const Shape& x, std::vector<int64_t> kernel) {
  const size_t n = kernel.size();
  if (x.rank() != static_cast<int>(n) + 2)
    return invalidArgument("input " + x.toString() + " does not have " + std::to_string(n) + " spatial axes");
  OnnxWindow w;
  w.kernel = std::move(kernel);
  w.strides = intsOr(node, "strides", n, 1);
  w.dilations = intsOr(node, "dilations", n, 1);
  return w;
}

}  // namespace

Expected<OnnxWindow> onnxWindow(const Node& node, const Shape& x, std::vector<int64_t> kernel, bool ceilMode) {
  const size_t n = kernel.size();
  FS_ASSIGN_OR_RETURN(OnnxWindow w, windowAxes(node, x, std::move(kernel)));
  std::vector<int64_t> pads = intsOr(node, "pads", 2 * n, 0);
  if (w.strides.size() != n || w.dilations.size() != n || pads.size() != 2 * n)
    return invalidArgument("strides, dilations or pads do not match the " + std::to_string(n) + " spatial axes");
  FS_RETURN_IF_ERROR(padsNotNegative(pads));
  const std::string autoPad = attrString(node, "auto_pad", "NOTSET");
  for (size_t i = 0; i < n; ++i) {
    const int64_t in = x.dim(static_cast<int>(i) + 2), s = w.strides[i];
    const int64_t span = (w.kernel[i] - 1) * w.dilations[i] + 1;
    if (s <= 0 || w.dilations[i] <= 0 || w.kernel[i] <= 0) return invalidArgument("non-positive stride or kernel");
    int64_t begin = pads[i], end = pads[i + n];
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      const int64_t out = (in + s - 1) / s;
      const int64_t total = std::max<int64_t>(0, (out - 1) * s + span - in);
      begin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      end = total - begin;
    } else if (autoPad == "VALID") {
      begin = end = 0;
    } else if (autoPad != "NOTSET") {
      return invalidArgument("auto_pad '" + autoPad + "' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID");
    }
    const int64_t room = in + begin + end - span;
    if (room < 0) return invalidArgument("the window " + std::to_string(span) + " is larger than the padded input");
    int64_t out = room / s + 1;
    if (ceilMode && room % s) {
      ++out;
      if ((out - 1) * s >= in + begin) --out;  // the last window must start inside the input or its begin pad
      end = std::max(end, (out - 1) * s + span - in - begin);
    }
    w.padBegin.push_back(begin);
    w.padEnd.push_back(end);
    w.out.push_back(out);
  }
  return w;
}

Expected<OnnxWindow> onnxTransposedWindow(const Node& node, const Shape& x, std::vector<int64_t> kernel) {
  const size_t n = kernel.size();
  FS_ASSIGN_OR_RETURN(OnnxWindow w, windowAxes(node, x, std::move(kernel)));
  const std::vector<int64_t> pads = intsOr(node, "pads", 2 * n, 0), extra = intsOr(node, "output_padding", n, 0);
  std::vector<int64_t> shape = attrInts(node, "output_shape");
  if (shape.size() == n + 2) shape.erase(shape.begin(), shape.begin() + 2);  // N and C given too
  if (w.strides.size() != n || w.dilations.size() != n || pads.size() != 2 * n || extra.size() != n ||
      (!shape.empty() && shape.size() != n))
    return invalidArgument("strides, dilations, pads, output_padding or output_shape do not match the " +
                           std::to_string(n) + " spatial axes");
  FS_RETURN_IF_ERROR(padsNotNegative(pads));
  const std::string autoPad = attrString(node, "auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER" && autoPad != "VALID")
    return invalidArgument("auto_pad '" + autoPad + "' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID");
  for (size_t i = 0; i < n; ++i) {
    const int64_t in = x.dim(static_cast<int>(i) + 2), s = w.strides[i];
    if (s <= 0 || w.dilations[i] <= 0 || w.kernel[i] <= 0) return invalidArgument("non-positive stride or kernel");
    const int64_t full = s * (in - 1) + extra[i] + (w.kernel[i] - 1) * w.dilations[i] + 1;  // before any pad
    int64_t begin = autoPad == "VALID" ? 0 : pads[i], end = autoPad == "VALID" ? 0 : pads[i + n];
    const bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
    if (!shape.empty() || same) {
      const int64_t total = full - (shape.empty() ? in * s : shape[i]);  // negative: output_shape adds to the end
      const int64_t half = total >= 0 ? total / 2 : -((1 - total) / 2);  // rounded down, as ONNX's Python does
      begin = autoPad == "SAME_UPPER" ? half : total - half;
      end = total - begin;
    }
    if (full - begin - end <= 0) return invalidArgument("the pads leave no output");
    w.padBegin.push_back(begin);
    w.padEnd.push_back(end);
    w.out.push_back(full - begin - end);
  }
  return w;
}

}  // namespace flowscope
