// The intra-op thread pool.
#include "base/thread_pool.h"

#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <utility>

namespace flowscope {
namespace {

int readInt(const std::string& path) {
  std::ifstream in(path);
  int value = -1;
  in >> value;
  return in ? value : -1;
}

thread_local int t_threads = 0;  // 0: not set on this thread yet

}  // namespace

int countPhysicalCores() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  const bool masked = sched_getaffinity(0, sizeof(allowed), &allowed) == 0 && CPU_COUNT(&allowed) > 0;
  std::set<std::pair<int, int>> cores;  // (package, core)
  for (int cpu = 0;; ++cpu) {
    const std::string base = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    const int core = readInt(base + "core_id"), package = readInt(base + "physical_package_id");
    if (core < 0 || package < 0) break;
    if (!masked || (cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed))) cores.emplace(package, core);
  }
  const int logical =
      masked ? CPU_COUNT(&allowed) : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return cores.empty() ? logical : std::min(logical, static_cast<int>(cores.size()));
}

int physicalCores() {
  static const int cores = countPhysicalCores();
  return cores;
}

void setIntraOpThreads(int threads) {
  t_threads = std::max(1, threads);
  omp_set_num_threads(t_threads);  // the calling thread's OpenMP default: what oneDNN's primitives use
}

int intraOpThreads() { return t_threads > 0 ? t_threads : physicalCores(); }

void parallelFor(int64_t n, int64_t costPerItem, const std::function<void(int64_t, int64_t)>& body) {
  const int threads = intraOpThreads();
  constexpr int64_t kMinWorkPerThread = 32 * 1024;  // below this, waking threads costs more than it saves
  const int64_t work = n * std::max<int64_t>(costPerItem, 1);
  if (threads <= 1 || n < 2 || work < 2 * kMinWorkPerThread || omp_in_parallel()) {
    body(0, n);
    return;
  }
  const int chunks = static_cast<int>(std::min<int64_t>({threads, n, work / kMinWorkPerThread}));
  // The team is always the whole intra-op count, and threads past `chunks` have nothing to do: libgomp ends the
  // surplus threads of a team smaller than the last one and creates them anew for the next larger one, so a loop of
  // 3 chunks between two 16-thread oneDNN primitives cost 13 thread creations (tst_thread_pool counts them).
#pragma omp parallel num_threads(threads)
  for (int c = omp_get_thread_num(); c < chunks; c += omp_get_num_threads()) body(n * c / chunks, n * (c + 1) / chunks);
}

}  // namespace flowscope
