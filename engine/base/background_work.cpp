// The background thread.
#include "base/background_work.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include <pthread.h>

namespace flowscope {
namespace {

class BackgroundQueue {
 public:
  BackgroundQueue()
      : m_thread([this] {
          pthread_setname_np(pthread_self(), "fs-background");  // for debuggers and top, not the process's name
          serve();
        }) {}
  ~BackgroundQueue() {  // at exit: finish what was queued
    {
      std::lock_guard lock(m_mutex);
      m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
  }

  void push(std::function<void()> task) {
    {
      std::lock_guard lock(m_mutex);
      m_tasks.push_back(std::move(task));
      ++m_queued;
    }
    m_wake.notify_all();
  }

  void drain() {
    std::unique_lock lock(m_mutex);
    const uint64_t target = m_queued;
    m_done.wait(lock, [&] { return m_finished >= target; });
  }

 private:
  void serve() {
    std::unique_lock lock(m_mutex);
    for (;;) {
      m_wake.wait(lock, [&] { return m_stopping || !m_tasks.empty(); });
      if (m_tasks.empty()) return;  // stopping, and nothing left
      std::function<void()> task = std::move(m_tasks.front());
      m_tasks.pop_front();
      lock.unlock();
      task();
      task = nullptr;  // what it captured is released here too, not on the queuing thread
      lock.lock();
      ++m_finished;
      m_done.notify_all();
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_wake, m_done;
  std::deque<std::function<void()>> m_tasks;
  uint64_t m_queued = 0, m_finished = 0;
  bool m_stopping = false;
  std::thread m_thread;  // last: starts once the members it uses exist
};

BackgroundQueue& queue() {
  static BackgroundQueue instance;
  return instance;
}

}  // namespace

void runInBackground(std::function<void()> task) { queue().push(std::move(task)); }

void waitForBackgroundWork() { queue().drain(); }

}  // namespace flowscope
