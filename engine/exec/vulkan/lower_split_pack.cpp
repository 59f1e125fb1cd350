// Split, SplitV, Unpack, Pack and ConcatV2 on Vulkan (the axis and sizes are Consts): one strided copy per piece, the
// copies of one node writing its several outputs (Split, Unpack) or one output at several offsets (Pack, ConcatV2).
#include <numeric>

#include "exec/vulkan/lowering_util.h"

namespace flowscope::vk {
namespace {

/// Elements before `axis` (outer) and after it (inner): every copy here is outer blocks of contiguous elements, a 2-D
/// iteration whatever the rank.
std::pair<int64_t, int64_t> outerInner(const Shape& s, int64_t axis) {
  int64_t outer = 1, inner = 1;
  for (int k = 0; k < s.rank(); ++k) (k < axis ? outer : inner) *= k == axis ? 1 : s.dim(k);
  return {outer, inner};
}

/// Pieces of input `input` along `axis` of the given sizes, piece p into output p; `dropAxis` for Unpack.
LoweredNode splitPieces(const Shape& x, int input, int64_t axis, const std::vector<int64_t>& sizes, bool dropAxis) {
  const auto [outer, inner] = outerInner(x, axis);
  const int64_t len = x.dim(static_cast<int>(axis));
  LoweredNode lowered;
  int64_t start = 0;
  for (size_t p = 0; p < sizes.size(); ++p) {
    std::vector<int64_t> dims = x.dims();
    dims[static_cast<size_t>(axis)] = sizes[p];
    if (dropAxis) dims.erase(dims.begin() + axis);
    lowered.outputShapes.emplace_back(dims);
    const int64_t block = sizes[p] * inner;
    if (outer * block > 0)
      lowered.dispatches.push_back(gather(input, {outer, block}, {len * inner, 1}, {block, 1}, start * inner, 0, {}, {},
                                          0, static_cast<int>(p)));
    start += sizes[p];
  }
  return lowered;
}

/// The axis in [0, rank), or -1.
int64_t axisIn(int64_t axis, int rank) {
  if (axis < 0) axis += rank;
  return axis >= 0 && axis < rank ? axis : -1;
}

}  // namespace

// Split(split_dim, value) into num_split equal pieces; SplitV(value, size_splits, split_dim), one size may be -1.
Expected<LoweredNode> lowerSplit(const NodeView& v) {
  const bool sized = v.node.op == "SplitV";
  const int input = sized ? 0 : 1;
  const Shape& x = v.inputShapes[static_cast<size_t>(input)];
  const int64_t axis = axisIn(intValues(*v.constInputs[sized ? 2 : 0]).at(0), x.rank());
  if (axis < 0) return fail(v, "split_dim out of range for " + x.toString());
  const int64_t len = x.dim(static_cast<int>(axis)), parts = attrInt(v.node, "num_split", 1);
  std::vector<int64_t> sizes;
  if (!sized) {
    if (parts <= 0 || len % parts)
      return fail(v,
                  "dimension " + std::to_string(len) + " does not split in " + std::to_string(parts) + " equal pieces");
    sizes.assign(static_cast<size_t>(parts), len / parts);
    return splitPieces(x, input, axis, sizes, false);
  }
  sizes = intValues(*v.constInputs[1]);
  int64_t known = 0;
  const auto rest = std::find(sizes.begin(), sizes.end(), -1);
  for (int64_t s : sizes) known += s == -1 ? 0 : s;
  if (rest != sizes.end()) *rest = len - known;
  const bool negative = std::any_of(sizes.begin(), sizes.end(), [](int64_t s) { return s < 0; });
  if (negative || std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != len ||
      static_cast<int64_t>(sizes.size()) != parts)
    return fail(v, "size_splits do not add up to dimension " + std::to_string(axis) + " of " + x.toString());
  return splitPieces(x, input, axis, sizes, false);
}

Expected<LoweredNode> lowerUnpack(const NodeView& v) {
  const Shape& x = v.inputShapes[0];
  const int64_t axis = axisIn(attrInt(v.node, "axis", 0), x.rank());
  if (axis < 0) return fail(v, "axis out of range for " + x.toString());
  const int64_t num = x.dim(static_cast<int>(axis));
  if (num != attrInt(v.node, "num", num))
    return fail(v, "num is " + std::to_string(attrInt(v.node, "num", num)) + " but " + x.toString() + " has " +
                       std::to_string(num) + " along axis " + std::to_string(axis));
  return splitPieces(x, 0, axis, std::vector<int64_t>(static_cast<size_t>(num), 1), true);
}

// Pack: N tensors of one shape stacked along a new axis; input i is copied to offset i along it.
Expected<LoweredNode> lowerPack(const NodeView& v) {
  const Shape& first = v.inputShapes[0];
  const int64_t axis = axisIn(attrInt(v.node, "axis", 0), first.rank() + 1);
  if (axis < 0) return fail(v, "axis out of range for " + first.toString());
  const auto n = static_cast<int64_t>(v.inputShapes.size());
  std::vector<int64_t> dims = first.dims();
  dims.insert(dims.begin() + axis, n);
  const auto [outer, inner] = outerInner(Shape(dims), axis);
  LoweredNode lowered{{Shape(dims)}, {}};
  for (int64_t i = 0; i < n; ++i) {
    const Shape& s = v.inputShapes[static_cast<size_t>(i)];
    if (s != first)
      return fail(v, "input " + std::to_string(i) + " has " + s.toString() + ", expected " + first.toString());
    if (outer * inner > 0)
      lowered.dispatches.push_back(
          gather(static_cast<int>(i), {outer, inner}, {inner, 1}, {n * inner, 1}, 0, i * inner, {}, {}, 0));
  }
  return lowered;
}

// ConcatV2: input i is outer blocks of len_i * inner contiguous elements, copied to offset_i * inner in each block of
// the output.
Expected<LoweredNode> lowerConcat(const NodeView& v) {
  const size_t n = v.inputShapes.size() - 1;  // the last input is the axis
  const Shape& first = v.inputShapes[0];
  const int64_t axis = axisIn(intValues(*v.constInputs[n]).at(0), first.rank());
  if (axis < 0) return fail(v, "axis out of range for " + first.toString());
  std::vector<int64_t> dims = first.dims();
  dims[static_cast<size_t>(axis)] = 0;
  for (size_t i = 0; i < n; ++i) {
    const Shape& s = v.inputShapes[i];
    for (int k = 0; k < first.rank(); ++k)
      if (k != axis && s.dim(k) != first.dim(k))
        return fail(v, "input " + std::to_string(i) + " has " + s.toString() + ", expected " + first.toString());
    dims[static_cast<size_t>(axis)] += s.dim(static_cast<int>(axis));
  }
  const auto [outer, inner] = outerInner(first, axis);
  const int64_t rowOut = dims[static_cast<size_t>(axis)] * inner;
  LoweredNode lowered{{Shape(dims)}, {}};
  int64_t offset = 0;
  for (size_t i = 0; i < n; ++i) {
    const int64_t row = v.inputShapes[i].dim(static_cast<int>(axis)) * inner;
    if (outer * row > 0)
      lowered.dispatches.push_back(
          gather(static_cast<int>(i), {outer, row}, {row, 1}, {rowOut, 1}, 0, offset, {}, {}, 0));
    offset += row;
  }
  return lowered;
}

}  // namespace flowscope::vk
