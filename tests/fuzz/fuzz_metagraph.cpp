// libFuzzer target: the MetaGraphDef loader (binary and text).
#include "fuzz_common.h"
#include "io/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flowscope;
  static const auto loader = makeMetaGraphLoader();
  std::string path = fuzz::writeScratch("graph.meta", {reinterpret_cast<const char*>(data), size});
  auto source = Source::open(path);
  if (!source) return 0;
  loader->match(*source);
  (void)loader->load(*source, {});
  return 0;
}
