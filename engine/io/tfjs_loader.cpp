// Loader for TF.js graph models: model.json (a GraphDef in protobuf's JSON mapping) plus binary weight shards
// holding float32, int32, bool or string weights, optionally quantized to uint8/uint16 (min, scale) or float16.
#include <cmath>
#include <cstring>
#include <filesystem>

#include <google/protobuf/util/json_util.h>
#include <nlohmann/json.hpp>

#include "base/json.h"
#include "base/strings.h"
#include "io/loader.h"
#include "io/model_builder.h"
#include "io/proto_parse.h"
#include "io/tensor_proto.h"

namespace flowscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string base64Encode(const std::vector<uint8_t>& bytes) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t chunk = static_cast<uint32_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) chunk |= static_cast<uint32_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) chunk |= bytes[i + 2];
    out += kAlphabet[(chunk >> 18) & 63];
    out += kAlphabet[(chunk >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(chunk >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[chunk & 63] : '=';
  }
  return out;
}

// Old converters wrote string attrs as byte arrays ("s": [78,72,87,67]); protobuf's JSON mapping wants base64.
void normalizeByteArrays(json& value) {
  if (value.is_object()) {
    for (auto& [key, child] : value.items()) {
      if (key == "s" && child.is_array()) {
        if (!child.empty() && child[0].is_number()) {
          child = base64Encode(child.get<std::vector<uint8_t>>());
        } else {
          for (auto& item : child)
            if (item.is_array()) item = base64Encode(item.get<std::vector<uint8_t>>());
        }
      } else {
        normalizeByteArrays(child);
      }
    }
  } else if (value.is_array()) {
    for (auto& item : value) normalizeByteArrays(item);
  }
}

struct WeightSpec {
  std::string name;
  DType dtype = DType::kInvalid;
  Shape shape;
  std::string quantDtype;  // "", "uint8", "uint16", "float16"
  float min = 0, scale = 1;
};

Expected<WeightSpec> parseWeightSpec(const json& w) {
  WeightSpec spec;
  if (!w.contains("name") || !w["name"].is_string()) return invalidArgument("a weight has no 'name'");
  spec.name = w["name"].get<std::string>();
  std::string dtype = w.value("dtype", "float32");
  auto parsed = parseDType(dtype);
  if (!parsed) return invalidArgument("weight '" + spec.name + "' has unknown dtype '" + dtype + "'");
  spec.dtype = *parsed;
  std::vector<int64_t> dims;
  for (const auto& d : w.value("shape", json::array())) {
    if (!d.is_number_integer() || d.get<int64_t>() < 0)
      return invalidArgument("weight '" + spec.name + "' has a bad shape");
    dims.push_back(d.get<int64_t>());
  }
  spec.shape = Shape(dims);
  if (w.contains("quantization")) {
    const json& q = w["quantization"];
    spec.quantDtype = q.value("dtype", "");
    spec.min = q.value("min", 0.0f);
    spec.scale = q.value("scale", 1.0f);
    if (spec.quantDtype != "uint8" && spec.quantDtype != "uint16" && spec.quantDtype != "float16")
      return unimplemented("weight '" + spec.name + "' uses unsupported quantization '" + spec.quantDtype + "'");
  }
  return spec;
}

// Decodes one weight starting at `offset` of the group's concatenated shards; advances offset.
Expected<Tensor> decodeWeight(const WeightSpec& spec, const std::string& data, size_t* offset) {
  int64_t count = spec.shape.numElements();
  if (count < 0) return invalidArgument("weight '" + spec.name + "' has an unusable shape");
  auto remaining = [&]() { return data.size() - *offset; };
  if (spec.dtype == DType::kString) {
    std::vector<std::string> values;
    for (int64_t i = 0; i < count; ++i) {
      if (remaining() < 4) return dataLoss("weight '" + spec.name + "' runs past the end of its shards");
      uint32_t len;
      std::memcpy(&len, data.data() + *offset, 4);
      *offset += 4;
      if (len > remaining()) return dataLoss("weight '" + spec.name + "' runs past the end of its shards");
      values.emplace_back(data.substr(*offset, len));
      *offset += len;
    }
    return Tensor::fromStrings(spec.shape, std::move(values));
  }
  size_t elementBytes = spec.quantDtype.empty()      ? static_cast<size_t>(dtypeSize(spec.dtype))
                        : spec.quantDtype == "uint8" ? 1
                                                     : 2;
  if (elementBytes == 0) return unimplemented("weight '" + spec.name + "' has dtype without a byte layout");
  if (static_cast<uint64_t>(count) > remaining() / elementBytes)
    return dataLoss("weight '" + spec.name + "' needs " + std::to_string(count * static_cast<int64_t>(elementBytes)) +
                    " bytes at offset " + std::to_string(*offset) + " but the shards hold " +
                    std::to_string(data.size()));
  const char* src = data.data() + *offset;
  *offset += static_cast<size_t>(count) * elementBytes;
  Tensor t = Tensor::persistent(spec.dtype, spec.shape);
  if (spec.quantDtype.empty()) {
    std::memcpy(t.mutableBytes().data(), src, static_cast<size_t>(count) * elementBytes);
    return t;
  }
  if (spec.dtype != DType::kFloat && spec.dtype != DType::kInt32)
    return unimplemented("weight '" + spec.name + "': quantized " + std::string(dtypeName(spec.dtype)) +
                         " is not supported");
  for (int64_t i = 0; i < count; ++i) {
    float value;
    if (spec.quantDtype == "float16") {
      uint16_t bits;
      std::memcpy(&bits, src + 2 * i, 2);
      value = halfToFloat(bits);
    } else if (spec.quantDtype == "uint16") {
      uint16_t q;
      std::memcpy(&q, src + 2 * i, 2);
      value = spec.min + spec.scale * q;
    } else {
      value = spec.min + spec.scale * static_cast<uint8_t>(src[i]);
    }
    if (spec.dtype == DType::kFloat)
      t.data<float>()[i] = value;
    else
      t.data<int32_t>()[i] = static_cast<int32_t>(std::lround(value));
  }
  return t;
}

Status loadWeights(const json& manifest, const fs::path& dir, Model& model) {
  if (!manifest.is_array()) return invalidArgument("'weightsManifest' must be an array");
  for (const auto& group : manifest) {
    std::string data;
    bool missing = false;
    for (const auto& p : group.value("paths", json::array())) {
      fs::path shard = dir / p.get<std::string>();
      auto bytes = readFile(shard.string());
      if (!bytes) {
        model.warnings.push_back("weight shard " + shard.string() + " is missing: the graph can be shown but not run");
        missing = true;
        break;
      }
      data += *bytes;
    }
    size_t offset = 0;
    for (const auto& w : group.value("weights", json::array())) {
      FS_ASSIGN_OR_RETURN(WeightSpec spec, parseWeightSpec(w));
      int64_t index = model.graph.find(spec.name);
      if (missing) {
        if (index >= 0) model.missingWeights.push_back(spec.name);
        continue;
      }
      FS_ASSIGN_OR_RETURN(Tensor value, decodeWeight(spec, data, &offset));
      if (index < 0) {
        model.warnings.push_back("weight '" + spec.name + "' matches no node in the topology");
        continue;
      }
      Node& node = model.graph.mutableNode(static_cast<size_t>(index));
      node.attrs["value"] = AttrValue::fromTensor(std::move(value));
    }
  }
  return Status::ok();
}

Shape shapeFromJson(const json& shape) {
  if (shape.value("unknownRank", false)) return Shape::unknownRank();
  std::vector<int64_t> dims;
  for (const auto& d : shape.value("dim", json::array())) {
    const json& size = d.contains("size") ? d["size"] : json(0);
    int64_t v = 0;
    if (size.is_string())
      parseInt64(size.get<std::string>(), &v);
    else if (size.is_number_integer())
      v = size.get<int64_t>();
    dims.push_back(v);
  }
  return Shape(dims);
}

std::vector<TensorSpecInfo> specsFromJson(const json& map) {
  std::vector<TensorSpecInfo> specs;
  if (!map.is_object()) return specs;
  for (const auto& [key, info] : map.items()) {
    TensorSpecInfo spec;
    spec.key = key;
    spec.tensorName = info.value("name", key);
    auto dtype = parseDType(info.value("dtype", ""));
    spec.dtype = dtype ? *dtype : DType::kInvalid;
    if (info.contains("tensorShape")) spec.shape = shapeFromJson(info["tensorShape"]);
    specs.push_back(std::move(spec));
  }
  return specs;
}

class TfjsLoader : public Loader {
 public:
  std::string name() const override { return "TF.js graph model"; }

  float match(const Source& source) const override {
    if (source.isDirectory()) return fs::exists(fs::path(source.path()) / "model.json") ? 0.6f : 0;
    std::string head = trim(source.head().substr(0, 16));
    if (head.empty() || head[0] != '{') return 0;
    if (source.head().find("\"modelTopology\"") != std::string::npos) return 0.95f;
    return endsWith(source.fileName(), ".json") ? 0.3f : 0.05f;
  }

  Expected<Model> load(const Source& source, const LoadOptions&) const override {
    fs::path file = source.isDirectory() ? fs::path(source.path()) / "model.json" : fs::path(source.path());
    FS_ASSIGN_OR_RETURN(std::string text, readFile(file.string(), 1ull << 30));
    Expected<json> parsed = parseJson(text);
    if (!parsed.hasValue()) return invalidArgument(file.string() + ": " + parsed.status().message());
    json root = std::move(*parsed);
    if (!root.is_object() || !root.contains("modelTopology"))
      return invalidArgument(file.string() + ": expected a TF.js graph model (an object with 'modelTopology')");
    if (root.value("format", "graph-model") == "layers-model")
      return unimplemented(file.string() +
                           ": TF.js layers models (Keras JSON) are not supported; convert to a graph model");
    json topology = root["modelTopology"];
    normalizeByteArrays(topology);
    tensorflow::GraphDef proto;
    google::protobuf::util::JsonParseOptions options;
    options.ignore_unknown_fields = true;
    auto status = google::protobuf::util::JsonStringToMessage(topology.dump(), &proto, options);
    if (!status.ok())
      return invalidArgument(file.string() +
                             ": 'modelTopology' is not a GraphDef in protobuf JSON: " + std::string(status.message()));
    FS_ASSIGN_OR_RETURN(Model model, modelFromGraphDef(proto, source.path(), name(), decodeLimitsFor(text.size())));
    if (root.contains("weightsManifest")) {
      Status weights = loadWeights(root["weightsManifest"], file.parent_path(), model);
      if (!weights.isOk()) return weights.withContext(file.string() + ": ");
    }
    const json* signature = root.contains("signature") ? &root["signature"]
                            : root.contains("userDefinedMetadata") && root["userDefinedMetadata"].contains("signature")
                                ? &root["userDefinedMetadata"]["signature"]
                                : nullptr;
    if (signature && signature->is_object()) {
      Signature sig;
      sig.key = "serving_default";
      sig.inputs = specsFromJson(signature->value("inputs", json::object()));
      sig.outputs = specsFromJson(signature->value("outputs", json::object()));
      model.signatures.push_back(std::move(sig));
    }
    model.tensorflowVersion = root.value("convertedBy", "");
    return model;
  }
};

}  // namespace

std::unique_ptr<Loader> makeTfjsLoader() { return std::make_unique<TfjsLoader>(); }

}  // namespace flowscope
