// Rounding of GEMM operands to a run's precision (0 fp32: unchanged, 1 fp16, 2 bf16), to nearest with ties to even as
// exec/precision.cpp does on the host, by exact arithmetic on powers of two: a device's own float-to-half conversion
// may round toward zero.
const uint kPrecisionFp32 = 0u, kPrecisionFp16 = 1u, kPrecisionBf16 = 2u;

float roundToHalf(float value) {
  if (isnan(value) || isinf(value)) return value;
  const float magnitude = abs(value);
  if (magnitude >= 65520.0) return value < 0.0 ? -uintBitsToFloat(0x7F800000u) : uintBitsToFloat(0x7F800000u);
  int exponent;
  frexp(magnitude, exponent);  // magnitude = m * 2^exponent, m in [0.5, 1)
  const int ulpExponent = max(exponent - 1, -14) - 10;  // the spacing of halves there (2^-24 among subnormals)
  return roundEven(value * ldexp(1.0, -ulpExponent)) * ldexp(1.0, ulpExponent);
}

float roundToBfloat16(float value) {
  if (isnan(value)) return value;
  uint bits = floatBitsToUint(value);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return uintBitsToFloat(bits & 0xFFFF0000u);
}

float atPrecision(float value, uint operandPrecision) {
  if (operandPrecision == kPrecisionFp16) return roundToHalf(value);
  if (operandPrecision == kPrecisionBf16) return roundToBfloat16(value);
  return value;
}
