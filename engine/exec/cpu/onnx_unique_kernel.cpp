// ONNX Unique: the distinct elements of the flattened input, or the distinct slices along `axis`, sorted ascending
// (sorted=1, slices compared element by element) or in order of first occurrence; with each one's first index, each
// input item's position among them, and their counts.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>

#include "exec/cpu/onnx_kernels.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

// a < b in the native type, NaN after every number and equal to itself.
template <typename T>
bool ascending(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
  }
  return a < b;
}

// The items (slices k of `items`, each the elements (o, k, i)) grouped by equal value, groups in ascending order, each
// group's items in input order.
template <typename T>
std::vector<std::vector<int64_t>> groupItems(const T* x, int64_t outer, int64_t items, int64_t inner) {
  auto element = [&](int64_t k, int64_t e) { return x[(e / inner * items + k) * inner + e % inner]; };
  auto less = [&](int64_t a, int64_t b) {
    for (int64_t e = 0; e < outer * inner; ++e) {
      if (ascending(element(a, e), element(b, e))) return true;
      if (ascending(element(b, e), element(a, e))) return false;
    }
    return false;
  };
  std::vector<int64_t> order(static_cast<size_t>(items));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), less);
  std::vector<std::vector<int64_t>> groups;
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || less(order[i - 1], order[i])) groups.emplace_back();
    groups.back().push_back(order[i]);
  }
  return groups;
}

Status unique(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const bool flat = !ctx.node.attr("axis"), sorted = attrInt(ctx.node, "sorted", 1) != 0;
  int64_t axis = 0;
  if (!flat && !normalizeAxis(attrInt(ctx.node, "axis", 0), x.shape().rank(), &axis))
    return ctx.error("axis out of range");
  const AxisSplit split = flat ? AxisSplit{1, x.numElements(), 1} : splitAt(x.shape(), axis);
  const int64_t outer = split.outer, items = split.length, inner = split.inner;  // clang 14 cannot capture bindings
  std::vector<std::vector<int64_t>> groups;  // the items of each distinct value, in input order
  const bool ok = dispatchNumeric(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    groups = groupItems<T>(x.data<T>(), outer, items, inner);
  });
  if (!ok) return ctx.error("cannot compare " + std::string(dtypeName(x.dtype())) + " elements");
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

void registerOnnxUniqueKernel(KernelTable& r) { r.add("onnx::Unique", withInputs(1, unique)); }

}  // namespace flowscope
