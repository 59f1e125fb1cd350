// Loader for ONNX models (.onnx): a ModelProto read with libonnx's schema, checked, shape-inferred, and imported into
// the IR as the ONNX op set (onnx_graph_import.cpp). External data is read from beside the model.
#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include <filesystem>

#include "io/loader.h"
#include "io/model_builder.h"
#include "io/onnx_graph_import.h"
#include "io/onnx_guarded_schemas.h"
#include "io/onnx_model.h"
#include "io/onnx_sparse.h"
#include "io/proto_parse.h"
#include "ops/onnx_schemas.h"

namespace flowscope {
namespace {

std::string domainLabel(const std::string& domain) { return domain.empty() ? "ai.onnx" : domain; }

std::string trimJoin(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  return b.empty() ? a : a + " " + b;
}

// Opsets the model imports; a warning for each that is newer than the library knows (the model still shows).
std::map<std::string, int64_t> readOpsets(const onnx::ModelProto& proto, Model& model, bool* allKnown) {
  std::map<std::string, int64_t> opsets;
  *allKnown = true;
  for (const auto& o : proto.opset_import()) {
    const std::string domain = o.domain() == "ai.onnx" ? "" : o.domain();
    opsets[domain] = o.version();
    model.metadata.emplace_back("opset " + domainLabel(domain), std::to_string(o.version()));
    const int known = onnxKnownOpsetVersion(domain);
    if (known > 0 && o.version() > known) {
      *allKnown = false;
      model.warnings.push_back("opset " + domainLabel(domain) + " " + std::to_string(o.version()) +
                               " is newer than the " + std::to_string(known) +
                               " this ONNX library knows: the model is shown, ops may not check or run");
    }
  }
  if (proto.opset_import_size() == 0) opsets[""] = 1;  // IR version 1 files name no opset
  return opsets;
}

// The library's checker and shape inference: findings become warnings, value_info gains inferred shapes.
void checkAndInfer(onnx::ModelProto& proto, bool opsetsKnown, Model& model) {
  try {
    if (Status sparse = checkSparseIndexCounts(proto); !sparse.isOk())
      model.warnings.push_back("ONNX checker skipped: " + sparse.message());
    else
      onnx::checker::check_model(proto);
  } catch (const std::exception& e) {
    model.warnings.push_back(std::string("ONNX checker: ") + e.what());
  }
  if (!opsetsKnown) return;
  try {
    onnx::ShapeInferenceOptions options;
    options.enable_data_propagation = true;
    takeOnnxGuardFindings();
    onnx::shape_inference::InferShapes(proto, guardedOnnxSchemas(), options);
  } catch (const std::exception& e) {
    model.warnings.push_back(std::string("ONNX shape inference stopped: ") + e.what());
  }
  for (const std::string& finding : takeOnnxGuardFindings())
    model.warnings.push_back("ONNX shape inference skipped " + finding);
}

void readMetadata(const onnx::ModelProto& proto, Model& model) {
  auto add = [&](const std::string& key, const std::string& value) {
    if (!value.empty()) model.metadata.emplace_back(key, value);
  };
  add("ir_version", std::to_string(proto.ir_version()));
  add("producer", trimJoin(proto.producer_name(), proto.producer_version()));
  add("domain", proto.domain());
  if (proto.model_version()) add("model_version", std::to_string(proto.model_version()));
  add("doc", proto.doc_string());
  add("graph", proto.graph().name());
  for (const auto& p : proto.metadata_props()) add(p.key(), p.value());
}

// The graph's inputs and outputs as the one signature (what `run` feeds and fetches).
Signature signatureOf(const onnx::GraphProto& graph, const OnnxGraphImporter& importer, const Graph& imported) {
  Signature signature;
  signature.key = "serving_default";
  signature.methodName = "onnx";
  for (const auto& input : graph.input()) {
    if (imported.find(input.name()) < 0 || imported.node(imported.find(input.name())).op != "Placeholder") continue;
    OnnxValueType t = importer.typeOf(input.name());
    signature.inputs.push_back({input.name(), input.name() + ":0", t.dtype, t.shape});
  }
  for (const auto& output : graph.output()) {
    OnnxValueType t = importer.typeOf(output.name());
    signature.outputs.push_back({output.name(), importer.tensorOf(output.name()), t.dtype, t.shape});
  }
  return signature;
}

class OnnxLoader : public Loader {
 public:
  std::string name() const override { return "ONNX"; }

  float match(const Source& source) const override {
    if (source.isDirectory() || source.head().empty()) return 0;
    bool complete = false;
    auto fields = scanWireFields(source.head(), 16, &complete);
    if (fields.empty() || fields[0].number != 1 || fields[0].wireType != 0) return 0;
    for (const auto& f : fields)
      if ((f.number == 7 || f.number == 8) && f.wireType == 2) return 0.95f;  // graph, opset_import
    return 0;
  }

  Expected<Model> load(const Source& source, const LoadOptions&) const override {
    FS_ASSIGN_OR_RETURN(std::string data, source.readAll());
    onnx::ModelProto proto;
    FS_RETURN_IF_ERROR(parseBinaryProtoStrict(data, &proto, source.path()));
    data.clear();
    auto model = modelFromOnnx(std::move(proto), source.path());
    if (!model) return model.status().withContext(source.path() + ": ");
    return model;
  }
};

}  // namespace

Expected<Model> modelFromOnnx(onnx::ModelProto proto, const std::string& path) {
  Model model;
  model.path = path;
  model.format = "ONNX";
  if (!proto.has_graph()) return invalidArgument("the ModelProto has no graph");
  bool opsetsKnown = true;
  OnnxImportContext context;
  context.opsets = readOpsets(proto, model, &opsetsKnown);
  context.root.directory = std::filesystem::path(path).parent_path().string();
  context.library = &model.graph.library;
  readMetadata(proto, model);
  if (proto.functions_size())
    model.warnings.push_back(std::to_string(proto.functions_size()) +
                             " model-local functions: nodes calling them are shown, not run");
  checkAndInfer(proto, opsetsKnown, model);
  OnnxGraphImporter importer(proto.graph(), context, nullptr);
  FS_RETURN_IF_ERROR(importer.importMain(&model.graph));
  model.signatures.push_back(signatureOf(proto.graph(), importer, model.graph));
  model.onnxHeader = onnxHeaderOf(std::move(proto));
  noteUnknownOps(model);
  verifyModel(model);
  return model;
}

std::unique_ptr<Loader> makeOnnxLoader() { return std::make_unique<OnnxLoader>(); }

}  // namespace flowscope
