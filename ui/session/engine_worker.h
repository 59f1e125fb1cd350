// EngineWorker: where all of the app's engine work runs (loading, layout, shape inference, optimizing, profiling,
// comparing), off the UI thread. A request carries a tag ("load", "profile", "layout:<canvas>"): a newer request with
// the same tag supersedes a queued one (it never runs) and asks a running one to stop; results of superseded jobs are
// dropped by job id, so a view only ever sees its latest answer. Jobs of one tag run one at a time, in order; jobs of
// different tags run side by side on a few threads, each job on a thread that ends with it (and takes the job's OpenMP
// threads along). Progress and cancel work the same way for every job, and the status bar's task strip shows them
// from the worker's signals.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace flowscope {

using JobId = quint64;

/// What a running job may do besides its work: see whether it was cancelled, and report progress.
class JobControl {
 public:
  bool isCancelled() const { return m_cancelled->load(std::memory_order_relaxed); }
  /// The flag to hand to engine calls that take one (optimizing, running, layout).
  const std::atomic<bool>* cancelFlag() const { return m_cancelled.get(); }
  /// Progress from 0 to 1, and optionally what the job is doing now; sent to the UI at most every 50 ms.
  void progress(double fraction, const QString& what = {});

 private:
  friend class EngineWorker;
  std::shared_ptr<std::atomic<bool>> m_cancelled = std::make_shared<std::atomic<bool>>(false);
  std::function<void(double, const QString&)> m_report;
  std::chrono::steady_clock::time_point m_lastReport{};
};

class EngineWorker : public QObject {
  Q_OBJECT

 public:
  explicit EngineWorker(QObject* parent = nullptr, int threads = 3);
  ~EngineWorker() override;  // cancels every job and waits for the running ones

  /// Queues `work` under `tag`; `done` gets its result on the UI thread unless a newer job of the same tag came, or
  /// `receiver` is gone by then. A job cancelled by the user still delivers (its result is usually a Cancelled
  /// status). An empty `title` keeps the job out of the task strip (quick housekeeping such as shape inference).
  template <typename R>
  JobId submit(const QString& tag, const QString& title, QObject* receiver, std::function<R(JobControl&)> work,
               std::function<void(R)> done) {
    return enqueue(tag, title, receiver, [work = std::move(work), done = std::move(done)](JobControl& control) {
      auto result = std::make_shared<R>(work(control));
      return std::function<void()>([done, result] { done(std::move(*result)); });
    });
  }

  /// Asks a job to stop (it still delivers); a queued one is dropped.
  void cancel(JobId id);
  /// Cancels the queued and running jobs of a tag.
  void cancelTag(const QString& tag);
  /// True while a job of this tag is queued or running.
  bool isBusy(const QString& tag) const;
  /// How many jobs can run side by side.
  int threadCount() const { return static_cast<int>(m_threads.size()); }
  /// How many tags the worker tracks: those with a job queued, running or delivering (tests: none once idle).
  size_t trackedTags() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_latest.size();
  }
  /// Blocks until nothing is queued or running, or `msecs` passed (tests and shutdown; the UI never waits).
  bool waitForIdle(int msecs);

 signals:
  /// Emitted by submit() on the caller's thread, so views can show the job at once.
  void jobQueued(JobId id, const QString& tag, const QString& title);
  void jobStarted(JobId id, const QString& tag, const QString& title);
  /// `fraction` is negative when the job reports only what it is doing.
  void jobProgress(JobId id, double fraction, const QString& what);
  /// `delivered`: false when the job was superseded (its result dropped) or dropped from the queue.
  void jobFinished(JobId id, const QString& tag, bool delivered);
  /// A job was asked to stop (it winds down in the background; views stop showing it now).
  void jobCancelled(JobId id);

 private:
  using Work = std::function<std::function<void()>(JobControl&)>;
  struct Job {
    JobId id = 0;
    QString tag, title;
    QPointer<QObject> receiver;
    Work work;
    JobControl control;
  };
  JobId enqueue(const QString& tag, const QString& title, QObject* receiver, Work work);
  void threadMain();
  std::unique_ptr<Job> takeRunnable();                // under m_mutex
  bool forgetIfNewest(const QString& tag, JobId id);  // under m_mutex: drops the tag when `id` is its newest job
  void deliver(JobId id, const QString& tag, QPointer<QObject> receiver, std::function<void()> handOver);

  mutable std::mutex m_mutex;
  std::condition_variable m_wake, m_idle;
  std::deque<std::unique_ptr<Job>> m_queue;
  std::map<QString, JobId> m_latest;                                // the newest job of each tag: only it delivers
  std::map<QString, std::shared_ptr<std::atomic<bool>>> m_running;  // tag -> cancel flag of its running job
  std::map<JobId, std::shared_ptr<std::atomic<bool>>> m_runningById;
  std::map<JobId, QString> m_awaitingDelivery;  // done, result on its way to the UI thread
  JobId m_lastId = 0;
  size_t m_pendingDeliveries = 0;
  bool m_stopping = false;
  std::vector<std::thread> m_threads;
};

}  // namespace flowscope
