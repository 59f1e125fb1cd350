// MatMul, _FusedMatMul (bias + activation as oneDNN post-ops) and BatchMatMul. Large float32 products go to
// oneDNN with a per-kernel primitive cache; small ones and other dtypes use a plain vectorizable loop, because
// a oneDNN call costs more than the arithmetic of a 10x10 product. A product of one row is a matrix-vector product
// (gemv.h) where the machine has AVX-512 or AVX2.
#include <memory>

#include "exec/cpu/cpu_kernels.h"
#include "exec/cpu/dnnl_util.h"
#include "exec/cpu/fused_epilogue.h"
#include "exec/cpu/gemm.h"
#include "exec/cpu/gemv.h"
#include "exec/cpu/matmul_batches.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {
namespace {

constexpr int64_t kDnnlMinWork = 16 * 1024;  // m*n*k below this: the plain loop wins

struct DnnlMatMulPrimitive {
  int64_t m = -1, k = -1, n = -1;
  bool withBias = false, packed = false;
  dnnl::matmul primitive;
  dnnl::memory src, weights, bias, dst, scratchpad;
  PackedBytes weightBytes;   // under `weights` where packed
  dnnl::memory userWeights;  // packed: our row-major view, reordered into `weights` once per weights tensor
  dnnl::reorder pack;
  Tensor packedFrom;  // the weights tensor `weights` was packed from (kept alive so its address stays its own)
};

class MatMulKernel : public OpKernel {
 public:
  MatMulKernel(bool ta, bool tb, FusedSpec fused) : m_ta(ta), m_tb(tb), m_fused(std::move(fused)) {}

  Status compute(KernelContext& ctx) override {
    const Tensor& a = ctx.inputs[0];
    const Tensor& b = ctx.inputs[1];
    if (a.shape().rank() != 2 || b.shape().rank() != 2)
      return ctx.error("expects matrices, got " + a.shape().toString() + " and " + b.shape().toString());
    if (a.dtype() != b.dtype()) return ctx.error("a and b have different dtypes");
    const int64_t m = m_ta ? a.shape().dim(1) : a.shape().dim(0), k = m_ta ? a.shape().dim(0) : a.shape().dim(1);
    const int64_t k2 = m_tb ? b.shape().dim(1) : b.shape().dim(0), n = m_tb ? b.shape().dim(0) : b.shape().dim(1);
    if (k != k2)
      return ctx.error("Matrix size-incompatible: In[0]: " + a.shape().toString() + ", In[1]: " + b.shape().toString());
    Tensor out = Tensor::uninitialized(a.dtype(), Shape{m, n});
    bool fusedBias = false;
    if (a.dtype() == DType::kFloat && m == 1 && m * n * k >= kDnnlMinWork && gemvRowRuns()) {
      runGemv(a.data<float>(), b, k, n, out.data<float>());  // a's one row is contiguous
    } else if (a.dtype() == DType::kFloat && m * n * k >= kDnnlMinWork && !m_fused.batchNorm && !m_fused.prelu) {
      FS_RETURN_IF_ERROR(runDnnl(ctx, a, b, out, m, k, n));
      fusedBias = true;
    } else if (!dispatchNumeric(a.dtype(), [&](auto tag) {
                 using T = typename decltype(tag)::type;
                 if constexpr (!std::is_same_v<T, bool>)
                   gemm(a.data<T>(), m_ta ? 1 : k, m_ta ? m : 1, b.data<T>(), m_tb ? 1 : n, m_tb ? k : 1, out.data<T>(),
                        m, k, n);
               })) {
      return ctx.error("does not support dtype " + std::string(dtypeName(a.dtype())));
    }
    if (!fusedBias && (m_fused.bias || m_fused.batchNorm || m_fused.prelu || !m_fused.activation.empty())) {
      Status s = applyEpilogue(m_fused, ctx.inputs, 2, out, false);
      if (!s.isOk()) return ctx.error(s.message());
    }
    ctx.outputs[0] = std::move(out);
    return Status::ok();
  }

