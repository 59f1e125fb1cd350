// Options shared by `run` and `profile`: inputs, fetches, signature, device, threads and optimizing, turned into the
// engine's RunSetup and prepared there (workflow/prepared_run.h).
#pragma once

#include <set>
#include <string>

#include "cli/args.h"
#include "workflow/prepared_run.h"

namespace flowscope::cli {

/// The value options both commands accept.
extern const std::set<std::string> kRunValueOptions;

/// The value options as a RunSetup; a usage error's message otherwise.
Expected<RunSetup> setupFromArgs(const Args& args);
/// Loads FILE and prepares its runs; prints the error and returns the exit code on failure.
int prepareRunFromArgs(const Args& args, const char* command, PreparedRun* out);
/// "name: dtype [shape] min/mean/max [values...]".
std::string summarizeTensor(const std::string& name, const Tensor& t);
/// A fetched value: a tensor as summarizeTensor says it; a sequence (an ONNX sequence, a TensorList) or optional
/// by its length or whether it holds a value, then each element, indented.
std::string summarizeValue(ModelRunner& runner, const std::string& name, const Tensor& value);

}  // namespace flowscope::cli
