// Starts the desktop app (kept apart from main so the CLI path never touches Qt).
#pragma once

namespace flowscope {

int runGui(int argc, char** argv);

}  // namespace flowscope
