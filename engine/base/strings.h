// Small string helpers shared across the engine (formatting, splitting, escaping).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flowscope {

std::vector<std::string> splitString(std::string_view text, char separator);
bool startsWith(std::string_view text, std::string_view prefix);
bool endsWith(std::string_view text, std::string_view suffix);
std::string trim(std::string_view text);
/// C-style escaping with octal for non-printable bytes, as protobuf's text format writes bytes.
std::string cEscape(std::string_view bytes);
/// Parses a whole decimal integer; false on anything else (no partial parses).
bool parseInt64(std::string_view text, int64_t* out);
/// Human-readable byte count, e.g. "1.08 MB".
std::string formatBytes(uint64_t bytes);
/// Shortest text form of a float that reads back to the same value.
std::string formatFloat(double value);
/// "1 node", "2 nodes": a count and the noun that agrees with it.
std::string counted(size_t count, std::string_view one, std::string_view many);
std::string joinStrings(const std::vector<std::string>& parts, std::string_view separator);

}  // namespace flowscope
