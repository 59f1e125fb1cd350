// Every CPU kernel on the shapes the corpus models use, against this machine's measured limits: each model is
// optimized as `flowscope profile` does and profiled, and per op type the program prints the share of the model's
// time, the achieved GFLOP/s and GB/s and the share of the roofline (FMA peak from oneDNN's matmul; copy bandwidth at
// the cache level the kernel's bytes fit). Kernels that take more than 1% of a model's time and reach less than 25%
// of their roofline are listed at the end, each with the reason we know of (or "no reason known": a defect).
//
// Usage: kernel_roofline [--threads N] [--runs N] [--json OUT] MODEL[@INPUT=SPEC]...   (tests/bench/kernels.sh names
// the corpus; INPUT=SPEC as `flowscope run --input` takes it, for models whose own input cannot be random)
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/thread_pool.h"
#include "io/loader.h"
#include "profile/roofline.h"
#include "workflow/prepared_run.h"

using namespace flowscope;

namespace {

constexpr double kHeavyShare = 0.01;     // an op above this share of a model's time must reach...
constexpr double kRooflineFloor = 0.25;  // ...this share of its roofline, or be listed with a reason

constexpr const char* kDepthwise =
    "oneDNN's depthwise kernel (brdgmm, its fastest): each output needs kernel-size loads per FMA, so the load ports, "
    "not the FMA units, bound it, and channel counts that are not a multiple of 16 leave vector lanes idle";

// Why a kernel stays under a quarter of its roofline, for the ones we have profiled and understood.
const std::map<std::string, std::string>& knownReasons() {
  static const std::map<std::string, std::string> reasons = {
      {"Const", "hands its stored tensor on: no work, only the executor's per-node cost"},
      {"Identity", "aliases its input: no bytes move"},
      {"Reshape", "aliases its input: no bytes move"},
      {"DepthwiseConv2dNative", kDepthwise},
      {"_FusedDepthwiseConv2dNative", kDepthwise},
      {"FusedDepthwiseConv2dNative", kDepthwise},
      {"NonMaxSuppressionV5",
       "greedy and data-dependent (up to boxes x kept IoU tests, a heap of candidates): the static FLOP count sees "
       "none of that work"},
      {"ResizeBilinear",
       "each source row is blended along x once (a gather of two neighbours per output column), then rows blend "
       "along y as a stream; our kernels are compiled for baseline x86-64 (SSE2), the roofline is AVX-512 FMA"},
  };
  return reasons;
}

struct Args {
  int threads = physicalCores();
  int runs = 50;
  std::string jsonPath;
  std::vector<std::string> models;
};

bool parseArgs(int argc, char** argv, Args* args) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc)
      args->threads = std::atoi(argv[++i]);
    else if (a == "--runs" && i + 1 < argc)
      args->runs = std::atoi(argv[++i]);
    else if (a == "--json" && i + 1 < argc)
      args->jsonPath = argv[++i];
    else if (a.rfind("--", 0) == 0)
      return false;
    else
      args->models.push_back(a);
  }
  return !args->models.empty() && args->threads > 0 && args->runs > 0;
}

struct OpRow {
  std::string model, op;
  double share = 0, meanUs = 0, calls = 0, bytesPerCall = 0;
  int threads = 1;
  Efficiency e;
  bool flagged() const { return share > kHeavyShare && e.share < kRooflineFloor; }
};

// "path@Mfcc=random" -> path, and the input spec in the setup.
Expected<ProfiledRun> profileModel(const std::string& spec, const Args& args) {
  const std::string path = spec.substr(0, spec.find('@'));
  RunSetup setup;
  setup.threads = args.threads;
  for (size_t at = spec.find('@'); at != std::string::npos; at = spec.find('@', at + 1)) {
    const std::string input = spec.substr(at + 1, spec.find('@', at + 1) - at - 1);
    setup.inputs.inputs[input.substr(0, input.find('='))] = input.substr(input.find('=') + 1);
  }
  FS_ASSIGN_OR_RETURN(Model model, loadModel(path));
  FS_ASSIGN_OR_RETURN(PreparedRun prepared, prepareRun(std::make_shared<const Model>(std::move(model)), setup));
  ProfileOptions options;
  options.runs = args.runs;
  options.warmup = 5;
  return profileRun(prepared, options);
}

std::vector<OpRow> opRows(const std::string& model, const ProfiledRun& run) {
  std::vector<OpRow> rows;
  for (const OpStats& s : run.profile.byOp()) {
    OpRow row{model,
              s.key,
              s.share,
              static_cast<double>(s.totalNs) / 1e3 / static_cast<double>(s.count),
              static_cast<double>(s.count) / run.runs,
              static_cast<double>(s.bytes) / static_cast<double>(s.count),
              1,
              Efficiency{}};
    row.threads = run.roofline.threads;
    row.e = efficiencyOf(static_cast<double>(s.flops), static_cast<double>(s.bytes), static_cast<double>(s.totalNs),
                         run.roofline, static_cast<double>(s.count));
    rows.push_back(row);
  }
  return rows;
}

