// Measuring the CPU's roofline.
#include "exec/cpu/cpu_roofline.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "exec/cpu/dnnl_util.h"

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

// FMA peak: the best of oneDNN matmuls (weights packed in its layout, as our MatMul kernel packs constant weights)
// large enough to run at full speed on every thread; 2 FLOPs per multiply-add.
double gemmGflops(int threads) {
  using namespace dnnl_util;
  double best = 0;
  for (const int64_t n : {int64_t{768}, int64_t{1024}, int64_t{threads > 4 ? 2048 : 1536}}) {
    const auto square = dense({n, n}, DType::kFloat);
    const dnnl::memory::desc anyWeights({n, n}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::any);
    const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(square, anyWeights, square), engine());
    std::vector<float> a(static_cast<size_t>(n * n), 0.5f), b(a.size(), 0.25f), c(a.size());
    dnnl::memory src(square, engine(), a.data()), dst(square, engine(), c.data()), plain(square, engine(), b.data());
    dnnl::memory weights(pd.weights_desc(), engine());
    dnnl::reorder(plain, weights).execute(stream(), plain, weights);
    const dnnl::matmul matmul(pd);
    auto run = [&] {
      matmul.execute(stream(), {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}});
      stream().wait();
    };
    run();  // warms the kernels and the pages
    best = std::max(best, 2.0 * static_cast<double>(n) * n * n / bestSeconds(4, run) * 1e-9);
  }
  return best;
}

// Copy bandwidth (reads plus writes) with a working set of `bytes` split among the threads, each thread copying its
// own slice again and again (so a slice that fits a cache stays there), about 256 MiB moved per try.
double copyGBs(size_t bytes, int threads) {
  const size_t slice = std::max<size_t>(bytes / 2 / static_cast<size_t>(threads), 4096) & ~size_t{63};
  const size_t half = slice * static_cast<size_t>(threads);
  std::vector<char> from(half, 1), to(half, 0);
  const int64_t repeats = std::max<int64_t>(1, static_cast<int64_t>((size_t{128} << 20) / half));
  auto copy = [&] {
    parallelFor(threads, int64_t{1} << 30, [&](int64_t begin, int64_t end) {
      for (int64_t r = 0; r < repeats; ++r)
        for (int64_t t = begin; t < end; ++t) std::memcpy(to.data() + t * slice, from.data() + t * slice, slice);
    });
  };
  copy();
  return 2.0 * static_cast<double>(half) * static_cast<double>(repeats) / bestSeconds(3, copy) * 1e-9;
}

std::string readLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// "48K" -> 49152.
double parseSize(const std::string& text) {
  if (text.empty()) return 0;
  double value = std::atof(text.c_str());
  if (text.back() == 'K') value *= 1024;
  if (text.back() == 'M') value *= 1024 * 1024;
  return value;
}

// The data caches a run with `threads` threads can use: per level, one instance's size times the instances the
// threads can spread over (private L1 and L2 per core; a shared L3 once per group of cores sharing it).
std::vector<BandwidthTier> cacheTiers(int threads) {
  std::vector<BandwidthTier> tiers;
  for (int index = 0;; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    const std::string level = readLine(dir + "level"), type = readLine(dir + "type");
    if (level.empty()) break;
    if (type == "Instruction") continue;
    std::set<std::string> instances;  // distinct groups of CPUs sharing this level
    for (int cpu = 0;; ++cpu) {
      const std::string shared = readLine("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cache/index" +
                                          std::to_string(index) + "/shared_cpu_list");
      if (shared.empty()) break;
      instances.insert(shared);
    }
    const double count = std::min<double>(std::max<size_t>(instances.size(), 1), threads);
    tiers.push_back({"L" + level, parseSize(readLine(dir + "size")) * count, 0});
  }
  return tiers;
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
  for (BandwidthTier& tier : cacheTiers(threads)) {
    tier.gbs = copyGBs(static_cast<size_t>(tier.maxBytes / 2), threads);  // half the cache: it stays resident
    r.tiers.push_back(tier);
  }
  r.bandwidthGBs = copyGBs(size_t{256} << 20, threads);
  r.tiers.push_back({"DRAM", 0, r.bandwidthGBs});
  setIntraOpThreads(before);
  return measured[threads] = r;
}

}  // namespace flowscope
