// TensorBundle reading through libleveldb's Table API.
#include "io/tensor_bundle.h"

#include <leveldb/env.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/table.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

#include "base/crc32c.h"
#include "checkpoint.pb.h"
#include "io/proto_parse.h"
#include "io/source.h"
#include "io/tensor_proto.h"

namespace flowscope {
namespace {

std::string shardName(const std::string& prefix, int shard, int numShards) {
  char buf[64];
  std::snprintf(buf, sizeof buf, ".data-%05d-of-%05d", shard, numShards);
  return prefix + buf;
}

bool readVarint64(const std::string& data, size_t* pos, uint64_t* out) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64 && *pos < data.size(); shift += 7) {
    auto b = static_cast<uint8_t>(data[(*pos)++]);
    result |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = result;
      return true;
    }
  }
  return false;
}

// String tensors: varint64 lengths, a masked CRC-32C of the lengths, then the bytes. The entry's checksum
// covers each length as a little-endian uint32 (uint64 past 4 GiB), the length checksum, then the bytes.
Expected<Tensor> decodeStringTensor(const std::string& bytes, const Shape& shape, uint32_t* crc) {
  int64_t count = shape.numElements();
  if (count < 0 || static_cast<uint64_t>(count) > bytes.size())
    return dataLoss("string tensor element count does not fit its bytes");
  std::vector<uint64_t> lengths(static_cast<size_t>(count));
  size_t pos = 0;
  *crc = 0;
  for (auto& len : lengths) {
    if (!readVarint64(bytes, &pos, &len)) return dataLoss("truncated string lengths");
    if (len <= UINT32_MAX) {
      auto small = static_cast<uint32_t>(len);
      *crc = crc32c(&small, sizeof small, *crc);
    } else {
      *crc = crc32c(&len, sizeof len, *crc);
    }
  }
  if (bytes.size() - pos < 4) return dataLoss("truncated string length checksum");
  uint32_t lengthChecksum;
  std::memcpy(&lengthChecksum, bytes.data() + pos, 4);
  if (lengthChecksum != maskCrc(*crc)) return dataLoss("string length checksum mismatch (data shard corrupted?)");
  *crc = crc32c(bytes.data() + pos, 4, *crc);
  pos += 4;
  std::vector<std::string> values;
  values.reserve(lengths.size());
  for (uint64_t len : lengths) {
    if (pos > bytes.size() || len > bytes.size() - pos) return dataLoss("string element runs past the entry");
    values.emplace_back(bytes.substr(pos, static_cast<size_t>(len)));
    *crc = crc32c(bytes.data() + pos, static_cast<size_t>(len), *crc);
    pos += static_cast<size_t>(len);
  }
  return Tensor::fromStrings(shape, std::move(values));
}

class ShardCache {
 public:
  explicit ShardCache(std::string prefix, int numShards) : m_prefix(std::move(prefix)), m_numShards(numShards) {}
  Expected<const std::string*> get(int shard) {
    auto it = m_shards.find(shard);
    if (it != m_shards.end()) return &it->second;
    if (shard < 0 || shard >= m_numShards)
      return dataLoss("shard_id " + std::to_string(shard) + " is outside the " + std::to_string(m_numShards) +
                      " shards");
    FS_ASSIGN_OR_RETURN(std::string data, readFile(shardName(m_prefix, shard, m_numShards)));
    return &m_shards.emplace(shard, std::move(data)).first->second;
  }

 private:
  std::string m_prefix;
  int m_numShards;
  std::map<int, std::string> m_shards;
};

