// `flowscope devices`: every device of every backend in the table, as `--device` names them.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "exec/backend.h"

namespace flowscope::cli {
namespace {

double gibibytes(uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024 * 1024); }

int printJson() {
  const DeviceList list = listDevices();
  nlohmann::json j = nlohmann::json::object();
  for (const BackendKind& kind : backendTable()) {
    j[kind.name] = nlohmann::json::array();
    j["ops"][kind.name] = kind.ops();
  }
  for (const DeviceInfo& d : list.devices)
    j[d.backend].push_back({{"device", d.spec()},
                            {"name", d.name},
                            {"type", d.type},
                            {"api", d.apiVersion},
                            {"memory_bytes", d.memoryBytes},
                            {"usable", d.usable}});
  for (const auto& [backend, why] : list.unavailable) j["unavailable"][backend] = why;
  std::printf("%s\n", j.dump(2).c_str());
  return kExitOk;
}

}  // namespace

int runDevices(const Args& args) {
  if (args.flag("--json")) return printJson();
  const DeviceList list = listDevices();
  for (const BackendKind& kind : backendTable()) {
    if (auto why = list.unavailable.find(kind.name); why != list.unavailable.end()) {
      std::printf("%-10s not available: %s\n", kind.name.c_str(), why->second.c_str());
      continue;
    }
    for (const DeviceInfo& d : list.devices) {
      if (d.backend != kind.name) continue;
      std::string detail = d.type;
      if (!d.apiVersion.empty()) detail += ", Vulkan " + d.apiVersion;
      char memory[32];
      std::snprintf(memory, sizeof memory, ", %.1f GiB", gibibytes(d.memoryBytes));
      if (d.memoryBytes) detail += memory;
      std::printf("%-10s %s (%s)%s\n", d.spec().c_str(), d.name.c_str(), detail.c_str(),
                  d.usable ? "" : " - not usable: no compute queue");
    }
  }
  std::printf("\nBackends: ");
  for (const BackendKind& kind : backendTable()) std::printf("\n  %-7s %s", kind.name.c_str(), kind.summary.c_str());
  std::printf(
      "\n\n`--device vulkan` picks a discrete GPU first, then integrated, then a CPU device (lavapipe);\n"
      "nodes a backend does not run stay on the CPU.\n");
  return kExitOk;
}

}  // namespace flowscope::cli
