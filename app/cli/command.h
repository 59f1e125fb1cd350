// The CLI's command table: every subcommand of the `flowscope` binary, with its usage text.
#pragma once

#include <string>
#include <vector>

#include "cli/args.h"

namespace flowscope::cli {

struct Command {
  const char* name;
  const char* summary;
  const char* usage;  ///< full --help text
  ArgSpec spec;
  int (*run)(const Args& args);
};

const std::vector<Command>& commands();
const Command* findCommand(const std::string& name);
/// Runs argv[1] as a command; prints usage errors and returns the exit code.
int runCli(int argc, char** argv);
void printOverview();

int runInfo(const Args& args);
int runConvert(const Args& args);
int runRun(const Args& args);
int runProfile(const Args& args);
/// `profile FILE --import PROFILE` (runProfile hands it over).
int runProfileImport(const Args& args);
int runDiff(const Args& args);
int runOptimize(const Args& args);
int runSynth(const Args& args);
int runGuide(const Args& args);
int runTrace(const Args& args);
int runCompare(const Args& args);
/// trace and compare for a .py script (runTrace and runCompare hand a .py over).
int runTraceScriptCommand(const Args& args);
int runCompareScriptCommand(const Args& args);
int runDevices(const Args& args);
int runScreenshot(const Args& args);

}  // namespace flowscope::cli
