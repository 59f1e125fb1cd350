// AttrMap: a node's or function's attributes by name, kept as one vector sorted by key.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/attr_value.h"
#include "ir/interned_string.h"

namespace flowscope {

/// Attributes by name, in byte-wise key order (std::map's), so printing and hashing are stable. A node has a few
/// attributes: one sorted vector costs one allocation where a tree costs one per attribute, and copies, compares
/// and walks faster. The interface is the part of std::map's that the project uses, with one difference that
/// matters: an insertion may move the other entries, so no reference or iterator into the map survives one.
class AttrMap {
 public:
  using value_type = std::pair<InternedString, AttrValue>;  ///< attribute names are interned
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

  AttrMap() = default;
  /// Of equal keys the first is kept, as std::map does.
  AttrMap(std::initializer_list<value_type> items);

  iterator begin() { return m_items.begin(); }
  iterator end() { return m_items.end(); }
  const_iterator begin() const { return m_items.begin(); }
  const_iterator end() const { return m_items.end(); }
  size_t size() const { return m_items.size(); }
  bool empty() const { return m_items.empty(); }
  void clear() { m_items.clear(); }
  void reserve(size_t count) { m_items.reserve(count); }

  iterator find(std::string_view key);
  const_iterator find(std::string_view key) const;
  size_t count(std::string_view key) const { return find(key) != end() ? 1 : 0; }
  bool contains(std::string_view key) const { return find(key) != end(); }
  /// Throws std::out_of_range when the key is absent.
  const AttrValue& at(std::string_view key) const;
  AttrValue& at(std::string_view key);
  /// The value of `key`, inserted unset when absent.
  AttrValue& operator[](std::string_view key);
  /// Inserts when the key is absent; never overwrites. The value is taken by value, so it may come from this map.
  std::pair<iterator, bool> emplace(InternedString key, AttrValue value);
  /// Inserts, or overwrites the value of an existing key.
  std::pair<iterator, bool> insert_or_assign(InternedString key, AttrValue value);
  size_t erase(std::string_view key);
  iterator erase(const_iterator position) { return m_items.erase(position); }

  bool operator==(const AttrMap& other) const { return m_items == other.m_items; }

 private:
  iterator lowerBound(std::string_view key);
  std::vector<value_type> m_items;
};

}  // namespace flowscope
