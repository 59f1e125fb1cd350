// What `flowscope profile FILE --import PROFILE` reports: the imported profile's tables, how its events matched the
// graph, the unmatched events with their times, and (when our engine ran the graph) both side by side per node.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ir/graph.h"
#include "profile/imported_profile.h"
#include "profile/profile_match.h"

namespace flowscope::cli {

struct ImportReportInput {
  std::string profilePath;
  const ImportedProfile* imported = nullptr;
  const Graph* graph = nullptr;  ///< null: the graph did not load (graphNote says why)
  std::string graphNote;
  MatchSummary match;
  const RunProfile* ours = nullptr;  ///< our engine's profile of the graph as loaded; null when it did not run
  std::string oursNote;              ///< why it did not run, or how it ran
  std::optional<size_t> top;         ///< --top: rows of the node lists (default: 10 slowest, 25 or all side by side)
};

/// One row of the side-by-side table: a group of nodes that either side ran as one kernel (compareNodeTimes), mean us
/// per run; `node` is the one they timed longest.
struct SideBySideRow {
  std::string node, op;
  size_t nodes = 1;
  double theirsUs = 0, oursUs = 0;
};
std::vector<SideBySideRow> sideBySide(const ImportReportInput& in);

nlohmann::json importReportJson(const ImportReportInput& in);
void printImportReport(const ImportReportInput& in);

}  // namespace flowscope::cli
