// What the GUI soak measures: how long the UI thread goes without running its event loop (a heartbeat timer's gaps,
// each charged to the file and step in progress), and the process's memory.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <chrono>
#include <map>
#include <vector>

#include "stall_sampler.h"

namespace flowscope::soak {

/// One gap between heartbeats: wall time, the UI thread's own CPU time in it (near the wall time: the UI thread was
/// busy; far below: it waited or was not scheduled), where the soak was, and what the stall sampler saw the UI thread
/// doing (for gaps over its arming time).
struct Block {
  double wallMs = 0, cpuMs = 0;
  QString file, step;
  QString where;
};

class Heartbeat : public QObject {
 public:
  /// Ticks every `intervalMs` on the UI thread; gaps longer than `reportMs` are kept as findings. The UI thread's stack
  /// is sampled every `intervalMs` once a gap passes `sampleAfterMs`.
  Heartbeat(int intervalMs, double reportMs, int sampleAfterMs);
  /// Charges the next gaps to this file and step.
  void setPlace(const QString& file, const QString& step);
  /// Starts a new per-file worst.
  void startFile() { m_fileWorst = {}; }
  quint64 ticks() const { return m_ticks; }
  const Block& worst() const { return m_worst; }
  const Block& fileWorst() const { return m_fileWorst; }
  const std::map<QString, Block>& worstByStep() const { return m_byStep; }
  const std::vector<Block>& overThreshold() const { return m_over; }

 private:
  void tick();

  QTimer m_timer;
  StallSampler m_sampler;
  double m_reportMs;
  QString m_file, m_step;
  quint64 m_ticks = 0;
  std::chrono::steady_clock::time_point m_lastWall;
  double m_lastCpuMs = 0;
  Block m_worst, m_fileWorst;
  std::map<QString, Block> m_byStep;
  std::vector<Block> m_over;
};

struct Memory {
  double rssMiB = 0;   ///< VmRSS from /proc/self/status
  double heapMiB = 0;  ///< bytes malloc has handed out and not had back (glibc mallinfo2)
};
Memory memoryNow();

}  // namespace flowscope::soak
