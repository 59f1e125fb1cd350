// AttrValue: a node or function attribute, equal in power to TensorFlow's AttrValue oneof.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "ir/dtype.h"
#include "ir/shape.h"
#include "ir/tensor.h"

namespace flowscope {

class AttrValue;

/// A function reference with bound attrs (NameAttrList).
struct FuncAttr {
  std::string name;
  std::vector<std::pair<std::string, AttrValue>> attrs;  // kept as a vector: AttrValue is incomplete here
};

/// `list(...)` values. TensorFlow allows any mix; in practice one member is filled.
struct AttrList {
  std::vector<std::string> s;
  std::vector<int64_t> i;
  std::vector<float> f;
  std::vector<bool> b;
  std::vector<DType> type;
  std::vector<Shape> shape;
  std::vector<Tensor> tensor;
  std::vector<FuncAttr> func;
  size_t size() const {
    return s.size() + i.size() + f.size() + b.size() + type.size() + shape.size() + tensor.size() + func.size();
  }
};

/// An AttrList kept out of line, shared copy-on-write: most attributes are scalars, and the list's eight vectors
/// would make every AttrValue as large as the list.
class AttrListRef {
 public:
  explicit AttrListRef(AttrList list) : m_list(std::make_shared<AttrList>(std::move(list))) {}
  const AttrList& get() const { return m_list ? *m_list : empty(); }
  /// The list for changes, copied first when another value shares it.
  AttrList& mutableGet();

 private:
  static const AttrList& empty();
  std::shared_ptr<AttrList> m_list;  ///< null only when moved from
};

/// Only inside function bodies: "take this attr's value from the function's attr named here".
struct AttrPlaceholder {
  std::string name;
};

class AttrValue {
 public:
  enum class Kind { kNone, kString, kInt, kFloat, kBool, kType, kShape, kTensor, kList, kFunc, kPlaceholder };

  AttrValue() = default;
  static AttrValue fromString(std::string v) { return AttrValue(Value(std::in_place_index<1>, std::move(v))); }
  static AttrValue fromInt(int64_t v) { return AttrValue(Value(std::in_place_index<2>, v)); }
  static AttrValue fromFloat(float v) { return AttrValue(Value(std::in_place_index<3>, v)); }
  static AttrValue fromBool(bool v) { return AttrValue(Value(std::in_place_index<4>, v)); }
  static AttrValue fromType(DType v) { return AttrValue(Value(std::in_place_index<5>, v)); }
  static AttrValue fromShape(Shape v) { return AttrValue(Value(std::in_place_index<6>, std::move(v))); }
  static AttrValue fromTensor(Tensor v) { return AttrValue(Value(std::in_place_index<7>, std::move(v))); }
  static AttrValue fromList(AttrList v) { return AttrValue(Value(std::in_place_index<8>, AttrListRef(std::move(v)))); }
  /// A list shared with other values (copied on the first change).
  static AttrValue fromList(AttrListRef v) { return AttrValue(Value(std::in_place_index<8>, std::move(v))); }
  static AttrValue fromFunc(FuncAttr v) { return AttrValue(Value(std::in_place_index<9>, std::move(v))); }
  static AttrValue fromPlaceholder(std::string v) {
    return AttrValue(Value(std::in_place_index<10>, AttrPlaceholder{std::move(v)}));
  }

  Kind kind() const { return static_cast<Kind>(m_value.index()); }
  bool isSet() const { return kind() != Kind::kNone; }
  const std::string& s() const { return std::get<1>(m_value); }
  int64_t i() const { return std::get<2>(m_value); }
  float f() const { return std::get<3>(m_value); }
  bool b() const { return std::get<4>(m_value); }
  DType type() const { return std::get<5>(m_value); }
  const Shape& shape() const { return std::get<6>(m_value); }
  const Tensor& tensor() const { return std::get<7>(m_value); }
  const AttrList& list() const { return std::get<8>(m_value).get(); }
  AttrList& mutableList() { return std::get<8>(m_value).mutableGet(); }
  const FuncAttr& func() const { return std::get<9>(m_value); }
  const std::string& placeholder() const { return std::get<10>(m_value).name; }

  /// Stable one-line text, e.g. `"NHWC"`, `[1,2,2,1]`, `float32`, `[?,784]`, `tensor<float32 [2,2]: ...>`.
  std::string toString() const;
  /// Deep equality (tensors compared by content).
  bool operator==(const AttrValue& other) const;

 private:
  using Value = std::variant<std::monostate, std::string, int64_t, float, bool, DType, Shape, Tensor, AttrListRef,
                             FuncAttr, AttrPlaceholder>;
  explicit AttrValue(Value value) : m_value(std::move(value)) {}
  Value m_value;
};

}  // namespace flowscope

#include "ir/attr_map.h"  // AttrMap, which needs AttrValue complete; most users of attributes want both
