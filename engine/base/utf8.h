// UTF-8 text to Unicode code points and back.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace flowscope {

/// The code points of `text`; nullopt where it is not well-formed UTF-8 (a stray or missing continuation byte, an
/// overlong form, a surrogate, a value above U+10FFFF), as protobuf's and Python's decoders refuse them.
std::optional<std::u32string> decodeUtf8(std::string_view text);
/// True when `text` is well-formed UTF-8 (decodeUtf8 would succeed).
bool isValidUtf8(std::string_view text);
/// `points` as UTF-8 (each a valid code point: decodeUtf8's output, or case mappings of it).
std::string encodeUtf8(std::u32string_view points);

}  // namespace flowscope
