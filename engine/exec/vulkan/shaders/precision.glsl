// Rounding of GEMM operands to a run's precision (0 fp32: unchanged, 1 fp16, 2 bf16), to nearest with ties to even as
// exec/precision.cpp does on the host, in integer and exact float arithmetic: a device's own float-to-half conversion
// may round toward zero, and the value returned is a half (or bfloat16), so converting it afterwards is exact.
const uint kPrecisionFp32 = 0u, kPrecisionFp16 = 1u, kPrecisionBf16 = 2u;

float roundToHalf(float value) {
  const float magnitude = abs(value);
  if (!(magnitude < 65520.0))  // NaN stays NaN; from halfway past the largest half (65504) up, infinity
    return isnan(value) ? value : (value < 0.0 ? -uintBitsToFloat(0x7F800000u) : uintBitsToFloat(0x7F800000u));
  if (magnitude < 6.103515625e-05)  // below the smallest normal half the spacing is 2^-24: exact scaling by 2^24
    return roundEven(value * 16777216.0) * 5.9604644775390625e-08;
  // 13 of the float's 23 fraction bits go, ties to even; a carry bumps the exponent.
  uint bits = floatBitsToUint(value);
  bits += 0xFFFu + ((bits >> 13u) & 1u);
  return uintBitsToFloat(bits & 0xFFFFE000u);
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
