// Status and Expected<T>: errors as values at the engine boundary (ARCHITECTURE.md, Conventions).
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace flowscope {

/// The kind of failure, so callers (the CLI's exit codes, the UI) can react without parsing messages.
enum class ErrorCode {
  kOk,
  kInvalidArgument,
  kNotFound,
  kUnimplemented,
  kDataLoss,
  kOutOfRange,
  kInternal,
  kCancelled,
  kUnavailable
};

/// An error message that names the file, node, op and what was expected. Empty message means success.
class Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message) : m_code(code), m_message(std::move(message)) {}

  static Status ok() { return {}; }
  bool isOk() const { return m_code == ErrorCode::kOk; }
  explicit operator bool() const { return isOk(); }
  ErrorCode code() const { return m_code; }
  const std::string& message() const { return m_message; }

  /// Prefixes context ("file.pb: ") to the message, keeping the code.
  Status withContext(const std::string& prefix) const {
    if (isOk()) return *this;
    return {m_code, prefix + m_message};
  }

 private:
  ErrorCode m_code = ErrorCode::kOk;
  std::string m_message;
};

inline Status invalidArgument(std::string message) { return {ErrorCode::kInvalidArgument, std::move(message)}; }
inline Status notFound(std::string message) { return {ErrorCode::kNotFound, std::move(message)}; }
inline Status unimplemented(std::string message) { return {ErrorCode::kUnimplemented, std::move(message)}; }
inline Status unavailable(std::string message) { return {ErrorCode::kUnavailable, std::move(message)}; }
inline Status dataLoss(std::string message) { return {ErrorCode::kDataLoss, std::move(message)}; }
inline Status outOfRange(std::string message) { return {ErrorCode::kOutOfRange, std::move(message)}; }
inline Status internalError(std::string message) { return {ErrorCode::kInternal, std::move(message)}; }
inline Status cancelled(std::string message) { return {ErrorCode::kCancelled, std::move(message)}; }

/// A value or the Status explaining why there is none.
template <typename T>
class Expected {
 public:
  Expected(T value) : m_value(std::move(value)) {}  // NOLINT: implicit by design, like std::expected
  Expected(Status status) : m_status(std::move(status)) { assert(!m_status.isOk()); }  // NOLINT

  bool hasValue() const { return m_value.has_value(); }
  explicit operator bool() const { return hasValue(); }
  const Status& status() const { return m_status; }
  T& value() & { return *m_value; }
  const T& value() const& { return *m_value; }
  T&& value() && { return std::move(*m_value); }
  T* operator->() { return &*m_value; }
  const T* operator->() const { return &*m_value; }
  T& operator*() & { return *m_value; }
  const T& operator*() const& { return *m_value; }

 private:
  std::optional<T> m_value;
  Status m_status;
};

}  // namespace flowscope

/// Returns early with the Status of an expression that failed.
#define FS_RETURN_IF_ERROR(expr)               \
  do {                                         \
    ::flowscope::Status fs_status_ = (expr);   \
    if (!fs_status_.isOk()) return fs_status_; \
  } while (0)

#define FS_CONCAT_INNER(a, b) a##b
#define FS_CONCAT(a, b) FS_CONCAT_INNER(a, b)
#define FS_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.hasValue()) return tmp.status();      \
  lhs = std::move(tmp).value()

/// `FS_ASSIGN_OR_RETURN(auto x, f());` unwraps an Expected or returns its Status.
#define FS_ASSIGN_OR_RETURN(lhs, expr) FS_ASSIGN_OR_RETURN_IMPL(FS_CONCAT(fs_expected_, __LINE__), lhs, expr)
