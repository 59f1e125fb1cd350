// tf.Example's wire format by hand: varints, length-delimited fields, fixed32 floats.
#include "ir/tf_example.h"

#include <cstring>

namespace flowscope {
namespace {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

void putVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void putTag(std::string& out, uint32_t field, WireType type) { putVarint(out, (uint64_t{field} << 3) | type); }

void putBytes(std::string& out, uint32_t field, std::string_view bytes) {
  putTag(out, field, kLengthDelimited);
  putVarint(out, bytes.size());
  out.append(bytes);
}

// Feature{bytes_list = 1 | float_list = 2 | int64_list = 3}, each list's values in field 1.
std::string serializeFeature(const ExampleFeature& f) {
  std::string list;
  if (f.kind == ExampleFeature::Kind::kBytes) {
    for (const auto& b : f.bytes) putBytes(list, 1, b);
  } else if (f.kind == ExampleFeature::Kind::kFloat) {
    std::string packed(f.floats.size() * sizeof(float), '\0');
    if (!f.floats.empty()) std::memcpy(packed.data(), f.floats.data(), packed.size());  // little-endian hosts
    if (!packed.empty()) putBytes(list, 1, packed);
  } else {
    std::string packed;
    for (int64_t v : f.ints) putVarint(packed, static_cast<uint64_t>(v));
    if (!packed.empty()) putBytes(list, 1, packed);
  }
  std::string feature;
  putBytes(feature, static_cast<uint32_t>(f.kind) + 1, list);
  return feature;
}

// A cursor over one message's bytes.
class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : m_bytes(bytes) {}
  bool done() const { return m_pos >= m_bytes.size(); }

  bool varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64 && m_pos < m_bytes.size(); shift += 7) {
      const auto byte = static_cast<uint8_t>(m_bytes[m_pos++]);
      *v |= uint64_t{byte & 0x7fu} << shift;
      if (!(byte & 0x80)) return true;
    }
    return false;
  }

  bool tag(uint32_t* field, uint32_t* type) {
    uint64_t t = 0;
    if (!varint(&t) || (t >> 3) == 0 || (t >> 3) > 0x1fffffff) return false;
    *field = static_cast<uint32_t>(t >> 3);
    *type = static_cast<uint32_t>(t & 7);
    return true;
  }

  bool bytes(std::string_view* out) {
    uint64_t n = 0;
    if (!varint(&n) || n > m_bytes.size() - m_pos) return false;
    *out = m_bytes.substr(m_pos, n);
    m_pos += n;
    return true;
  }

  bool fixed32(uint32_t* out) {
    if (m_bytes.size() - m_pos < 4) return false;
    std::memcpy(out, m_bytes.data() + m_pos, 4);
    m_pos += 4;
    return true;
  }

  bool skip(uint32_t type) {
    uint64_t v = 0;
    std::string_view b;
    uint32_t f = 0;
    switch (type) {
      case kVarint:
        return varint(&v);
      case kFixed64:
        return m_bytes.size() - m_pos >= 8 ? (m_pos += 8, true) : false;
      case kLengthDelimited:
        return bytes(&b);
      case kFixed32:
        return fixed32(&f);
      default:
        return false;
    }
  }

 private:
  std::string_view m_bytes;
  size_t m_pos = 0;
};

Status malformed(const char* what) { return dataLoss(std::string("malformed tf.Example: ") + what); }

// One value or a packed run of values of a float_list / int64_list, appended to the feature.
bool readNumbers(WireReader& r, uint32_t type, ExampleFeature& f) {
  const bool isFloat = f.kind == ExampleFeature::Kind::kFloat;
  if (type == kLengthDelimited) {
    std::string_view packed;
    if (!r.bytes(&packed)) return false;
    WireReader inner(packed);
    while (!inner.done())
      if (!readNumbers(inner, isFloat ? kFixed32 : kVarint, f)) return false;
    return true;
  }
  if (isFloat && type == kFixed32) {
    uint32_t bits = 0;
    if (!r.fixed32(&bits)) return false;
    float v = 0;
    std::memcpy(&v, &bits, 4);
    f.floats.push_back(v);
    return true;
  }
  uint64_t v = 0;
  if (isFloat || type != kVarint || !r.varint(&v)) return false;
  f.ints.push_back(static_cast<int64_t>(v));
  return true;
}

