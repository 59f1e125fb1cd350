// libFuzzer target: the SavedModel loader. The input is split into saved_model.pb and variables.index; the
// data shard is a fixed pattern so that index entries point at real bytes.
#include "fuzz_common.h"
#include "io/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flowscope;
  static const auto loader = makeSavedModelLoader();
  std::string_view model, index;
  fuzz::splitInput(data, size, &model, &index);
  fuzz::writeScratch("sm/saved_model.pb", model);
  fuzz::writeScratch("sm/variables/variables.index", index);
  static const bool shard = [] {
    std::string bytes(4096, '\0');
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7);
    fuzz::writeScratch("sm/variables/variables.data-00000-of-00001", bytes);
    return true;
  }();
  (void)shard;
  auto source = Source::open((fuzz::scratchDir() / "sm").string());
  if (!source) return 0;
  loader->match(*source);
  (void)loader->load(*source, {});
  return 0;
}
