// Kernel registry and helpers. Each kernel family registers itself from its own file.
#include "exec/kernel.h"

#include <algorithm>

#include "exec/cpu/cpu_kernels.h"

namespace flowscope {
namespace {

class FunctionKernel : public OpKernel {
 public:
  explicit FunctionKernel(KernelFn fn) : m_fn(fn) {}
  Status compute(KernelContext& ctx) override { return m_fn(ctx); }

 private:
  KernelFn m_fn;
};

}  // namespace

struct KernelRegistryBuilder {
  static KernelRegistry build() {
    KernelRegistry r;
    registerCpuKernels(r);
    std::sort(r.m_table.begin(), r.m_table.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return r;
  }
};

std::string nodeLabel(const Node& node) { return "node '" + node.name + "' (op " + node.op + "): "; }

Status KernelContext::error(const std::string& what) const { return invalidArgument(nodeLabel(node) + what); }

std::unique_ptr<OpKernel> makeFunctionKernel(KernelFn fn) { return std::make_unique<FunctionKernel>(fn); }

const KernelRegistry& KernelRegistry::global() {
  static const KernelRegistry registry = KernelRegistryBuilder::build();
  return registry;
}

void KernelRegistry::add(const std::string& op, KernelFactory factory) { m_table.emplace_back(op, std::move(factory)); }

void KernelRegistry::addFn(const std::string& op, KernelFn fn) {
  add(op, [fn](const Node&) -> Expected<std::unique_ptr<OpKernel>> { return makeFunctionKernel(fn); });
}

const KernelFactory* KernelRegistry::find(const std::string& op) const {
  auto it = std::lower_bound(m_table.begin(), m_table.end(), op,
                             [](const auto& entry, const std::string& key) { return entry.first < key; });
  return it != m_table.end() && it->first == op ? &it->second : nullptr;
}

std::vector<std::string> KernelRegistry::ops() const {
  std::vector<std::string> out;
  for (const auto& [op, f] : m_table) out.push_back(op);
  return out;
}

}  // namespace flowscope