Status parseList(std::string_view bytes, ExampleFeature& f) {
  WireReader r(bytes);
  uint32_t field = 0, type = 0;
  while (!r.done()) {
    if (!r.tag(&field, &type)) return malformed("bad tag in a value list");
    bool ok = true;
    std::string_view b;
    if (field != 1)
      ok = r.skip(type);
    else if (f.kind == ExampleFeature::Kind::kBytes)
      ok = type == kLengthDelimited && r.bytes(&b) && (f.bytes.emplace_back(b), true);
    else
      ok = readNumbers(r, type, f);
    if (!ok) return malformed("bad value in a value list");
  }
  return Status::ok();
}

Status parseFeature(std::string_view bytes, ExampleFeature& f) {
  WireReader r(bytes);
  uint32_t field = 0, type = 0;
  while (!r.done()) {
    std::string_view list;
    if (!r.tag(&field, &type)) return malformed("bad tag in a Feature");
    if (field < 1 || field > 3 || type != kLengthDelimited) {
      if (!r.skip(type)) return malformed("bad field in a Feature");
      continue;
    }
    if (!r.bytes(&list)) return malformed("truncated Feature");
    f = ExampleFeature{static_cast<ExampleFeature::Kind>(field - 1), {}, {}, {}};  // the last of the oneof wins
    FS_RETURN_IF_ERROR(parseList(list, f));
  }
  return Status::ok();
}

// Features.feature map entry: key = 1, value = 2.
Status parseEntry(std::string_view bytes, Example& out) {
  WireReader r(bytes);
  uint32_t field = 0, type = 0;
  std::string key;
  ExampleFeature feature;
  while (!r.done()) {
    std::string_view b;
    if (!r.tag(&field, &type)) return malformed("bad tag in a feature map entry");
    if ((field == 1 || field == 2) && type == kLengthDelimited) {
      if (!r.bytes(&b)) return malformed("truncated feature map entry");
      if (field == 1) key = std::string(b);
      if (field == 2) FS_RETURN_IF_ERROR(parseFeature(b, feature));
    } else if (!r.skip(type)) {
      return malformed("bad field in a feature map entry");
    }
  }
  out[key] = std::move(feature);
  return Status::ok();
}

// Calls `fn` with the payload of every length-delimited field `wanted` of a message; other fields are skipped.
template <typename Fn>
Status eachField(std::string_view bytes, uint32_t wanted, const char* what, Fn fn) {
  WireReader r(bytes);
  uint32_t field = 0, type = 0;
  while (!r.done()) {
    std::string_view b;
    if (!r.tag(&field, &type)) return malformed(what);
    if (field != wanted || type != kLengthDelimited) {
      if (!r.skip(type)) return malformed(what);
      continue;
    }
    if (!r.bytes(&b)) return malformed(what);
    FS_RETURN_IF_ERROR(fn(b));
  }
  return Status::ok();
}

}  // namespace

size_t ExampleFeature::size() const {
  return kind == Kind::kBytes ? bytes.size() : kind == Kind::kFloat ? floats.size() : ints.size();
}

std::string serializeExample(const Example& example) {
  std::string features;
  for (const auto& [key, feature] : example) {
    std::string entry;
    putBytes(entry, 1, key);
    putBytes(entry, 2, serializeFeature(feature));
    putBytes(features, 1, entry);
  }
  std::string out;
  putBytes(out, 1, features);
  return out;
}

Expected<Example> parseExample(std::string_view bytes) {
  Example example;
  FS_RETURN_IF_ERROR(eachField(bytes, 1, "bad Example", [&](std::string_view features) {
    return eachField(features, 1, "bad Features", [&](std::string_view entry) { return parseEntry(entry, example); });
  }));
  return example;
}

}  // namespace flowscope
