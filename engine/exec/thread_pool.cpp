// The intra-op thread pool. It is OpenMP's: oneDNN (Debian's build) uses libgomp, so sharing it keeps one pool for
// the whole process.
#include "exec/thread_pool.h"

#include <omp.h>

#include <algorithm>
#include <atomic>

namespace flowscope {

namespace {
std::atomic<int> g_threads{1};
}

void setIntraOpThreads(int threads) {
  g_threads = std::max(1, threads);
  omp_set_num_threads(g_threads);
}

int intraOpThreads() { return g_threads; }

void parallelFor(int64_t n, int64_t costPerItem, const std::function<void(int64_t, int64_t)>& body) {
  int threads = g_threads;
  constexpr int64_t kMinWorkPerThread = 32 * 1024;  // below this, waking threads costs more than it saves
  if (threads <= 1 || n * costPerItem < 2 * kMinWorkPerThread || n < 2 || omp_in_parallel()) {
    body(0, n);
    return;
  }
  const int chunks =
      static_cast<int>(std::min<int64_t>(threads, std::max<int64_t>(1, n * costPerItem / kMinWorkPerThread)));
#pragma omp parallel for num_threads(chunks) schedule(static)
  for (int c = 0; c < chunks; ++c) body(n * c / chunks, n * (c + 1) / chunks);
}

}  // namespace flowscope
