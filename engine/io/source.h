// Source: a path to load, with its head bytes for content sniffing and a size-checked full read.
#include <cstdint>
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"

namespace flowscope {

/// A file's bytes in a buffer that was not zero-filled first (read() writes every byte): for large files, where
/// zero-filling a std::string costs as much as the read.
struct FileBytes {
  std::unique_ptr<char[]> data;
  size_t size = 0;
  std::string_view view() const { return {data.get(), size}; }
};

class Source {
 public:
  /// Opens a file or directory; reads up to kHeadBytes for match().
  static Expected<Source> open(const std::string& path);

  static constexpr size_t kHeadBytes = 64 * 1024;

  const std::string& path() const { return m_path; }
  bool isDirectory() const { return m_isDirectory; }
  uint64_t size() const { return m_size; }
  const std::string& head() const { return m_head; }
  /// The file's name without directories.
  std::string fileName() const;
  /// Whole contents; an error for directories and files larger than `limit` bytes.
  Expected<std::string> readAll(uint64_t limit = kMaxFileBytes) const;
  /// Whole contents, read in pieces on the intra-op threads (large files: see FileBytes).
  Expected<FileBytes> readBytes(uint64_t limit = kMaxFileBytes) const;

  static constexpr uint64_t kMaxFileBytes = 2ull << 30;  // protobuf's message limit

 private:
  std::string m_path;
  bool m_isDirectory = false;
  uint64_t m_size = 0;
  std::string m_head;
};

/// Reads a whole file (used for sibling files: shards, variables). Errors name the path.
Expected<std::string> readFile(const std::string& path, uint64_t limit = Source::kMaxFileBytes);
/// Reads a whole file in pieces on the intra-op threads. Errors name the path and the cause.
Expected<FileBytes> readFileBytes(const std::string& path, uint64_t limit = Source::kMaxFileBytes);
/// Reads `length` bytes from `offset` (ONNX external data); the caller checks the range against the file's size.
Expected<std::string> readFileRange(const std::string& path, uint64_t offset, uint64_t length);

}  // namespace flowscope
