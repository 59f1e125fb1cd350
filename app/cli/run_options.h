// Options shared by `run` and `profile`: inputs, fetches, signature, device and threads.
#pragma once

#include <memory>

#include "cli/args.h"
#include "exec/run_request.h"
#include "exec/session.h"

namespace flowscope::cli {

/// The value options both commands accept.
extern const std::set<std::string> kRunValueOptions;

struct PreparedRun {
  std::shared_ptr<const Model> model;
  RunRequest request;
  SessionOptions session;
  size_t nodesBeforeOptimizing = 0;  ///< 0: not optimized (--no-optimize)
  double optimizeSeconds = 0;
  std::string deviceName;  ///< "cpu" or "vulkan:0 (llvmpipe ...)"
};

/// Loads FILE and resolves inputs and fetches; prints the error and returns the exit code on failure.
int prepareRun(const Args& args, const char* command, PreparedRun* out);
/// "name: dtype [shape] min/mean/max [values...]".
std::string summarizeTensor(const std::string& name, const Tensor& t);

}  // namespace flowscope::cli
