// Atomic file writes: write a temporary file beside the target, flush it to disk, then rename over the target.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace flowscope {

/// Either the whole new content is at `path` afterwards, or the old file is untouched. An existing device or pipe
/// (/dev/stdout, a FIFO) is written in place instead, as it cannot be replaced. Errors name the path and the cause.
Status writeFileAtomically(const std::string& path, std::string_view content);

/// Whether a write to `path` can start: its directory exists and takes new files. Long encoders ask first, so a bad
/// destination fails at once rather than after the work; the error reads as writeFileAtomically's would.
Status checkWritableDestination(const std::string& path);

}  // namespace flowscope
