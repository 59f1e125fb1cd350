// `flowscope profile FILE`: run a graph N times and report time per op type and the slowest nodes.
#include <chrono>
#include <cstdio>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "base/strings.h"
#include "cli/command.h"
#include "cli/profile_options.h"
#include "cli/run_options.h"
#include "profile/chrome_trace.h"
#include "profile/roofline.h"

namespace flowscope::cli {
namespace {

// Where an op's events ran: "cpu", "vulkan", or "both".
std::string backendOf(const RunProfile& trace, const std::string& op) {
  std::set<std::string> backends;
  for (const auto& e : trace.events())
    if (e.op == op) backends.insert(e.backend);
  return backends.size() == 1 ? *backends.begin() : backends.empty() ? "-" : "both";
}

std::string micros(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(ns) / 1000.0);
  return buf;
}

// The op of a placed node: a graph node, or "function/node" of a function body the run placed.
std::string placedOp(const std::string& name, const Graph& graph) {
  if (const Node* n = graph.findNode(name)) return n->op.str();
  for (const auto& f : graph.library.functions())
    if (f.body && name.size() > f.name().size() && name.compare(0, f.name().size() + 1, f.name() + "/") == 0)
      if (const Node* n = f.body->findNode(name.substr(f.name().size() + 1))) return n->op.str();
  return "?";
}

// "placement: 150 nodes on vulkan:0 (...) in 2 clusters; 3 on the CPU: Placeholder (fed) x1, ArgMax (no Vulkan kernel)
// x1".
std::string placementSummary(const std::map<std::string, std::string>& placement, const std::string& device,
                             const Graph& graph) {
  if (placement.empty()) return "";
  size_t onVulkan = 0;
  std::set<std::string> clusters;
  std::map<std::string, int> cpuReasons;
  for (const auto& [node, where] : placement) {
    if (where.rfind("vulkan", 0) == 0) {
      ++onVulkan;
      clusters.insert(where);
    } else {
      ++cpuReasons[placedOp(node, graph) + " (" + where.substr(5) + ")"];
    }
  }
  std::string text = "placement: " + std::to_string(onVulkan) + " nodes on " + device + " in " +
                     counted(clusters.size(), "cluster", "clusters");
  size_t cpu = 0;
  for (const auto& [reason, count] : cpuReasons) cpu += static_cast<size_t>(count);
  text += "; " + std::to_string(cpu) + " on the CPU";
  size_t shown = 0;
  for (const auto& [reason, count] : cpuReasons) {
    if (shown++ == 8) {
      text += ", ...";
      break;
    }
    text += (shown == 1 ? ": " : ", ") + reason + " x" + std::to_string(count);
  }
  return text + "\n\n";
}

// A row's rates and roofline share: GFLOP/s, GB/s, share (JSON and text alike read it from here).
Efficiency efficiencyOfStats(const OpStats& s, const Roofline& roofline) {
  return efficiencyOf(static_cast<double>(s.flops), static_cast<double>(s.bytes), static_cast<double>(s.totalNs),
                      roofline, static_cast<double>(s.count));
}

nlohmann::json statsJson(const OpStats& s, const ProfiledRun& run) {
  const Efficiency e = efficiencyOfStats(s, run.roofline);
  nlohmann::json j = {{"count", s.count / run.runs},
                      {"total_us", static_cast<double>(s.totalNs) / 1000.0 / run.runs},
                      {"mean_us", static_cast<double>(s.totalNs) / 1000.0 / static_cast<double>(s.count)},
                      {"share", s.share},
                      {"flops", s.flops / run.runs},
                      {"bytes", s.bytes / run.runs},
                      {"gflops", e.gflops},
                      {"gbs", e.gbs}};
  if (run.roofline.known()) {
    j["roofline_share"] = e.share;
    j["bound"] = e.computeBound ? "compute" : "memory";
    j["memory_level"] = e.memoryLevel;
  }
  return j;
}

// The machine's limits: FMA peak, main-memory bandwidth and the bandwidth of each cache level.
nlohmann::json rooflineJson(const Roofline& roofline) {
  nlohmann::json tiers = nlohmann::json::array();
  for (const BandwidthTier& t : roofline.tiers)
    tiers.push_back({{"level", t.level}, {"max_bytes", t.maxBytes}, {"gbs", t.gbs}});
  return {{"threads", roofline.threads},
          {"peak_gflops", roofline.peakGflops},
          {"bandwidth_gbs", roofline.bandwidthGBs},
          {"bandwidth_tiers", tiers}};
}

// "roofline at 2 threads: 410.2 GFLOP/s FMA peak (oneDNN's matmul); copy GB/s by working set: L1 (96 KiB) 812, ..."
std::string rooflineLine(const Roofline& roofline) {
  char text[160];
  std::snprintf(text, sizeof text,
                "roofline at %d thread%s: %.1f GFLOP/s FMA peak (oneDNN's matmul); copy GB/s by working set:",
                roofline.threads, roofline.threads == 1 ? "" : "s", roofline.peakGflops);
  std::string line = text;
  for (const BandwidthTier& t : roofline.tiers) {
    if (t.maxBytes > 0)
      std::snprintf(text, sizeof text, " %s (%.0f KiB) %.0f,", t.level.c_str(), t.maxBytes / 1024, t.gbs);
    else
      std::snprintf(text, sizeof text, " %s %.1f", t.level.c_str(), t.gbs);
    line += text;
  }
  if (roofline.tiers.empty()) line += " " + std::to_string(roofline.bandwidthGBs);
  return line + "\n";
}

// The --json report.
void printJson(const PreparedRun& prepared, const ProfiledRun& run, size_t top) {
  const RunProfile& profile = run.profile;
  nlohmann::json j = {{"runs", run.runs},
                      {"warmup", run.warmup},
                      {"median_run_us", run.medianMicros},
                      {"median_profiled_run_us", run.profiledMedianMicros},
                      {"device", prepared.deviceName()},
                      {"precision", precisionName(prepared.precision)},
                      {"precision_summary", prepared.precisionSummary()},
                      {"threads", prepared.threads},
                      {"execution", run.executionMode},
                      {"optimized", prepared.optimized},
                      {"nodes", prepared.model->graph.size()}};
  if (run.roofline.known()) j["roofline"] = rooflineJson(run.roofline);
  if (prepared.optimized) j["nodes_before_optimizing"] = prepared.nodesBeforeOptimizing;
  if (!run.placement.empty()) j["placement"] = run.placement;
  j["ops"] = nlohmann::json::array();
  for (const auto& s : profile.byOp()) {
    nlohmann::json row = statsJson(s, run);
    row["op"] = s.key;
    row["backend"] = backendOf(profile, s.key);
    j["ops"].push_back(row);
  }
  j["slowest_nodes"] = nlohmann::json::array();
  for (const auto& s : profile.slowestNodes(top)) {
    nlohmann::json row = statsJson(s, run);
    row["node"] = s.key;
    j["slowest_nodes"].push_back(row);
  }
  std::printf("%s\n", j.dump(2).c_str());
}

// "    812.3     41.2    63% L2  " or only the rates when the roofline is unknown.
std::string rates(const OpStats& s, const Roofline& roofline) {
  const Efficiency e = efficiencyOfStats(s, roofline);
  char text[64];
  if (roofline.known())
    std::snprintf(text, sizeof text, "%9.1f %8.1f %5.0f%% %-4s", e.gflops, e.gbs, 100.0 * e.share,
                  e.computeBound ? "FMA" : e.memoryLevel.c_str());
  else
    std::snprintf(text, sizeof text, "%9.1f %8.1f", e.gflops, e.gbs);
  return text;
}

// The text report: the header, the placement, what optimizing did, the op table and the slowest nodes.
void printText(const std::string& file, const PreparedRun& prepared, const ProfiledRun& run, size_t top) {
  const RunProfile& profile = run.profile;
  std::printf(
      "%s: %d runs (after %d warm-up), median %s us per run (%s with per-node events), device %s, %d thread%s, "
      "%s\n",
      file.c_str(), run.runs, run.warmup, micros(static_cast<int64_t>(run.medianMicros * 1000)).c_str(),
      micros(static_cast<int64_t>(run.profiledMedianMicros * 1000)).c_str(), prepared.deviceName().c_str(),
      prepared.threads, prepared.threads == 1 ? "" : "s", run.executionMode.c_str());
  if (run.roofline.known()) std::printf("%s", rooflineLine(run.roofline).c_str());
  std::printf("precision %s\n", prepared.precisionSummary().c_str());
  std::printf("\n%s", placementSummary(run.placement, prepared.deviceName(), prepared.model->graph).c_str());
  if (prepared.optimized)
    std::printf("optimized first: %zu -> %zu nodes in %.1f ms (--no-optimize to compare)\n\n",
                prepared.nodesBeforeOptimizing, prepared.model->graph.size(), prepared.optimizeSeconds * 1e3);
  else
    std::printf("not optimized (--no-optimize): %zu nodes\n\n", prepared.model->graph.size());
  std::printf("%-28s %-7s %7s %11s %9s %6s %9s %8s %11s\n", "op", "backend", "count", "total us", "mean us", "share",
              "GFLOP/s", "GB/s", "roofline");
  for (const auto& s : profile.byOp())
    std::printf("%-28s %-7s %7lld %11s %9s %5.1f%% %s\n", s.key.c_str(), backendOf(profile, s.key).c_str(),
                static_cast<long long>(s.count / run.runs), micros(s.totalNs / run.runs).c_str(),
                micros(s.totalNs / s.count).c_str(), 100.0 * s.share, rates(s, run.roofline).c_str());
  const auto& events = profile.events();
  if (std::any_of(events.begin(), events.end(), [](const NodeEvent& e) { return e.depth > 0; }))
    std::printf("(If, loops and function calls count their own time; their bodies' nodes are in their ops' rows)\n");
  std::printf(
      "\nslowest nodes (mean us per run; GFLOP/s, GB/s, share of the roofline and its limit: FMA peak or a memory "
      "level)\n");
  for (const auto& s : profile.slowestNodes(top))
    std::printf("  %10s %s  %s\n", micros(s.totalNs / s.count).c_str(), rates(s, run.roofline).c_str(), s.key.c_str());
}

}  // namespace

