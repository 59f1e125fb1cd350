// String kernels: StringFormat and PrintV2 (tf.print), StringJoin, ShardedFilename, StaticRegexFullMatch, and
// BroadcastArgs / _Retval bookkeeping ops.
#include <cstdio>
#include <cstring>
#include <functional>
#include <regex>

#include "exec/cpu/cpu_kernels.h"
#include "exec/kernel_util.h"
#include "exec/print_sink.h"

namespace flowscope {
namespace {

// tf.print's rendering: numbers as TensorFlow prints them ("[[1 2]\n [3 4]]"), at most `summarize` per dim.
std::string formatTensor(const Tensor& t, int64_t summarize) {
  if (t.isStringLike()) return t.numElements() == 1 ? t.strings()[0] : t.preview(static_cast<int>(summarize));
  const Shape& s = t.shape();
  if (s.rank() == 0) {
    double v = t.elementAsDouble(0);
    if (t.dtype() == DType::kBool) return v ? "True" : "False";
    char buf[32];
    std::snprintf(buf, sizeof buf, isFloating(t.dtype()) ? "%g" : "%.0f", v);
    return buf;
  }
  std::vector<int64_t> strides = stridesOf(s);
  std::function<std::string(int, int64_t)> render = [&](int dim, int64_t offset) -> std::string {
    std::string out = "[";
    const int64_t n = s.dim(dim);
    for (int64_t i = 0; i < n; ++i) {
      if (summarize >= 0 && n > 2 * summarize && i == summarize) {
        out += "...";
        i = n - summarize - 1;
        if (dim + 1 < s.rank())
          out += "\n" + std::string(static_cast<size_t>(dim + 1), ' ');
        else
          out += " ";
        continue;
      }
      if (dim + 1 == s.rank()) {
        Tensor scalar = Tensor::uninitialized(t.dtype(), Shape{});
        std::memcpy(scalar.mutableBytes().data(), t.bytes().data() + (offset + i) * dtypeSize(t.dtype()),
                    static_cast<size_t>(dtypeSize(t.dtype())));
        out += formatTensor(scalar, summarize);
      } else {
        out += render(dim + 1, offset + i * strides[static_cast<size_t>(dim)]);
      }
      if (i + 1 < n) out += dim + 1 == s.rank() ? " " : "\n" + std::string(static_cast<size_t>(dim + 1), ' ');
    }
    return out + "]";
  };
  return render(0, 0);
}

Status stringFormat(KernelContext& ctx) {
  std::string tmpl = attrString(ctx.node, "template", "%s");
  std::string placeholder = attrString(ctx.node, "placeholder", "%s");
  int64_t summarize = attrInt(ctx.node, "summarize", 3);
  std::string out;
  size_t pos = 0, next = 0;
  for (size_t i = 0;; ++i) {
    next = tmpl.find(placeholder, pos);
    if (next == std::string::npos) {
      if (i != ctx.inputs.size())
        return ctx.error("template has " + std::to_string(i) + " placeholders for " +
                         std::to_string(ctx.inputs.size()) + " inputs");
      out += tmpl.substr(pos);
      break;
    }
    if (i >= ctx.inputs.size()) return ctx.error("template has more placeholders than inputs");
    out += tmpl.substr(pos, next - pos) + formatTensor(ctx.inputs[i], summarize);
    pos = next + placeholder.size();
  }
  ctx.outputs[0] = Tensor::fromStrings(Shape{}, {out});
  return Status::ok();
}

Status printV2(KernelContext& ctx) {
  const Tensor& s = ctx.inputs[0];
  if (!s.isStringLike() || s.numElements() != 1) return ctx.error("input must be a string scalar");
  std::string stream = attrString(ctx.node, "output_stream", "stderr");
  printThroughSink(s.strings()[0] + attrString(ctx.node, "end", "\n"), stream != "stdout" && stream != "log(info)");
  return Status::ok();
}

Status stringJoin(KernelContext& ctx) {
  std::string sep = attrString(ctx.node, "separator", "");
  int64_t n = 1;
  Shape shape;
  for (const auto& t : ctx.inputs) {
    if (!t.isStringLike()) return ctx.error("inputs must be strings");
    if (t.numElements() != 1) {
      if (n != 1 && t.numElements() != n) return ctx.error("non-scalar inputs must have one shape");
      n = t.numElements();
      shape = t.shape();
    }
  }
  std::vector<std::string> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    for (size_t k = 0; k < ctx.inputs.size(); ++k) {
      if (k) out[static_cast<size_t>(i)] += sep;
      out[static_cast<size_t>(i)] +=
          ctx.inputs[k].strings()[ctx.inputs[k].numElements() == 1 ? 0 : static_cast<size_t>(i)];
    }
  ctx.outputs[0] = Tensor::fromStrings(shape, std::move(out));
  return Status::ok();
}

Status shardedFilename(KernelContext& ctx) {
  int64_t shard, shards;
  if (!ctx.inputs[0].isStringLike() || !scalarInt(ctx.inputs[1], &shard) || !scalarInt(ctx.inputs[2], &shards))
    return ctx.error("expects a string basename and int32 shard numbers");
  char buf[64];
  std::snprintf(buf, sizeof buf, "-%05lld-of-%05lld", static_cast<long long>(shard), static_cast<long long>(shards));
  ctx.outputs[0] = Tensor::fromStrings(Shape{}, {ctx.inputs[0].strings()[0] + buf});
  return Status::ok();
}

Status regexFullMatch(KernelContext& ctx) {
  const Tensor& in = ctx.inputs[0];
  std::regex pattern;
  try {
    pattern = std::regex(attrString(ctx.node, "pattern", ""), std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return ctx.error(std::string("invalid pattern: ") + e.what());
  }
  Tensor out = Tensor::uninitialized(DType::kBool, in.shape());
  for (int64_t i = 0; i < in.numElements(); ++i)
    out.data<uint8_t>()[i] = std::regex_match(in.strings()[static_cast<size_t>(i)], pattern);
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status broadcastArgs(KernelContext& ctx) {
  std::vector<int64_t> a = intValues(ctx.inputs[0]), b = intValues(ctx.inputs[1]);
  size_t rank = std::max(a.size(), b.size());
  a.insert(a.begin(), rank - a.size(), 1);
  b.insert(b.begin(), rank - b.size(), 1);
  Tensor out = Tensor::uninitialized(ctx.inputs[0].dtype(), Shape{static_cast<int64_t>(rank)});
  for (size_t k = 0; k < rank; ++k) {
    if (a[k] != b[k] && a[k] != 1 && b[k] != 1) return ctx.error("shapes do not broadcast");
    int64_t v = a[k] == 1 ? b[k] : a[k];
    if (out.dtype() == DType::kInt64)
      out.data<int64_t>()[k] = v;
    else
      out.data<int32_t>()[k] = static_cast<int32_t>(v);
  }
  ctx.outputs[0] = std::move(out);
  return Status::ok();
}

Status retval(KernelContext&) { return Status::ok(); }  // a function result marker; the plan fetches its input

}  // namespace

void registerStringKernels(KernelTable& r) {
  r.addFn("StringFormat", stringFormat);
  r.addFn("PrintV2", printV2);
  r.addFn("StringJoin", stringJoin);
  r.addFn("ShardedFilename", shardedFilename);
  r.addFn("StaticRegexFullMatch", regexFullMatch);
  r.addFn("BroadcastArgs", broadcastArgs);
  r.addFn("_Retval", retval);
}

}  // namespace flowscope
