// ONNX TfIdfVectorizer, the feature step of text models exported by sklearn-onnx: counts, per row of a [C] or [N, C]
// tensor of int or string tokens, the n-grams of its pool (lengths min_gram_length to max_gram_length, their items
// 1 to max_skip_count + 1 tokens apart), and writes each count, or its weight (IDF, TFIDF), at the n-gram's output
// index. As ONNX Runtime does, a 1-gram is counted once, not once per skip distance.
#include <map>
#include <memory>
#include <type_traits>
#include <variant>

#include "exec/cpu/onnx_kernels.h"

namespace flowscope {
namespace {

enum class Weighting { kTf, kIdf, kTfIdf };

// The pool: for each length n, its n-grams (as token sequences) and each one's index in the pool.
template <typename Token>
using Pool = std::vector<std::map<std::vector<Token>, size_t>>;

struct TfIdfConfig {
  int64_t minLength = 1, maxLength = 1, maxSkip = 0;
  Weighting weighting = Weighting::kTf;
  std::vector<int64_t> outputIndex;  // per pool n-gram
  std::vector<float> weights;        // per pool n-gram; empty: all 1
  int64_t width = 0;                 // output values per row
};

// Splits the flat pool into n-grams by ngram_counts (the pool offset where each length's n-grams start).
template <typename Token>
Expected<Pool<Token>> splitPool(const std::vector<Token>& items, const std::vector<int64_t>& starts, size_t ngrams) {
  Pool<Token> pool(starts.size());
  size_t index = 0;
  for (size_t n = 1; n <= starts.size(); ++n) {
    const int64_t begin = starts[n - 1], end = n < starts.size() ? starts[n] : static_cast<int64_t>(items.size());
    if (begin < 0 || end < begin || end > static_cast<int64_t>(items.size()) || (end - begin) % int64_t(n) != 0)
      return invalidArgument("ngram_counts " + std::to_string(n - 1) + " does not split the pool of " +
                             std::to_string(items.size()) + " items into " + std::to_string(n) + "-grams");
    for (int64_t at = begin; at < end; at += static_cast<int64_t>(n), ++index)
      pool[n - 1].emplace(std::vector<Token>(items.begin() + at, items.begin() + at + static_cast<int64_t>(n)), index);
  }
  if (index != ngrams)
    return invalidArgument("the pool holds " + std::to_string(index) + " n-grams but ngram_indexes has " +
                           std::to_string(ngrams));
  return pool;
}

class TfIdfVectorizerKernel : public OpKernel {
 public:
  TfIdfVectorizerKernel(TfIdfConfig config, std::variant<Pool<int64_t>, Pool<std::string>> pool)
      : m_config(std::move(config)), m_pool(std::move(pool)) {}

  Status compute(KernelContext& ctx) override {
    if (ctx.inputs.empty()) return ctx.error("needs an input");
    const Tensor& x = ctx.inputs[0];
    const bool strings = std::holds_alternative<Pool<std::string>>(m_pool);
    const bool ints = x.dtype() == DType::kInt32 || x.dtype() == DType::kInt64;
    if ((strings && x.dtype() != DType::kString) || (!strings && !ints))
      return ctx.error(std::string("expects ") + (strings ? "strings" : "int32 or int64 tokens") +
                       " as its pool holds, got " + std::string(dtypeName(x.dtype())));
    if (x.shape().rank() < 1 || x.shape().rank() > 2)
      return ctx.error("expects a [C] or [N, C] tensor, got " + x.shape().toString());
    const int64_t rows = x.shape().rank() == 2 ? x.shape().dim(0) : 1, length = x.shape().dims().back();
    const Shape shape = x.shape().rank() == 2 ? Shape{rows, m_config.width} : Shape{m_config.width};
    if (auto bytes = Tensor::checkedByteSize(DType::kFloat, shape, kMaxComputedBytes); !bytes)
      return ctx.error(bytes.status().message());
    Tensor out(DType::kFloat, shape);  // zeros
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<int64_t> counts(m_config.outputIndex.size(), 0);
      if (strings)
        countRow(
            std::get<Pool<std::string>>(m_pool), [&](int64_t i) { return x.strings()[size_t(r * length + i)]; }, length,
            counts);
      else
        countRow(
            std::get<Pool<int64_t>>(m_pool), [&](int64_t i) { return tokenAt(x, r * length + i); }, length, counts);
      writeRow(counts, out.data<float>() + r * m_config.width);
    }
    ctx.outputs[0] = std::move(out);
    return Status::ok();
  }

 private:
  static int64_t tokenAt(const Tensor& x, int64_t i) {
    return x.dtype() == DType::kInt32 ? x.data<int32_t>()[i] : x.data<int64_t>()[i];
  }

