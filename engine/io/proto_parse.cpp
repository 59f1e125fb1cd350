// Protobuf parsing with diagnostics: a descriptor-driven wire walker explains why a binary parse failed.
#include "io/proto_parse.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>

#include <mutex>

#include "base/utf8.h"

namespace flowscope {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

// libprotobuf logs parse problems to stderr; Flowscope reports them through Status instead.
void silenceProtobufLogging() {
  static std::once_flag once;
  std::call_once(once, [] {
    google::protobuf::SetLogHandler(
        [](google::protobuf::LogLevel level, const char*, int, const std::string&) { (void)level; });
  });
}

bool readVarint(std::string_view data, size_t* pos, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*pos >= data.size()) return false;
    auto byte = static_cast<uint8_t>(data[(*pos)++]);
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      *value = result;
      return true;
    }
  }
  return false;
}

const char* wireTypeName(int wireType) {
  switch (wireType) {
    case 0:
      return "varint";
    case 1:
      return "64-bit";
    case 2:
      return "length-delimited";
    case 3:
      return "start-group";
    case 4:
      return "end-group";
    case 5:
      return "32-bit";
    default:
      return "invalid";
  }
}

int expectedWireType(const FieldDescriptor* field) {
  switch (field->type()) {
    case FieldDescriptor::TYPE_DOUBLE:
    case FieldDescriptor::TYPE_FIXED64:
    case FieldDescriptor::TYPE_SFIXED64:
      return 1;
    case FieldDescriptor::TYPE_FLOAT:
    case FieldDescriptor::TYPE_FIXED32:
    case FieldDescriptor::TYPE_SFIXED32:
      return 5;
    case FieldDescriptor::TYPE_STRING:
    case FieldDescriptor::TYPE_BYTES:
    case FieldDescriptor::TYPE_MESSAGE:
      return 2;
    case FieldDescriptor::TYPE_GROUP:
      return 3;
    default:
      return 0;
  }
}

// Walks a message's wire bytes against its descriptor and reports the first inconsistency.
class WireWalker {
 public:
  explicit WireWalker(std::string_view data) : m_data(data) {}

  bool walk(const Descriptor* type, size_t begin, size_t end, const std::string& path, int depth) {
    if (depth > 100) return fail(begin, path, "messages nested more than 100 deep");
    std::map<int, int> repeatCount;
    size_t pos = begin;
    while (pos < end) {
      size_t fieldStart = pos;
      uint64_t tag;
      if (!readVarint(m_data.substr(0, end), &pos, &tag)) return fail(fieldStart, path, "truncated field tag");
      auto number = static_cast<int>(tag >> 3);
      int wireType = static_cast<int>(tag & 7);
      if (number == 0) return fail(fieldStart, path, "field number 0 is invalid");
      const FieldDescriptor* field = type ? type->FindFieldByNumber(number) : nullptr;
      std::string fieldPath = path + "." + (field ? field->name() : std::to_string(number));
      if (field && field->is_repeated()) fieldPath += "[" + std::to_string(repeatCount[number]++) + "]";
      if (field) {
        int want = expectedWireType(field);
        bool packedOk = field->is_repeated() && wireType == 2 && field->is_packable();
        if (wireType != want && !packedOk)
          return fail(fieldStart, fieldPath,
                      std::string("wire type ") + wireTypeName(wireType) + ", expected " + wireTypeName(want) +
                          " for a " + field->type_name() + " field");
      }
      if (!skipValue(wireType, end, &pos, fieldStart, fieldPath, field, depth)) return false;
    }
    return true;
  }

  size_t errorOffset() const { return m_errorOffset; }
  const std::string& error() const { return m_error; }

 private:
  bool fail(size_t offset, const std::string& path, const std::string& what) {
    m_errorOffset = offset;
    m_error = path + ": " + what;
    return false;
  }

  bool skipValue(int wireType, size_t end, size_t* pos, size_t fieldStart, const std::string& path,
                 const FieldDescriptor* field, int depth) {
    uint64_t value;
    switch (wireType) {
      case 0:
        if (!readVarint(m_data.substr(0, end), pos, &value)) return fail(fieldStart, path, "truncated varint");
        return true;
      case 1:
      case 5: {
        size_t width = wireType == 1 ? 8 : 4;
        if (end - *pos < width)
          return fail(fieldStart, path,
                      "needs " + std::to_string(width) + " bytes but " + std::to_string(end - *pos) + " remain");
        *pos += width;
        return true;
      }
      case 2: {
        if (!readVarint(m_data.substr(0, end), pos, &value)) return fail(fieldStart, path, "truncated length");
        if (value > end - *pos)
          return fail(fieldStart, path,
                      "length-delimited field claims " + std::to_string(value) + " bytes but only " +
                          std::to_string(end - *pos) + " remain (file truncated?)");
        size_t payloadStart = *pos;
        *pos += value;
        if (!field) return true;
        if (field->type() == FieldDescriptor::TYPE_MESSAGE)
          return walk(field->message_type(), payloadStart, *pos, path, depth + 1);
        if (field->type() == FieldDescriptor::TYPE_STRING &&
            !isValidUtf8(m_data.substr(payloadStart, static_cast<size_t>(value))))
          return fail(fieldStart, path, "string field is not valid UTF-8");
        return true;
      }
      case 3:
      case 4:
        return fail(fieldStart, path, "groups are not used by TensorFlow's messages");
      default:
        return fail(fieldStart, path, std::string("invalid wire type ") + std::to_string(wireType));
    }
  }

