// StallSampler: where the UI thread is while it is blocked. A watchdog thread notices that the heartbeat has not
// ticked for a while and then interrupts the UI thread every few milliseconds (SIGPROF); the handler records its call
// stack. The next tick sums the samples up, so that each long block in the soak's report names the code it was in.
#pragma once

#include <QString>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <pthread.h>

namespace flowscope::soak {

class StallSampler {
 public:
  /// Samples the calling thread (the UI thread) every `period` once it has gone `arm` without a beat.
  StallSampler(std::chrono::milliseconds arm, std::chrono::milliseconds period);
  ~StallSampler();
  StallSampler(const StallSampler&) = delete;
  StallSampler& operator=(const StallSampler&) = delete;

  /// The UI thread is alive: stops sampling and returns what the samples since the last beat show ("" when none were
  /// taken), e.g. "41 samples; 88% in Foo::bar < Foo::baz < ...; leaf: memcpy 40%, ...".
  QString beat();

 private:
  void watch();

  std::chrono::milliseconds m_arm, m_period;
  pthread_t m_target;
  std::atomic<std::int64_t> m_lastBeatNs;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stop = false;
  std::thread m_watchdog;  // last: starts after the members it reads
};

}  // namespace flowscope::soak
