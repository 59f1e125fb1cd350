// Precision: the arithmetic a run asks of a backend's matrix multiplications and convolutions. fp32 is the default
// and TensorFlow's semantics; fp16 and bf16 are an explicit trade of accuracy for speed on GPUs (`--precision`, the
// profiler's choice): the operands are rounded to 16 bits and the products summed in fp32.
#pragma once

#include <string>

#include "base/status.h"

namespace flowscope {

enum class Precision { kFp32, kFp16, kBf16 };

/// "fp32", "fp16", "bf16".
const char* precisionName(Precision precision);
/// Parses a `--precision` value; an error names the choices.
Expected<Precision> parsePrecision(const std::string& text);

/// `value` rounded to the precision's nearest representable number (ties to even), back in float: what a GEMM at
/// that precision reads. fp16 overflows to infinity beyond 65504, as the hardware's conversion does.
float roundToPrecision(float value, Precision precision);

}  // namespace flowscope
