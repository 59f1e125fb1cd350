// `profile`'s --top N: how many rows its lists of nodes show (the slowest nodes, the side-by-side table of an
// imported profile); 0 shows every row.
#pragma once

#include <cstddef>
#include <cstdio>
#include <limits>
#include <optional>

#include "base/strings.h"
#include "cli/args.h"

namespace flowscope::cli {

/// False (after printing the usage error) when --top is not a number from 0 to 1000000; `*top` stays empty when
/// --top is not given.
inline bool parseTopOption(const Args& args, std::optional<size_t>* top) {
  auto text = args.value("--top");
  if (!text) return true;
  int64_t n = 0;
  if (!parseInt64(*text, &n) || n < 0 || n > 1000000) {
    std::fprintf(stderr, "flowscope profile: --top needs a number from 0 to 1000000 (0: every node)\n");
    return false;
  }
  *top = n == 0 ? std::numeric_limits<size_t>::max() : static_cast<size_t>(n);
  return true;
}

}  // namespace flowscope::cli
