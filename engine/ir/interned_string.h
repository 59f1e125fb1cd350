// InternedString: a string kept once for the whole process; a value is a pointer to it. For names that repeat
// millions of times and take few distinct values, such as attribute names ("T", "data_format", "strides"): a graph
// of a million nodes holds two million of them, and 32 bytes each as std::string (more for the long ones).
#pragma once

#include <compare>
#include <cstddef>
#include <string>
#include <string_view>

namespace flowscope {

class InternedString {
 public:
  InternedString();                       ///< the empty string
  InternedString(std::string_view text);  // NOLINT: implicit, like std::string's
  InternedString(const std::string& text) : InternedString(std::string_view(text)) {}  // NOLINT
  InternedString(const char* text) : InternedString(std::string_view(text)) {}         // NOLINT

  const std::string& str() const { return *m_text; }
  operator const std::string&() const { return *m_text; }  // NOLINT: reads as the string it is
  operator std::string_view() const { return *m_text; }    // NOLINT
  const char* c_str() const { return m_text->c_str(); }
  const char* data() const { return m_text->data(); }
  size_t size() const { return m_text->size(); }
  bool empty() const { return m_text->empty(); }
  char operator[](size_t i) const { return (*m_text)[i]; }
  bool starts_with(std::string_view prefix) const { return std::string_view(*m_text).starts_with(prefix); }
  bool ends_with(std::string_view suffix) const { return std::string_view(*m_text).ends_with(suffix); }
  size_t find(std::string_view what, size_t from = 0) const { return m_text->find(what, from); }
  size_t rfind(std::string_view what, size_t from = std::string::npos) const { return m_text->rfind(what, from); }
  std::string substr(size_t from, size_t count = std::string::npos) const { return m_text->substr(from, count); }

  /// Equal strings are one pointer: comparing two interned strings compares pointers.
  friend bool operator==(const InternedString& a, const InternedString& b) { return a.m_text == b.m_text; }
  friend bool operator==(const InternedString& a, std::string_view b) { return *a.m_text == b; }
  friend bool operator==(const InternedString& a, const char* b) { return *a.m_text == b; }
  friend bool operator==(const InternedString& a, const std::string& b) { return *a.m_text == b; }
  friend std::strong_ordering operator<=>(const InternedString& a, const InternedString& b) {
    return a.m_text == b.m_text ? std::strong_ordering::equal : a.str().compare(b.str()) <=> 0;
  }
  friend std::strong_ordering operator<=>(const InternedString& a, std::string_view b) {
    return std::string_view(*a.m_text).compare(b) <=> 0;
  }

 private:
  const std::string* m_text;
};

inline std::string operator+(const InternedString& a, std::string_view b) { return a.str() + std::string(b); }
inline std::string operator+(std::string_view a, const InternedString& b) { return std::string(a) + b.str(); }
inline std::string operator+(const InternedString& a, const char* b) { return a.str() + b; }
inline std::string operator+(const char* a, const InternedString& b) { return a + b.str(); }
inline std::string operator+(const InternedString& a, const std::string& b) { return a.str() + b; }
inline std::string operator+(const std::string& a, const InternedString& b) { return a + b.str(); }

}  // namespace flowscope
