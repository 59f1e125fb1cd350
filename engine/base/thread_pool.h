// The intra-op thread pool: parallel loops inside one kernel. It is OpenMP's (libgomp), the pool oneDNN's primitives
// run on too, so the process has one pool. Each calling thread has its own thread count (a run sets it; oneDNN reads
// it through omp_get_max_threads); inside a parallel region (inter-op execution) loops run on the calling thread.
#pragma once

#include <cstdint>
#include <functional>

namespace flowscope {

/// Physical cores this process may run on (distinct cores over all packages among the CPUs of its affinity mask, as
/// taskset or a container's cpuset leave it; the logical CPUs when the topology is unknown), counted once.
int physicalCores();
/// physicalCores() counted now, e.g. after the affinity changed.
int countPhysicalCores();

/// Runs body(begin, end) over [0, n) in contiguous chunks on the calling thread's intra-op threads when
/// n * costPerItem (in rough element operations) is worth waking them; otherwise runs body(0, n) here.
void parallelFor(int64_t n, int64_t costPerItem, const std::function<void(int64_t, int64_t)>& body);

/// Sets the calling thread's intra-op thread count (parallelFor and oneDNN follow it). Default: physicalCores().
void setIntraOpThreads(int threads);
int intraOpThreads();

}  // namespace flowscope
