// `flowscope guide`, `trace` and `compare`: the tracing gallery from the command line (a .py goes to cmd_script).
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "cli/command.h"
#include "io/graph_writer.h"
#include "ir/printer.h"
#include "script/script_process.h"
#include "trace/compare.h"
#include "workflow/run_request.h"

namespace flowscope::cli {
namespace {

int fail(const char* command, const std::string& message, int code) {
  std::fprintf(stderr, "flowscope %s: %s\n", command, message.c_str());
  return code;
}

std::string galleryNames() {
  std::string names;
  for (const auto& e : tf::gallery()) names += std::string(names.empty() ? "" : ", ") + e.name;
  return names;
}

// "--arg 5.5" / "--arg [[1,2]]:float32" is a tensor; "--arg py:3" a Python value (int, float, True/False, 'text').
Expected<tf::Arg> parseArg(const std::string& spec) {
  if (spec.rfind("py:", 0) == 0) {
    std::string v = spec.substr(3);
    int64_t i = 0;
    if (parseInt64(v, &i)) return tf::Arg(i);
    if (v == "True" || v == "False") return tf::Arg(v == "True");
    char* end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    if (end && *end == 0 && !v.empty()) return tf::Arg(d);
    return tf::Arg(v);
  }
  FS_ASSIGN_OR_RETURN(Tensor t, parseTensorLiteral(spec, DType::kInvalid));
  return tf::Arg(tf::Tensor(t));
}

Expected<std::vector<tf::Arg>> argsFor(const tf::GalleryEntry& entry, const Args& args) {
  auto specs = args.values("--arg");
  if (specs.empty()) return entry.exampleArgs();
  std::vector<tf::Arg> out;
  for (const auto& s : specs) {
    FS_ASSIGN_OR_RETURN(tf::Arg a, parseArg(s));
    out.push_back(a);
  }
  return out;
}

void printOps(const char* title, const std::vector<OpStats>& ops, int calls) {
  std::printf("\n%s\n%-24s %10s %14s %8s\n", title, "op", "per call", "total us", "share");
  for (const auto& s : ops)
    std::printf("%-24s %10.1f %14.1f %7.1f%%\n", s.key.c_str(), static_cast<double>(s.count) / calls,
                static_cast<double>(s.totalNs) / 1000.0, s.share * 100);
}

nlohmann::json opsJson(const std::vector<OpStats>& ops, int calls) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& s : ops)
    list.push_back({{"op", s.key},
                    {"count_per_call", static_cast<double>(s.count) / calls},
                    {"total_us", static_cast<double>(s.totalNs) / 1000.0},
                    {"share", s.share}});
  return list;
}

}  // namespace

int runGuide(const Args& args) {
  int64_t calls = 1000;
  if (auto c = args.value("--calls"); c && (!parseInt64(*c, &calls) || calls < 1))
    return fail("guide", "--calls needs a positive number", kExitUsage);
  Status s = tf::replayGuide(static_cast<int>(calls));
  return s ? kExitOk : fail("guide", s.message(), kExitBadInput);
}

int runTrace(const Args& args) {
  if (isPythonScript(QString::fromStdString(args.positional()[0]))) return runTraceScriptCommand(args);
  if (args.value("--function")) return fail("trace", "--function is for a Python script's functions", kExitUsage);
  const tf::GalleryEntry* entry = tf::findGalleryEntry(args.positional()[0]);
  if (!entry)
    return fail("trace", "no gallery function '" + args.positional()[0] + "' (there are: " + galleryNames() + ")",
                kExitUsage);
  auto callArgs = argsFor(*entry, args);
  if (!callArgs) return fail("trace", callArgs.status().message(), kExitUsage);
  tf::Function function = entry->make();
  auto concrete = function.getConcreteFunction(*callArgs);
  if (!concrete) return fail("trace", concrete.status().message(), kExitBadInput);
  const Graph& graph = (*concrete)->graph();
  std::printf("%s", (*concrete)->prettySignature(entry->name).c_str());
  std::printf("%s: %zu nodes, %zu library functions\n", (*concrete)->name().c_str(), graph.size(),
              graph.library.size());
  if (auto out = args.value("--out")) {
    if (std::filesystem::exists(*out) && !args.flag("--force"))
      return fail("trace", *out + " exists; pass --force to replace it", kExitUsage);
    Status s = writeGraph(graph, *out);
    if (!s) return fail("trace", s.message(), kExitBadInput);
    std::printf("wrote %s\n", out->c_str());
  } else {
    std::printf("\n%s", printGraph(graph).c_str());
  }
  return kExitOk;
}

int runCompare(const Args& args) {
  if (isPythonScript(QString::fromStdString(args.positional()[0]))) return runCompareScriptCommand(args);
  if (args.positional().size() > 1) return fail("compare", "a gallery function takes no second name", kExitUsage);
  const tf::GalleryEntry* entry = tf::findGalleryEntry(args.positional()[0]);
  if (!entry)
    return fail("compare", "no gallery function '" + args.positional()[0] + "' (there are: " + galleryNames() + ")",
                kExitUsage);
  int64_t calls = 1000;
  if (auto c = args.value("--calls"); c && (!parseInt64(*c, &calls) || calls < 1 || calls > 10'000'000))
    return fail("compare", "--calls needs a number from 1 to 10000000", kExitUsage);
  auto callArgs = argsFor(*entry, args);
  if (!callArgs) return fail("compare", callArgs.status().message(), kExitUsage);
  auto result = tf::compareEagerAndGraph(*entry, *callArgs, static_cast<int>(calls));
  if (!result) return fail("compare", result.status().message(), kExitBadInput);
  const int n = static_cast<int>(calls);
  if (args.flag("--json")) {
    nlohmann::json j = {{"function", entry->name},
                        {"calls", calls},
                        {"eager_seconds", result->eagerSeconds},
                        {"graph_seconds", result->graphSeconds},
                        {"graph_speedup", result->eagerSeconds / result->graphSeconds},
                        {"concrete_function", result->concrete->name()},
                        {"eager_ops", opsJson(result->eagerProfile.byOp(), n)},
                        {"graph_ops", opsJson(result->graphProfile.byOp(), n)}};
    std::printf("%s\n", j.dump(2).c_str());
    return kExitOk;
  }
  std::printf("%s, %lld calls\n", entry->name, static_cast<long long>(calls));
  std::printf("Eager execution: %.6f seconds\nGraph execution: %.6f seconds\n", result->eagerSeconds,
              result->graphSeconds);
  std::printf("graph / eager speed: %.2fx\n", result->eagerSeconds / result->graphSeconds);
  printOps("eager, per op (profiled round):", result->eagerProfile.byOp(), n);
  printOps("graph, per op (profiled round):", result->graphProfile.byOp(), n);
  return kExitOk;
}

}  // namespace flowscope::cli
