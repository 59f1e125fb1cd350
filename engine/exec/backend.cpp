// The backend contract's defaults, and opening backends from the table.
#include "exec/backend.h"

#include "base/strings.h"
#include "exec/exec_context.h"
#include "profile/flops.h"
#include "profile/run_profile.h"

namespace flowscope {

std::string DeviceInfo::spec() const { return backend == "vulkan" ? backend + ":" + std::to_string(index) : backend; }

std::string Backend::precisionSummary(Precision precision) const {
  if (precision == Precision::kFp32) return "fp32";
  return std::string("fp32 (the ") + name() + " backend computes in fp32; " + precisionName(precision) +
         " applies to Vulkan)";
}

Expected<Placement> Backend::place(const Graph& graph, const PlacementRequest&) {
  Placement placement;
  placement.graph = graph;
  return placement;
}

Status Backend::run(OpKernel& kernel, KernelContext& ctx) {
  ExecContext* exec = ctx.exec;
  if (!exec || !exec->profile) return kernel.compute(ctx);
  RunProfile& profile = *exec->profile;
  NodeEvent event;
  event.startNs = profile.now();
  Status s = kernel.compute(ctx);
  event.endNs = profile.now();
  if (!s.isOk()) return s;
  event.name = exec->eventPrefix + ctx.node.name;
  event.op = ctx.node.op;
  recordFusedFrom(event, ctx.node, exec->eventPrefix);
  event.backend = name();
  event.thread = profile.threadId();
  bytesMoved(ctx.node, ctx.inputs, ctx.outputs, &event.bytesIn, &event.bytesOut);
  event.flops = ctx.flops >= 0 ? ctx.flops : estimateFlops(ctx.node, ctx.inputs, ctx.outputs);
  event.run = exec->run;
  event.depth = exec->callDepth;
  profile.add(std::move(event));
  return Status::ok();
}

Status Backend::synchronize() { return Status::ok(); }

Expected<Roofline> Backend::roofline(int) {
  return unimplemented("the " + name() + " backend does not measure its roofline");
}

Expected<DeviceBuffer> Backend::allocate(size_t) {
  return unimplemented("the " + name() + " backend has no memory of its own");
}

void Backend::release(DeviceBuffer) {}

Status Backend::upload(const DeviceBuffer&, const Tensor&) {
  return unimplemented("the " + name() + " backend has no memory of its own");
}

Status Backend::download(const DeviceBuffer&, Tensor&) {
  return unimplemented("the " + name() + " backend has no memory of its own");
}

Expected<std::shared_ptr<Backend>> openBackend(const std::string& spec) {
  const size_t colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  int64_t index = -1;
  if (colon != std::string::npos && (!parseInt64(spec.substr(colon + 1), &index) || index < 0))
    return invalidArgument("device '" + spec + "': the index after ':' must be a number >= 0");
  std::vector<std::string> kinds;
  for (const BackendKind& row : backendTable()) {
    if (row.name == kind) return row.open(static_cast<int>(index));
    kinds.push_back(row.name);
  }
  return invalidArgument("no backend '" + kind + "'; this build has " + joinStrings(kinds, ", ") +
                         " (`flowscope devices` lists the devices)");
}

const std::shared_ptr<Backend>& fallbackBackend() {
  static const std::shared_ptr<Backend> cpu = [] {
    auto opened = backendTable().front().open(-1);
    return opened ? std::move(opened).value() : nullptr;
  }();
  return cpu;
}

DeviceList listDevices() {
  DeviceList list;
  for (const BackendKind& row : backendTable()) {
    auto devices = row.devices();
    if (!devices) {
      list.unavailable[row.name] = devices.status().message();
      continue;
    }
    list.devices.insert(list.devices.end(), devices->begin(), devices->end());
  }
  return list;
}

}  // namespace flowscope
