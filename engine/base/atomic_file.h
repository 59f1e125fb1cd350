// Atomic file writes: write a temporary file beside the target, flush it to disk, then rename over the target.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace flowscope {

/// Either the whole new content is at `path` afterwards, or the old file is untouched. An existing device or pipe
/// (/dev/stdout, a FIFO) is written in place instead, as it cannot be replaced. Errors name the path and the cause.
Status writeFileAtomically(const std::string& path, std::string_view content);

}  // namespace flowscope
