// Chrome trace JSON: profiles as "X" (complete) events that Perfetto and chrome://tracing open, and back.
#pragma once

#include <string>

#include "base/status.h"
#include "profile/run_profile.h"

namespace flowscope {

/// {"traceEvents": [{"ph": "X", "name": node, "cat": op, "ts", "dur", "tid", "args": {...}}], "displayTimeUnit": "ns"}.
std::string toChromeTraceJson(const RunProfile& profile);
/// Reads what toChromeTraceJson wrote (and other X-phase traces); errors name what was expected.
Expected<RunProfile> fromChromeTraceJson(const std::string& json);

}  // namespace flowscope
