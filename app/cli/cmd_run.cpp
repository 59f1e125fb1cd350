// `flowscope run FILE`: run a graph once and print (or save as .npy) what it fetches.
#include <cstdio>
#include <filesystem>

#include "cli/command.h"
#include "cli/run_options.h"
#include "exec/model_runner.h"
#include "io/npy.h"

namespace flowscope::cli {

int runRun(const Args& args) {
  PreparedRun prepared;
  if (int code = prepareRunFromArgs(args, "run", &prepared); code != kExitOk) return code;
  auto outputs = prepared.runner->run(prepared.request.feeds, prepared.request.fetches);
  if (!outputs) {
    std::fprintf(stderr, "flowscope run: %s\n", outputs.status().message().c_str());
    return kExitBadInput;
  }
  auto outDir = args.value("--output");
  std::error_code ec;
  if (outDir && (std::filesystem::create_directories(*outDir, ec), ec)) {
    std::fprintf(stderr, "flowscope run: %s: cannot create the output directory: %s\n", outDir->c_str(),
                 ec.message().c_str());
    return kExitBadInput;
  }
  for (size_t i = 0; i < outputs->size(); ++i) {
    const std::string& name = prepared.request.fetches[i];
    const std::string& label = prepared.request.fetchLabels[i];
    const std::string title = label == name ? name : label + " (" + name + ")";
    std::printf("%s\n", summarizeValue(*prepared.runner, title, (*outputs)[i]).c_str());
    if (!outDir) continue;
    std::string file = name;
    for (char& c : file)
      if (c == '/' || c == ':') c = '_';
    Status s = writeNpy((std::filesystem::path(*outDir) / (file + ".npy")).string(), (*outputs)[i]);
    if (!s.isOk()) {
      std::fprintf(stderr, "flowscope run: %s\n", s.message().c_str());
      return kExitBadInput;
    }
  }
  return kExitOk;
}

}  // namespace flowscope::cli
