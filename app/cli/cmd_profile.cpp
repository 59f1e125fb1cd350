// `flowscope profile FILE`: run a graph N times and report time per op type and the slowest nodes.
#include <chrono>
#include <cstdio>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "cli/command.h"
#include "cli/run_options.h"
#include "io/atomic_file.h"
#include "profile/trace.h"

namespace flowscope::cli {
namespace {

// Where an op's events ran: "cpu", "vulkan", or "both".
std::string backendOf(const Trace& trace, const std::string& op) {
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

// "placement: 150 nodes on vulkan:0 (...) in 2 clusters; 3 on the CPU: Placeholder (fed) x1, ArgMax (no Vulkan kernel) x1".
std::string placementSummary(const Session& session, const std::string& device, const Graph& graph) {
  if (session.placement().empty()) return "";
  size_t onVulkan = 0;
  std::set<std::string> clusters;
  std::map<std::string, int> cpuReasons;
  for (const auto& [node, where] : session.placement()) {
    if (where.rfind("vulkan", 0) == 0) {
      ++onVulkan;
      clusters.insert(where);
    } else {
      const Node* n = graph.findNode(node);
      ++cpuReasons[(n ? n->op : std::string("?")) + " (" + where.substr(5) + ")"];
    }
  }
  std::string text = "placement: " + std::to_string(onVulkan) + " nodes on " + device + " in " + std::to_string(clusters.size()) +
                     (clusters.size() == 1 ? " cluster" : " clusters");
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

}  // namespace

int runProfile(const Args& args) {
  PreparedRun prepared;
  if (int code = prepareRun(args, "profile", &prepared); code != kExitOk) return code;
  int64_t runs = 10, warmup = 2;
  if (auto r = args.value("--runs"); r && (!parseInt64(*r, &runs) || runs < 1)) {
    std::fprintf(stderr, "flowscope profile: --runs needs a positive number\n");
    return kExitUsage;
  }
  if (auto w = args.value("--warmup"); w && (!parseInt64(*w, &warmup) || warmup < 0)) {
    std::fprintf(stderr, "flowscope profile: --warmup needs a number >= 0\n");
    return kExitUsage;
  }
  Session session(prepared.model, prepared.session);
  for (int64_t i = 0; i < warmup; ++i) {
    auto out = session.run(prepared.request.feeds, prepared.request.fetches);
    if (!out) {
      std::fprintf(stderr, "flowscope profile: %s\n", out.status().message().c_str());
      return kExitBadInput;
    }
  }
  Trace trace;
  std::vector<double> wall;
  for (int64_t i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto out = session.run(prepared.request.feeds, prepared.request.fetches, {}, &trace, static_cast<int>(i));
    wall.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    if (!out) {
      std::fprintf(stderr, "flowscope profile: %s\n", out.status().message().c_str());
      return kExitBadInput;
    }
  }
  std::sort(wall.begin(), wall.end());
  double median = wall[wall.size() / 2];
  auto byOp = trace.byOp();
  auto slowest = trace.slowestNodes(10);
  if (auto path = args.value("--trace")) {
    Status s = writeFileAtomically(*path, trace.toChromeJson());
    if (!s.isOk()) {
      std::fprintf(stderr, "flowscope profile: %s\n", s.message().c_str());
      return kExitBadInput;
    }
  }
  if (args.flag("--json")) {
    nlohmann::json j = {{"runs", runs}, {"warmup", warmup}, {"median_run_us", median}, {"device", prepared.deviceName},
                        {"optimized", prepared.nodesBeforeOptimizing > 0}, {"nodes", prepared.model->graph.size()}};
    if (prepared.nodesBeforeOptimizing) j["nodes_before_optimizing"] = prepared.nodesBeforeOptimizing;
    if (!session.placement().empty()) {
      nlohmann::json placement = nlohmann::json::object();
      for (const auto& [node, where] : session.placement()) placement[node] = where;
      j["placement"] = placement;
    }
    j["ops"] = nlohmann::json::array();
    for (const auto& s : byOp)
      j["ops"].push_back({{"op", s.key}, {"backend", backendOf(trace, s.key)}, {"count", s.count / runs}, {"total_us", static_cast<double>(s.totalNs) / 1000.0 / static_cast<double>(runs)},
                          {"mean_us", static_cast<double>(s.totalNs) / 1000.0 / static_cast<double>(s.count)}, {"share", s.share}});
    j["slowest_nodes"] = nlohmann::json::array();
    for (const auto& s : slowest)
      j["slowest_nodes"].push_back({{"node", s.key}, {"mean_us", static_cast<double>(s.totalNs) / 1000.0 / static_cast<double>(s.count)}});
    std::printf("%s\n", j.dump(2).c_str());
    return kExitOk;
  }
  std::printf("%s: %lld runs (after %lld warm-up), median %s us per run, device %s\n\n", args.positional()[0].c_str(),
              static_cast<long long>(runs), static_cast<long long>(warmup), micros(static_cast<int64_t>(median * 1000)).c_str(),
              prepared.deviceName.c_str());
  std::printf("%s", placementSummary(session, prepared.deviceName, prepared.model->graph).c_str());
  if (prepared.nodesBeforeOptimizing)
    std::printf("optimized first: %zu -> %zu nodes in %.1f ms (--no-optimize to compare)\n\n", prepared.nodesBeforeOptimizing,
                prepared.model->graph.size(), prepared.optimizeSeconds * 1e3);
  else
    std::printf("not optimized (--no-optimize): %zu nodes\n\n", prepared.model->graph.size());
  std::printf("%-28s %-7s %7s %12s %10s %7s\n", "op", "backend", "count", "total us", "mean us", "share");
  for (const auto& s : byOp)
    std::printf("%-28s %-7s %7lld %12s %10s %6.1f%%\n", s.key.c_str(), backendOf(trace, s.key).c_str(), static_cast<long long>(s.count / runs),
                micros(s.totalNs / runs).c_str(), micros(s.totalNs / s.count).c_str(), 100.0 * s.share);
  std::printf("\nslowest nodes (mean us per run)\n");
  for (const auto& s : slowest) std::printf("  %10s  %s\n", micros(s.totalNs / s.count).c_str(), s.key.c_str());
  return kExitOk;
}

}  // namespace flowscope::cli
