// Shared helpers for the libFuzzer targets: inputs go through real files, as users' files do.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "io/loader.h"

namespace flowscope::fuzz {

/// A per-process scratch directory under /tmp.
inline const std::filesystem::path& scratchDir() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("flowscope-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

inline std::string writeScratch(const std::string& name, std::string_view bytes) {
  auto path = scratchDir() / name;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path.string();
}

/// Splits an input in two at a 4-byte little-endian length prefix (for targets that need two files).
inline void splitInput(const uint8_t* data, size_t size, std::string_view* first, std::string_view* second) {
  uint32_t n = 0;
  if (size >= 4)
    n = static_cast<uint32_t>(data[0]) | static_cast<uint32_t>(data[1]) << 8 | static_cast<uint32_t>(data[2]) << 16 |
        static_cast<uint32_t>(data[3]) << 24;
  size_t rest = size >= 4 ? size - 4 : 0;
  size_t a = rest ? n % (rest + 1) : 0;
  const char* base = reinterpret_cast<const char*>(data) + (size >= 4 ? 4 : size);
  *first = std::string_view(base, a);
  *second = std::string_view(base + a, rest - a);
}

/// Writes the input to `fileName`, sniffs and loads it with `loader`, and serializes what loads.
template <typename LoaderPtr, typename AfterLoad>
int loadFromScratch(const LoaderPtr& loader, const std::string& fileName, const uint8_t* data, size_t size,
                    AfterLoad afterLoad) {
  std::string path = writeScratch(fileName, {reinterpret_cast<const char*>(data), size});
  auto source = flowscope::Source::open(path);
  if (!source) return 0;
  loader->match(*source);
  auto model = loader->load(*source, {});
  if (model) afterLoad(*model);
  return 0;
}

}  // namespace flowscope::fuzz
