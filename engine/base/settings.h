// Environment switches for comparisons: FLOWSCOPE_... set to "0" turns one of our own kernels off, so that a run
// can be set against the library's kernel it replaces.
#pragma once

#include <cstdlib>
#include <string_view>

namespace flowscope {

/// True unless the environment variable `name` is set to "0".
inline bool settingOn(const char* name) {
  const char* setting = std::getenv(name);
  return !setting || std::string_view(setting) != "0";
}

}  // namespace flowscope
