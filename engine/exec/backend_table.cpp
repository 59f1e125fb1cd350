// The backend table: the CPU first (the fallback of the others), then the GPU backends this build has, then the null
// backend. FLOWSCOPE_WITH_VULKAN is set when CMake's FLOWSCOPE_VULKAN option is on.
#include "exec/backend_registration.h"

namespace flowscope {

const std::vector<BackendKind>& backendTable() {
  static const std::vector<BackendKind> table = [] {
    std::vector<BackendKind> rows;
    registerCpuBackend(rows);
#ifdef FLOWSCOPE_WITH_VULKAN
    registerVulkanBackend(rows);
#endif
    registerNullBackend(rows);
    return rows;
  }();
  return table;
}

}  // namespace flowscope
