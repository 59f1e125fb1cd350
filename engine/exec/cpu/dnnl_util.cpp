// oneDNN plumbing.
#include "exec/cpu/dnnl_util.h"

#include "base/growing_buffer.h"

namespace flowscope::dnnl_util {

dnnl::engine& engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::stream& stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

void bindThreadScratchpad(dnnl::memory& scratchpad) {
  thread_local GrowingBuffer buffer;
  const size_t size = scratchpad.get_desc().get_size();
  scratchpad.set_data_handle(size ? buffer.atLeast(size) : nullptr);
}

dnnl::memory packedMemory(const dnnl::memory::desc& desc, PackedBytes* owner) {
  *owner = PackedBytes(desc.get_size());
  return dnnl::memory(desc, engine(), owner->data());
}

dnnl::memory::data_type dataType(DType dtype) {
  switch (dtype) {
    case DType::kFloat:
      return dnnl::memory::data_type::f32;
    case DType::kBFloat16:
      return dnnl::memory::data_type::bf16;
    case DType::kHalf:
      return dnnl::memory::data_type::f16;
    case DType::kInt32:
      return dnnl::memory::data_type::s32;
    case DType::kInt8:
      return dnnl::memory::data_type::s8;
    case DType::kUInt8:
      return dnnl::memory::data_type::u8;
    default:
      return dnnl::memory::data_type::undef;
  }
}

dnnl::memory::desc desc(const std::vector<int64_t>& dims, DType dtype, const std::vector<int64_t>& strides) {
  return dnnl::memory::desc(dnnl::memory::dims(dims.begin(), dims.end()), dataType(dtype),
                            dnnl::memory::dims(strides.begin(), strides.end()));
}

dnnl::memory::desc dense(const std::vector<int64_t>& dims, DType dtype) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t k = dims.size(); k-- > 1;) strides[k - 1] = strides[k] * dims[k];
  return desc(dims, dtype, strides);
}

ExecArgs::ExecArgs(std::initializer_list<Arg> args) {
  for (const Arg& a : args) m_args.at(static_cast<size_t>(m_count++)) = a.arg;
}

void ExecArgs::add(int which, const dnnl::memory& memory) {
  m_args.at(static_cast<size_t>(m_count++)) = {which, memory.get()};
}

void ExecArgs::run(const dnnl::primitive& primitive) const {
  dnnl::error::wrap_c_api(dnnl_primitive_execute(primitive.get(), stream().get(), m_count, m_args.data()),
                          "could not execute a primitive");
}

void reorder(const dnnl::reorder& primitive, const dnnl::memory& from, const dnnl::memory& to) {
  ExecArgs{{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}}.run(primitive);
}

void BlockedIo::prepare(const dnnl::memory& userSrc, const dnnl::memory& userDst, const dnnl::memory::desc& srcDesc,
                        const dnnl::memory::desc& dstDesc) {
  srcUsed = srcDesc != userSrc.get_desc();
  dstUsed = dstDesc != userDst.get_desc();
  if (srcUsed) {
    src = dnnl::memory(srcDesc, engine());
    toBlocked = dnnl::reorder(userSrc, src);
  }
  if (dstUsed) {
    dst = dnnl::memory(dstDesc, engine());
    fromBlocked = dnnl::reorder(dst, userDst);
    toBlockedDestination = dnnl::reorder(userDst, dst);
  }
}

const dnnl::memory& BlockedIo::sourceFor(dnnl::memory& userSrc) {
  if (!srcUsed) return userSrc;
  reorder(toBlocked, userSrc, src);
  return src;
}

void BlockedIo::loadDestination(dnnl::memory& userDst) {
  if (dstUsed) reorder(toBlockedDestination, userDst, dst);
}

void BlockedIo::finish(dnnl::memory& userDst) {
  if (dstUsed) reorder(fromBlocked, dst, userDst);
}

bool activationPostOp(const std::string& a, float leakyAlpha, dnnl::post_ops* ops) {
  using A = dnnl::algorithm;
  if (a == "Relu")
    ops->append_eltwise(1.0f, A::eltwise_relu, 0.0f, 0.0f);
  else if (a == "Relu6")
    ops->append_eltwise(1.0f, A::eltwise_clip, 0.0f, 6.0f);
  else if (a == "Elu")
    ops->append_eltwise(1.0f, A::eltwise_elu, 1.0f, 0.0f);
  else if (a == "LeakyRelu")
    ops->append_eltwise(1.0f, A::eltwise_relu, leakyAlpha, 0.0f);
  else if (a == "Tanh")
    ops->append_eltwise(1.0f, A::eltwise_tanh, 0.0f, 0.0f);
  else if (a == "Sigmoid")
    ops->append_eltwise(1.0f, A::eltwise_logistic, 0.0f, 0.0f);
  else
    return false;
  return true;
}

}  // namespace flowscope::dnnl_util
