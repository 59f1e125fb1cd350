// Test file builders.
#include "engine/test_files.h"

#include <leveldb/env.h>
#include <leveldb/options.h>
#include <leveldb/table_builder.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <google/protobuf/text_format.h>
#include <nlohmann/json.hpp>

#include "base/crc32c.h"
#include "checkpoint.pb.h"
#include "ir/tensor.h"
#include "meta_graph.pb.h"

namespace flowscope::testing {

namespace fs = std::filesystem;

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

namespace {

const char* kSavedModelGraph = R"(
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: -1 } } } } }
node { name: "mul" op: "Mul" input: "x" input: "w/read" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "y" op: "AddV2" input: "mul" input: "b/read" attr { key: "T" value { type: DT_FLOAT } } }
)";

void addVariable(tensorflow::GraphDef& graph, const std::string& name) {
  std::string text = "name: '" + name +
                     "' op: 'VariableV2' attr { key: 'dtype' value { type: DT_FLOAT } } "
                     "attr { key: 'shape' value { shape { } } }";
  google::protobuf::TextFormat::ParseFromString(text, graph.add_node());
  std::string read =
      "name: '" + name + "/read' op: 'Identity' input: '" + name + "' attr { key: 'T' value { type: DT_FLOAT } }";
  google::protobuf::TextFormat::ParseFromString(read, graph.add_node());
}

void writeIndex(const std::string& path, const std::map<std::string, std::string>& entries) {
  leveldb::WritableFile* file = nullptr;
  if (!leveldb::Env::Default()->NewWritableFile(path, &file).ok()) throw std::runtime_error("cannot write " + path);
  leveldb::Options options;
  options.compression = leveldb::kNoCompression;
  leveldb::TableBuilder builder(options, file);
  for (const auto& [key, value] : entries) builder.Add(key, value);  // std::map keeps the keys sorted
  builder.Finish();
  file->Close();
  delete file;
}

}  // namespace

namespace {

void fillMetaGraph(tensorflow::MetaGraphDef* meta, const SavedModelOptions& options) {
  meta->mutable_meta_info_def()->add_tags(options.tag);
  meta->mutable_meta_info_def()->set_tensorflow_version("1.15.0");
  google::protobuf::TextFormat::ParseFromString(kSavedModelGraph, meta->mutable_graph_def());
  for (const auto& v : options.graphVariables) addVariable(*meta->mutable_graph_def(), v);
  meta->mutable_graph_def()->mutable_versions()->set_producer(134);
  auto& sig = (*meta->mutable_signature_def())["serving_default"];
  sig.set_method_name("tensorflow/serving/predict");
  (*sig.mutable_inputs())["x"].set_name("x:0");
  (*sig.mutable_inputs())["x"].set_dtype(tensorflow::DT_FLOAT);
  (*sig.mutable_outputs())["y"].set_name("y:0");
  (*sig.mutable_outputs())["y"].set_dtype(tensorflow::DT_FLOAT);
}

}  // namespace

void writeMetaGraph(const std::string& path, bool text) {
  tensorflow::MetaGraphDef meta;
  fillMetaGraph(&meta, {});
  std::string bytes;
  if (text)
    google::protobuf::TextFormat::PrintToString(meta, &bytes);
  else
    bytes = meta.SerializeAsString();
  writeBytes(path, bytes);
}

void writeSavedModel(const std::string& dir, const SavedModelOptions& options) {
  fs::create_directories(fs::path(dir) / "variables");
  tensorflow::SavedModel model;
  model.set_saved_model_schema_version(1);
  fillMetaGraph(model.add_meta_graphs(), options);
  writeBytes((fs::path(dir) / "saved_model.pb").string(), model.SerializeAsString());

  std::string data;
  std::map<std::string, std::string> entries;
  tensorflow::BundleHeaderProto header;
  header.set_num_shards(1);
  entries[""] = header.SerializeAsString();
  for (const auto& [name, value] : options.variables) {
    tensorflow::BundleEntryProto entry;
    entry.set_dtype(tensorflow::DT_FLOAT);
    entry.mutable_shape();
    entry.set_offset(static_cast<int64_t>(data.size()));
    entry.set_size(4);
    uint32_t crc = maskCrc(crc32c(&value, 4));
    entry.set_crc32c(options.corruptChecksum ? crc ^ 1u : crc);
    data.append(reinterpret_cast<const char*>(&value), 4);
    entries[name] = entry.SerializeAsString();
  }
  std::string prefix = (fs::path(dir) / "variables" / "variables").string();
  writeIndex(prefix + ".index", entries);
  if (!options.dropDataShard) writeBytes(prefix + ".data-00000-of-00001", data);
}

