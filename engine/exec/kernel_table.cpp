// The kernel table.
#include "exec/kernel_table.h"

#include <algorithm>

namespace flowscope {

void KernelTable::add(const std::string& op, KernelFactory factory) { m_table.emplace_back(op, std::move(factory)); }

void KernelTable::addFn(const std::string& op, KernelFn fn) {
  add(op, [fn](const Node&) -> Expected<std::unique_ptr<OpKernel>> { return makeFunctionKernel(fn); });
}

void KernelTable::seal() {
  std::stable_sort(m_table.begin(), m_table.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

const KernelFactory* KernelTable::find(const std::string& op) const {
  auto it = std::lower_bound(m_table.begin(), m_table.end(), op,
                             [](const auto& entry, const std::string& key) { return entry.first < key; });
  return it != m_table.end() && it->first == op ? &it->second : nullptr;
}

std::vector<std::string> KernelTable::ops() const {
  std::vector<std::string> out;
  for (const auto& [op, factory] : m_table) out.push_back(op);
  return out;
}

}  // namespace flowscope
