// TFRecord framing.
#include "profile/import/tf_record.h"

#include "base/crc32c.h"

namespace flowscope {
namespace {

uint64_t readLE(std::string_view data, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(data[at + static_cast<size_t>(i)]);
  return v;
}

void appendLE(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

Expected<TfRecords> readTfRecords(std::string_view data) {
  TfRecords out;
  size_t at = 0;
  while (at < data.size()) {
    const std::string where = "record " + std::to_string(out.records.size()) + " at byte " + std::to_string(at);
    if (data.size() - at < 12) {
      out.warnings.push_back(where + " is truncated (" + std::to_string(data.size() - at) + " bytes of a header)");
      break;
    }
    const uint64_t length = readLE(data, at, 8);
    if (maskCrc(crc32c(data.data() + at, 8)) != static_cast<uint32_t>(readLE(data, at + 8, 4))) {
      if (out.records.empty()) return dataLoss(where + ": the length's CRC-32C does not match; not a TFRecord file");
      out.warnings.push_back(where + ": the length's CRC-32C does not match; the rest of the file is not read");
      break;
    }
    if (length > data.size() - at - 12 || data.size() - at - 12 - length < 4) {
      out.warnings.push_back(where + " is truncated (" + std::to_string(length) + " bytes of data announced, " +
                             std::to_string(data.size() - at - 12) + " left)");
      break;
    }
    std::string_view record = data.substr(at + 12, length);
    const uint32_t crc = static_cast<uint32_t>(readLE(data, at + 12 + length, 4));
    if (maskCrc(crc32c(record.data(), record.size())) == crc)
      out.records.push_back(record);
    else
      out.warnings.push_back(where + ": the data's CRC-32C does not match; record skipped");
    at += 12 + length + 4;
  }
  if (out.records.empty() && !out.warnings.empty()) return dataLoss(out.warnings.front());
  return out;
}

std::string tfRecord(std::string_view data) {
  std::string out;
  appendLE(&out, data.size(), 8);
  appendLE(&out, maskCrc(crc32c(out.data(), 8)), 4);
  out.append(data);
  appendLE(&out, maskCrc(crc32c(data.data(), data.size())), 4);
  return out;
}

}  // namespace flowscope
