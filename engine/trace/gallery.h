// The gallery: named traceable functions in one table (the code examples of TensorFlow's guide "Introduction to
// graphs and tf.function", an MLP and a small conv net, and two control-flow examples), used by the CLI's guide,
// trace and compare commands and by the desktop app.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "trace/function.h"

namespace flowscope::tf {

struct GalleryEntry {
  const char* name;
  const char* summary;
  std::vector<std::string> argNames;
  std::function<Function()> make;                                     ///< a fresh Function (its own trace cache)
  std::function<std::vector<Arg>()> exampleArgs;                      ///< the arguments the guide (or the example) uses
  std::function<std::vector<Tensor>(const std::vector<Arg>&)> eager;  ///< the plain callable, run eagerly
};

const std::vector<GalleryEntry>& gallery();
const GalleryEntry* findGalleryEntry(const std::string& name);

/// Replays the guide's cells in order, printing what each prints (see `flowscope guide`). `powerCalls` sets how
/// many calls time eager and graph execution of `power` (the guide uses 1000).
Status replayGuide(int powerCalls = 1000);

}  // namespace flowscope::tf