Expected<BundleTensor> readEntry(const std::string& key, const tensorflow::BundleEntryProto& entry,
                                 ShardCache& shards) {
  BundleTensor out;
  out.key = key;
  out.dtype = dtypeFromProto(entry.dtype());
  FS_ASSIGN_OR_RETURN(out.shape, shapeFromProto(entry.shape()));
  if (entry.slices_size() > 0) {
    out.problem =
        "stored as " + std::to_string(entry.slices_size()) + " slices (partitioned variables are not supported)";
    return out;
  }
  FS_ASSIGN_OR_RETURN(const std::string* shard, shards.get(entry.shard_id()));
  if (entry.offset() < 0 || entry.size() < 0 || static_cast<uint64_t>(entry.offset()) > shard->size() ||
      static_cast<uint64_t>(entry.size()) > shard->size() - static_cast<uint64_t>(entry.offset()))
    return dataLoss("entry claims bytes [" + std::to_string(entry.offset()) + ", " +
                    std::to_string(entry.offset() + entry.size()) + ") but the data shard has " +
                    std::to_string(shard->size()) + " bytes");
  std::string bytes = shard->substr(static_cast<size_t>(entry.offset()), static_cast<size_t>(entry.size()));
  if (out.dtype == DType::kString) {
    uint32_t crc = 0;
    FS_ASSIGN_OR_RETURN(out.value, decodeStringTensor(bytes, out.shape, &crc));
    if (entry.crc32c() != maskCrc(crc)) return dataLoss("checksum mismatch (data shard corrupted?)");
    return out;
  }
  if (entry.crc32c() != maskCrc(crc32c(bytes.data(), bytes.size())))
    return dataLoss("checksum mismatch (data shard corrupted?)");
  auto expected = Tensor::checkedByteSize(out.dtype, out.shape, bytes.size());
  if (!expected) {
    out.problem = expected.status().message();
    return out;
  }
  if (*expected != bytes.size())
    return dataLoss("holds " + std::to_string(bytes.size()) + " bytes but " + std::string(dtypeName(out.dtype)) + " " +
                    out.shape.toString() + " needs " + std::to_string(*expected));
  out.value = Tensor(out.dtype, out.shape);
  std::memcpy(out.value.mutableBytes().data(), bytes.data(), bytes.size());
  return out;
}

}  // namespace

Expected<std::vector<BundleTensor>> readTensorBundle(const std::string& prefix) {
  const std::string indexPath = prefix + ".index";
  leveldb::Env* env = leveldb::Env::Default();
  uint64_t fileSize = 0;
  if (!env->GetFileSize(indexPath, &fileSize).ok()) return notFound(indexPath + ": cannot read the checkpoint index");
  leveldb::RandomAccessFile* rawFile = nullptr;
  leveldb::Status s = env->NewRandomAccessFile(indexPath, &rawFile);
  if (!s.ok()) return notFound(indexPath + ": " + s.ToString());
  std::unique_ptr<leveldb::RandomAccessFile> file(rawFile);
  leveldb::Options options;
  options.paranoid_checks = true;
  leveldb::Table* rawTable = nullptr;
  s = leveldb::Table::Open(options, file.get(), fileSize, &rawTable);
  if (!s.ok()) return dataLoss(indexPath + ": not a valid checkpoint index table: " + s.ToString());
  std::unique_ptr<leveldb::Table> table(rawTable);
  leveldb::ReadOptions readOptions;
  readOptions.verify_checksums = true;
  std::unique_ptr<leveldb::Iterator> it(table->NewIterator(readOptions));

  it->SeekToFirst();
  if (!it->Valid() || !it->key().empty()) return dataLoss(indexPath + ": missing the header entry (empty key)");
  tensorflow::BundleHeaderProto header;
  FS_RETURN_IF_ERROR(parseBinaryProto(it->value().ToString(), &header, indexPath + " (header)"));
  if (header.endianness() != tensorflow::BundleHeaderProto::LITTLE)
    return unimplemented(indexPath + ": big-endian checkpoints are not supported");
  if (header.num_shards() < 1 || header.num_shards() > 100000)
    return dataLoss(indexPath + ": header declares " + std::to_string(header.num_shards()) + " shards");

  ShardCache shards(prefix, header.num_shards());
  std::vector<BundleTensor> tensors;
  for (it->Next(); it->Valid(); it->Next()) {
    std::string key = it->key().ToString();
    tensorflow::BundleEntryProto entry;
    FS_RETURN_IF_ERROR(parseBinaryProto(it->value().ToString(), &entry, indexPath + " (entry '" + key + "')"));
    auto tensor = readEntry(key, entry, shards);
    if (!tensor) return tensor.status().withContext(prefix + ": variable '" + key + "': ");
    tensors.push_back(std::move(tensor).value());
  }
  if (!it->status().ok()) return dataLoss(indexPath + ": " + it->status().ToString());
  return tensors;
}

}  // namespace flowscope
