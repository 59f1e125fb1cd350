// Measuring the CPU's roofline.
#include "exec/cpu/cpu_roofline.h"

#include <dnnl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "exec/thread_pool.h"

namespace flowscope {
namespace {

template <typename F>
double bestSeconds(int tries, F&& body) {
  double best = 1e300;
  for (int i = 0; i < tries; ++i) {
    const auto start = std::chrono::steady_clock::now();
    body();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

// FMA peak: a GEMM large enough to run at full speed on every thread (2 FLOPs per multiply-add).
double gemmGflops(int threads) {
  const int64_t n = threads > 4 ? 2048 : 1024;
  std::vector<float> a(static_cast<size_t>(n * n), 0.5f), b(a.size(), 0.25f), c(a.size());
  auto gemm = [&] { dnnl_sgemm('N', 'N', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n); };
  gemm();  // warms the kernels and the pages
  return 2.0 * static_cast<double>(n) * n * n / bestSeconds(3, gemm) * 1e-9;
}

// Bandwidth: copies between two 128 MiB buffers (reads plus writes), split among the threads as kernels split work.
double copyGBs() {
  constexpr size_t kBytes = size_t{128} << 20;
  std::vector<char> from(kBytes, 1), to(kBytes, 0);
  const auto chunks = static_cast<int64_t>(kBytes / 4096);
  auto copy = [&] {
    parallelFor(chunks, 4096, [&](int64_t begin, int64_t end) {
      std::memcpy(to.data() + begin * 4096, from.data() + begin * 4096, static_cast<size_t>(end - begin) * 4096);
    });
  };
  copy();
  return 2.0 * kBytes / bestSeconds(3, copy) * 1e-9;
}

}  // namespace

Roofline measureCpuRoofline(int threads) {
  static std::mutex mutex;
  static std::map<int, Roofline> measured;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = measured.find(threads); it != measured.end()) return it->second;
  const int before = intraOpThreads();
  setIntraOpThreads(threads);
  Roofline r;
  r.threads = threads;
  r.peakGflops = gemmGflops(threads);
  r.bandwidthGBs = copyGBs();
  setIntraOpThreads(before);
  return measured[threads] = r;
}

}  // namespace flowscope
