// libFuzzer target: the profile importer makeOrtProfileImporter (input written as profile.json).
#include "fuzz_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto importer = flowscope::makeOrtProfileImporter();
  return flowscope::fuzz::importFromScratch(*importer, "profile.json", data, size);
}