 private:
  // Weights seen twice in a row are packed once into blocks of columns, as for oneDNN below; the pack remembers the
  // product's shape, since a reshaped tensor shares its buffer.
  void runGemv(const float* a, const Tensor& b, int64_t k, int64_t n, float* out) {
    const bool reused = m_lastWeights == b.bytes().data();
    m_lastWeights = b.bytes().data();
    if (!reused || !gemvPacks(m_tb)) return gemvRow(a, b.data<float>(), m_tb, k, n, out);
    if (!m_gemvPackedFrom.isValid() || m_gemvPackedFrom.bytes().data() != b.bytes().data() || m_gemvK != k ||
        m_gemvN != n) {
      m_gemvPacked = Tensor::persistent(DType::kFloat, Shape{gemvPackedFloats(m_tb, k, n)}, false);
      packGemvWeights(b.data<float>(), m_tb, k, n, m_gemvPacked.data<float>());
      m_gemvPackedFrom = b;
      m_gemvK = k;
      m_gemvN = n;
    }
    gemvPackedRow(a, m_gemvPacked.data<float>(), m_tb, k, n, out);
  }

  Status runDnnl(KernelContext& ctx, const Tensor& a, const Tensor& b, Tensor& out, int64_t m, int64_t k, int64_t n) {
    const bool withBias = m_fused.bias;
    if (withBias && (ctx.inputs.size() < 3 || ctx.inputs[2].numElements() != n))
      return ctx.error("bias must have " + std::to_string(n) + " values");
    // Weights seen twice in a row (a Const, a variable) are packed once into oneDNN's preferred layout, as ORT
    // pre-packs: the GEMM then skips copying B into blocks on every call.
    const bool reused = m_lastWeights == b.bytes().data();
    m_lastWeights = b.bytes().data();
    DnnlMatMulPrimitive& p = m_cache;
    if (p.m != m || p.k != k || p.n != n || p.withBias != withBias || p.packed != reused)
      FS_RETURN_IF_ERROR(prepare(m, k, n, withBias, reused));
    if (p.packed && (!p.packedFrom.isValid() || p.packedFrom.bytes().data() != b.bytes().data())) {
      p.userWeights.set_data_handle(const_cast<float*>(b.data<float>()));
      p.pack.execute(dnnl_util::stream(), p.userWeights, p.weights);
      p.packedFrom = b;
    }
    p.src.set_data_handle(const_cast<float*>(a.data<float>()));
    if (!p.packed) p.weights.set_data_handle(const_cast<float*>(b.data<float>()));
    p.dst.set_data_handle(out.data<float>());
    dnnl_util::ExecArgs args{{DNNL_ARG_SRC, p.src},
                             {DNNL_ARG_WEIGHTS, p.weights},
                             {DNNL_ARG_DST, p.dst},
                             {DNNL_ARG_SCRATCHPAD, p.scratchpad}};
    if (withBias) {
      p.bias.set_data_handle(const_cast<float*>(ctx.inputs[2].data<float>()));
      args.add(DNNL_ARG_BIAS, p.bias);
    }
    dnnl_util::bindThreadScratchpad(p.scratchpad);
    args.run(p.primitive);
    dnnl_util::stream().wait();
    return Status::ok();
  }

  Status prepare(int64_t m, int64_t k, int64_t n, bool withBias, bool packed) {
    using namespace dnnl_util;
    auto srcDesc = desc({m, k}, DType::kFloat, m_ta ? std::vector<int64_t>{1, m} : std::vector<int64_t>{k, 1});
    auto userWeiDesc = desc({k, n}, DType::kFloat, m_tb ? std::vector<int64_t>{1, k} : std::vector<int64_t>{n, 1});
    auto weiDesc =
        packed ? dnnl::memory::desc({k, n}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::any) : userWeiDesc;
    auto dstDesc = dense({m, n}, DType::kFloat);
    auto biasDesc = dense({1, n}, DType::kFloat);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);  // see dnnl_util.h
    dnnl::post_ops ops;
    if (activationPostOp(m_fused.activation, m_fused.leakyAlpha, &ops)) attr.set_post_ops(ops);
    try {
      auto opDesc = withBias ? dnnl::matmul::desc(srcDesc, weiDesc, biasDesc, dstDesc)
                             : dnnl::matmul::desc(srcDesc, weiDesc, dstDesc);
      dnnl::matmul::primitive_desc pd(opDesc, attr, engine());
      DnnlMatMulPrimitive& p = m_cache;
      p = DnnlMatMulPrimitive{};
      p.m = m, p.k = k, p.n = n, p.withBias = withBias, p.packed = packed;
      p.primitive = dnnl::matmul(pd);
      p.scratchpad = dnnl::memory(pd.scratchpad_desc(), engine(), nullptr);
      p.src = dnnl::memory(srcDesc, engine(), nullptr);
      p.bias = dnnl::memory(biasDesc, engine(), nullptr);
      p.dst = dnnl::memory(dstDesc, engine(), nullptr);
      if (packed) {
        p.userWeights = dnnl::memory(userWeiDesc, engine(), nullptr);
        p.weights = packedMemory(pd.weights_desc(), &p.weightBytes);
        p.pack = dnnl::reorder(p.userWeights, p.weights);
      } else {
        p.weights = dnnl::memory(userWeiDesc, engine(), nullptr);
      }
    } catch (const dnnl::error& e) {
      return internalError(std::string("oneDNN could not create the matmul: ") + e.what());
    }
    return Status::ok();
  }

