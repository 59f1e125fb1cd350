// File access for loaders.
#include "io/source.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "base/strings.h"

namespace flowscope {

namespace fs = std::filesystem;

Expected<Source> Source::open(const std::string& path) {
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return notFound(path + ": no such file or directory");
  Source source;
  source.m_path = path;
  if (fs::is_directory(status)) {
    source.m_isDirectory = true;
    return source;
  }
  if (!fs::is_regular_file(status)) return invalidArgument(path + ": not a regular file");
  source.m_size = fs::file_size(path, ec);
  if (ec) return invalidArgument(path + ": cannot read its size: " + ec.message());
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidArgument(path + ": cannot open for reading: " + std::strerror(errno));
  source.m_head.resize(static_cast<size_t>(std::min<uint64_t>(source.m_size, kHeadBytes)));
  in.read(source.m_head.data(), static_cast<std::streamsize>(source.m_head.size()));
  source.m_head.resize(static_cast<size_t>(in.gcount()));
  return source;
}

std::string Source::fileName() const { return fs::path(m_path).filename().string(); }

Expected<std::string> Source::readAll(uint64_t limit) const {
  if (m_isDirectory) return invalidArgument(m_path + ": is a directory, expected a file");
  return readFile(m_path, limit);
}

Expected<std::string> readFile(const std::string& path, uint64_t limit) {
  std::error_code ec;
  uint64_t size = fs::file_size(path, ec);
  if (ec) return notFound(path + ": cannot read: " + ec.message());
  if (size > limit)
    return outOfRange(path + ": file is " + formatBytes(size) + ", more than the " + formatBytes(limit) + " supported");
  std::ifstream in(path, std::ios::binary);
  if (!in) return notFound(path + ": cannot open for reading: " + std::strerror(errno));
  std::string data(static_cast<size_t>(size), '\0');
  in.read(data.data(), static_cast<std::streamsize>(size));
  if (static_cast<uint64_t>(in.gcount()) != size) return dataLoss(path + ": short read");
  return data;
}

Expected<std::string> readFileRange(const std::string& path, uint64_t offset, uint64_t length) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return notFound(path + ": cannot open for reading");
  in.seekg(static_cast<std::streamoff>(offset));
  std::string data(static_cast<size_t>(length), '\0');
  in.read(data.data(), static_cast<std::streamsize>(length));
  if (static_cast<uint64_t>(in.gcount()) != length)
    return dataLoss(path + ": short read at offset " + std::to_string(offset));
  return data;
}

}  // namespace flowscope
