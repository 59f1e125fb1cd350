// The stall sampler: a SIGPROF handler that records call stacks into a fixed buffer (nothing in it allocates or locks
// once backtrace() has been warmed up), a watchdog thread that sends the signal, and the summary made on the UI thread.
#include "stall_sampler.h"

#include <QStringList>
#include <algorithm>
#include <array>
#include <csignal>
#include <cstdlib>
#include <map>
#include <set>
#include <vector>

#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>

namespace flowscope::soak {
namespace {

constexpr int kMaxSamples = 1024, kMaxDepth = 64;
// The handler's own frame and the kernel's signal trampoline come first in every sample.
constexpr int kHandlerFrames = 2;

struct Sample {
  std::array<void*, kMaxDepth> frames;
  int depth;
};
std::array<Sample, kMaxSamples> g_samples;
std::atomic<int> g_taken{0};

void onSignal(int) {
  const int saved = errno;
  const int i = g_taken.load(std::memory_order_relaxed);
  if (i < kMaxSamples) {
    g_samples[static_cast<size_t>(i)].depth = backtrace(g_samples[static_cast<size_t>(i)].frames.data(), kMaxDepth);
    std::atomic_signal_fence(std::memory_order_release);
    g_taken.store(i + 1, std::memory_order_relaxed);
  }
  errno = saved;
}

std::int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

QString functionAt(void* address, std::map<void*, QString>* cache) {
  auto [it, inserted] = cache->try_emplace(address);
  if (!inserted) return it->second;
  Dl_info info{};
  if (dladdr(address, &info) == 0 || info.dli_sname == nullptr) {
    const QString object = info.dli_fname ? QString(info.dli_fname).section('/', -1) : QString("?");
    return it->second = QString("%1+0x%2").arg(object).arg(
               reinterpret_cast<quintptr>(address) - reinterpret_cast<quintptr>(info.dli_fbase), 0, 16);
  }
  int status = 0;
  char* plain = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
  QString name = status == 0 && plain ? QString(plain) : QString(info.dli_sname);
  std::free(plain);
  return it->second = name.section('(', 0, 0);  // the name without its parameter list
}

// Each sample's function names, leaf first, without the handler's frames and without repeats (recursion).
std::vector<QStringList> symbolize(int taken) {
  std::map<void*, QString> cache;
  std::vector<QStringList> stacks;
  for (int s = 0; s < taken; ++s) {
    const Sample& sample = g_samples[static_cast<size_t>(s)];
    QStringList names;
    for (int f = kHandlerFrames; f < sample.depth; ++f) {
      // A return address points after its call: look up the byte before it, except for the interrupted frame.
      auto* address = static_cast<char*>(sample.frames[static_cast<size_t>(f)]) - (f > kHandlerFrames ? 1 : 0);
      const QString name = functionAt(address, &cache);
      if (!names.contains(name)) names << name;
    }
    stacks.push_back(names);
  }
  return stacks;
}

QString percent(int part, size_t whole) { return QString("%1%").arg(100 * part / static_cast<int>(whole)); }

// The deepest functions that at least half the samples were inside, outermost last ("a < b < c").
QString majorityPath(const std::vector<QStringList>& stacks) {
  std::map<QString, int> inclusive;
  for (const QStringList& names : stacks)
    for (const QString& name : names) ++inclusive[name];
  QStringList path;
  int share = 0;
  for (const QString& name : stacks.front())
    if (2 * inclusive[name] >= static_cast<int>(stacks.size())) {
      if (path.isEmpty()) share = inclusive[name];
      path << name;
    }
  if (path.isEmpty()) return "no function in half the samples";
  return percent(share, stacks.size()) + " in " + path.mid(0, 8).join(" < ");
}

// The `count` names with the most samples, with their shares ("f 40%, g 20%").
QString ranked(const std::map<QString, int>& samplesPerName, size_t total, size_t count) {
  std::vector<std::pair<int, QString>> order;
  for (const auto& [name, samples] : samplesPerName) order.emplace_back(samples, name);
  std::sort(order.rbegin(), order.rend());
  QStringList parts;
  for (size_t i = 0; i < order.size() && i < count; ++i)
    parts << order[i].second + " " + percent(order[i].first, total);
  return parts.join(", ");
}

QString topLeaves(const std::vector<QStringList>& stacks) {
  std::map<QString, int> self;
  for (const QStringList& names : stacks)
    if (!names.isEmpty()) ++self[names.front()];
  return ranked(self, stacks.size(), 4);
}

// Flowscope's own functions (not the soak's) that the samples were inside, leaf side first: the code to look at.
QString ourFunctions(const std::vector<QStringList>& stacks) {
  std::map<QString, int> inclusive;
  for (const QStringList& names : stacks)
    for (const QString& name : names)
      if (name.startsWith("flowscope::") && !name.startsWith("flowscope::soak::")) ++inclusive[name];
  return inclusive.empty() ? QString("none") : ranked(inclusive, stacks.size(), 4);
}

}  // namespace

StallSampler::StallSampler(std::chrono::milliseconds arm, std::chrono::milliseconds period)
    : m_arm(arm), m_period(period), m_target(pthread_self()), m_lastBeatNs(nowNs()) {
  void* warmUp[4];
  backtrace(warmUp, 4);  // loads the unwinder now: its first call allocates, which a signal handler must not
  struct sigaction action {};
  action.sa_handler = onSignal;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGPROF, &action, nullptr);
  m_watchdog = std::thread([this] { watch(); });
}

StallSampler::~StallSampler() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_all();
  m_watchdog.join();
  signal(SIGPROF, SIG_IGN);
}

void StallSampler::watch() {
  std::unique_lock lock(m_mutex);
  while (!m_wake.wait_for(lock, m_period, [this] { return m_stop; })) {
    const auto silentNs = nowNs() - m_lastBeatNs.load(std::memory_order_relaxed);
    if (silentNs > std::chrono::nanoseconds(m_arm).count()) pthread_kill(m_target, SIGPROF);
  }
}

QString StallSampler::beat() {
  m_lastBeatNs.store(nowNs(), std::memory_order_relaxed);  // first: no new signals for `arm` from here
  const int taken = g_taken.load(std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_acquire);
  if (taken == 0) return {};
  const std::vector<QStringList> stacks = symbolize(taken);
  g_taken.store(0, std::memory_order_relaxed);
  return QString("%1 samples; %2; leaf: %3; ours: %4")
      .arg(taken)
      .arg(majorityPath(stacks), topLeaves(stacks), ourFunctions(stacks));
}

}  // namespace flowscope::soak
