// Precision names and the reference rounding (the shaders round the same way).
#include "exec/precision.h"

#include <bit>
#include <cmath>
#include <cstdint>

namespace flowscope {
namespace {

float roundToBf16(float value) {
  if (std::isnan(value)) return value;
  uint32_t bits = std::bit_cast<uint32_t>(value);
  bits += 0x7FFFu + ((bits >> 16) & 1u);  // to nearest, ties to even
  return std::bit_cast<float>(bits & 0xFFFF0000u);
}

float roundToFp16(float value) {
  if (!std::isfinite(value)) return value;
  const float magnitude = std::fabs(value);
  if (magnitude >= 65520.0f) return std::copysign(INFINITY, value);  // rounds past the largest half, 65504
  // The spacing of halves near `value`: 2^(exponent - 10), and 2^-24 among the subnormals (below 2^-14).
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude = m * 2^exponent, m in [0.5, 1)
  const float ulp = std::ldexp(1.0f, std::max(exponent - 1, -14) - 10);
  return std::nearbyint(value / ulp) * ulp;  // the default rounding mode: to nearest, ties to even
}

}  // namespace

const char* precisionName(Precision precision) {
  switch (precision) {
    case Precision::kFp16:
      return "fp16";
    case Precision::kBf16:
      return "bf16";
    case Precision::kFp32:
      break;
  }
  return "fp32";
}

Expected<Precision> parsePrecision(const std::string& text) {
  for (Precision p : {Precision::kFp32, Precision::kFp16, Precision::kBf16})
    if (text == precisionName(p)) return p;
  return invalidArgument("precision '" + text + "' is not one of fp32, fp16, bf16");
}

float roundToPrecision(float value, Precision precision) {
  switch (precision) {
    case Precision::kFp16:
      return roundToFp16(value);
    case Precision::kBf16:
      return roundToBf16(value);
    case Precision::kFp32:
      break;
  }
  return value;
}

}  // namespace flowscope
