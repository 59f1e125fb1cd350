// JSON text to a document, with every failure of the parser (syntax, a number out of range, bad UTF-8) as an error.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace flowscope {

/// Parses JSON. A syntax error names its byte; a number too large for a double or invalid UTF-8 is an error too
/// (nlohmann reports those as exceptions other than parse_error, which callers must not let escape).
Expected<nlohmann::json> parseJson(const std::string& text);

}  // namespace flowscope
