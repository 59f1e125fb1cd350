// Atomic file writes with POSIX calls (fsync before rename). The temporary file beside the destination is named
// ".NAME.tmp-PID-XXXXXX"; one left by a writer that was killed (no chance to unlink it) is removed by the next write
// to the same destination, once its process is gone.
#include "base/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace flowscope {
namespace {

// Writes all of `content` to `fd`; the errno text on failure.
bool writeAll(int fd, std::string_view content, std::string* reason) {
  const char* data = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      *reason = std::strerror(errno);
      return false;
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  return true;
}

// A device or a pipe (/dev/stdout, /dev/full, a FIFO) cannot be replaced by a rename: it is written in place.
Status writeInPlace(const std::string& path, std::string_view content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return invalidArgument(path + ": cannot open for writing: " + std::strerror(errno));
  std::string reason;
  const bool ok = writeAll(fd, content, &reason);
  if (::close(fd) != 0 && ok) reason = std::strerror(errno);
  if (!ok || !reason.empty()) return dataLoss(path + ": write failed: " + reason);
  return Status::ok();
}

// Removes the temporary files of earlier writes to `target` whose writing process no longer exists.
void removeStaleTemporaries(const std::filesystem::path& dir, const std::string& prefix) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) std::filesystem::remove(entry.path(), ec);
  }
}

}  // namespace

Status checkWritableDestination(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return invalidArgument(path + ": cannot create a temporary file in " + dir.string() + ": " + std::strerror(errno));
  return Status::ok();
}

Status writeFileAtomically(const std::string& path, std::string_view content) {
  namespace fs = std::filesystem;
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode) && !S_ISDIR(existing.st_mode))
    return writeInPlace(path, content);
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string prefix = "." + target.filename().string() + ".tmp-";
  removeStaleTemporaries(dir, prefix);
  std::string tmpl = (dir / (prefix + std::to_string(::getpid()) + "-XXXXXX")).string();
  int fd = mkstemp(tmpl.data());
  if (fd < 0)
    return invalidArgument(path + ": cannot create a temporary file in " + dir.string() + ": " + std::strerror(errno));
  std::string reason;
  if (!writeAll(fd, content, &reason)) {
    ::close(fd);
    ::unlink(tmpl.c_str());
    return dataLoss(path + ": write failed: " + reason);
  }
  if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0 || ::close(fd) != 0) {
    reason = std::strerror(errno);
    ::unlink(tmpl.c_str());
    return dataLoss(path + ": could not flush the file: " + reason);
  }
  // Tests of writers killed mid-way stop here, the file complete but not yet in place, and kill the writer then.
  if (std::getenv("FLOWSCOPE_TEST_STOP_BEFORE_RENAME")) ::raise(SIGSTOP);
  if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
    reason = std::strerror(errno);
    ::unlink(tmpl.c_str());
    return dataLoss(path + ": could not replace the file: " + reason);
  }
  return Status::ok();
}

}  // namespace flowscope
