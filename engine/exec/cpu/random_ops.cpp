// Random kernels, seeded from the run's generator (op seeds mix in, so a seeded op is reproducible).
#include <random>

#include "exec/cpu/cpu_kernels.h"
#include "exec/exec_context.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

std::mt19937_64 generatorFor(KernelContext& ctx) {
  int64_t seed = attrInt(ctx.node, "seed", 0), seed2 = attrInt(ctx.node, "seed2", 0);
  if (seed || seed2)
    return std::mt19937_64(static_cast<uint64_t>(seed) * 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(seed2));
  static thread_local std::mt19937_64 fallback(0x5eed);
  return std::mt19937_64(ctx.exec ? ctx.exec->rng() : fallback());
}

template <int Kind>  // 0 uniform, 1 normal, 2 truncated normal
Status randomFloat(KernelContext& ctx) {
  std::vector<int64_t> dims = intValues(ctx.inputs[0]);
  DType dtype = attrType(ctx.node, "dtype", DType::kFloat);
  Tensor out = Tensor::uninitialized(dtype, Shape(dims));
  auto gen = generatorFor(ctx);
  if (!dispatchFloat(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        std::uniform_real_distribution<T> uniform(0, 1);
        std::normal_distribution<T> normal(0, 1);
        for (int64_t i = 0; i < out.numElements(); ++i) {
          T v;
          if constexpr (Kind == 0)
            v = uniform(gen);
          else if constexpr (Kind == 1)
            v = normal(gen);
          else
            do v = normal(gen);
            while (v < -2 || v > 2);
          out.data<T>()[i] = v;
        }
      }))
    return ctx.error("dtype must be floating");
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status randomUniformInt(KernelContext& ctx) {
  std::vector<int64_t> dims = intValues(ctx.inputs[0]);
  int64_t lo, hi;
  if (!scalarInt(ctx.inputs[1], &lo) || !scalarInt(ctx.inputs[2], &hi) || lo >= hi)
    return ctx.error("needs minval < maxval");
  DType dtype = ctx.inputs[1].dtype();
  Tensor out = Tensor::uninitialized(dtype, Shape(dims));
  auto gen = generatorFor(ctx);
  std::uniform_int_distribution<int64_t> dist(lo, hi - 1);
  for (int64_t i = 0; i < out.numElements(); ++i) {
    if (dtype == DType::kInt32)
      out.data<int32_t>()[i] = static_cast<int32_t>(dist(gen));
    else
      out.data<int64_t>()[i] = dist(gen);
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
