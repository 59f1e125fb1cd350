// File access for loaders.
#include "io/source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "base/strings.h"
#include "base/thread_pool.h"

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

Expected<FileBytes> Source::readBytes(uint64_t limit) const {
  if (m_isDirectory) return invalidArgument(m_path + ": is a directory, expected a file");
  return readFileBytes(m_path, limit);
}

namespace {

Status checkSize(const std::string& path, uint64_t size, uint64_t limit) {
  if (size <= limit) return Status::ok();
  return outOfRange(path + ": file is " + formatBytes(size) + ", more than the " + formatBytes(limit) + " supported");
}

// Reads [offset, offset + length) of `fd` into `to`: 0, the errno of the failure, or -1 at a premature end of file.
int readRange(int fd, char* to, uint64_t offset, uint64_t length) {
  while (length > 0) {
    const ssize_t got = pread(fd, to, static_cast<size_t>(length), static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return errno;
    if (got == 0) return -1;
    to += got;
    offset += static_cast<uint64_t>(got);
    length -= static_cast<uint64_t>(got);
  }
  return 0;
}

struct OpenFile {
  int fd = -1;
  ~OpenFile() {
    if (fd >= 0) close(fd);
  }
};

}  // namespace

Expected<std::string> readFile(const std::string& path, uint64_t limit) {
  std::error_code ec;
  uint64_t size = fs::file_size(path, ec);
  if (ec) return notFound(path + ": cannot read: " + ec.message());
  FS_RETURN_IF_ERROR(checkSize(path, size, limit));
  std::ifstream in(path, std::ios::binary);
  if (!in) return notFound(path + ": cannot open for reading: " + std::strerror(errno));
  std::string data(static_cast<size_t>(size), '\0');
  in.read(data.data(), static_cast<std::streamsize>(size));
  if (static_cast<uint64_t>(in.gcount()) != size) return dataLoss(path + ": short read");
  return data;
}

Expected<FileBytes> readFileBytes(const std::string& path, uint64_t limit) {
  OpenFile file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) return notFound(path + ": cannot open for reading: " + std::strerror(errno));
  struct stat info {};
  if (fstat(file.fd, &info) != 0) return dataLoss(path + ": cannot read its size: " + std::strerror(errno));
  if (!S_ISREG(info.st_mode)) return invalidArgument(path + ": not a regular file");
  const auto size = static_cast<uint64_t>(info.st_size);
  FS_RETURN_IF_ERROR(checkSize(path, size, limit));
  FileBytes bytes{std::make_unique_for_overwrite<char[]>(static_cast<size_t>(size)), static_cast<size_t>(size)};
  constexpr uint64_t kPiece = 8u << 20;  // whole pieces per thread: their page faults and copies run side by side
  const auto pieces = static_cast<int64_t>((size + kPiece - 1) / kPiece);
  std::atomic<int> failure{0};
  parallelFor(pieces, 1 << 20, [&](int64_t begin, int64_t end) {
    const uint64_t from = static_cast<uint64_t>(begin) * kPiece;
    const uint64_t to = std::min(size, static_cast<uint64_t>(end) * kPiece);
    if (const int error = readRange(file.fd, bytes.data.get() + from, from, to - from)) {
      int none = 0;
      failure.compare_exchange_strong(none, error);
    }
  });
  const int error = failure.load();
  if (error == -1) return dataLoss(path + ": short read (the file shrank while it was read)");
  if (error) return dataLoss(path + ": read failed: " + std::strerror(error));
  return bytes;
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
