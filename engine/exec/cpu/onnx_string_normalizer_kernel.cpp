// ONNX StringNormalizer, the cleaning step of scikit-learn text pipelines exported by sklearn-onnx: drops the stop
// words from a [C] or [1, C] string tensor, then lower- or upper-cases what is left. Case is changed per Unicode code
// point (UTF-8 in and out) with the C library's wide-character tables for the node's locale, or C.UTF-8's where that
// locale is not installed; nothing here changes the process's global locale.
#include <locale.h>
#include <wctype.h>

#include <memory>
#include <optional>
#include <set>

#include "base/utf8.h"
#include "exec/cpu/onnx_kernels.h"

namespace flowscope {
namespace {

enum class CaseChange { kNone, kLower, kUpper };

// A locale_t owned for the kernel's life.
class CaseLocale {
 public:
  explicit CaseLocale(const std::string& name) {
    for (const std::string& candidate : {name + ".UTF-8", name, std::string("C.UTF-8")})
      if (!candidate.empty() && (m_locale = newlocale(LC_CTYPE_MASK, candidate.c_str(), nullptr))) return;
  }
  ~CaseLocale() {
    if (m_locale) freelocale(m_locale);
  }
  CaseLocale(const CaseLocale&) = delete;
  CaseLocale& operator=(const CaseLocale&) = delete;

  // `text` with each code point mapped to its lower or upper case; nullopt when it is not UTF-8.
  std::optional<std::string> change(const std::string& text, CaseChange to) const {
    auto points = decodeUtf8(text);
    if (!points) return std::nullopt;
    for (char32_t& c : *points) c = changed(c, to);
    return encodeUtf8(*points);
  }

 private:
  char32_t changed(char32_t c, CaseChange to) const {
    if (to == CaseChange::kNone) return c;
    if (!m_locale) {  // no UTF-8 locale at all: ASCII only
      if (to == CaseChange::kLower && c >= 'A' && c <= 'Z') return c + ('a' - 'A');
      if (to == CaseChange::kUpper && c >= 'a' && c <= 'z') return c - ('a' - 'A');
      return c;
    }
    const auto wide = static_cast<wint_t>(c);
    return static_cast<char32_t>(to == CaseChange::kLower ? towlower_l(wide, m_locale) : towupper_l(wide, m_locale));
  }

  locale_t m_locale = nullptr;
};

class StringNormalizerKernel : public OpKernel {
 public:
  StringNormalizerKernel(CaseChange change, bool caseSensitive, std::vector<std::string> stopwords,
                         const std::string& locale)
      : m_change(change), m_caseSensitive(caseSensitive), m_locale(locale) {
    for (const std::string& word : stopwords) m_stopwords.insert(caseSensitive ? word : folded(word));
  }

  Status compute(KernelContext& ctx) override {
    if (ctx.inputs.empty()) return ctx.error("needs an input");
    const Tensor& x = ctx.inputs[0];
    const Shape& shape = x.shape();
    if (x.dtype() != DType::kString || !(shape.rank() == 1 || (shape.rank() == 2 && shape.dim(0) == 1)))
      return ctx.error("expects a string tensor of shape [C] or [1, C], got " + std::string(dtypeName(x.dtype())) +
                       " " + shape.toString());
    std::vector<std::string> kept;
    for (size_t i = 0; i < x.strings().size(); ++i) {
      const std::string& word = x.strings()[i];
      if (!isValidUtf8(word)) return ctx.error("element " + std::to_string(i) + " is not valid UTF-8");
      std::string lower;  // what case-insensitive matching compares, and the kept word when lower-casing
      if (!m_caseSensitive) lower = folded(word);
      if (m_stopwords.count(m_caseSensitive ? word : lower)) continue;  // a dropped word's case is never changed
      const bool lowered = !m_caseSensitive && m_change == CaseChange::kLower;
      kept.push_back(lowered ? std::move(lower) : m_locale.change(word, m_change).value_or(word));
    }
    if (kept.empty()) kept.emplace_back();  // the specification's empty value: one empty string
    const auto count = static_cast<int64_t>(kept.size());
    ctx.outputs[0] = Tensor::fromStrings(shape.rank() == 1 ? Shape{count} : Shape{1, count}, std::move(kept));
    return Status::ok();
  }

 private:
  // The form case-insensitive matching compares: lower case (the word itself where it is not UTF-8).
  std::string folded(const std::string& word) const { return m_locale.change(word, CaseChange::kLower).value_or(word); }

  CaseChange m_change;
  bool m_caseSensitive;
  CaseLocale m_locale;
  std::set<std::string> m_stopwords;
};

Expected<std::unique_ptr<OpKernel>> makeStringNormalizer(const Node& node) {
  const std::string action = attrString(node, "case_change_action", "NONE");
  CaseChange change = CaseChange::kNone;
  if (action == "LOWER")
    change = CaseChange::kLower;
  else if (action == "UPPER")
    change = CaseChange::kUpper;
  else if (action != "NONE")
    return invalidArgument(nodeLabel(node) + "case_change_action '" + action + "' is not LOWER, UPPER or NONE");
  const AttrValue* words = node.attr("stopwords");
  std::vector<std::string> stopwords =
      words && words->kind() == AttrValue::Kind::kList ? words->list().s : std::vector<std::string>{};
  return std::unique_ptr<OpKernel>(std::make_unique<StringNormalizerKernel>(
      change, attrInt(node, "is_case_sensitive", 0) != 0, std::move(stopwords), attrString(node, "locale", "")));
}

}  // namespace

void registerOnnxStringNormalizerKernel(KernelTable& r) { r.add("onnx::StringNormalizer", makeStringNormalizer); }

}  // namespace flowscope