  bool m_ta, m_tb;
  FusedSpec m_fused;
  DnnlMatMulPrimitive m_cache;
  const void* m_lastWeights = nullptr;
  Tensor m_gemvPacked, m_gemvPackedFrom;  // packGemvWeights' copy, and the weights it was packed from (kept alive)
  int64_t m_gemvK = 0, m_gemvN = 0;       // the product the copy was packed for
};

Expected<std::unique_ptr<OpKernel>> makeMatMul(const Node& node) {
  FS_ASSIGN_OR_RETURN(FusedSpec fused, parseFusedOps(node));
  if (fused.addend) return unimplemented(nodeLabel(node) + "a fused Add runs on convolutions only on the CPU");
  return std::unique_ptr<OpKernel>(std::make_unique<MatMulKernel>(attrBool(node, "transpose_a", false),
                                                                  attrBool(node, "transpose_b", false), fused));
}

Status batchMatMul(KernelContext& ctx) {
  const Tensor& x = ctx.inputs[0];
  const Tensor& y = ctx.inputs[1];
  const int rx = x.shape().rank(), ry = y.shape().rank();
  if (rx < 2 || ry < 2) return ctx.error("inputs must have rank >= 2");
  if (x.dtype() != y.dtype()) return ctx.error("x and y have different dtypes");
  const bool ax = attrBool(ctx.node, "adj_x", false), ay = attrBool(ctx.node, "adj_y", false);
  const int64_t m = ax ? x.shape().dim(rx - 1) : x.shape().dim(rx - 2),
                k = ax ? x.shape().dim(rx - 2) : x.shape().dim(rx - 1);
  const int64_t k2 = ay ? y.shape().dim(ry - 1) : y.shape().dim(ry - 2),
                n = ay ? y.shape().dim(ry - 2) : y.shape().dim(ry - 1);
  if (k != k2) return ctx.error("inner dims differ: " + x.shape().toString() + " and " + y.shape().toString());
  const MatMulBatches batches = matMulBatches({x.shape().dims().begin(), x.shape().dims().end() - 2},
                                              {y.shape().dims().begin(), y.shape().dims().end() - 2});
  if (!batches.broadcast)
    return ctx.error("batch dims do not broadcast: " + x.shape().toString() + " and " + y.shape().toString());
  std::vector<int64_t> outDims = batches.dims;
  outDims.push_back(m);
  outDims.push_back(n);
  Tensor out = Tensor::uninitialized(x.dtype(), Shape(outDims));
  Status status;
  if (!dispatchNumeric(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_same_v<T, bool>) {
          parallelFor(batches.count(), m * n * k, [&](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) {
              const int64_t ox = batches.offset(i, batches.aDims), oy = batches.offset(i, batches.bDims);
              gemm(x.data<T>() + ox * m * k, ax ? 1 : k, ax ? m : 1, y.data<T>() + oy * k * n, ay ? 1 : n, ay ? k : 1,
                   out.data<T>() + i * m * n, m, k, n);
            }
          });
        }
      }))
    return ctx.error("does not support dtype " + std::string(dtypeName(x.dtype())));
  ctx.outputs[0] = std::move(out);
  return status;
}

}  // namespace

void registerMatMulKernels(KernelTable& r) {
  r.add("MatMul", makeMatMul);
  r.add("_FusedMatMul", makeMatMul);
  for (const char* op : {"BatchMatMul", "BatchMatMulV2", "BatchMatMulV3"}) r.addFn(op, batchMatMul);
}

}  // namespace flowscope
