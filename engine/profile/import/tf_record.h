// TFRecord framing, as TensorBoard's event files use it: uint64 length, masked CRC-32C of the length, the data, masked
// CRC-32C of the data (all little-endian). The CRC is base/crc32c.h's, the one TensorBundle reading already uses.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace flowscope {

struct TfRecords {
  std::vector<std::string_view> records;  ///< views into the buffer given to readTfRecords
  std::vector<std::string> warnings;      ///< records skipped (bad data CRC) or a truncated tail
};

/// Splits `data` into records. A bad length CRC stops reading (the rest cannot be framed); a bad data CRC skips that
/// record with a warning; a truncated last record is a warning (a file still being written). With no record read,
/// either is an error naming the byte offset.
Expected<TfRecords> readTfRecords(std::string_view data);

/// Frames one record (for tests and tools that write event files).
std::string tfRecord(std::string_view data);

}  // namespace flowscope