  std::string_view m_data;
  size_t m_errorOffset = 0;
  std::string m_error;
};

class TextErrorCollector : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (m_first.empty())
      m_first = "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1) + ": " + message;
  }
  void AddWarning(int, int, const std::string&) override {}
  const std::string& first() const { return m_first; }

 private:
  std::string m_first;
};

}  // namespace

Status parseBinaryProto(std::string_view data, google::protobuf::Message* message, const std::string& path) {
  silenceProtobufLogging();
  const std::string typeName = message->GetDescriptor()->name();
  if (data.size() > static_cast<size_t>(INT32_MAX))
    return outOfRange(path + ": " + std::to_string(data.size()) + " bytes is beyond protobuf's 2 GiB message limit");
  if (message->ParseFromArray(data.data(), static_cast<int>(data.size()))) return Status::ok();
  WireWalker walker(data);
  if (!walker.walk(message->GetDescriptor(), 0, data.size(), typeName, 0))
    return invalidArgument(path + ": malformed protobuf at byte offset " + std::to_string(walker.errorOffset()) +
                           " in " + walker.error() + " (expected a binary " + typeName + ")");
  return invalidArgument(path + ": not a valid binary " + typeName + " (the protobuf parser rejected it)");
}

Status parseBinaryProtoStrict(std::string_view data, google::protobuf::Message* message, const std::string& path) {
  FS_RETURN_IF_ERROR(parseBinaryProto(data, message, path));
  WireWalker walker(data);
  const std::string typeName = message->GetDescriptor()->name();
  if (!walker.walk(message->GetDescriptor(), 0, data.size(), typeName, 0))
    return invalidArgument(path + ": malformed protobuf at byte offset " + std::to_string(walker.errorOffset()) +
                           " in " + walker.error() + " (expected a binary " + typeName + ")");
  return Status::ok();
}

Status parseTextProto(std::string_view text, google::protobuf::Message* message, const std::string& path) {
  silenceProtobufLogging();
  TextErrorCollector errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  parser.AllowUnknownField(true);
  parser.AllowUnknownExtension(true);
  if (text.size() > static_cast<size_t>(INT32_MAX)) return outOfRange(path + ": text file beyond 2 GiB");
  if (parser.ParseFromString(std::string(text), message)) return Status::ok();
  return invalidArgument(path + ": " + (errors.first().empty() ? "unreadable text format" : errors.first()) +
                         " (expected a text " + message->GetDescriptor()->name() + ")");
}

std::vector<WireField> scanWireFields(std::string_view data, size_t maxFields, bool* complete) {
  std::vector<WireField> fields;
  size_t pos = 0;
  *complete = false;
  while (pos < data.size() && fields.size() < maxFields) {
    WireField field;
    field.offset = pos;
    uint64_t tag;
    if (!readVarint(data, &pos, &tag)) return fields;
    field.number = static_cast<uint32_t>(tag >> 3);
    field.wireType = static_cast<int>(tag & 7);
    if (field.number == 0) return fields;
    uint64_t value;
    switch (field.wireType) {
      case 0:
        if (!readVarint(data, &pos, &value)) return fields;
        break;
      case 1:
        pos += 8;
        break;
      case 5:
        pos += 4;
        break;
      case 2:
        if (!readVarint(data, &pos, &value)) return fields;
        field.length = value;
        field.payload = pos;
        pos += value;  // may run past a truncated head: callers only sniff
        break;
      default:
        return fields;
    }
    fields.push_back(field);
  }
  *complete = pos == data.size();
  return fields;
}

bool looksLikeText(std::string_view head) {
  if (head.empty()) return false;
  size_t printable = 0;
  for (unsigned char c : head)
    if (c == '\n' || c == '\r' || c == '\t' || (c >= 0x20 && c < 0x7f) || c >= 0x80) ++printable;
  if (printable != head.size()) return false;
  for (char c : head) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    return c == '#' || (c >= 'a' && c <= 'z');
  }
  return false;
}

}  // namespace flowscope
