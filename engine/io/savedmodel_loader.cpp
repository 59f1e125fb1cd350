// Loader for SavedModel directories: saved_model.pb/.pbtxt, meta graph by tag, signatures, and variables
// read from the TensorBundle checkpoint and bound to their VariableV2 / VarHandleOp nodes.
#include <algorithm>
#include <filesystem>
#include <map>

#include "base/strings.h"
#include "checkpoint.pb.h"
#include "io/loader.h"
#include "io/model_builder.h"
#include "io/proto_parse.h"
#include "io/tensor_bundle.h"

namespace flowscope {
namespace {

namespace fs = std::filesystem;

constexpr const char* kObjectGraphKey = "_CHECKPOINTABLE_OBJECT_GRAPH";

std::string joinTags(const tensorflow::MetaGraphDef& meta) {
  const auto& tags = meta.meta_info_def().tags();
  return joinStrings(std::vector<std::string>(tags.begin(), tags.end()), ",");
}

Expected<const tensorflow::MetaGraphDef*> chooseMetaGraph(const tensorflow::SavedModel& model, const std::string& tag,
                                                          const std::string& path, std::vector<std::string>* warnings) {
  if (model.meta_graphs_size() == 0) return invalidArgument(path + ": the SavedModel holds no meta graph");
  const std::string wanted = tag.empty() ? "serve" : tag;
  std::vector<std::string> available;
  for (const auto& meta : model.meta_graphs()) {
    const auto& tags = meta.meta_info_def().tags();
    if (std::find(tags.begin(), tags.end(), wanted) != tags.end()) return &meta;
    available.push_back("{" + joinTags(meta) + "}");
  }
  if (tag.empty()) {
    warnings->push_back("no meta graph is tagged 'serve'; showing the first, tagged {" +
                        joinTags(model.meta_graphs(0)) + "}");
    return &model.meta_graphs(0);
  }
  return notFound(path + ": no meta graph has the tag '" + tag +
                  "'; available tag sets: " + joinStrings(available, ", "));
}

// TF2 checkpoints name variables by object-graph path; map SavedVariable names to their checkpoint keys.
std::map<std::string, std::string> tf2VariableKeys(const tensorflow::MetaGraphDef& meta,
                                                   const std::vector<BundleTensor>& bundle) {
  std::map<std::string, std::string> keys;
  auto objectGraph = std::find_if(bundle.begin(), bundle.end(), [](const auto& t) { return t.key == kObjectGraphKey; });
  if (objectGraph == bundle.end() || !objectGraph->value.isValid() || objectGraph->value.strings().empty()) return keys;
  tensorflow::TrackableObjectGraph trackable;
  if (!trackable.ParseFromString(objectGraph->value.strings()[0])) return keys;
  const auto& saved = meta.object_graph_def();
  for (int id = 0; id < saved.nodes_size() && id < trackable.nodes_size(); ++id) {
    if (!saved.nodes(id).has_variable()) continue;
    for (const auto& attr : trackable.nodes(id).attributes())
      if (attr.name() == "VARIABLE_VALUE") keys[saved.nodes(id).variable().name()] = attr.checkpoint_key();
  }
  return keys;
}

void bindVariables(Model& model, const tensorflow::MetaGraphDef& meta, std::vector<BundleTensor> bundle) {
  std::map<std::string, std::string> tf2Keys = tf2VariableKeys(meta, bundle);
  std::map<std::string, std::string> nodeForKey;
  for (size_t i = 0; i < model.graph.size(); ++i) {
    const Node& n = model.graph.node(i);
    if (n.op != "VariableV2" && n.op != "Variable" && n.op != "VarHandleOp") continue;
    const AttrValue* shared = n.attr("shared_name");
    std::string name =
        shared && shared->kind() == AttrValue::Kind::kString && !shared->s().empty() ? shared->s() : n.name;
    auto tf2 = tf2Keys.find(name);
    std::string key = tf2 != tf2Keys.end() ? tf2->second : name;
    nodeForKey.emplace(key, n.name);
  }
  std::map<std::string, bool> bound;
  for (auto& t : bundle) {
    if (t.key == kObjectGraphKey) continue;
    Variable v;
    v.checkpointKey = t.key;
    v.dtype = t.dtype;
    v.shape = t.shape;
    v.value = std::move(t.value);
    if (!t.problem.empty()) model.warnings.push_back("variable '" + t.key + "' has no usable value: " + t.problem);
    auto it = nodeForKey.find(t.key);
    if (it != nodeForKey.end()) {
      v.node = it->second;
      bound[it->first] = true;
    }
    model.variables.push_back(std::move(v));
  }
  for (const auto& [key, node] : nodeForKey)
    if (!bound.count(key))
      model.warnings.push_back("variable node '" + node + "' has no value in the checkpoint (expected key '" + key +
                               "')");
}

class SavedModelLoader : public Loader {
 public:
  std::string name() const override { return "SavedModel"; }

