// The flowscope binary's CLI: info (text and JSON), convert, --help, and exit codes 0 / 1 / 2.
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

namespace {

struct Run {
  int code;
  QString out;
  QString err;
};

Run flowscope(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(FLOWSCOPE_BINARY, args);
  p.waitForFinished(120000);
  return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

QString data(const char* name) { return QString(FLOWSCOPE_TEST_DATA) + "/" + name; }

}  // namespace

class TestCli : public QObject {
  Q_OBJECT

 private slots:
  void infoJsonHasTheDocumentedKeys() {
    Run r = flowscope({"info", data("functions.pbtxt"), "--json"});
    QCOMPARE(r.code, 0);
    auto j = nlohmann::json::parse(r.out.toStdString());
    for (const char* key : {"format", "node_count", "op_histogram", "function_count", "signatures", "variables"})
      QVERIFY2(j.contains(key), key);
    QCOMPARE(j["node_count"].get<int>(), 5);
    QCOMPARE(j["function_count"].get<int>(), 2);
    QCOMPARE(j["op_histogram"]["Placeholder"].get<int>(), 2);
    QCOMPARE(j["producer"].get<int>(), 1882);
    QCOMPARE(j["inputs"].size(), size_t(2));
  }

  void infoText() {
    Run r = flowscope({"info", data("small_mlp.pbtxt")});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("Format:     GraphDef (text)"));
    QVERIFY(r.out.contains("Nodes:      7"));
    QVERIFY(r.out.contains("x:0: float32 [?,4]"));
    QVERIFY(r.out.contains("probs:0 (Softmax)"));
  }

  void badInputExitsOne() {
    Run r = flowscope({"info", data("huge_splat.pbtxt")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("huge_splat.pbtxt"));
    QVERIFY(r.out.isEmpty());
  }

  void badUsageExitsTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("unknown command") << QStringList{"frobnicate", "x"};
    QTest::newRow("missing file") << QStringList{"info"};
    QTest::newRow("unknown option") << QStringList{"info", "x.pb", "--bogus"};
    QTest::newRow("extra argument") << QStringList{"convert", "a", "b", "c"};
  }
  void badUsageExitsTwo() {
    QFETCH(QStringList, args);
    Run r = flowscope(args);
    QCOMPARE(r.code, 2);
    QVERIFY(!r.err.isEmpty());
  }

  void helpForEveryCommand_data() {
    QTest::addColumn<QString>("command");
    QTest::newRow("info") << "info";
    QTest::newRow("convert") << "convert";
    QTest::newRow("run") << "run";
    QTest::newRow("profile") << "profile";
  }
  void helpForEveryCommand() {
    QFETCH(QString, command);
    Run r = flowscope({command, "--help"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.startsWith("usage: flowscope " + command));
    QCOMPARE(flowscope({"--help"}).code, 0);
  }

  void runPrintsAndSavesOutputs() {
    QTemporaryDir dir;
    Run r = flowscope({"run", data("small_mlp.pbtxt"), "--input", "x=[[1,2,3,4]]", "--output", dir.path()});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("probs:0: float32 [1,3]"), qPrintable(r.out));
    QVERIFY(QFile::exists(dir.filePath("probs_0.npy")));
    Run back =
        flowscope({"run", data("small_mlp.pbtxt"), "--input", "x=" + dir.filePath("probs_0.npy"), "--fetch", "x:0"});
    QCOMPARE(back.code, 1);  // a [1,3] tensor does not fit the [?,4] placeholder: bad input, named
    QVERIFY2(back.err.contains("placeholder 'x' expects [?,4]"), qPrintable(back.err));
    Run loop = flowscope({"run", data("while_v1.pbtxt"), "--fetch", "while/Exit"});
    QCOMPARE(loop.code, 0);
    QVERIFY2(loop.out.contains("while/Exit: int32 []  min 10"), qPrintable(loop.out));
    Run typed = flowscope({"run", data("small_mlp.pbtxt"), "--input", "x=[[1,2,3,4]]:int32"});
    QCOMPARE(typed.code, 1);
    QVERIFY(typed.err.contains("has dtype int32 but placeholder 'x' expects float32"));
  }

