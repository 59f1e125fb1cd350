// Helpers the importers share.
#include "profile/import/import_util.h"

#include <zlib.h>

#include <cmath>

namespace flowscope::import {

int ThreadIds::id(const std::string& process, const std::string& thread, const std::string& label) {
  auto [it, added] = m_ids.try_emplace({process, thread}, static_cast<int>(m_ids.size()));
  if (added) m_profile->threadNames[it->second] = label;
  return it->second;
}

bool isGzip(const std::string& head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b;
}

namespace {

// Inflates into `out` up to `limit` bytes; returns zlib's last result.
int inflateInto(const std::string& data, size_t limit, std::string* out) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return Z_MEM_ERROR;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(std::min<size_t>(data.size(), UINT32_MAX));
  char buffer[64 * 1024];
  int rc = Z_OK;
  while (rc == Z_OK && out->size() < limit) {
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    rc = inflate(&z, Z_NO_FLUSH);
    out->append(buffer, sizeof buffer - z.avail_out);
    if (rc == Z_BUF_ERROR && z.avail_in == 0) break;  // input ended early
  }
  inflateEnd(&z);
  return rc;
}

}  // namespace

Expected<std::string> gunzip(const std::string& data, size_t limit) {
  std::string out;
  int rc = inflateInto(data, limit, &out);
  if (out.size() >= limit && rc != Z_STREAM_END)
    return invalidArgument("gzip stream inflates past the limit of " + std::to_string(limit) + " bytes");
  if (rc == Z_STREAM_END) return out;
  if (rc == Z_BUF_ERROR || rc == Z_OK)
    return invalidArgument("gzip stream is truncated (" + std::to_string(out.size()) + " bytes inflated)");
  return invalidArgument("gzip stream is damaged (zlib error " + std::to_string(rc) + ")");
}

std::string gunzipPrefix(const std::string& head, size_t limit) {
  if (!isGzip(head)) return {};
  std::string out;
  inflateInto(head, limit, &out);
  return out;
}

std::string jsonText(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "";
  return value.dump();
}

double jsonNumber(const nlohmann::json& value, double fallback) {
  if (value.is_number()) {
    double v = value.get<double>();
    return std::isfinite(v) ? v : fallback;
  }
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (end && end != s.c_str() && *end == '\0' && std::isfinite(v)) return v;
  }
  return fallback;
}

int64_t clampedInt(double value) {
  constexpr double kLimit = 4.6e18;
  if (!(value > -kLimit)) return static_cast<int64_t>(-kLimit);
  if (!(value < kLimit)) return static_cast<int64_t>(kLimit);
  return static_cast<int64_t>(value);
}

std::vector<std::vector<int64_t>> shapesOf(const nlohmann::json& value) {
  std::vector<std::vector<int64_t>> shapes;
  if (!value.is_array()) return shapes;
  for (const auto& item : value) {
    const nlohmann::json* dims = &item;
    if (item.is_object() && item.size() == 1) dims = &item.begin().value();  // ORT: {"float": [1, 3, 224, 224]}
    std::vector<int64_t> shape;
    if (dims->is_array())
      for (const auto& d : *dims) shape.push_back(clampedInt(jsonNumber(d, -1)));
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

}  // namespace flowscope::import
