// The intra-op thread pool: parallel loops inside one kernel, shared with oneDNN (one pool for the process).
#pragma once

#include <cstdint>
#include <functional>

namespace flowscope {

/// Runs body(begin, end) over [0, n) on the process thread pool when n * costPerItem is worth it.
void parallelFor(int64_t n, int64_t costPerItem, const std::function<void(int64_t, int64_t)>& body);
/// Threads the process pool uses (intra-op); set by the model runner or the CLI's --threads.
void setIntraOpThreads(int threads);
int intraOpThreads();

}  // namespace flowscope
