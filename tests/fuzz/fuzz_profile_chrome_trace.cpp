// libFuzzer target: the profile importer makeChromeTraceImporter (input written as trace.json).
#include "fuzz_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto importer = flowscope::makeChromeTraceImporter();
  return flowscope::fuzz::importFromScratch(*importer, "trace.json", data, size);
}
