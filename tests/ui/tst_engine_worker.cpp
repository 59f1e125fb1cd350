// The engine worker: a newer job of a tag supersedes the queued and running ones (only the newest delivers), tags
// run side by side, results reach only living receivers, cancelled jobs still deliver, progress arrives.
#include <QSignalSpy>
#include <QtTest>

#include <atomic>
#include <thread>

#include "session/engine_worker.h"

using namespace flowscope;

namespace {

// Work that runs until cancelled (or `ms` pass), then says how it ended.
std::function<QString(JobControl&)> waitingWork(QString name, int ms, std::atomic<int>* started = nullptr) {
  return [name, ms, started](JobControl& control) {
    if (started) ++*started;
    for (int i = 0; i < ms && !control.isCancelled(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return name + (control.isCancelled() ? " cancelled" : " done");
  };
}

// Work that holds until `gate` opens (so a test can queue behind it without racing it), then says how it ended.
std::function<QString(JobControl&)> gatedWork(QString name, std::atomic<bool>* gate, std::atomic<int>* started) {
  return [name, gate, started](JobControl& control) {
    ++*started;
    while (!gate->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return name + (control.isCancelled() ? " cancelled" : " done");
  };
}

}  // namespace

class TestEngineWorker : public QObject {
  Q_OBJECT

 private slots:
  void newerJobOfATagSupersedesTheOlderOnes() {
    EngineWorker worker(nullptr, 2);
    QStringList delivered;
    std::atomic<int> started{0};
    std::atomic<bool> gate{false};
    QMap<JobId, bool> finished;  // whether each delivered (the threads may report the first and third either way)
    connect(&worker, &EngineWorker::jobFinished, this, [&](JobId id, const QString&, bool d) { finished[id] = d; });
    auto collect = [&](QString r) { delivered << r; };
    const JobId first =
        worker.submit<QString>("layout", "first", &worker, gatedWork("first", &gate, &started), collect);
    QTRY_COMPARE(started.load(), 1);  // running
    const JobId second =
        worker.submit<QString>("layout", "second", &worker, waitingWork("second", 5000, &started), collect);  // queued
    const JobId third = worker.submit<QString>("layout", "third", &worker, waitingWork("third", 10, &started), collect);
    QCOMPARE(finished, (QMap<JobId, bool>{{second, false}}));  // dropped from the queue at once
    QVERIFY(worker.isBusy("layout"));
    gate = true;  // the first may end only now, so the second cannot slip in before the third supersedes it
    QVERIFY(worker.waitForIdle(10000));
    QCOMPARE(delivered, QStringList{"third done"});  // the first was cancelled and dropped, the second never ran
    QCOMPARE(started.load(), 2);
    QCOMPARE(finished, (QMap<JobId, bool>{{first, false}, {second, false}, {third, true}}));
  }

  void tagsRunSideBySideAndCancelledJobsStillDeliver() {
    EngineWorker worker(nullptr, 2);
    QStringList delivered;
    std::atomic<int> started{0};
    auto collect = [&](QString r) { delivered << r; };
    const JobId slow =
        worker.submit<QString>("profile", "Profiling", &worker, waitingWork("profile", 600000, &started), collect);
    worker.submit<QString>("load", "Loading", &worker, waitingWork("load", 10, &started), collect);
    QTRY_COMPARE(delivered, QStringList{"load done"});  // did not wait behind the profile
    QVERIFY(worker.isBusy("profile"));
    QSignalSpy cancelled(&worker, &EngineWorker::jobCancelled);
    worker.cancel(slow);
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(worker.waitForIdle(10000));
    QCOMPARE(delivered, (QStringList{"load done", "profile cancelled"}));
    QVERIFY(!worker.isBusy("profile"));
  }

  void resultsReachOnlyLivingReceivers() {
    EngineWorker worker(nullptr, 1);
    bool delivered = false;
    auto* receiver = new QObject;
    worker.submit<int>(
        "t", {}, receiver, [](JobControl&) { return 42; }, [&](int) { delivered = true; });
    delete receiver;
    QVERIFY(worker.waitForIdle(10000));
    QVERIFY(!delivered);
  }

  // A tag is forgotten once its newest job delivered or was dropped: unique tags ("export:7") do not pile up.
  void tagsAreForgottenWhenDone() {
    EngineWorker worker(nullptr, 2);
    int delivered = 0;
    for (int i = 0; i < 50; ++i)
      worker.submit<int>(
          QString("unique:%1").arg(i), {}, &worker, [i](JobControl&) { return i; }, [&](int) { ++delivered; });
    std::atomic<bool> gate{false};
    std::atomic<int> started{0};
    worker.submit<QString>("held", {}, &worker, gatedWork("held", &gate, &started), [](QString) {});
    const JobId queued = worker.submit<QString>("queued", {}, &worker, waitingWork("queued", 1), [](QString) {});
    worker.submit<QString>("other", {}, &worker, gatedWork("other", &gate, &started), [](QString) {});
    QTRY_COMPARE(started.load(), 2);  // both threads held: "queued" waits
    worker.cancel(queued);
    gate = true;
    QVERIFY(worker.waitForIdle(10000));
    QTRY_COMPARE(delivered, 50);
    QCOMPARE(worker.trackedTags(), size_t(0));
  }

  void progressAndQueuedSignals() {
    EngineWorker worker(nullptr, 1);
    QSignalSpy queued(&worker, &EngineWorker::jobQueued);
    QList<double> fractions;
    connect(&worker, &EngineWorker::jobProgress, this, [&](JobId, double f, const QString&) { fractions << f; });
    const JobId id = worker.submit<int>(
        "t", "Counting", &worker,
        [](JobControl& control) {
          for (int i = 1; i <= 4; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(60));
            control.progress(i / 4.0);
          }
          return 0;
        },
        [](int) {});
    QCOMPARE(queued.count(), 1);  // at once, on this thread
    QCOMPARE(queued.first().at(0).value<JobId>(), id);
    QVERIFY(worker.waitForIdle(10000));
    QVERIFY(fractions.size() >= 2);
    QCOMPARE(fractions.last(), 1.0);
  }
};

QTEST_MAIN(TestEngineWorker)
#include "tst_engine_worker.moc"
