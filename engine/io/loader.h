// Loader: the plug-in shape for file formats (match by content, then load), and the registry that picks one.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/source.h"
#include "ir/model.h"

namespace flowscope {

struct LoadOptions {
  /// SavedModel meta graph tag. Empty: "serve" if present, else the first meta graph (with a warning).
  std::string tag;
  bool loadVariables = true;
};

class Loader {
 public:
  virtual ~Loader() = default;
  virtual std::string name() const = 0;
  /// 0 = not this format; higher = more certain. Looks at the head bytes and name only.
  virtual float match(const Source& source) const = 0;
  virtual Expected<Model> load(const Source& source, const LoadOptions& options) const = 0;
};

/// The registry table: every loader, in one place.
const std::vector<std::unique_ptr<Loader>>& loaders();

/// Opens `path` with the best-matching loader. Errors name the file and what was expected.
Expected<Model> loadModel(const std::string& path, const LoadOptions& options = {});

std::unique_ptr<Loader> makeGraphDefBinaryLoader();
std::unique_ptr<Loader> makeGraphDefTextLoader();
std::unique_ptr<Loader> makeMetaGraphLoader();
std::unique_ptr<Loader> makeSavedModelLoader();
std::unique_ptr<Loader> makeTfjsLoader();
std::unique_ptr<Loader> makeOnnxLoader();

}  // namespace flowscope
