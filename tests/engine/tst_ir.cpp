// IR units: dtypes, shapes, tensors, attrs, printer, structural hash and verifier.
#include <QFile>
#include <QtTest>

#include <malloc.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <thread>

#include "base/huge_pages.h"
#include "base/thread_pool.h"
#include "ir/buffer_pool.h"
#include "ir/hash.h"
#include "ir/interned_string.h"
#include "ir/printer.h"
#include "ir/verify.h"
#include "ops/op_registry.h"

using namespace flowscope;

namespace {

// Whether the mapping holding `p` is advised for transparent huge pages ("hg" among its VmFlags in /proc/self/smaps).
bool advisedForHugePages(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto address = reinterpret_cast<uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    uintptr_t begin = 0, end = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &begin, &end) == 2 && line.find('-') < line.find(' '))
      inside = begin <= address && address < end;
    else if (inside && line.rfind("VmFlags:", 0) == 0)
      return (line + " ").find(" hg ") != std::string::npos;
  }
  return false;
}

Node makeNode(const std::string& name, const std::string& op, std::vector<std::string> inputs = {},
              AttrMap attrs = {}) {
  Node n;
  n.name = name;
  n.op = op;
  for (const auto& in : inputs) {
    if (in[0] == '^') {
      n.controlInputs.push_back(in.substr(1));
      continue;
    }
    TensorRef ref;
    parseTensorRef(in, false, &ref);
    n.inputs.push_back(ref);
  }
  n.attrs = std::move(attrs);
  return n;
}

AttrMap floatT() { return {{"T", AttrValue::fromType(DType::kFloat)}}; }

Graph smallGraph() {
  Graph g;
  g.addNode(makeNode("x", "Placeholder", {}, {{"dtype", AttrValue::fromType(DType::kFloat)}}));
  g.addNode(makeNode("c", "Const", {},
                     {{"dtype", AttrValue::fromType(DType::kFloat)},
                      {"value", AttrValue::fromTensor(Tensor::scalar<float>(DType::kFloat, 2.0f))}}));
  g.addNode(makeNode("y", "Mul", {"x", "c"}, floatT()));
  fillDefaultAttrs(g);
  return g;
}

std::vector<std::string> issueMessages(const Graph& g) {
  std::vector<std::string> out;
  for (const auto& issue : verifyGraph(g, OpRegistry::global().lookupWith(&g.library))) out.push_back(issue.toString());
  return out;
}

