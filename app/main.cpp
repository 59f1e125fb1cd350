// The composition root: a subcommand runs the CLI (no display needed); otherwise the desktop app opens.
#include <cstring>

#include "cli/command.h"
#include "gui.h"

int main(int argc, char** argv) {
  if (argc >= 2) {
    if (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
      flowscope::cli::printOverview();
      return 0;
    }
    if (!std::strcmp(argv[1], "--version")) {
      std::puts("flowscope " FLOWSCOPE_VERSION);
      return 0;
    }
    if (flowscope::cli::findCommand(argv[1])) return flowscope::cli::runCli(argc, argv);
    if (argv[1][0] == '-' || argc > 2) return flowscope::cli::runCli(argc, argv);  // reports the usage error
  }
  return flowscope::runGui(argc, argv);
}
