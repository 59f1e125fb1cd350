// Random kernels, seeded from the run's generator (op seeds mix in, so a seeded op is reproducible).
#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <type_traits>

#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/random_fill.h"
#include "exec/exec_context.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

// The op's stream: its seeds when set (the same values on every call, reproducible), else the run's.
Philox generatorFor(KernelContext& ctx) {
  const auto seed = static_cast<uint64_t>(attrInt(ctx.node, "seed", 0));
  const auto seed2 = static_cast<uint64_t>(attrInt(ctx.node, "seed2", 0));
  if (seed || seed2) return Philox(seed, seed2);
  return unseededGenerator(ctx);
}

template <RandomKind Kind>
Status randomFloat(KernelContext& ctx) {
  DType dtype = attrType(ctx.node, "dtype", DType::kFloat);
  auto shape = randomShape(intValues(ctx.inputs[0]), dtype);
  if (!shape) return ctx.error(shape.status().message());
  Tensor out = Tensor::uninitialized(dtype, *shape);
  Philox gen = generatorFor(ctx);
  if (!dispatchFloat(dtype,
                     [&](auto tag) {
                       using T = typename decltype(tag)::type;
                       if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
                         fillRandom<Kind>(gen, out.data<T>(), out.numElements());
                     }) ||
      (dtype != DType::kFloat && dtype != DType::kDouble))
    return ctx.error("dtype must be float32 or float64, not " + std::string(dtypeName(dtype)));
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

// Integers in [lo, hi): a 32-bit word (two for spans above 2^32) modulo the span, as TensorFlow draws them.
Status randomUniformInt(KernelContext& ctx) {
  int64_t lo, hi;
  if (!scalarInt(ctx.inputs[1], &lo) || !scalarInt(ctx.inputs[2], &hi) || lo >= hi)
    return ctx.error("needs minval < maxval");
  DType dtype = ctx.inputs[1].dtype();
  if (dtype != DType::kInt32 && dtype != DType::kInt64) return ctx.error("minval must be int32 or int64");
  auto shape = randomShape(intValues(ctx.inputs[0]), dtype);
  if (!shape) return ctx.error(shape.status().message());
  Tensor out = Tensor::uninitialized(dtype, *shape);
  Philox gen = generatorFor(ctx);
  const auto span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  Philox::Block words{};
  size_t used = 4;
  auto word = [&] {
    if (used == 4) words = gen.next(), used = 0;
    return words[used++];
  };
  for (int64_t i = 0; i < out.numElements(); ++i) {
    const uint64_t bits = span > 0xffffffffull ? (uint64_t{word()} << 32 | word()) : word();
    const int64_t v = lo + static_cast<int64_t>(bits % span);
    if (dtype == DType::kInt32)
      out.data<int32_t>()[i] = static_cast<int32_t>(v);
    else
      out.data<int64_t>()[i] = v;
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

}  // namespace

Expected<Shape> randomShape(const std::vector<int64_t>& dims, DType dtype) {
  for (int64_t d : dims)
    if (d < 0) return invalidArgument("the shape " + Shape(dims).toString() + " has a negative dim");
  if (auto bytes = Tensor::checkedByteSize(dtype, Shape(dims), kMaxComputedBytes); !bytes) return bytes.status();
  return Shape(dims);
}

// Philox, as TensorFlow's kernels use: nothing to initialize per call.
Philox unseededGenerator(KernelContext& ctx) {
  static thread_local std::mt19937_64 fallback(0x5eed);
  return Philox(ctx.exec ? ctx.exec->rng() : fallback(), 0);
}

void registerRandomKernels(KernelTable& r) {
  r.addFn("RandomUniform", randomFloat<RandomKind::kUniform>);
  r.addFn("RandomStandardNormal", randomFloat<RandomKind::kNormal>);
  r.addFn("TruncatedNormal", randomFloat<RandomKind::kTruncatedNormal>);
  r.addFn("RandomUniformInt", randomUniformInt);
}

}  // namespace flowscope
