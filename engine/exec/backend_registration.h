// Where each backend target adds its row to the backend table (exec/backend_table.cpp calls these; each is defined in
// its backend's folder, so generic exec/ code never includes a backend).
#pragma once

#include <vector>

#include "exec/backend.h"

namespace flowscope {

void registerCpuBackend(std::vector<BackendKind>& table);
void registerNullBackend(std::vector<BackendKind>& table);
#ifdef FLOWSCOPE_WITH_VULKAN
void registerVulkanBackend(std::vector<BackendKind>& table);
#endif

}  // namespace flowscope
