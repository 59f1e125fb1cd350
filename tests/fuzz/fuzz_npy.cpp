// libFuzzer target: the .npy reader (run --input NAME=FILE.npy), and the round trip of whatever it accepts: what we
// write must read back as the same tensor.
#include <cstdlib>

#include "fuzz_common.h"
#include "io/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flowscope;
  std::string path = fuzz::writeScratch("input.npy", {reinterpret_cast<const char*>(data), size});
  auto tensor = readNpy(path);
  if (!tensor) return 0;
  std::string copy = (fuzz::scratchDir() / "copy.npy").string();
  if (!writeNpy(copy, *tensor)) return 0;  // e.g. a dtype .npy cannot hold: an error, not a crash
  auto back = readNpy(copy);
  if (!back || !back->contentEquals(*tensor)) std::abort();  // the round trip lost something
  return 0;
}
