// Parsing protobuf messages from bytes or text with errors that say where and what was expected.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <google/protobuf/message.h>

#include "base/status.h"

namespace flowscope {

/// Parses binary protobuf. On failure the message names the file, the byte offset, the field path
/// (e.g. GraphDef.node[3].attr) and what the wire format should have held there.
Status parseBinaryProto(std::string_view data, google::protobuf::Message* message, const std::string& path);
/// The same, and a field whose wire type does not match the schema is an error too (the protobuf parser keeps such
/// fields as unknown ones and succeeds). Walks the whole message once more.
Status parseBinaryProtoStrict(std::string_view data, google::protobuf::Message* message, const std::string& path);
/// Parses text format; errors carry line and column.
Status parseTextProto(std::string_view text, google::protobuf::Message* message, const std::string& path);

/// One top-level field of a binary message, for content sniffing.
struct WireField {
  uint32_t number = 0;
  int wireType = 0;
  uint64_t offset = 0;
  uint64_t length = 0;   ///< payload bytes for length-delimited fields
  uint64_t payload = 0;  ///< where a length-delimited field's payload starts (after its tag and length varints)
};
/// Scans the top-level fields of `data` until it ends, breaks, or `maxFields` were read.
/// `complete` is set when the scan consumed everything without error.
std::vector<WireField> scanWireFields(std::string_view data, size_t maxFields, bool* complete);

/// True when `head` looks like protobuf text format (printable, starts with a field name or comment).
bool looksLikeText(std::string_view head);

}  // namespace flowscope