  void profileReportsOpsAndTrace() {
    QTemporaryDir dir;
    QString trace = dir.filePath("trace.json");
    Run r = flowscope({"profile", data("small_mlp.pbtxt"), "--runs", "3", "--warmup", "1", "--trace", trace, "--json",
                       "--no-optimize"});
    QCOMPARE(r.code, 0);
    auto j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["runs"].get<int>(), 3);
    QCOMPARE(j["optimized"].get<bool>(), false);
    QVERIFY(j["ops"].size() >= 5);
    QVERIFY(j["slowest_nodes"].size() >= 5);
    QFile f(trace);
    QVERIFY(f.open(QIODevice::ReadOnly));
    auto t = nlohmann::json::parse(f.readAll().toStdString());
    QCOMPARE(t["traceEvents"].size(), size_t(3 * 6));  // 6 nodes run, 3 runs
    QCOMPARE(t["traceEvents"][0]["ph"].get<std::string>(), std::string("X"));
    Run text = flowscope({"profile", data("small_mlp.pbtxt"), "--runs", "2"});
    QCOMPARE(text.code, 0);
    QVERIFY(text.out.contains("slowest nodes"));
    QVERIFY2(text.out.contains("optimized first: 7 -> 5 nodes"), qPrintable(text.out));  // optimized by default
    QVERIFY(text.out.contains("_FusedMatMul"));
    QCOMPARE(flowscope({"run", data("small_mlp.pbtxt"), "--device", "vulkan:99"}).code, 2);  // no such device
    // --top N: how many of the slowest nodes are listed; 0 lists all of them.
    Run two = flowscope({"profile", data("small_mlp.pbtxt"), "--runs", "2", "--top", "2", "--json", "--no-optimize"});
    QCOMPARE(two.code, 0);
    QCOMPARE(nlohmann::json::parse(two.out.toStdString())["slowest_nodes"].size(), size_t(2));
    Run all = flowscope({"profile", data("small_mlp.pbtxt"), "--runs", "2", "--top", "0", "--json", "--no-optimize"});
    QCOMPARE(nlohmann::json::parse(all.out.toStdString())["slowest_nodes"].size(), j["slowest_nodes"].size());
    Run bad = flowscope({"profile", data("small_mlp.pbtxt"), "--top", "many"});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("--top needs a number"), qPrintable(bad.err));
  }

  void optimizeCommand() {
    QTemporaryDir dir;
    const QString cpm = QString(FLOWSCOPE_SHARED_GRAPHS) + "/pose-estimation-for-mobile/release/cpm_model/model.pb";
    const QString input = QFile::exists(cpm) ? cpm : data("small_mlp.pbtxt");
    const QString out = dir.filePath("optimized.pb"), dumps = dir.filePath("dumps");
    Run r = flowscope({"optimize", input, "--dump-after", dumps, "--out", out});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("model_pruning") && r.out.contains("remapper") && r.out.contains("nodes in"),
             qPrintable(r.out));
    QDir d(dumps);
    QVERIFY(d.exists("00_input.pbtxt"));
    QVERIFY2(d.exists("01_model_pruning.pbtxt"), qPrintable(d.entryList().join(",")));
    Run info = flowscope({"info", out, "--json"});  // the written graph loads again
    QCOMPARE(info.code, 0);
    auto j = nlohmann::json::parse(info.out.toStdString());
    Run all = flowscope({"optimize", input, "--json"});
    QCOMPARE(all.code, 0);
    auto full = nlohmann::json::parse(all.out.toStdString());
    QCOMPARE(full["nodes_after"].get<int>(), j["node_count"].get<int>());  // what was written is what the pipeline made
    QVERIFY(full["nodes_after"].get<int>() < full["nodes_before"].get<int>());
    Run js = flowscope({"optimize", input, "--json", "--passes", "pruning,remap"});
    QCOMPARE(js.code, 0);
    auto report = nlohmann::json::parse(js.out.toStdString());
    QCOMPARE(report["passes"].size(), size_t(4));  // two passes, two iterations
    QCOMPARE(report["passes"][0]["pass"].get<std::string>(), std::string("model_pruning"));
    QVERIFY(report["passes"][0].contains("nodes_before") && report["passes"][0].contains("seconds"));
    QCOMPARE(flowscope({"optimize", input, "--passes", "bogus"}).code, 2);
    QCOMPARE(flowscope({"optimize", input, "--out", input}).code, 2);  // never the input
    QCOMPARE(flowscope({"optimize", input, "--out", out}).code, 2);    // exists: needs --force
    QCOMPARE(flowscope({"optimize", data("malformed.pbtxt")}).code, 1);
  }

  // Optimizing an ONNX model into an .onnx file keeps to ONNX's op set (the NHWC pass is left out, and says so); the
  // file loads as ONNX again and computes what the input does.
  void optimizeOnnxWritesOnnx() {
    const QString model = QString(FLOWSCOPE_SHARED_GRAPHS) + "/../profiles/mobilenet_v2.onnx";
    if (!QFile::exists(model)) QSKIP("../shared/profiles/mobilenet_v2.onnx is absent");
    QTemporaryDir dir;
    const QString out = dir.filePath("optimized.onnx");
    Run r = flowscope({"optimize", model, "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("onnx_channels_last is left out"), qPrintable(r.err));
    auto info = nlohmann::json::parse(flowscope({"info", out, "--json"}).out.toStdString());
    QVERIFY2(info["format"].get<std::string>().find("ONNX") != std::string::npos, info.dump().c_str());
    auto before = nlohmann::json::parse(flowscope({"info", model, "--json"}).out.toStdString());
    QVERIFY(info["node_count"].get<int>() < before["node_count"].get<int>());
    for (const QString& file : {model, out})
      QCOMPARE(flowscope({"run", file, "--no-optimize", "--output", dir.filePath(QFileInfo(file).baseName())}).code, 0);
    QDir a(dir.filePath("mobilenet_v2")), b(dir.filePath("optimized"));
    const QStringList outputs = a.entryList({"*.npy"});
    QCOMPARE(outputs.size(), 1);
    QFile fa(a.filePath(outputs[0])), fb(b.filePath(outputs[0]));
    QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
    const QByteArray xa = fa.readAll(), xb = fb.readAll();
    QCOMPARE(xa.size(), xb.size());
    const int header = xa.indexOf('\n') + 1;
    const auto* pa = reinterpret_cast<const float*>(xa.constData() + header);
    const auto* pb = reinterpret_cast<const float*>(xb.constData() + header);
    double worst = 0, scale = 1e-6;
    for (qsizetype i = 0; i < (xa.size() - header) / 4; ++i) {
      scale = std::max(scale, std::abs(double(pa[i])));
      worst = std::max(worst, std::abs(double(pa[i]) - pb[i]));
    }
    QVERIFY2(worst / scale < 1e-4, qPrintable(QString("relative difference %1").arg(worst / scale)));
  }

  void guideTraceCompare() {
    Run guide = flowscope({"guide", "--calls", "20"});
    QCOMPARE(guide.code, 0);
    for (const char* line :
         {"orig_value: [[12.]]", "First branch, with graph: 1", "Second branch, with graph: 0",
          "tf.Tensor([1. 0.], shape=(2,), dtype=float32)", "my_relu(x=[1, -1])", "    x: float32 Tensor, shape=()",
          "InvalidArgumentError: indices[0] = 1 is not in [0, 1) [Op:GatherV2]",
          "Eager execution: ", "Graph execution: "})
      QVERIFY2(guide.out.contains(line), line);
    QCOMPARE(guide.out.count("Calculating MSE!"), 4);  // once traced, three times eagerly
    QCOMPARE(guide.out.count("Tracing!"), 3);
    for (const char* line : {"op: \"StatelessIf\"", "library {", "then_branch", "min_consumer: 12"})
      QVERIFY2(guide.out.contains(line), line);  // the as_graph_def() cell
    QTemporaryDir dir;
    const QString out = dir.filePath("power.pbtxt");
    Run trace = flowscope({"trace", "power", "--out", out});
    QCOMPARE(trace.code, 0);
    QVERIFY(trace.out.contains("power(x, y=100)"));
    Run info = flowscope({"info", out, "--json"});
    QCOMPARE(info.code, 0);
    QVERIFY(info.out.contains("__inference_power_"));
    QCOMPARE(flowscope({"trace", "no_such_function"}).code, 2);
    Run compare = flowscope({"compare", "power", "--calls", "50", "--json"});
    QCOMPARE(compare.code, 0);
    auto j = nlohmann::json::parse(compare.out.toStdString());
    QCOMPARE(j["calls"].get<int>(), 50);
    QVERIFY(j["eager_seconds"].get<double>() > 0 && j["graph_seconds"].get<double>() > 0);
    QCOMPARE(j["graph_ops"][0]["op"].get<std::string>(), std::string("MatMul"));
    QCOMPARE(j["graph_ops"][0]["count_per_call"].get<double>(), 100.0);
  }

  void scriptTraceAndCompare() {
    QTemporaryDir dir;
    const QString script = data("python/two_functions.py"), out = dir.filePath("running_sum.pbtxt");
    Run trace = flowscope({"trace", script, "--function", "running_sum", "--out", out});
    QVERIFY2(trace.code == 0, qPrintable(trace.err));
    QVERIFY2(trace.out.contains("running_sum(n)"), qPrintable(trace.out));
    QVERIFY(trace.err.contains("tf.Tensor(285"));  // the script's prints go to stderr
    Run info = flowscope({"info", out, "--json"});
    QCOMPARE(info.code, 0);
    auto j = nlohmann::json::parse(info.out.toStdString());
    QCOMPARE(j["format"].get<std::string>(), std::string("GraphDef (text)"));
    QVERIFY(j["op_histogram"].contains("StatelessWhile"));
    QCOMPARE(j["function_count"].get<int>(), 2);
    Run run = flowscope({"run", out, "--input", "n=5"});
    QVERIFY2(run.code == 0 && run.out.contains("30"), qPrintable(run.out + run.err));  // 0 + 1 + 4 + 9 + 16
    Run compare = flowscope({"compare", script, "scaled_relu", "--calls", "5", "--json"});
    QVERIFY2(compare.code == 0, qPrintable(compare.err));
    auto c = nlohmann::json::parse(compare.out.toStdString());
    QCOMPARE(c["function"].get<std::string>(), std::string("scaled_relu"));
    QCOMPARE(c["recorded_calls"].get<int>(), 2);
    QCOMPARE(c["rounds"].get<int>(), 5);
    QVERIFY(c["outputs_equal"].get<bool>());
    QVERIFY(c["eager"]["median_us"].get<double>() > 0 && c["graph"]["median_us"].get<double>() > 0);
    Run table = flowscope({"compare", script, "running_sum", "--calls", "3"});
    QVERIFY2(table.code == 0 && table.out.contains("than eager (median per call); outputs equal"),
             qPrintable(table.out));
    Run raised = flowscope({"trace", data("python/raises.py"), "--out", dir.filePath("double.pb")});
    QCOMPARE(raised.code, 1);
    QVERIFY2(raised.err.contains("raises.py raised: RuntimeError: this script fails on purpose"),
             qPrintable(raised.err));
    Run unknown = flowscope({"compare", script, "no_such_function"});
    QCOMPARE(unknown.code, 1);
    QVERIFY2(unknown.err.contains("no tf.function named no_such_function"), qPrintable(unknown.err));
    QCOMPARE(flowscope({"trace", data("python/no_such_script.py")}).code, 1);
  }

  void screenshotRendersGroups() {
    QTemporaryDir dir;
    const QString graph = dir.filePath("synth.pb"), png = dir.filePath("shot.png");
    QCOMPARE(flowscope({"synth", "--nodes", "600", "--out", graph}).code, 0);
    Run collapsed = flowscope({"screenshot", graph, "--out", png, "--size", "800x600"});
    QCOMPARE(collapsed.code, 0);
    QVERIFY2(collapsed.out.contains("(1 groups)"), qPrintable(collapsed.out));
    QImage image(png);
    QCOMPARE(image.size(), QSize(800, 600));
    Run expanded = flowscope({"screenshot", graph, "--out", png, "--expand", "all", "--theme", "dark"});
    QCOMPARE(expanded.code, 0);
    QVERIFY2(!expanded.out.contains("(1 groups)"), qPrintable(expanded.out));
    Run pass = flowscope({"screenshot", graph, "--out", png, "--pass", "1"});  // pruning bypasses the weight reads
    QCOMPARE(pass.code, 0);
    QVERIFY2(pass.out.contains("after pass 1 (model_pruning)"), qPrintable(pass.out));
    QCOMPARE(flowscope({"screenshot", graph, "--out", png, "--pass", "999"}).code, 2);
    Run heat =
        flowscope({"screenshot", graph, "--out", png, "--overlay", "profile", "--expand", "all", "--size", "1200x900"});
    QCOMPARE(heat.code, 0);
    QCOMPARE(QImage(png).size(), QSize(1200, 900));
    QCOMPARE(flowscope({"screenshot", graph, "--out", png, "--overlay", "bogus"}).code, 2);
    Run unknown = flowscope({"screenshot", graph, "--out", png, "--expand", "no/such/scope"});
    QCOMPARE(unknown.code, 2);
    QVERIFY2(unknown.err.contains("its top-level scopes: model"), qPrintable(unknown.err));
    QCOMPARE(flowscope({"screenshot", graph, "--out", png, "--size", "12"}).code, 2);
  }

  void convertRoundTrip() {
    QTemporaryDir dir;
    QString pb = dir.filePath("mlp.pb");
    QString txt = dir.filePath("mlp.pbtxt");
    QCOMPARE(flowscope({"convert", data("small_mlp.pbtxt"), pb}).code, 0);
    QCOMPARE(flowscope({"convert", pb, txt}).code, 0);
    Run info = flowscope({"info", txt, "--json"});
    QCOMPARE(nlohmann::json::parse(info.out.toStdString())["node_count"].get<int>(), 7);
  }

  void convertNeverOverwritesSilently() {
    QTemporaryDir dir;
    QString out = dir.filePath("exists.pb");
    QFile f(out);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("keep me");
    f.close();
    Run r = flowscope({"convert", data("small_mlp.pbtxt"), out});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("--force"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("keep me"));
    f.close();
    QCOMPARE(flowscope({"convert", data("small_mlp.pbtxt"), out, "--force"}).code, 0);
    Run self = flowscope({"convert", out, out, "--force"});
    QCOMPARE(self.code, 2);
    QVERIFY(self.err.contains("refusing to overwrite the input"));
  }

  // Without any Vulkan driver, --device vulkan says so and runs on the CPU; `devices` says why there is none.
  void noVulkanDeviceFallsBackToCpu() {
    if (!FLOWSCOPE_WITH_VULKAN) QSKIP("built without the Vulkan backend (FLOWSCOPE_VULKAN=OFF)");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("VK_ICD_FILENAMES", "/nonexistent/flowscope-test-icd.json");
    env.insert("VK_DRIVER_FILES", "/nonexistent/flowscope-test-icd.json");
    Run r = flowscope({"run", data("small_mlp.pbtxt"), "--device", "vulkan"}, env);
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.contains("running on the CPU"), qPrintable(r.err));
    QVERIFY(r.out.contains("probs:0"));
    Run d = flowscope({"devices"}, env);
    QCOMPARE(d.code, 0);
    QVERIFY2(d.out.contains("vulkan     not available"), qPrintable(d.out));
    Run bad = flowscope({"run", data("small_mlp.pbtxt"), "--device", "gpu"});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("no backend 'gpu'") && bad.err.contains("cpu, "), qPrintable(bad.err));
  }

  // With a device (lavapipe in CI): the profile names the device, the backend of each op and the placement.
  void profileOnVulkanShowsPlacement() {
    Run d = flowscope({"devices", "--json"});
    QCOMPARE(d.code, 0);
    auto devices = nlohmann::json::parse(d.out.toStdString());
    if (devices["vulkan"].empty()) QSKIP("no Vulkan device on this machine; CI installs mesa-vulkan-drivers");
    Run r = flowscope({"profile", data("small_mlp.pbtxt"), "--device", "vulkan", "--runs", "3", "--json"});
    QCOMPARE(r.code, 0);
    auto j = nlohmann::json::parse(r.out.toStdString());
    QVERIFY(j["device"].get<std::string>().rfind("vulkan:", 0) == 0);
    QCOMPARE(j["placement"]["x"].get<std::string>(), std::string("cpu: fed"));
    bool vulkanOp = false;
    for (const auto& op : j["ops"]) vulkanOp |= op["backend"] == "vulkan";
    QVERIFY(vulkanOp);
    QCOMPARE(j["precision"].get<std::string>(), std::string("fp32"));
  }

  // --precision: the profile states it and what the backend made of it; the CPU says it stays fp32; a precision
  // that does not exist is a usage error naming the choices.
  void precisionIsStated() {
    Run cpu = flowscope({"profile", data("small_mlp.pbtxt"), "--precision", "bf16", "--runs", "1", "--json"});
    QCOMPARE(cpu.code, 0);
    QVERIFY2(cpu.err.contains("precision fp32 (the cpu backend computes in fp32; bf16 applies to Vulkan)"),
             qPrintable(cpu.err));
    QCOMPARE(nlohmann::json::parse(cpu.out.toStdString())["precision"].get<std::string>(), std::string("bf16"));
    Run bad = flowscope({"run", data("small_mlp.pbtxt"), "--precision", "fp8"});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("precision 'fp8' is not one of fp32, fp16, bf16"), qPrintable(bad.err));
    Run d = flowscope({"devices", "--json"});
    if (nlohmann::json::parse(d.out.toStdString())["vulkan"].empty()) QSKIP("no Vulkan device on this machine");
    Run gpu =
        flowscope({"profile", data("small_mlp.pbtxt"), "--device", "vulkan", "--precision", "fp16", "--runs", "1"});
    QCOMPARE(gpu.code, 0);
    QVERIFY2(gpu.out.contains("precision fp16: MatMul and convolutions"), qPrintable(gpu.out));
  }
};

QTEST_APPLESS_MAIN(TestCli)
#include "tst_cli.moc"
