// A test-only reader of an ONNX graph's structure.
#include "engine/onnx_nodes_for_test.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <fstream>
#include <map>
#include <sstream>

namespace flowscope::testing {
namespace {

using google::protobuf::io::CodedInputStream;

// Calls `field(number, payload)` for each length-delimited field of a message and skips the rest.
template <typename F>
bool forEachBytesField(const std::string& message, F field) {
  CodedInputStream in(reinterpret_cast<const uint8_t*>(message.data()), static_cast<int>(message.size()));
  in.SetTotalBytesLimit(INT32_MAX);
  while (uint32_t tag = in.ReadTag()) {
    const uint32_t number = tag >> 3, wire = tag & 7;
    if (wire == 2) {
      uint32_t length = 0;
      std::string payload;
      if (!in.ReadVarint32(&length) || !in.ReadString(&payload, static_cast<int>(length))) return false;
      field(number, payload);
    } else if (!google::protobuf::internal::WireFormatLite::SkipField(&in, tag)) {
      return false;
    }
  }
  return true;
}

struct OnnxNode {
  std::string name, op;
  std::vector<std::string> inputs, outputs;
};

OnnxNode nodeOf(const std::string& bytes) {
  OnnxNode n;
  forEachBytesField(bytes, [&](uint32_t number, const std::string& v) {
    if (number == 1) n.inputs.push_back(v);
    if (number == 2) n.outputs.push_back(v);
    if (number == 3) n.name = v;
    if (number == 4) n.op = v;
  });
  return n;
}

std::string nameOf(const std::string& bytes, uint32_t field) {
  std::string name;
  forEachBytesField(bytes, [&](uint32_t number, const std::string& v) {
    if (number == field) name = v;
  });
  return name;
}

}  // namespace

Expected<Graph> onnxGraphForTest(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream s;
  s << file.rdbuf();
  std::string graphBytes;
  forEachBytesField(s.str(), [&](uint32_t number, const std::string& v) {
    if (number == 7) graphBytes = v;
  });
  if (graphBytes.empty()) return invalidArgument(path + ": no graph");
  std::vector<OnnxNode> nodes;
  forEachBytesField(graphBytes, [&](uint32_t number, const std::string& v) {
    if (number == 1) nodes.push_back(nodeOf(v));
    if (number == 5) nodes.push_back({nameOf(v, 8), "Const", {}, {nameOf(v, 8)}});         // initializer
    if (number == 11) nodes.push_back({nameOf(v, 1), "Placeholder", {}, {nameOf(v, 1)}});  // graph input
  });
  std::map<std::string, TensorRef> producers;
  for (const OnnxNode& n : nodes)
    for (size_t k = 0; k < n.outputs.size(); ++k) producers[n.outputs[k]] = {n.name, static_cast<int>(k), ""};
  Graph g;
  for (const OnnxNode& n : nodes) {
    if (g.find(n.name) >= 0) continue;  // an initializer that is also listed as a graph input
    Node node;
    node.name = n.name;
    node.op = n.op;
    for (const std::string& in : n.inputs)
      if (auto it = producers.find(in); it != producers.end()) node.inputs.push_back(it->second);
    AttrList outputs;
    outputs.s = n.outputs;
    node.attrs["_output_names"] = AttrValue::fromList(outputs);
    g.addNode(std::move(node));
  }
  return g;
}

}  // namespace flowscope::testing
