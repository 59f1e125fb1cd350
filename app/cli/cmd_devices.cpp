// `flowscope devices`: the Vulkan devices of this machine (and the CPU), as `--device` names them.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "exec/vulkan/vulkan_device.h"
#include "exec/vulkan/vulkan_ops.h"

namespace flowscope::cli {

int runDevices(const Args& args) {
  auto devices = vk::listDevices();
  const auto ops = vk::supportedOps();
  if (args.flag("--json")) {
    nlohmann::json j = {{"cpu", true}, {"vulkan_ops", ops}, {"vulkan", nlohmann::json::array()}};
    if (!devices) j["vulkan_error"] = devices.status().message();
    else
      for (const auto& d : *devices)
        j["vulkan"].push_back({{"device", "vulkan:" + std::to_string(d.index)}, {"name", d.name}, {"type", d.type},
                               {"api", d.apiVersion}, {"memory_bytes", d.memoryBytes}, {"compute", d.hasCompute}});
    std::printf("%s\n", j.dump(2).c_str());
    return kExitOk;
  }
  std::printf("cpu        the CPU backend (oneDNN), always available\n");
  if (!devices) {
    std::printf("vulkan     not available: %s\n", devices.status().message().c_str());
    return kExitOk;
  }
  for (const auto& d : *devices)
    std::printf("vulkan:%-3d %s (%s, Vulkan %s, %.1f GiB)%s\n", d.index, d.name.c_str(), d.type.c_str(), d.apiVersion.c_str(),
                static_cast<double>(d.memoryBytes) / (1024.0 * 1024 * 1024), d.hasCompute ? "" : " - no compute queue");
  std::printf("\n`--device vulkan` picks a discrete GPU first, then integrated, then a CPU device (lavapipe).\n"
              "%zu ops have Vulkan kernels; the rest of a graph runs on the CPU.\n", ops.size());
  return kExitOk;
}

}  // namespace flowscope::cli
