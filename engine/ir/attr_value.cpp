// AttrValue printing and equality.
#include "ir/attr_value.h"

#include "base/strings.h"

namespace flowscope {
namespace {

std::string tensorToString(const Tensor& t) {
  return "tensor<" + std::string(dtypeName(t.dtype())) + " " + t.shape().toString() + ": " + t.preview(6) + ">";
}

std::string funcToString(const FuncAttr& f) {
  std::string out = f.name;
  if (!f.attrs.empty()) {
    out += "[";
    for (size_t k = 0; k < f.attrs.size(); ++k) {
      if (k) out += ", ";
      out += f.attrs[k].first + "=" + f.attrs[k].second.toString();
    }
    out += "]";
  }
  return out;
}

template <typename T, typename F>
void appendAll(std::vector<std::string>& parts, const std::vector<T>& values, F format) {
  for (const auto& v : values) parts.push_back(format(v));
}

bool funcEquals(const FuncAttr& a, const FuncAttr& b) {
  if (a.name != b.name || a.attrs.size() != b.attrs.size()) return false;
  for (size_t k = 0; k < a.attrs.size(); ++k)
    if (a.attrs[k].first != b.attrs[k].first || !(a.attrs[k].second == b.attrs[k].second)) return false;
  return true;
}

bool listEquals(const AttrList& a, const AttrList& b) {
  if (a.s != b.s || a.i != b.i || a.b != b.b || a.type != b.type || a.shape != b.shape) return false;
  if (a.f.size() != b.f.size() || a.tensor.size() != b.tensor.size() || a.func.size() != b.func.size()) return false;
  for (size_t k = 0; k < a.f.size(); ++k)
    if (!(a.f[k] == b.f[k] || (a.f[k] != a.f[k] && b.f[k] != b.f[k]))) return false;
  for (size_t k = 0; k < a.tensor.size(); ++k)
    if (!a.tensor[k].contentEquals(b.tensor[k])) return false;
  for (size_t k = 0; k < a.func.size(); ++k)
    if (!funcEquals(a.func[k], b.func[k])) return false;
  return true;
}

}  // namespace

AttrList& AttrListRef::mutableGet() {
  if (!m_list)
    m_list = std::make_shared<AttrList>();
  else if (m_list.use_count() > 1)
    m_list = std::make_shared<AttrList>(*m_list);
  return *m_list;
}

const AttrList& AttrListRef::empty() {
  static const AttrList list;
  return list;
}

std::string AttrValue::toString() const {
  switch (kind()) {
    case Kind::kNone:
      return "<unset>";
    case Kind::kString:
      return "\"" + cEscape(s()) + "\"";
    case Kind::kInt:
      return std::to_string(i());
    case Kind::kFloat:
      return formatFloat(f());
    case Kind::kBool:
      return b() ? "true" : "false";
    case Kind::kType:
      return std::string(dtypeName(type()));
    case Kind::kShape:
      return shape().toString();
    case Kind::kTensor:
      return tensorToString(tensor());
    case Kind::kFunc:
      return funcToString(func());
    case Kind::kPlaceholder:
      return "$" + placeholder();
    case Kind::kList: {
      const AttrList& l = list();
      std::vector<std::string> parts;
      appendAll(parts, l.s, [](const std::string& v) { return "\"" + cEscape(v) + "\""; });
      appendAll(parts, l.i, [](int64_t v) { return std::to_string(v); });
      appendAll(parts, l.f, [](float v) { return formatFloat(v); });
      appendAll(parts, l.b, [](bool v) { return std::string(v ? "true" : "false"); });
      appendAll(parts, l.type, [](DType v) { return std::string(dtypeName(v)); });
      appendAll(parts, l.shape, [](const Shape& v) { return v.toString(); });
      appendAll(parts, l.tensor, tensorToString);
      appendAll(parts, l.func, funcToString);
      return "[" + joinStrings(parts, ", ") + "]";
    }
  }
  return {};
}

bool AttrValue::operator==(const AttrValue& other) const {
  if (kind() != other.kind()) return false;
  switch (kind()) {
    case Kind::kNone:
      return true;
    case Kind::kString:
      return s() == other.s();
    case Kind::kInt:
      return i() == other.i();
    case Kind::kFloat:
      return f() == other.f() || (f() != f() && other.f() != other.f());
    case Kind::kBool:
      return b() == other.b();
    case Kind::kType:
      return type() == other.type();
    case Kind::kShape:
      return shape() == other.shape();
    case Kind::kTensor:
      return tensor().contentEquals(other.tensor());
    case Kind::kList:
      return listEquals(list(), other.list());
    case Kind::kFunc:
      return funcEquals(func(), other.func());
    case Kind::kPlaceholder:
      return placeholder() == other.placeholder();
  }
  return false;
}

}  // namespace flowscope
