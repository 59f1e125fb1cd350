// `flowscope profile FILE --import PROFILE`: another tool's profile of FILE's graph, matched to its nodes, with the
// same tables as our own profiles and, when our engine can run the graph, both side by side per node.
#include <algorithm>
#include <cstdio>
#include <optional>

#include "base/strings.h"
#include "cli/command.h"
#include "cli/import_report.h"
#include "cli/profile_options.h"
#include "cli/run_options.h"
#include "io/loader.h"
#include "profile/import/importer.h"

namespace flowscope::cli {
namespace {

// Our engine's profile of the graph, optimized first as `flowscope profile` runs it (--no-optimize: as loaded). A
// fused kernel's events name the nodes it computed, so its time lands on the imported profile's nodes all the same.
std::optional<RunProfile> profileOurs(const Args& args, std::shared_ptr<const Model> model, std::string* note) {
  auto setup = setupFromArgs(args);
  if (!setup) {
    *note = "ours: not run (" + setup.status().message() + ")";
    return std::nullopt;
  }
  int64_t runs = 10, warmup = 3;
  if (auto r = args.value("--runs")) parseInt64(*r, &runs);
  if (auto w = args.value("--warmup")) parseInt64(*w, &warmup);
  auto prepared = prepareRun(std::move(model), *setup);
  auto run = prepared ? profileRun(*prepared, {static_cast<int>(std::clamp<int64_t>(runs, 1, 1000)),
                                               static_cast<int>(std::clamp<int64_t>(warmup, 0, 1000)),
                                               {},
                                               false})
                      : Expected<ProfiledRun>(prepared.status());
  if (!run) {
    *note = "ours: our engine did not run the graph (" + run.status().message() + ")";
    return std::nullopt;
  }
  *note = "ours: " + std::to_string(run->runs) + " runs on " + prepared->deviceName() +
          (prepared->optimized ? ", optimized first (a fused kernel's time is on the first node it computed)"
                               : ", the graph as loaded");
  return std::move(run->profile);
}

}  // namespace

int runProfileImport(const Args& args) {
  const std::string profilePath = *args.value("--import");
  std::optional<size_t> top;
  if (!parseTopOption(args, &top)) return kExitUsage;
  auto imported = importProfile(profilePath);
  if (!imported) {
    std::fprintf(stderr, "flowscope profile: %s\n", imported.status().message().c_str());
    return kExitBadInput;
  }
  ImportReportInput in;
  in.profilePath = profilePath;
  in.top = top;
  LoadOptions load;
  load.tag = args.value("--tag").value_or("");
  std::shared_ptr<const Model> model;
  if (auto loaded = loadModel(args.positional()[0], load)) {
    model = std::make_shared<const Model>(std::move(loaded).value());
  } else if (imported->graph) {
    model = imported->graph;
    in.graphNote = "graph: the GraphDef the profile carries";
  } else {
    in.graphNote = "graph not loaded, so events are not matched: " + loaded.status().message();
  }
  if (model) {
    in.graph = &model->graph;
    in.match = matchProfileToGraph(model->graph, &*imported);
  }
  in.imported = &*imported;
  std::optional<RunProfile> ours;
  if (model && !args.flag("--no-run")) ours = profileOurs(args, model, &in.oursNote);
  if (ours) in.ours = &*ours;
  if (args.flag("--json"))
    std::printf("%s\n", importReportJson(in).dump(2).c_str());
  else
    printImportReport(in);
  return kExitOk;
}

}  // namespace flowscope::cli
