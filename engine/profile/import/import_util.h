// Helpers the importers share: dense thread ids, JSON reading with limits, gzip, and shapes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/json.h"
#include "base/status.h"
#include "profile/imported_profile.h"

namespace flowscope::import {

/// Gives each (process, thread) pair a small dense id, naming it in the profile's thread table.
class ThreadIds {
 public:
  explicit ThreadIds(ImportedProfile* profile) : m_profile(profile) {}
  int id(const std::string& process, const std::string& thread, const std::string& label);

 private:
  ImportedProfile* m_profile;
  std::map<std::pair<std::string, std::string>, int> m_ids;
};

/// The contents of a gzip stream, at most `limit` bytes; an error for a damaged or truncated stream.
Expected<std::string> gunzip(const std::string& data, size_t limit);
/// As much of a gzip stream's start as inflates (for content sniffing of a file's head); empty when it is not gzip.
std::string gunzipPrefix(const std::string& head, size_t limit);
bool isGzip(const std::string& head);

/// A JSON value as text: strings as they are, numbers and others dumped (tools write ids either way).
std::string jsonText(const nlohmann::json& value);
/// A JSON number (or a numeric string) as a double; `fallback` for anything else.
double jsonNumber(const nlohmann::json& value, double fallback = 0);
/// A double as int64_t, clamped to +-2^62 (a cast of a larger value is undefined behaviour).
int64_t clampedInt(double value);
/// Microseconds (Chrome trace "ts"/"dur") as nanoseconds, clamped.
inline int64_t microsToNs(double us) { return clampedInt(us * 1000.0); }
/// [[1,3,224,224], ...] from an array of dims arrays, skipping what is not one.
std::vector<std::vector<int64_t>> shapesOf(const nlohmann::json& value);

}  // namespace flowscope::import