  // Adds to counts (per pool n-gram) the n-grams of one row of `length` tokens.
  template <typename Token, typename TokenAt>
  void countRow(const Pool<Token>& pool, TokenAt tokenAt, int64_t length, std::vector<int64_t>& counts) const {
    const auto longest = std::min<int64_t>(m_config.maxLength, static_cast<int64_t>(pool.size()));
    std::vector<Token> gram;
    for (int64_t skip = 0; skip <= m_config.maxSkip; ++skip) {
      const int64_t shortest = skip == 0 ? m_config.minLength : std::max<int64_t>(m_config.minLength, 2);
      for (int64_t start = 0; start < length; ++start) {
        gram.clear();
        for (int64_t n = 1; n <= longest && start + (n - 1) * (skip + 1) < length; ++n) {
          gram.push_back(tokenAt(start + (n - 1) * (skip + 1)));
          if (n < shortest) continue;
          const auto& grams = pool[static_cast<size_t>(n - 1)];
          if (auto hit = grams.find(gram); hit != grams.end()) ++counts[hit->second];
        }
      }
    }
  }

  void writeRow(const std::vector<int64_t>& counts, float* row) const {
    for (size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] == 0) continue;
      const float weight = m_config.weights.empty() ? 1.0f : m_config.weights[i];
      float& at = row[m_config.outputIndex[i]];
      if (m_config.weighting == Weighting::kTf)
        at += static_cast<float>(counts[i]);
      else if (m_config.weighting == Weighting::kIdf)
        at += weight;
      else
        at += static_cast<float>(counts[i]) * weight;
    }
  }

  TfIdfConfig m_config;
  std::variant<Pool<int64_t>, Pool<std::string>> m_pool;
};

Expected<TfIdfConfig> readConfig(const Node& node) {
  TfIdfConfig c;
  c.minLength = attrInt(node, "min_gram_length", 0);
  c.maxLength = attrInt(node, "max_gram_length", 0);
  c.maxSkip = attrInt(node, "max_skip_count", -1);
  if (c.minLength < 1 || c.maxLength < c.minLength || c.maxSkip < 0)
    return invalidArgument("needs 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0, got " +
                           std::to_string(c.minLength) + ", " + std::to_string(c.maxLength) + " and " +
                           std::to_string(c.maxSkip));
  const std::string mode = attrString(node, "mode", "");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF")
    return invalidArgument("mode '" + mode + "' is not TF, IDF or TFIDF");
  c.weighting = mode == "TF" ? Weighting::kTf : mode == "IDF" ? Weighting::kIdf : Weighting::kTfIdf;
  c.outputIndex = attrInts(node, "ngram_indexes");
  for (int64_t index : c.outputIndex) {
    if (index < 0 || index >= (int64_t{1} << 31))
      return invalidArgument("ngram_indexes holds " + std::to_string(index));
    c.width = std::max(c.width, index + 1);
  }
  const AttrValue* weights = node.attr("weights");
  if (weights && weights->kind() == AttrValue::Kind::kList) c.weights = weights->list().f;
  if (!c.weights.empty() && c.weights.size() != c.outputIndex.size())
    return invalidArgument("has " + std::to_string(c.weights.size()) + " weights for " +
                           std::to_string(c.outputIndex.size()) + " n-grams");
  return c;
}

Expected<std::unique_ptr<OpKernel>> makeTfIdfVectorizer(const Node& node) {
  auto config = readConfig(node);
  if (!config) return invalidArgument(nodeLabel(node) + config.status().message());
  const AttrValue* strings = node.attr("pool_strings");
  const bool hasStrings = strings && strings->kind() == AttrValue::Kind::kList && !strings->list().s.empty();
  const std::vector<int64_t> ints = attrInts(node, "pool_int64s"), starts = attrInts(node, "ngram_counts");
  if (hasStrings == !ints.empty())
    return invalidArgument(nodeLabel(node) + "needs exactly one of pool_strings and pool_int64s");
  std::variant<Pool<int64_t>, Pool<std::string>> pool;
  Status status = Status::ok();
  auto keep = [&](auto split) {
    if (split)
      pool = std::move(split).value();
    else
      status = split.status();
  };
  if (hasStrings)
    keep(splitPool(strings->list().s, starts, config->outputIndex.size()));
  else
    keep(splitPool(ints, starts, config->outputIndex.size()));
  if (!status.isOk()) return invalidArgument(nodeLabel(node) + status.message());
  return std::unique_ptr<OpKernel>(std::make_unique<TfIdfVectorizerKernel>(std::move(*config), std::move(pool)));
}

}  // namespace

void registerOnnxTfIdfVectorizerKernel(KernelTable& r) { r.add("onnx::TfIdfVectorizer", makeTfIdfVectorizer); }

}  // namespace flowscope
