// What the Session knows about a profile of the open document: the request that made it (ours), and the profile
// itself with its per-node times on the opened graph (ours or imported).
#pragma once

#include <QString>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exec/precision.h"
#include "profile/node_times.h"
#include "profile/roofline.h"
#include "profile/run_profile.h"

namespace flowscope {

/// What the profiler panel asks for; the CLI's `profile` options have the same meaning.
struct ProfileRequest {
  int runs = 10;
  int warmup = 1;
  std::map<std::string, std::string> inputs;  ///< input label -> .npy path or literal (the rest random)
  bool optimize = true;                       ///< optimize first, as `flowscope profile` does unless --no-optimize
  std::string device = "cpu";                 ///< "cpu", "null", "vulkan:0", ...
  int threads = 0;                            ///< 0: every physical core
  Precision precision = Precision::kFp32;     ///< of MatMul and convolutions on the GPU (`--precision`)
};

/// A profile shown against the opened graph.
struct ProfileView {
  std::shared_ptr<const RunProfile> profile;
  NodeTimes times;  ///< onto the opened graph's nodes
  QString source;   ///< "profiled here" or the imported file
  bool imported = false;
  bool optimized = false;
  size_t nodesBeforeOptimizing = 0, nodesRun = 0;
  std::string device;              ///< as the backend names itself: "cpu", "vulkan:0 (llvmpipe ...)"
  std::string precision = "fp32";  ///< what the backend computed at the asked precision (Backend::precisionSummary)
  int threads = 1;
  std::string executionMode;  ///< "op by op", "independent ops at once"
  Roofline roofline;          ///< the device's limits at these threads (unknown for imported profiles)
  double medianMicros = 0;
  std::map<std::string, std::string> placement;
  std::vector<std::string> notes;  ///< "Vulkan is not available (...); running on the CPU"
  int runs() const { return times.runs; }
};

/// How the canvas colours nodes when there is a profile: heat by time, share of the roofline, the backend, or (an
/// imported profile beside ours) our time over theirs per node.
enum class OverlayMode { kTime, kRoofline, kDevice, kRatio };

}  // namespace flowscope
