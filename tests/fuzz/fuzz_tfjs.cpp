// libFuzzer target: the TF.js loader. The input is split into model.json and the weights.bin shard.
#include "fuzz_common.h"
#include "io/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flowscope;
  static const auto loader = makeTfjsLoader();
  std::string_view json, weights;
  fuzz::splitInput(data, size, &json, &weights);
  std::string path = fuzz::writeScratch("tfjs/model.json", json);
  fuzz::writeScratch("tfjs/weights.bin", weights);
  auto source = Source::open(path);
  if (!source) return 0;
  loader->match(*source);
  (void)loader->load(*source, {});
  return 0;
}
