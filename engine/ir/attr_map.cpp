// AttrMap: sorted-vector lookups and insertions.
#include "ir/attr_map.h"

#include <algorithm>
#include <stdexcept>

namespace flowscope {

AttrMap::AttrMap(std::initializer_list<value_type> items) {
  m_items.reserve(items.size());
  for (const auto& item : items) emplace(item.first, item.second);
}

AttrMap::iterator AttrMap::lowerBound(std::string_view key) {
  return std::lower_bound(m_items.begin(), m_items.end(), key,
                          [](const value_type& item, std::string_view k) { return std::string_view(item.first) < k; });
}

AttrMap::iterator AttrMap::find(std::string_view key) {
  auto it = lowerBound(key);
  return it != m_items.end() && it->first == key ? it : m_items.end();
}

AttrMap::const_iterator AttrMap::find(std::string_view key) const { return const_cast<AttrMap*>(this)->find(key); }

const AttrValue& AttrMap::at(std::string_view key) const {
  auto it = find(key);
  if (it == end()) throw std::out_of_range("no attribute '" + std::string(key) + "'");
  return it->second;
}

AttrValue& AttrMap::at(std::string_view key) { return const_cast<AttrValue&>(std::as_const(*this).at(key)); }

AttrValue& AttrMap::operator[](std::string_view key) {
  auto it = lowerBound(key);
  if (it == m_items.end() || it->first != key) it = m_items.emplace(it, InternedString(key), AttrValue());
  return it->second;
}

std::pair<AttrMap::iterator, bool> AttrMap::emplace(InternedString key, AttrValue value) {
  auto it = lowerBound(key);
  if (it != m_items.end() && it->first == key) return {it, false};
  return {m_items.emplace(it, std::move(key), std::move(value)), true};
}

std::pair<AttrMap::iterator, bool> AttrMap::insert_or_assign(InternedString key, AttrValue value) {
  auto it = lowerBound(key);
  if (it != m_items.end() && it->first == key) {
    it->second = std::move(value);
    return {it, false};
  }
  return {m_items.emplace(it, std::move(key), std::move(value)), true};
}

size_t AttrMap::erase(std::string_view key) {
  auto it = find(key);
  if (it == m_items.end()) return 0;
  m_items.erase(it);
  return 1;
}

}  // namespace flowscope
