// Shape functions of detection and record-parsing ops: non-max suppression and tf.Example parsing.
#include <algorithm>

#include "ops/shape_functions.h"

namespace flowscope {
namespace {

int64_t constScalarOr(const ShapeContext& ctx, size_t input, int64_t fallback) {
  auto v = ctx.constInts(input);
  return v && v->size() == 1 ? (*v)[0] : fallback;
}

}  // namespace

// NonMaxSuppression V1..V5: selected [?], or [max_output_size] when padded; scores like the indices; valid_outputs [].
void shapeNms(ShapeContext& ctx) {
  const bool pad = ctx.boolAttr("pad_to_max_output_size", false);
  const int64_t len = pad ? constScalarOr(ctx, 2, -1) : -1;
  ctx.set(0, Shape{len});
  if (ctx.node.op == "NonMaxSuppressionV4") ctx.set(1, Shape{});
  if (ctx.node.op == "NonMaxSuppressionV5") {
    ctx.set(1, Shape{len});
    ctx.set(2, Shape{});
  }
}

// CombinedNonMaxSuppression: [batch, D, 4], [batch, D], [batch, D], [batch] with D = max_total_size, or with
// pad_per_class the smaller of it and max_output_size_per_class * classes.
void shapeCombinedNms(ShapeContext& ctx) {
  const Shape& boxes = ctx.in(0);
  const Shape& scores = ctx.in(1);
  const int64_t batch = boxes.rank() == 4 ? boxes.dim(0) : scores.rank() == 3 ? scores.dim(0) : -1;
  const int64_t classes = scores.rank() == 3 ? scores.dim(2) : -1;
  const int64_t perClass = constScalarOr(ctx, 2, -1), total = constScalarOr(ctx, 3, -1);
  int64_t width = total;
  if (ctx.boolAttr("pad_per_class", false))
    width = total < 0 || perClass < 0 || classes < 0 ? -1 : std::min(total, perClass * classes);
  ctx.set(0, Shape{batch, width, 4});
  ctx.set(1, Shape{batch, width});
  ctx.set(2, Shape{batch, width});
  ctx.set(3, Shape{batch});
}

// ParseExample(V2): dense_values[i] is serialized's shape followed by dense_shapes[i]; sparse indices [?, rank + 1],
// values [?], shapes [rank + 1].
void shapeParseExample(ShapeContext& ctx) {
  const Shape& serialized = ctx.in(0);
  const AttrValue* shapes = ctx.node.attr("dense_shapes");
  const AttrValue* sparse = ctx.node.attr("sparse_types");
  const size_t nSparse = sparse && sparse->kind() == AttrValue::Kind::kList ? sparse->list().type.size() : 0;
  const int64_t rank = serialized.hasUnknownRank() ? -1 : serialized.rank() + 1;
  for (size_t s = 0; s < nSparse; ++s) {
    ctx.set(s, Shape{-1, rank});
    ctx.set(nSparse + s, Shape{-1});
    ctx.set(2 * nSparse + s, Shape{rank});
  }
  if (!shapes || shapes->kind() != AttrValue::Kind::kList || serialized.hasUnknownRank()) return;
  for (size_t d = 0; d < shapes->list().shape.size(); ++d) {
    const Shape& dense = shapes->list().shape[d];
    if (dense.hasUnknownRank()) continue;
    std::vector<int64_t> dims = serialized.dims();
    dims.insert(dims.end(), dense.dims().begin(), dense.dims().end());
    ctx.set(3 * nSparse + d, Shape(dims));
  }
}

}  // namespace flowscope