bool anyContains(const std::vector<std::string>& messages, const char* needle) {
  for (const auto& m : messages)
    if (m.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace

class TestIr : public QObject {
  Q_OBJECT

 private slots:
  // Interned strings: equal text is one string, whichever thread interned it; they order and compare as text.
  void internedStrings() {
    const std::string built = std::string("data_") + "format";
    InternedString a("data_format"), b(built), empty;
    QVERIFY(a == b && &a.str() == &b.str());
    QVERIFY(empty.empty() && empty == InternedString(""));
    QVERIFY(a == "data_format" && a == std::string_view("data_format") && !(a == "data_formats"));
    QVERIFY(InternedString("T") < a && a < InternedString("strides") && a > std::string_view("dat"));
    QCOMPARE(a + "/x", std::string("data_format/x"));
    const std::string* seen[4] = {};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&seen, t] {
        for (int k = 0; k < 1000; ++k) InternedString("key_" + std::to_string(k));
        seen[t] = &InternedString("key_7").str();
      });
    for (auto& thread : threads) thread.join();
    for (const std::string* s : seen) QCOMPARE(s, &InternedString("key_7").str());
    AttrMap attrs{{"strides", AttrValue::fromInt(1)}, {"T", AttrValue::fromInt(2)}};
    QCOMPARE(&attrs.begin()->first.str(), &InternedString("T").str());  // sorted, and keys are the interned strings
  }

  void dtypeNumbering_data() {
    QTest::addColumn<int>("wire");
    QTest::addColumn<QString>("name");
    QTest::newRow("float") << 1 << "float32";
    QTest::newRow("int32") << 3 << "int32";
    QTest::newRow("string") << 7 << "string";
    QTest::newRow("int64") << 9 << "int64";
    QTest::newRow("bool") << 10 << "bool";
    QTest::newRow("bfloat16") << 14 << "bfloat16";
    QTest::newRow("half") << 19 << "float16";
    QTest::newRow("resource") << 20 << "resource";
    QTest::newRow("float_ref maps to float") << 101 << "float32";
    QTest::newRow("int32_ref maps to int32") << 103 << "int32";
    QTest::newRow("float4_e2m1fn") << 33 << "float4_e2m1fn";
  }
  void dtypeNumbering() {
    QFETCH(int, wire);
    QFETCH(QString, name);
    auto dtype = dtypeFromWire(wire);
    QVERIFY(dtype.has_value());
    QCOMPARE(QString::fromUtf8(dtypeName(*dtype).data()), name);
    QCOMPARE(parseDType(dtypeName(*dtype)), dtype);
    QCOMPARE(parseDType(dtypeEnumName(*dtype)), dtype);
  }
  void dtypeRejectsUnknown() {
    QVERIFY(!dtypeFromWire(34).has_value());
    QVERIFY(!dtypeFromWire(-1).has_value());
    QVERIFY(!parseDType("float33").has_value());
    QCOMPARE(parseDType("DT_FLOAT_REF"), std::optional<DType>(DType::kFloat));
    QCOMPARE(dtypeSize(DType::kComplex128), 16);
    QCOMPARE(dtypeSize(DType::kHalf), 2);
  }

  void shapes() {
    Shape s{2, -1, 3};
    QCOMPARE(s.rank(), 3);
    QVERIFY(!s.isFullyDefined());
    QCOMPARE(s.numElements(), int64_t(-1));
    QCOMPARE(QString::fromStdString(s.toString()), QString("[2,?,3]"));
    QVERIFY(s.isCompatibleWith(Shape{2, 5, 3}));
    QVERIFY(!s.isCompatibleWith(Shape{3, 5, 3}));
    QVERIFY(!s.isCompatibleWith(Shape{2, 5}));
    QVERIFY(Shape::unknownRank().isCompatibleWith(Shape{1}));
    QCOMPARE(Shape::unknownRank().rank(), -1);
    QCOMPARE(Shape{}.numElements(), int64_t(1));
    QCOMPARE((Shape{4, 0, 7}).numElements(), int64_t(0));
    QCOMPARE((Shape{int64_t(1) << 40, int64_t(1) << 40}).numElements(), int64_t(-1));  // overflow is "unknown"
  }

  void tensorsAreAlignedAndShared() {
    Tensor t(DType::kFloat, Shape{3, 5});
    QCOMPARE(reinterpret_cast<uintptr_t>(t.data<float>()) % kTensorAlignment, uintptr_t(0));
    QCOMPARE(t.byteSize(), size_t(60));
    QCOMPARE(t.data<float>()[14], 0.0f);
    Tensor shared = t;
    shared.data<float>()[0] = 7.0f;
    QCOMPARE(t.data<float>()[0], 7.0f);  // copies share the buffer
    Tensor deep = t.clone();
    deep.data<float>()[0] = 1.0f;
    QCOMPARE(t.data<float>()[0], 7.0f);
    QVERIFY(!deep.contentEquals(t));
    QVERIFY(t.reshaped(Shape{15}).contentEquals(shared.reshaped(Shape{15})));
  }

  // A freed buffer stays in this thread's pool for reuse until the thread gives the pool back.
  void freedBuffersGoBackOnRequest() {
    releaseCachedTensorBuffers();
    { Tensor t(DType::kFloat, Shape{1024, 1024}); }
    QVERIFY(releaseCachedTensorBuffers() >= size_t(4) << 20);  // the data, and the block that held it
    QCOMPARE(releaseCachedTensorBuffers(), size_t(0));
    Tensor again(DType::kFloat, Shape{1024, 1024});  // the pool still works after it was emptied
    QCOMPARE(again.byteSize(), size_t(4) << 20);
  }

  // From 64 KiB on, a new tensor takes the most recently freed buffer of its class or of the two above it (up to
  // 2 MiB), whose lines are the likeliest still in cache; it goes back to the class of the bytes it holds.
  void newTensorsTakeTheWarmestBufferThatFits() {
    releaseCachedTensorBuffers();
    const void* older = nullptr;
    const void* warmer = nullptr;
    {
      Tensor twoClassesUp(DType::kFloat, Shape{400 * 1024});  // 1600 KiB: the 2 MiB class, freed last
      Tensor ofItsClass(DType::kFloat, Shape{200 * 1024});    // 800 KiB: the 1 MiB class
      older = ofItsClass.data<float>();
      warmer = twoClassesUp.data<float>();
    }
    {
      Tensor quarter(DType::kFloat, Shape{130 * 1024});  // 520 KiB: the 1 MiB class is the first that fits
      QCOMPARE(static_cast<const void*>(quarter.data<float>()), warmer);
      QCOMPARE(quarter.byteSize(), size_t(520) << 10);
      Tensor next(DType::kFloat, Shape{130 * 1024});  // the 2 MiB buffer is taken: the 1 MiB one is what is left
      QCOMPARE(static_cast<const void*>(next.data<float>()), older);
    }
    {
      Tensor big(DType::kFloat, Shape{400 * 1024});  // the 2 MiB buffer went back to its own class
      QCOMPARE(static_cast<const void*>(big.data<float>()), warmer);
    }
    const void* inTheSmallestWarmClass = nullptr;
    {
      Tensor t(DType::kFloat, Shape{15 * 1024});  // 60 KiB: the 64 KiB class
      inTheSmallestWarmClass = t.data<float>();
    }
    Tensor small(DType::kFloat, Shape{5 * 1024});  // 20 KiB, one class below it: small tensors keep to their own
    QVERIFY(static_cast<const void*>(small.data<float>()) != inTheSmallestWarmClass);
    QVERIFY(releaseCachedTensorBuffers() >= size_t(3) << 20);  // both buffers back in the pool, accounted by class
  }

  // Graph constants take exactly their bytes (to the 64-byte multiple), not the pool's power-of-two class, and a
  // freed one never enters the pool (whose classes it would not fill).
  void persistentTensorsAreExactAndStayOutOfThePool() {
    releaseCachedTensorBuffers();
    {
      Tensor t = Tensor::persistent(DType::kFloat, Shape{3, 3, 8, 9});  // 2592 bytes: the pool would take 4096
      QCOMPARE(t.byteSize(), size_t(2592));
      QCOMPARE(reinterpret_cast<uintptr_t>(t.data<float>()) % kTensorAlignment, uintptr_t(0));
      QCOMPARE(t.data<float>()[647], 0.0f);
      QVERIFY(malloc_usable_size(t.data<float>()) < 2592 + 2 * kTensorAlignment);
      QCOMPARE(Tensor::persistent(DType::kString, Shape{2}).strings().size(), size_t(2));
      QCOMPARE(Tensor::persistent(DType::kInt8, Shape{0}).byteSize(), size_t(0));
    }
    QCOMPARE(releaseCachedTensorBuffers(), size_t(0));
  }

  // Tensors from 2 MiB on start on a huge page's boundary, and the kernel is asked to back them with huge pages.
  void largeTensorsAskForHugePages() {
    Tensor t(DType::kFloat, Shape{1024, 1024});
    QCOMPARE(reinterpret_cast<uintptr_t>(t.data<float>()) % kHugePageBytes, uintptr_t(0));
    if (!QFile::exists("/sys/kernel/mm/transparent_hugepage/enabled")) QSKIP("this kernel has no huge pages");
    QVERIFY(advisedForHugePages(t.data<float>()));
    Tensor small(DType::kFloat, Shape{1024});
    QVERIFY(reinterpret_cast<uintptr_t>(small.data<float>()) % kTensorAlignment == 0);
  }

  // A kernel's packed weights: 64-byte aligned, one after another in a region advised for huge pages, the region
  // filled from its start again once all are gone; a large buffer in a region of its own; moves pass the bytes on.
  void packedBytesShareRegions() {
    const void* first = nullptr;
    {
      PackedBytes a(1000), b(64);
      first = a.data();
      QCOMPARE(reinterpret_cast<uintptr_t>(a.data()) % 64, uintptr_t(0));
      QCOMPARE(static_cast<const std::byte*>(b.data()), static_cast<const std::byte*>(a.data()) + 1024);
      std::memset(a.data(), 1, a.size());
      PackedBytes moved = std::move(b);
      QVERIFY(b.data() == nullptr && moved.size() == 64);
      PackedBytes large(size_t{20} << 20);
      QCOMPARE(reinterpret_cast<uintptr_t>(large.data()) % kHugePageBytes, uintptr_t(0));
      QVERIFY(large.data() != static_cast<const std::byte*>(a.data()) + 1088);
      if (QFile::exists("/sys/kernel/mm/transparent_hugepage/enabled")) {
        QVERIFY(advisedForHugePages(a.data()));
        QVERIFY(advisedForHugePages(large.data()));
      }
    }
    PackedBytes again(128);
    QCOMPARE(again.data(), first);
  }

  void checkedByteSizeRefusesHugeShapes() {
    auto huge = Tensor::checkedByteSize(DType::kFloat, Shape{1000000, 1000000}, size_t(1) << 30);
    QVERIFY(!huge.hasValue());
    QVERIFY(huge.status().message().find("more than") != std::string::npos);
    auto unknown = Tensor::checkedByteSize(DType::kFloat, Shape{-1, 3}, 1000);
    QVERIFY(!unknown.hasValue());
    QCOMPARE(*Tensor::checkedByteSize(DType::kInt64, Shape{4}, 1000), size_t(32));
  }

  void halfConversions_data() {
    QTest::addColumn<float>("value");
    QTest::newRow("one") << 1.0f;
    QTest::newRow("negative") << -2.5f;
    QTest::newRow("small") << 0.000061035156f;
    QTest::newRow("subnormal") << 0.0000000596f;
    QTest::newRow("max") << 65504.0f;
    QTest::newRow("zero") << 0.0f;
  }
  void halfConversions() {
    QFETCH(float, value);
    float back = halfToFloat(floatToHalf(value));
    QVERIFY2(std::fabs(back - value) <= std::fabs(value) * 1e-3f + 1e-7f, qPrintable(QString::number(back)));
  }
  void halfSpecials() {
    QVERIFY(std::isinf(halfToFloat(floatToHalf(1e10f))));
    QVERIFY(std::isnan(halfToFloat(floatToHalf(std::nanf("")))));
    QCOMPARE(halfToFloat(0x3c00), 1.0f);
    QCOMPARE(bfloat16ToFloat(0x3f80), 1.0f);
  }

  void attrEqualityAndPrinting() {
    AttrList ints;
    ints.i = {1, 2, 2, 1};
    AttrValue a = AttrValue::fromList(ints);
    QCOMPARE(QString::fromStdString(a.toString()), QString("[1, 2, 2, 1]"));
    QVERIFY(a == AttrValue::fromList(ints));
    ints.i[3] = 2;
    QVERIFY(!(a == AttrValue::fromList(ints)));
    QCOMPARE(QString::fromStdString(AttrValue::fromString("NH\"WC").toString()), QString("\"NH\\\"WC\""));
    QVERIFY(!(AttrValue::fromInt(1) == AttrValue::fromFloat(1.0f)));
    QVERIFY(!(AttrValue::fromList({}) == AttrValue()));  // empty list differs from unset
  }

  // AttrMap keeps std::map's order and its insertion rules: emplace never overwrites, the first of equal keys in a
  // list wins, operator[] inserts an unset value in order.
  void attrMapBehavesLikeAnOrderedMap() {
    AttrMap m{{"strides", AttrValue::fromInt(2)}, {"T", AttrValue::fromInt(1)}, {"strides", AttrValue::fromInt(9)}};
    QCOMPARE(m.size(), size_t(2));
    QCOMPARE(m.at("strides").i(), int64_t(2));
    QVERIFY(!m.emplace("T", AttrValue::fromInt(5)).second);
    QCOMPARE(m.at("T").i(), int64_t(1));
    QVERIFY(!m.insert_or_assign("T", AttrValue::fromInt(5)).second);
    QCOMPARE(m.at("T").i(), int64_t(5));
    QVERIFY(!m["data_format"].isSet());
    m["_class"] = AttrValue::fromString("loc");
    m.emplace("padding", m.at("_class"));  // a value of the map itself may be inserted
    QStringList keys;
    for (const auto& [key, value] : m) keys << QString::fromStdString(key);
    QCOMPARE(keys, (QStringList{"T", "_class", "data_format", "padding", "strides"}));  // byte order: 'T' < '_' < 'd'
    QCOMPARE(m.at("padding").s(), std::string("loc"));
    QCOMPARE(m.count("padding"), size_t(1));
    QCOMPARE(m.erase("padding"), size_t(1));
    QCOMPARE(m.erase("padding"), size_t(0));
    QVERIFY(m.find("padding") == m.end());
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, m.at("padding"));
    AttrMap same = m;
    QVERIFY(same == m);
    same["T"] = AttrValue::fromInt(6);
    QVERIFY(!(same == m));
  }

  void tensorRefParsing() {
    TensorRef r;
    QVERIFY(parseTensorRef("a/b:2", false, &r));
    QCOMPARE(QString::fromStdString(r.node), QString("a/b"));
    QCOMPARE(r.index, 2);
    QVERIFY(!parseTensorRef("a:z:0", false, &r));
    QVERIFY(parseTensorRef("a:z:0", true, &r));
    QCOMPARE(QString::fromStdString(r.outputArg), QString("z"));
    QVERIFY(!parseTensorRef("a:-1", false, &r));
    QVERIFY(!parseTensorRef("^a", false, &r));
    QVERIFY(!parseTensorRef(":1", false, &r));
    QCOMPARE(QString::fromStdString(TensorRef{"n", 0, ""}.toString()), QString("n"));
    QCOMPARE(QString::fromStdString(TensorRef{"n", 3, ""}.toString()), QString("n:3"));
  }

  void printerIsStable() {
    Graph g = smallGraph();
    std::string text = printGraph(g);
    QVERIFY(text.find("y = Mul(x, c) {T=float32}") != std::string::npos);
    QVERIFY(text.find("c = Const() {dtype=float32, value=tensor<float32 []: [2]>}") != std::string::npos);
    QCOMPARE(printGraph(g), text);
  }

  void hashIgnoresNodeOrderButSeesChanges() {
    Graph a = smallGraph();
    Graph b;
    for (size_t i = a.size(); i-- > 0;) b.addNode(a.node(i));
    QCOMPARE(hashGraph(a), hashGraph(b));
    Graph c = a;
    c.mutableNode(2).inputs[1].index = 1;
    QVERIFY(hashGraph(c) != hashGraph(a));
    Graph d = a;
    d.mutableNode(1).attrs["value"] = AttrValue::fromTensor(Tensor::scalar<float>(DType::kFloat, 3.0f));
    QVERIFY(hashGraph(d) != hashGraph(a));
    Graph e = a;
    e.mutableNode(0).device = "/device:CPU:0";
    QVERIFY(hashGraph(e) != hashGraph(a));
    QCOMPARE(hashGraph(smallGraph()), hashGraph(a));  // snapshots (copy-on-write) leave the original alone
  }

  void copyOnWriteSnapshots() {
    Graph a = smallGraph();
    Graph snapshot = a;
    a.mutableNode(2).op = "Add";
    QCOMPARE(QString::fromStdString(snapshot.node(2).op), QString("Mul"));
    QCOMPARE(QString::fromStdString(a.node(2).op), QString("Add"));
  }

  void verifierAcceptsValidGraph() { QVERIFY(issueMessages(smallGraph()).empty()); }

  // A pipeline checks only what its passes change when its input carries the mark; so any change must clear it.
  void verifiedMarkFollowsCopiesAndClearsOnChange() {
    Graph a = smallGraph();
    QVERIFY(!a.knownVerified());
    a.markVerified();
    Graph copy = a;
    QVERIFY(copy.knownVerified());
    copy.mutableNode(2).inputs[0].index = 7;
    QVERIFY(!copy.knownVerified());
    QVERIFY(a.knownVerified());  // the original's nodes did not change
    Graph added = a;
    added.addNode(a.node(0));
    QVERIFY(!added.knownVerified());
    Graph removed = a;
    removed.removeNodes([](const Node& n) { return n.op == "Placeholder"; });
    QVERIFY(!removed.knownVerified());
    Graph renamed = a;
    renamed.renameNode(0, "other");
    QVERIFY(!renamed.knownVerified());
    Graph replaced = a;
    replaced.replaceNode(1, a.node(1));
    QVERIFY(!replaced.knownVerified());
    Graph moved = std::move(a);
    QVERIFY(moved.knownVerified());
  }

  void verifierFindsProblems_data() {
    QTest::addColumn<int>("caseId");
    QTest::addColumn<QString>("expected");
    QTest::newRow("duplicate") << 0 << "duplicate node name 'x'";
    QTest::newRow("dangling data") << 1 << "names no node";
    QTest::newRow("dangling control") << 2 << "control input '^ghost' names no node";
    QTest::newRow("arity") << 3 << "expects 2 data inputs, got 1";
    QTest::newRow("type mismatch") << 4 << "expects float32 but 'i' is int32";
    QTest::newRow("output index") << 5 << "reads output 3 but op 'Placeholder' has 1 outputs";
    QTest::newRow("cycle") << 6 << "cycle";
  }
  void verifierFindsProblems() {
    QFETCH(int, caseId);
    QFETCH(QString, expected);
    Graph g = smallGraph();
    switch (caseId) {
      case 0:
        g.addNode(makeNode("x", "NoOp"));
        break;
      case 1:
        g.addNode(makeNode("z", "Relu", {"ghost"}, floatT()));
        break;
      case 2:
        g.addNode(makeNode("z", "NoOp", {"^ghost"}));
        break;
      case 3:
        g.addNode(makeNode("z", "Add", {"x"}, floatT()));
        break;
      case 4:
        g.addNode(makeNode("i", "Placeholder", {}, {{"dtype", AttrValue::fromType(DType::kInt32)}}));
        g.addNode(makeNode("z", "Add", {"x", "i"}, floatT()));
        break;
      case 5:
        g.addNode(makeNode("z", "Relu", {"x:3"}, floatT()));
        break;
      case 6:
        g.addNode(makeNode("p", "Relu", {"q"}, floatT()));
        g.addNode(makeNode("q", "Relu", {"p"}, floatT()));
        break;
    }
    fillDefaultAttrs(g);
    auto messages = issueMessages(g);
    QVERIFY2(anyContains(messages, expected.toUtf8().constData()),
             qPrintable(QString::fromStdString(messages.empty() ? "no issues" : messages[0])));
  }

  // A graph large enough for the verifier's intra-op chunks: its issues come in node order, the same list as on one
  // thread, and each bad node is reported once.
  void verifierReportsLargeGraphsInNodeOrder() {
    Graph g = smallGraph();
    g.addNode(makeNode("i", "Placeholder", {}, {{"dtype", AttrValue::fromType(DType::kInt32)}}));
    std::vector<std::string> bad;
    for (int k = 0; k < 60000; ++k) {
      const std::string name = "n" + std::to_string(k);
      if (k % 7 == 3) {
        g.addNode(makeNode(name, "Add", {"x", "i"}, floatT()));
        bad.push_back(name);
      } else if (k % 11 == 5) {
        g.addNode(makeNode(name, "Relu", {"ghost" + std::to_string(k)}, floatT()));
        bad.push_back(name);
      } else {
        g.addNode(makeNode(name, "Relu", {k ? "n" + std::to_string(k - 1) : "x"}, floatT()));
      }
    }
    fillDefaultAttrs(g);
    const auto issues = verifyGraph(g, OpRegistry::global().lookupWith(&g.library));
    QCOMPARE(issues.size(), bad.size());
    for (size_t k = 0; k < bad.size(); ++k) QCOMPARE(issues[k].node, bad[k]);
    const int threads = intraOpThreads();
    setIntraOpThreads(1);
    const auto serial = verifyGraph(g, OpRegistry::global().lookupWith(&g.library));
    setIntraOpThreads(threads);
    QCOMPARE(serial.size(), issues.size());
    for (size_t k = 0; k < issues.size(); ++k) QCOMPARE(serial[k].toString(), issues[k].toString());
  }

  void verifierAllowsLoopBackEdges() {
    Graph g;
    AttrMap t = floatT();
    g.addNode(makeNode("init", "Const", {},
                       {{"dtype", AttrValue::fromType(DType::kFloat)},
                        {"value", AttrValue::fromTensor(Tensor::scalar<float>(DType::kFloat, 0))}}));
    g.addNode(makeNode("merge", "Merge", {"init", "next"},
                       {{"T", AttrValue::fromType(DType::kFloat)}, {"N", AttrValue::fromInt(2)}}));
    g.addNode(makeNode("body", "Relu", {"merge"}, t));
    g.addNode(makeNode("next", "NextIteration", {"body"}, t));
    fillDefaultAttrs(g);
    auto messages = issueMessages(g);
    QVERIFY2(messages.empty(), messages.empty() ? "" : messages[0].c_str());
  }
};

QTEST_APPLESS_MAIN(TestIr)
#include "tst_ir.moc"
