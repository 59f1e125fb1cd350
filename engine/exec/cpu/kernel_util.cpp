// Kernel helpers. The thread pool is OpenMP's: oneDNN (Debian's build) uses libgomp, so sharing it keeps one
// pool for the whole process.
#include "exec/cpu/kernel_util.h"

#include <omp.h>

#include <atomic>

namespace flowscope {

namespace {
std::atomic<int> g_threads{1};
}

int64_t attrInt(const Node& node, const char* name, int64_t fallback) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kInt ? v->i() : fallback;
}

float attrFloat(const Node& node, const char* name, float fallback) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kFloat ? v->f() : fallback;
}

bool attrBool(const Node& node, const char* name, bool fallback) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kBool ? v->b() : fallback;
}

std::string attrString(const Node& node, const char* name, const std::string& fallback) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kString ? v->s() : fallback;
}

std::vector<int64_t> attrInts(const Node& node, const char* name) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kList ? v->list().i : std::vector<int64_t>{};
}

DType attrType(const Node& node, const char* name, DType fallback) {
  const AttrValue* v = node.attr(name);
  return v && v->kind() == AttrValue::Kind::kType ? v->type() : fallback;
}

std::vector<int64_t> intValues(const Tensor& t) {
  std::vector<int64_t> out(static_cast<size_t>(std::max<int64_t>(t.numElements(), 0)));
  if (t.dtype() == DType::kInt32)
    for (size_t i = 0; i < out.size(); ++i) out[i] = t.data<int32_t>()[i];
  else if (t.dtype() == DType::kInt64)
    for (size_t i = 0; i < out.size(); ++i) out[i] = t.data<int64_t>()[i];
  return out;
}

bool scalarInt(const Tensor& t, int64_t* out) {
  if (t.numElements() != 1) return false;
  if (t.dtype() == DType::kInt32) *out = t.data<int32_t>()[0];
  else if (t.dtype() == DType::kInt64) *out = t.data<int64_t>()[0];
  else return false;
  return true;
}

bool normalizeAxis(int64_t axis, int rank, int64_t* out) {
  if (axis < -rank || axis >= rank) return false;
  *out = axis < 0 ? axis + rank : axis;
  return true;
}

Status expectInputs(const KernelContext& ctx, size_t count) {
  if (ctx.inputs.size() != count)
    return ctx.error("expects " + std::to_string(count) + " inputs, got " + std::to_string(ctx.inputs.size()));
  return Status::ok();
}

std::vector<int64_t> stridesOf(const Shape& shape) {
  std::vector<int64_t> strides(shape.dims().size(), 1);
  for (size_t k = strides.size(); k-- > 1;) strides[k - 1] = strides[k] * shape.dims()[k];
  return strides;
}

void setIntraOpThreads(int threads) {
  g_threads = std::max(1, threads);
  omp_set_num_threads(g_threads);
}

int intraOpThreads() { return g_threads; }

void parallelFor(int64_t n, int64_t costPerItem, const std::function<void(int64_t, int64_t)>& body) {
  int threads = g_threads;
  constexpr int64_t kMinWorkPerThread = 32 * 1024;  // below this, waking threads costs more than it saves
  if (threads <= 1 || n * costPerItem < 2 * kMinWorkPerThread || n < 2 || omp_in_parallel()) {
    body(0, n);
    return;
  }
  int64_t chunks = std::min<int64_t>(threads, std::max<int64_t>(1, n * costPerItem / kMinWorkPerThread));
#pragma omp parallel for num_threads(static_cast<int>(chunks)) schedule(static)
  for (int64_t c = 0; c < chunks; ++c) body(n * c / chunks, n * (c + 1) / chunks);
}

}  // namespace flowscope
