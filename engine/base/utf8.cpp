// UTF-8 (utf8.h).
#include "base/utf8.h"

#include <cstdint>

namespace flowscope {
namespace {

// The code point starting at text[*at], *at moved past it; false where the bytes there are not well-formed.
bool nextPoint(std::string_view text, size_t* at, char32_t* point) {
  const auto lead = static_cast<uint8_t>(text[*at]);
  const int extra = lead < 0x80 ? 0 : (lead >> 5) == 0x6 ? 1 : (lead >> 4) == 0xe ? 2 : (lead >> 3) == 0x1e ? 3 : -1;
  if (extra < 0 || *at + static_cast<size_t>(extra) >= text.size() + (extra == 0 ? 1 : 0)) return false;
  char32_t c = extra == 0 ? lead : lead & (0x3f >> extra);
  for (int k = 1; k <= extra; ++k) {
    const auto next = static_cast<uint8_t>(text[*at + static_cast<size_t>(k)]);
    if ((next >> 6) != 0x2) return false;
    c = (c << 6) | (next & 0x3f);
  }
  constexpr char32_t kSmallest[] = {0, 0x80, 0x800, 0x10000};  // below these, the form is overlong
  if (c < kSmallest[extra] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return false;
  *at += static_cast<size_t>(extra) + 1;
  *point = c;
  return true;
}

}  // namespace

std::optional<std::u32string> decodeUtf8(std::string_view text) {
  std::u32string points;
  points.reserve(text.size());
  for (size_t at = 0; at < text.size();) {
    char32_t c = 0;
    if (!nextPoint(text, &at, &c)) return std::nullopt;
    points.push_back(c);
  }
  return points;
}

bool isValidUtf8(std::string_view text) {
  char32_t c = 0;
  for (size_t at = 0; at < text.size();)
    if (!nextPoint(text, &at, &c)) return false;
  return true;
}

std::string encodeUtf8(std::u32string_view points) {
  std::string text;
  text.reserve(points.size());
  for (char32_t c : points) {
    if (c < 0x80) {
      text.push_back(static_cast<char>(c));
      continue;
    }
    constexpr char32_t kLead[] = {0, 0xc0, 0xe0, 0xf0};  // the first byte's marker for 1, 2 or 3 more bytes
    const int extra = c < 0x800 ? 1 : c < 0x10000 ? 2 : 3;
    text.push_back(static_cast<char>(kLead[extra] | (c >> (6 * extra))));
    for (int k = extra - 1; k >= 0; --k) text.push_back(static_cast<char>(0x80 | ((c >> (6 * k)) & 0x3f)));
  }
  return text;
}

}  // namespace flowscope
