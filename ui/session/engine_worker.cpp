// The engine worker's queue and threads.
#include "session/engine_worker.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <system_error>

#include "ir/buffer_pool.h"

namespace flowscope {

void JobControl::progress(double fraction, const QString& what) {
  const auto now = std::chrono::steady_clock::now();
  if (fraction < 1 && now - m_lastReport < std::chrono::milliseconds(50)) return;
  m_lastReport = now;
  if (m_report) m_report(fraction, what);
}

EngineWorker::EngineWorker(QObject* parent, int threads) : QObject(parent) {
  for (int i = 0; i < std::max(1, threads); ++i) m_threads.emplace_back([this] { threadMain(); });
}

EngineWorker::~EngineWorker() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stopping = true;
    m_queue.clear();
    for (auto& [id, flag] : m_runningById) *flag = true;
  }
  m_wake.notify_all();
  for (auto& t : m_threads) t.join();
}

JobId EngineWorker::enqueue(const QString& tag, const QString& title, QObject* receiver, Work work) {
  std::vector<JobId> dropped;
  JobId id;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    id = ++m_lastId;
    for (auto it = m_queue.begin(); it != m_queue.end();) {  // a queued job of the same tag never runs
      if ((*it)->tag == tag) {
        dropped.push_back((*it)->id);
        it = m_queue.erase(it);
      } else {
        ++it;
      }
    }
    if (auto running = m_running.find(tag); running != m_running.end()) *running->second = true;
    m_latest[tag] = id;
    auto job = std::make_unique<Job>();
    job->id = id;
    job->tag = tag;
    job->title = title;
    job->receiver = receiver;
    job->work = std::move(work);
    m_queue.push_back(std::move(job));
  }
  m_wake.notify_one();
  for (JobId d : dropped) emit jobFinished(d, tag, false);
  emit jobQueued(id, tag, title);
  return id;
}

std::unique_ptr<EngineWorker::Job> EngineWorker::takeRunnable() {
  for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
    if (m_running.count((*it)->tag)) continue;  // one job per tag at a time, in order
    std::unique_ptr<Job> job = std::move(*it);
    m_queue.erase(it);
    return job;
  }
  return nullptr;
}

void EngineWorker::threadMain() {
  while (true) {
    std::unique_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(m_mutex);
      m_wake.wait(lock, [&] { return m_stopping || (job = takeRunnable()) != nullptr; });
      if (!job) return;  // stopping
      m_running[job->tag] = job->control.m_cancelled;
      m_runningById[job->id] = job->control.m_cancelled;
    }
    const JobId id = job->id;
    emit jobStarted(id, job->tag, job->title);
    job->control.m_report = [this, id](double fraction, const QString& what) { emit jobProgress(id, fraction, what); };
    std::function<void()> handOver;
    const auto work = [&] {
      try {
        handOver = job->work(job->control);
      } catch (const std::exception&) {
        handOver = nullptr;  // engine calls report errors as values; a thrown one (out of memory) drops the result
      }
      releaseCachedTensorBuffers();  // the job's cached buffers go with its thread
    };
    // On a thread of its own, which ends with the job: so does the OpenMP team the job's parallel regions made.
    // Teams outlive their jobs on a long-lived thread, and once the process holds more OpenMP threads than cores,
    // libgomp stops spinning: every parallel region then puts its threads to sleep and wakes them, and a profile in
    // the app ran 2.6x slower than the CLI's (cpm_model: 11.5 against 4.4 ms). A thread costs tens of microseconds;
    // where the system has none to give, the job runs here.
    try {
      std::thread(work).join();
    } catch (const std::system_error&) {
      work();
    }
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_running.erase(job->tag);
      m_runningById.erase(id);
      m_awaitingDelivery[id] = job->tag;
      ++m_pendingDeliveries;
    }
    m_wake.notify_all();  // the next job of this tag may run now
    deliver(id, job->tag, job->receiver, std::move(handOver));
  }
}

void EngineWorker::deliver(JobId id, const QString& tag, QPointer<QObject> receiver, std::function<void()> handOver) {
  // The delivery's captures are made under the mutex its run takes first: Qt's event queue orders the two threads,
  // but ThreadSanitizer cannot see into uninstrumented libQt6Core and reported the tag's copy as a race.
  std::lock_guard<std::mutex> ordered(m_mutex);
  QMetaObject::invokeMethod(
      this,
      [this, id, tag, receiver, handOver = std::move(handOver)] {
        bool latest;
        {
          std::lock_guard<std::mutex> lock(m_mutex);
          latest = forgetIfNewest(tag, id);  // tags such as "export:7" are unique: none may pile up
        }
        const bool delivered = latest && handOver && receiver;
        if (delivered) handOver();
        emit jobFinished(id, tag, delivered);
        std::lock_guard<std::mutex> lock(m_mutex);
        m_awaitingDelivery.erase(id);
        --m_pendingDeliveries;
        m_idle.notify_all();
      },
      Qt::QueuedConnection);
}

bool EngineWorker::forgetIfNewest(const QString& tag, JobId id) {
  auto newest = m_latest.find(tag);
  if (newest == m_latest.end() || newest->second != id) return false;
  m_latest.erase(newest);
  return true;
}

void EngineWorker::cancel(JobId id) {
  QString droppedTag;
  bool wasRunning = false;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (auto running = m_runningById.find(id); running != m_runningById.end()) {
      *running->second = true;
      wasRunning = true;
    }
    wasRunning |= m_awaitingDelivery.count(id) > 0;
    for (auto it = m_queue.begin(); it != m_queue.end(); ++it)
      if ((*it)->id == id) {
        droppedTag = (*it)->tag;
        m_queue.erase(it);
        forgetIfNewest(droppedTag, id);
        break;
      }
  }
  if (wasRunning) emit jobCancelled(id);
  if (!droppedTag.isEmpty()) emit jobFinished(id, droppedTag, false);
}

void EngineWorker::cancelTag(const QString& tag) {
  std::vector<JobId> ids;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    for (const auto& job : m_queue)
      if (job->tag == tag) ids.push_back(job->id);
    if (m_running.count(tag))
      for (const auto& [id, flag] : m_runningById)
        if (flag == m_running[tag]) ids.push_back(id);
    for (const auto& [id, jobTag] : m_awaitingDelivery)
      if (jobTag == tag) ids.push_back(id);
  }
  for (JobId id : ids) cancel(id);
}

bool EngineWorker::isBusy(const QString& tag) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (m_running.count(tag)) return true;
  return std::any_of(m_queue.begin(), m_queue.end(), [&](const auto& job) { return job->tag == tag; });
}

bool EngineWorker::waitForIdle(int msecs) {
  QElapsedTimer timer;
  timer.start();
  while (timer.elapsed() < msecs) {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      if (m_queue.empty() && m_running.empty() && m_pendingDeliveries == 0) return true;
    }
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);  // deliveries arrive as queued calls
    std::unique_lock<std::mutex> lock(m_mutex);
    m_idle.wait_for(lock, std::chrono::milliseconds(2));
  }
  return false;
}

}  // namespace flowscope
