// Random kernels, seeded from the run's generator (op seeds mix in, so a seeded op is reproducible).
#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <type_traits>

#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/philox.h"
#include "exec/exec_context.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

// The op's stream: its seeds when set (the same values on every call, reproducible), else a key from the run's
// generator. Philox, as TensorFlow's kernels use: nothing to initialize per call.
Philox generatorFor(KernelContext& ctx) {
  const auto seed = static_cast<uint64_t>(attrInt(ctx.node, "seed", 0));
  const auto seed2 = static_cast<uint64_t>(attrInt(ctx.node, "seed2", 0));
  if (seed || seed2) return Philox(seed, seed2);
  static thread_local std::mt19937_64 fallback(0x5eed);
  return Philox(ctx.exec ? ctx.exec->rng() : fallback(), 0);
}

// Standard normal pairs by Box-Muller from two uniform words (u1 kept away from 0, as TensorFlow does).
template <typename T>
std::array<T, 2> normalPair(uint32_t a, uint32_t b) {
  constexpr T kEpsilon = T(1.0e-7), kTwoPi = T(6.283185307179586);
  const T u1 = std::max(static_cast<T>(uniformFloat(a)), kEpsilon), v = kTwoPi * static_cast<T>(uniformFloat(b));
  const T radius = std::sqrt(T(-2) * std::log(u1));
  return {std::sin(v) * radius, std::cos(v) * radius};
}

// Fills `n` values of one of the kinds, four words of Philox at a time.
template <int Kind, typename T>  // 0 uniform, 1 normal, 2 truncated normal (within two standard deviations)
void fillRandom(Philox& gen, T* out, int64_t n) {
  int64_t i = 0;
  while (i < n) {
    const Philox::Block words = gen.next();
    if constexpr (Kind == 0) {
      for (int k = 0; k < 4 && i < n; ++k) out[i++] = static_cast<T>(uniformFloat(words[static_cast<size_t>(k)]));
    } else {
      for (int k = 0; k < 4 && i < n; k += 2)
        for (T v : normalPair<T>(words[static_cast<size_t>(k)], words[static_cast<size_t>(k) + 1]))
          if (i < n && (Kind == 1 || std::fabs(v) <= T(2))) out[i++] = v;
    }
  }
}

template <int Kind>
Status randomFloat(KernelContext& ctx) {
  std::vector<int64_t> dims = intValues(ctx.inputs[0]);
  DType dtype = attrType(ctx.node, "dtype", DType::kFloat);
  Tensor out = Tensor::uninitialized(dtype, Shape(dims));
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
  std::vector<int64_t> dims = intValues(ctx.inputs[0]);
  int64_t lo, hi;
  if (!scalarInt(ctx.inputs[1], &lo) || !scalarInt(ctx.inputs[2], &hi) || lo >= hi)
    return ctx.error("needs minval < maxval");
  DType dtype = ctx.inputs[1].dtype();
  if (dtype != DType::kInt32 && dtype != DType::kInt64) return ctx.error("minval must be int32 or int64");
  Tensor out = Tensor::uninitialized(dtype, Shape(dims));
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

void registerRandomKernels(KernelTable& r) {
  r.addFn("RandomUniform", randomFloat<0>);
  r.addFn("RandomStandardNormal", randomFloat<1>);
  r.addFn("TruncatedNormal", randomFloat<2>);
  r.addFn("RandomUniformInt", randomUniformInt);
}

}  // namespace flowscope
