// KernelTable: a backend's kernels, one factory per op, looked up by op name (binary search once sealed).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "exec/kernel.h"

namespace flowscope {

class KernelTable {
 public:
  void add(const std::string& op, KernelFactory factory);
  /// A kernel with no per-node state.
  void addFn(const std::string& op, KernelFn fn);
  /// Sorts the table; call once after the last add().
  void seal();
  const KernelFactory* find(const std::string& op) const;
  std::vector<std::string> ops() const;

 private:
  std::vector<std::pair<std::string, KernelFactory>> m_table;
};

}  // namespace flowscope
