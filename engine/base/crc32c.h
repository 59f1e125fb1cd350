// CRC-32C (Castagnoli), as TensorBundle and LevelDB tables use it, plus their "masked" form.
#pragma once

#include <cstddef>
#include <cstdint>

namespace flowscope {

uint32_t crc32c(const void* data, size_t size, uint32_t init = 0);
inline uint32_t maskCrc(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

}  // namespace flowscope
