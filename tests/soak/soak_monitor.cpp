// The soak's heartbeat and memory readings.
#include "soak_monitor.h"

#include <fstream>
#include <string>

#include <malloc.h>
#include <time.h>

namespace flowscope::soak {
namespace {

double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

void keepWorse(Block* kept, const Block& gap) {
  if (gap.wallMs > kept->wallMs) *kept = gap;
}

}  // namespace

Heartbeat::Heartbeat(int intervalMs, double reportMs, int sampleAfterMs)
    : m_sampler(std::chrono::milliseconds(sampleAfterMs), std::chrono::milliseconds(intervalMs)), m_reportMs(reportMs) {
  m_timer.setTimerType(Qt::PreciseTimer);
  m_timer.setInterval(intervalMs);
  connect(&m_timer, &QTimer::timeout, this, &Heartbeat::tick);
  m_lastWall = std::chrono::steady_clock::now();
  m_lastCpuMs = threadCpuMs();
  m_timer.start();
}

void Heartbeat::setPlace(const QString& file, const QString& step) {
  m_file = file;
  m_step = step;
}

void Heartbeat::tick() {
  const auto now = std::chrono::steady_clock::now();
  const double cpu = threadCpuMs();
  const Block gap{std::chrono::duration<double, std::milli>(now - m_lastWall).count(), cpu - m_lastCpuMs, m_file,
                  m_step, m_sampler.beat()};
  m_lastWall = now;
  m_lastCpuMs = cpu;
  ++m_ticks;
  keepWorse(&m_worst, gap);
  keepWorse(&m_fileWorst, gap);
  keepWorse(&m_byStep[m_step], gap);
  if (gap.wallMs > m_reportMs) m_over.push_back(gap);
}

Memory memoryNow() {
  Memory m;
  const struct mallinfo2 info = mallinfo2();
  m.heapMiB = static_cast<double>(info.uordblks + info.hblkhd) / (1024.0 * 1024.0);
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) m.rssMiB = std::stod(line.substr(6)) / 1024.0;
  return m;
}

}  // namespace flowscope::soak
