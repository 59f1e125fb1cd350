// libFuzzer target: the MetaGraphDef loader (binary and text).
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto loader = flowscope::makeMetaGraphLoader();
  return flowscope::fuzz::loadFromScratch(loader, "graph.meta", data, size, [](const flowscope::Model&) {});
}
