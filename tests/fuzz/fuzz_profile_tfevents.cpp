// libFuzzer target: the profile importer makeTfEventsImporter (input written as events.out.tfevents.1).
#include "fuzz_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto importer = flowscope::makeTfEventsImporter();
  return flowscope::fuzz::importFromScratch(*importer, "events.out.tfevents.1", data, size);
}
