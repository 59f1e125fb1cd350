// libFuzzer target: the profile importer makeXPlaneImporter (input written as host.xplane.pb).
#include "fuzz_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto importer = flowscope::makeXPlaneImporter();
  return flowscope::fuzz::importFromScratch(*importer, "host.xplane.pb", data, size);
}
