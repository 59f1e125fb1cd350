// ONNX Unique: the distinct elements of the flattened input, or the distinct slices along `axis`, sorted ascending
// (sorted=1, slices compared element by element) or in order of first occurrence; with each one's first index, each
// input item's position among them, and their counts.
#include <algorithm>
#include <numeric>

#include "exec/cpu/onnx_kernels.h"

namespace flowscope {
namespace {

Status unique(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const bool flat = !ctx.node.attr("axis"), sorted = attrInt(ctx.node, "sorted", 1) != 0;
  int64_t axis = 0;
  if (!flat && !normalizeAxis(attrInt(ctx.node, "axis", 0), x.shape().rank(), &axis))
    return ctx.error("axis out of range");
  int64_t outer = 1, items = flat ? x.numElements() : x.shape().dim(static_cast<int>(axis)), inner = 1;
  if (!flat)
    for (int i = 0; i < x.shape().rank(); ++i)
      if (i != axis) (i < axis ? outer : inner) *= x.shape().dim(i);
  // Item k's elements, in order: (o, k, i) for every outer o and inner i.
  auto element = [&](int64_t k, int64_t e) { return x.elementAsDouble((e / inner * items + k) * inner + e % inner); };
  const int64_t width = outer * inner;
  auto less = [&](int64_t a, int64_t b) {
    for (int64_t e = 0; e < width; ++e)
      if (element(a, e) != element(b, e)) return element(a, e) < element(b, e);
    return false;
  };
  std::vector<int64_t> order(static_cast<size_t>(items));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), less);
  std::vector<std::vector<int64_t>> groups;  // the items of each distinct value, in input order
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || less(order[i - 1], order[i])) groups.emplace_back();
    groups.back().push_back(order[i]);
  }
  if (!sorted) std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a[0] < b[0]; });
  const auto count = static_cast<int64_t>(groups.size());
  std::vector<int64_t> first, inverse(static_cast<size_t>(items)), counts;
  for (int64_t g = 0; g < count; ++g) {
    first.push_back(groups[static_cast<size_t>(g)][0]);
    counts.push_back(static_cast<int64_t>(groups[static_cast<size_t>(g)].size()));
    for (int64_t k : groups[static_cast<size_t>(g)]) inverse[static_cast<size_t>(k)] = g;
  }
  std::vector<int64_t> dims = flat ? std::vector<int64_t>{count} : x.shape().dims();
  if (!flat) dims[static_cast<size_t>(axis)] = count;
  Tensor y = Tensor::uninitialized(x.dtype(), Shape(dims));
  const auto size = static_cast<size_t>(dtypeSize(x.dtype()));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t g = 0; g < count; ++g)
      std::copy_n(x.bytes().data() + static_cast<size_t>((o * items + first[static_cast<size_t>(g)]) * inner) * size,
                  static_cast<size_t>(inner) * size,
                  y.mutableBytes().data() + static_cast<size_t>((o * count + g) * inner) * size);
  ctx.outputs[0] = std::move(y);
  const std::vector<int64_t>* rest[] = {&first, &inverse, &counts};
  for (size_t k = 1; k < ctx.outputs.size() && k <= 3; ++k) ctx.outputs[k] = int64Vector(*rest[k - 1]);
  return Status::ok();
}

}  // namespace

void registerOnnxUniqueKernel(KernelTable& r) { r.addFn("onnx::Unique", unique); }

}  // namespace flowscope
