// The loader registry table and format selection by content.
#include <malloc.h>

#include "base/background_work.h"
#include "io/loader.h"

namespace flowscope {

const std::vector<std::unique_ptr<Loader>>& loaders() {
  static const std::vector<std::unique_ptr<Loader>> table = [] {
    std::vector<std::unique_ptr<Loader>> t;
    t.push_back(makeSavedModelLoader());
    t.push_back(makeMetaGraphLoader());
    t.push_back(makeGraphDefBinaryLoader());
    t.push_back(makeGraphDefTextLoader());
    t.push_back(makeTfjsLoader());
    t.push_back(makeOnnxLoader());
    return t;
  }();
  return table;
}

namespace {
constexpr uint64_t kTrimAfterBytes = 64u << 20;
}  // namespace

Expected<Model> loadModel(const std::string& path, const LoadOptions& options) {
  FS_ASSIGN_OR_RETURN(Source source, Source::open(path));
  const Loader* best = nullptr;
  float bestScore = 0;
  for (const auto& loader : loaders()) {
    float score = loader->match(source);
    if (score > bestScore) {
      best = loader.get();
      bestScore = score;
    }
  }
  if (!best) {
    if (source.isDirectory())
      return invalidArgument(
          path + ": directory is neither a SavedModel (no saved_model.pb) nor a TF.js model (no model.json)");
    if (source.size() == 0) return invalidArgument(path + ": file is empty");
    return invalidArgument(path +
                           ": unrecognized format; expected a GraphDef (.pb/.pbtxt), MetaGraphDef, SavedModel, "
                           "TF.js model.json or ONNX model");
  }
  auto model = best->load(source, options);
  // Loading a large file frees about as much as it keeps (the file's bytes, the parsed message); the intra-op threads
  // freed part of it into glibc heaps of their own, which keep it resident until trimmed. Trimming waits for what the
  // loader handed to the background thread, and the caller does not wait for either.
  if (source.size() >= kTrimAfterBytes) runInBackground([] { malloc_trim(0); });
  return model;
}

}  // namespace flowscope