  float match(const Source& source) const override {
    if (source.isDirectory()) {
      for (const char* file : {"saved_model.pb", "saved_model.pbtxt", "saved_model.cpb"})
        if (fs::exists(fs::path(source.path()) / file)) return 1.0f;
      return 0;
    }
    if (looksLikeText(source.head())) return source.head().find("meta_graphs") != std::string::npos ? 0.95f : 0;
    bool complete = false;
    auto fields = scanWireFields(source.head(), 4, &complete);
    if (fields.size() >= 2 && fields[0].number == 1 && fields[0].wireType == 0 && fields[1].number == 2 &&
        fields[1].wireType == 2)
      return 0.9f;
    return 0;
  }

  Expected<Model> load(const Source& source, const LoadOptions& options) const override {
    fs::path dir = source.isDirectory() ? fs::path(source.path()) : fs::path(source.path()).parent_path();
    fs::path file = source.isDirectory() ? dir / "saved_model.pb" : fs::path(source.path());
    if (source.isDirectory() && !fs::exists(file)) file = dir / "saved_model.pbtxt";
    if (!fs::exists(file)) {
      if (fs::exists(dir / "saved_model.cpb"))
        return unimplemented(dir.string() +
                             ": chunked SavedModels (saved_model.cpb, over 2 GiB) are not supported yet");
      return notFound(dir.string() + ": no saved_model.pb or saved_model.pbtxt in this directory");
    }
    FS_ASSIGN_OR_RETURN(std::string data, readFile(file.string()));
    tensorflow::SavedModel proto;
    if (file.extension() == ".pbtxt")
      FS_RETURN_IF_ERROR(parseTextProto(data, &proto, file.string()));
    else
      FS_RETURN_IF_ERROR(parseBinaryProto(data, &proto, file.string()));

    std::vector<std::string> warnings;
    FS_ASSIGN_OR_RETURN(const tensorflow::MetaGraphDef* meta,
                        chooseMetaGraph(proto, options.tag, file.string(), &warnings));
    FS_ASSIGN_OR_RETURN(Model model, modelFromMetaGraph(*meta, source.path(), name(), decodeLimitsFor(data.size())));
    model.warnings.insert(model.warnings.end(), warnings.begin(), warnings.end());
    for (const auto& m : proto.meta_graphs()) model.availableTags.push_back(joinTags(m));

    fs::path prefix = dir / "variables" / "variables";
    if (options.loadVariables && fs::exists(prefix.string() + ".index")) {
      FS_ASSIGN_OR_RETURN(std::vector<BundleTensor> bundle, readTensorBundle(prefix.string()));
      bindVariables(model, *meta, std::move(bundle));
    } else if (fs::exists(dir / "variables") && !fs::exists(prefix.string() + ".index")) {
      model.warnings.push_back(dir.string() + ": variables/ has no variables.index; variables have no values");
    }
    return model;
  }
};

}  // namespace

std::unique_ptr<Loader> makeSavedModelLoader() { return std::make_unique<SavedModelLoader>(); }

}  // namespace flowscope
