// `flowscope profile FILE`: run a graph N times and report time per op type and the slowest nodes.
#include <chrono>
#include <cstdio>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "base/strings.h"
#include "cli/command.h"
#include "cli/run_options.h"
#include "profile/chrome_trace.h"

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
      const Node* n = graph.findNode(node);
      ++cpuReasons[(n ? n->op : std::string("?")) + " (" + where.substr(5) + ")"];
    }
  }
  std::string text = "placement: " + std::to_string(onVulkan) + " nodes on " + device + " in " +
                     std::to_string(clusters.size()) + (clusters.size() == 1 ? " cluster" : " clusters");
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

// The --json report.
void printJson(const PreparedRun& prepared, const ProfiledRun& run) {
  const RunProfile& profile = run.profile;
  nlohmann::json j = {{"runs", run.runs},
                      {"warmup", run.warmup},
                      {"median_run_us", run.medianMicros},
                      {"device", prepared.deviceName()},
                      {"threads", prepared.threads},
                      {"optimized", prepared.optimized},
                      {"nodes", prepared.model->graph.size()}};
  if (prepared.optimized) j["nodes_before_optimizing"] = prepared.nodesBeforeOptimizing;
  if (!run.placement.empty()) j["placement"] = run.placement;
  j["ops"] = nlohmann::json::array();
  const double runs = run.runs;
  for (const auto& s : profile.byOp())
    j["ops"].push_back({{"op", s.key},
                        {"backend", backendOf(profile, s.key)},
                        {"count", s.count / run.runs},
                        {"total_us", static_cast<double>(s.totalNs) / 1000.0 / runs},
                        {"mean_us", static_cast<double>(s.totalNs) / 1000.0 / static_cast<double>(s.count)},
                        {"share", s.share}});
  j["slowest_nodes"] = nlohmann::json::array();
  for (const auto& s : profile.slowestNodes(10))
    j["slowest_nodes"].push_back(
        {{"node", s.key}, {"mean_us", static_cast<double>(s.totalNs) / 1000.0 / static_cast<double>(s.count)}});
  std::printf("%s\n", j.dump(2).c_str());
}

// The text report: the header, the placement, what optimizing did, the op table and the slowest nodes.
void printText(const std::string& file, const PreparedRun& prepared, const ProfiledRun& run) {
  const RunProfile& profile = run.profile;
  std::printf("%s: %d runs (after %d warm-up), median %s us per run, device %s, %d thread%s\n\n", file.c_str(),
              run.runs, run.warmup, micros(static_cast<int64_t>(run.medianMicros * 1000)).c_str(),
              prepared.deviceName().c_str(), prepared.threads, prepared.threads == 1 ? "" : "s");
  std::printf("%s", placementSummary(run.placement, prepared.deviceName(), prepared.model->graph).c_str());
  if (prepared.optimized)
    std::printf("optimized first: %zu -> %zu nodes in %.1f ms (--no-optimize to compare)\n\n",
                prepared.nodesBeforeOptimizing, prepared.model->graph.size(), prepared.optimizeSeconds * 1e3);
  else
    std::printf("not optimized (--no-optimize): %zu nodes\n\n", prepared.model->graph.size());
  std::printf("%-28s %-7s %7s %12s %10s %7s\n", "op", "backend", "count", "total us", "mean us", "share");
  for (const auto& s : profile.byOp())
    std::printf("%-28s %-7s %7lld %12s %10s %6.1f%%\n", s.key.c_str(), backendOf(profile, s.key).c_str(),
                static_cast<long long>(s.count / run.runs), micros(s.totalNs / run.runs).c_str(),
                micros(s.totalNs / s.count).c_str(), 100.0 * s.share);
  std::printf("\nslowest nodes (mean us per run)\n");
  for (const auto& s : profile.slowestNodes(10))
    std::printf("  %10s  %s\n", micros(s.totalNs / s.count).c_str(), s.key.c_str());
}

}  // namespace

int runProfile(const Args& args) {
  PreparedRun prepared;
  if (int code = prepareRunFromArgs(args, "profile", &prepared); code != kExitOk) return code;
  int64_t runs = 10, warmup = 2;
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
    printJson(prepared, *run);
  else
    printText(args.positional()[0], prepared, *run);
  return kExitOk;
}

}  // namespace flowscope::cli
