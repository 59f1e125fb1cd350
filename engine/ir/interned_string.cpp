// The process's table of interned strings.
#include "ir/interned_string.h"

#include <array>
#include <functional>
#include <mutex>
#include <unordered_set>

namespace flowscope {
namespace {

class InternTable {
 public:
  const std::string* intern(std::string_view text) {
    std::lock_guard lock(m_mutex);
    auto it = m_strings.find(std::string(text));
    if (it == m_strings.end()) it = m_strings.emplace(text).first;
    return &*it;  // nodes of an unordered_set never move
  }

 private:
  std::mutex m_mutex;
  std::unordered_set<std::string> m_strings;
};

InternTable& table() {
  static auto* instance = new InternTable;  // never destroyed: values may outlive static destructors
  return *instance;
}

const std::string* internCached(std::string_view text) {
  // Most lookups hit a small per-thread cache, so loading on many threads rarely takes the table's lock.
  thread_local std::array<const std::string*, 256> cache{};
  const size_t slot = std::hash<std::string_view>()(text) & (cache.size() - 1);
  if (const std::string* hit = cache[slot]; hit && *hit == text) return hit;
  return cache[slot] = table().intern(text);
}

}  // namespace

InternedString::InternedString() {
  static const std::string* const empty = table().intern({});
  m_text = empty;
}

InternedString::InternedString(std::string_view text) : m_text(internCached(text)) {}

}  // namespace flowscope