void printModel(const std::string& model, const ProfiledRun& run, const std::vector<OpRow>& rows) {
  std::printf("\n%s: median %.1f us per run, %s\n", model.c_str(), run.medianMicros, run.executionMode.c_str());
  std::printf("  %-26s %6s %7s %9s %9s %8s %9s\n", "op", "calls", "share", "mean us", "GFLOP/s", "GB/s", "roofline");
  for (const OpRow& r : rows) {
    if (r.share < 0.001) continue;
    std::printf("  %-26s %6.0f %6.1f%% %9.2f %9.1f %8.1f %5.0f%% %-4s%s\n", r.op.c_str(), r.calls, 100 * r.share,
                r.meanUs, r.e.gflops, r.e.gbs, 100 * r.e.share, r.e.computeBound ? "FMA" : r.e.memoryLevel.c_str(),
                r.flagged() ? "  <- below 25%" : "");
  }
}

// Why a flagged kernel is slow: a known reason for its op, or calls too small for any roofline (a few KiB each, a
// microsecond or two: the cost of a call, not bandwidth or FLOPs, bounds them), or nothing.
std::string reasonFor(const OpRow& r) {
  if (const auto known = knownReasons().find(r.op); known != knownReasons().end()) return known->second;
  constexpr double kSmallBytes = 64 * 1024, kSmallMicros = 3;
  if (r.threads > 1 && r.e.share * r.threads >= kRooflineFloor) {
    char text[160];
    std::snprintf(text, sizeof text, "too small to split across %d threads: %.0f%% of one core's roofline", r.threads,
                  100 * r.e.share * r.threads);
    return text;
  }
  if (r.bytesPerCall < kSmallBytes && r.meanUs < kSmallMicros) {
    char text[160];
    std::snprintf(text, sizeof text, "small calls (%.1f KiB, %.2f us each): the per-call cost bounds them",
                  r.bytesPerCall / 1024, r.meanUs);
    return text;
  }
  return "";
}

// The kernels above 1% of a model's time and under 25% of their roofline, with their reasons; returns how many have
// none.
int printFlagged(const std::vector<OpRow>& rows) {
  std::printf("\nkernels above %.0f%% of a model's time and under %.0f%% of their roofline:\n", 100 * kHeavyShare,
              100 * kRooflineFloor);
  int unexplained = 0, flagged = 0;
  for (const OpRow& r : rows) {
    if (!r.flagged()) continue;
    ++flagged;
    const std::string reason = reasonFor(r);
    unexplained += reason.empty();
    std::printf("  %-20s %-28s %5.1f%% of time, %3.0f%% of roofline: %s\n", r.op.c_str(), r.model.c_str(),
                100 * r.share, 100 * r.e.share, reason.empty() ? "NO REASON KNOWN (a defect)" : reason.c_str());
  }
  if (flagged == 0) std::printf("  none\n");
  return unexplained;
}

nlohmann::json rowJson(const OpRow& r) {
  return {{"model", r.model},
          {"op", r.op},
          {"share", r.share},
          {"mean_us", r.meanUs},
          {"calls", r.calls},
          {"gflops", r.e.gflops},
          {"gbs", r.e.gbs},
          {"roofline", r.e.share},
          {"bound", r.e.computeBound ? "FMA" : r.e.memoryLevel},
          {"flagged", r.flagged()}};
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!parseArgs(argc, argv, &args)) {
    std::fprintf(stderr, "usage: kernel_roofline [--threads N] [--runs N] [--json OUT] MODEL...\n");
    return 2;
  }
  std::vector<OpRow> all;
  nlohmann::json report = {{"threads", args.threads}, {"ops", nlohmann::json::array()}};
  for (const std::string& path : args.models) {
    auto run = profileModel(path, args);
    if (!run) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), run.status().message().c_str());
      return 1;
    }
    const std::string file = path.substr(0, path.find('@'));  // "dir/file" names the model
    const size_t dirStart = file.find_last_of('/', file.find_last_of('/') - 1);
    const std::string shortName = dirStart == std::string::npos ? file : file.substr(dirStart + 1);
    const std::vector<OpRow> rows = opRows(shortName, *run);
    if (all.empty()) {
      const Roofline& r = run->roofline;
      std::printf("threads %d; FMA peak %.1f GFLOP/s;", args.threads, r.peakGflops);
      for (const BandwidthTier& t : r.tiers) std::printf(" %s %.1f GB/s;", t.level.c_str(), t.gbs);
      std::printf("\n");
      report["roofline"] = {{"peak_gflops", r.peakGflops}, {"bandwidth_gbs", r.bandwidthGBs}};
    }
    printModel(shortName, *run, rows);
    for (const OpRow& r : rows) report["ops"].push_back(rowJson(r));
    all.insert(all.end(), rows.begin(), rows.end());
  }
  const int unexplained = printFlagged(all);
  report["unexplained"] = unexplained;
  if (!args.jsonPath.empty()) std::ofstream(args.jsonPath) << report.dump(1) << "\n";
  return 0;
}