void writeTfjsModel(const std::string& dir, const TfjsOptions& options) {
  using nlohmann::json;
  fs::create_directories(dir);
  json nhwc = options.byteArrayStrings ? json::array({78, 72, 87, 67}) : json("TkhXQw==");
  json topology = {
      {"node",
       {{{"name", "x"},
         {"op", "Placeholder"},
         {"attr",
          {{"dtype", {{"type", "DT_FLOAT"}}}, {"shape", {{"shape", {{"dim", {{{"size", "2"}}, {{"size", "2"}}}}}}}}}}},
        {{"name", "W"},
         {"op", "Const"},
         {"attr",
          {{"dtype", {{"type", "DT_FLOAT"}}},
           {"value",
            {{"tensor", {{"dtype", "DT_FLOAT"}, {"tensorShape", {{"dim", {{{"size", "2"}}, {{"size", "2"}}}}}}}}}}}}},
        {{"name", "b"},
         {"op", "Const"},
         {"attr",
          {{"dtype", {{"type", "DT_FLOAT"}}},
           {"value", {{"tensor", {{"dtype", "DT_FLOAT"}, {"tensorShape", {{"dim", {{{"size", "2"}}}}}}}}}}}}},
        {{"name", "h"},
         {"op", "Const"},
         {"attr",
          {{"dtype", {{"type", "DT_FLOAT"}}},
           {"value", {{"tensor", {{"dtype", "DT_FLOAT"}, {"tensorShape", {{"dim", {{{"size", "3"}}}}}}}}}}}}},
        {{"name", "mm"}, {"op", "MatMul"}, {"input", {"x", "W"}}, {"attr", {{"T", {{"type", "DT_FLOAT"}}}}}},
        {{"name", "y"},
         {"op", "BiasAdd"},
         {"input", {"mm", "b"}},
         {"attr", {{"T", {{"type", "DT_FLOAT"}}}, {"data_format", {{"s", nhwc}}}}}}}},
      {"versions", {{"producer", 1234}}}};
  json manifest = json::array(
      {{{"paths", {"weights.bin"}},
        {"weights",
         {{{"name", "W"}, {"shape", {2, 2}}, {"dtype", "float32"}},
          {{"name", "b"},
           {"shape", {2}},
           {"dtype", "float32"},
           {"quantization", {{"dtype", "uint8"}, {"min", -1.0}, {"scale", 0.5}, {"original_dtype", "float32"}}}},
          {{"name", "h"},
           {"shape", {3}},
           {"dtype", "float32"},
           {"quantization", {{"dtype", "float16"}, {"original_dtype", "float32"}}}}}}}});
  json model = {
      {"format", "graph-model"},
      {"generatedBy", "flowscope-tests"},
      {"convertedBy", "TensorFlow.js Converter v4.0.0"},
      {"modelTopology", topology},
      {"weightsManifest", manifest},
      {"signature",
       {{"inputs",
         {{"x:0",
           {{"name", "x:0"}, {"dtype", "DT_FLOAT"}, {"tensorShape", {{"dim", {{{"size", "2"}}, {{"size", "2"}}}}}}}}}},
        {"outputs", {{"y:0", {{"name", "y:0"}, {"dtype", "DT_FLOAT"}}}}}}}};
  writeBytes((fs::path(dir) / "model.json").string(), model.dump(1));

  std::string bin;
  float w[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  bin.append(reinterpret_cast<const char*>(w), sizeof w);
  uint8_t q[2] = {4, 1};  // -1 + 0.5 * q -> 1.0, -0.5
  bin.append(reinterpret_cast<const char*>(q), sizeof q);
  uint16_t h[3] = {floatToHalf(0.5f), floatToHalf(-2.0f), floatToHalf(1024.0f)};
  bin.append(reinterpret_cast<const char*>(h), sizeof h);
  if (options.truncateWeights) bin.resize(bin.size() - 3);
  if (!options.omitShard) writeBytes((fs::path(dir) / "weights.bin").string(), bin);
}

}  // namespace flowscope::testing
