// The null backend: runs nothing. Every node's "kernel" hands zero scalars of its output types to its consumers and
// the step is reported to the profile like any other, so a profile on it measures Flowscope's own cost per node (the
// executor, the profiler, the app's views) and UI tests get real profile events without running kernels.
#include "exec/backend_registration.h"
#include "ir/verify.h"
#include "ops/op_registry.h"

namespace flowscope {
namespace {

class NullKernel : public OpKernel {
 public:
  explicit NullKernel(std::vector<DType> types) : m_types(std::move(types)) {}
  Status compute(KernelContext& ctx) override {
    for (size_t k = 0; k < ctx.outputs.size(); ++k) {
      const DType type = k < m_types.size() ? m_types[k] : DType::kFloat;
      ctx.outputs[k] = type == DType::kString                       ? Tensor::fromStrings(Shape{}, {""})
                       : Tensor::checkedByteSize(type, Shape{}, 64) ? Tensor(type, Shape{})
                                                                    : Tensor(DType::kFloat, Shape{});
    }
    return Status::ok();
  }

 private:
  std::vector<DType> m_types;
};

class NullBackend : public Backend {
 public:
  std::string name() const override { return "null"; }
  std::string deviceName() const override { return "null (runs nothing)"; }
  std::string unsupportedReason(const Node&, const FunctionLibrary&) const override { return ""; }
  Expected<std::unique_ptr<OpKernel>> makeKernel(const Node& node, const FunctionLibrary& library) override {
    const OpDef* def = OpRegistry::global().lookupWith(&library)(node.op);
    return std::unique_ptr<OpKernel>(std::make_unique<NullKernel>(outputTypesOf(node, def)));
  }
};

}  // namespace

void registerNullBackend(std::vector<BackendKind>& table) {
  BackendKind row;
  row.name = "null";
  row.summary = "runs nothing: a profile on it measures Flowscope's own cost per node";
  row.devices = []() -> Expected<std::vector<DeviceInfo>> {
    DeviceInfo d;
    d.backend = "null";
    d.name = "null (runs nothing)";
    d.type = "none";
    d.usable = true;
    return std::vector<DeviceInfo>{d};
  };
  row.open = [](int index) -> Expected<std::shared_ptr<Backend>> {
    if (index > 0) return notFound("there is one null device: null, not null:" + std::to_string(index));
    return std::shared_ptr<Backend>(std::make_shared<NullBackend>());
  };
  row.ops = [] { return std::vector<std::string>{"*"}; };
  table.push_back(std::move(row));
}

}  // namespace flowscope
