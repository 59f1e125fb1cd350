// Atomic file writes with POSIX calls (fsync before rename).
#include "base/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace flowscope {

Status writeFileAtomically(const std::string& path, std::string_view content) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  int fd = mkstemp(tmpl.data());
  if (fd < 0)
    return invalidArgument(path + ": cannot create a temporary file in " + dir.string() + ": " + std::strerror(errno));
  const char* data = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      std::string reason = std::strerror(errno);
      ::close(fd);
      ::unlink(tmpl.c_str());
      return dataLoss(path + ": write failed: " + reason);
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0 || ::close(fd) != 0) {
    std::string reason = std::strerror(errno);
    ::unlink(tmpl.c_str());
    return dataLoss(path + ": could not flush the file: " + reason);
  }
  if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
    std::string reason = std::strerror(errno);
    ::unlink(tmpl.c_str());
    return dataLoss(path + ": could not replace the file: " + reason);
  }
  return Status::ok();
}

}  // namespace flowscope