int runProfile(const Args& args) {
  if (args.value("--import")) return runProfileImport(args);
  std::optional<size_t> top;
  if (!parseTopOption(args, &top)) return kExitUsage;
  PreparedRun prepared;
  if (int code = prepareRunFromArgs(args, "profile", &prepared); code != kExitOk) return code;
  int64_t runs = 10, warmup = 3;  // the first runs of a wide plan also try both executors
  if (auto r = args.value("--runs"); r && (!parseInt64(*r, &runs) || runs < 1 || runs > 1000000)) {
    std::fprintf(stderr, "flowscope profile: --runs needs a number from 1 to 1000000\n");
    return kExitUsage;
  }
  if (auto w = args.value("--warmup"); w && (!parseInt64(*w, &warmup) || warmup < 0 || warmup > 1000000)) {
    std::fprintf(stderr, "flowscope profile: --warmup needs a number from 0 to 1000000\n");
    return kExitUsage;
  }
  auto run = profileRun(prepared, {static_cast<int>(runs), static_cast<int>(warmup), {}});
  if (!run) {
    std::fprintf(stderr, "flowscope profile: %s\n", run.status().message().c_str());
    return kExitBadInput;
  }
  if (auto path = args.value("--trace")) {
    Status s = writeFileAtomically(*path, toChromeTraceJson(run->profile));
    if (!s.isOk()) {
      std::fprintf(stderr, "flowscope profile: %s\n", s.message().c_str());
      return kExitBadInput;
    }
  }
  if (args.flag("--json"))
    printJson(prepared, *run, top.value_or(10));
  else
    printText(args.positional()[0], prepared, *run, top.value_or(10));
  return kExitOk;
}

}  // namespace flowscope::cli
