// The report of an imported profile.
#include "cli/import_report.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "profile/node_times.h"

namespace flowscope::cli {
namespace {

double us(int64_t ns) { return static_cast<double>(ns) / 1000.0; }

std::string backendsOf(const RunProfile& profile, const std::string& op) {
  std::set<std::string> b;
  for (const auto& e : profile.events())
    if (e.op == op) b.insert(e.backend);
  return b.size() == 1 ? *b.begin() : b.empty() ? "-" : "mixed";
}

nlohmann::json statsJson(const OpStats& s, int runs) {
  return {{"count", s.count / runs},
          {"total_us", us(s.totalNs) / runs},
          {"mean_us", s.count ? us(s.totalNs) / static_cast<double>(s.count) : 0.0},
          {"share", s.share}};
}

nlohmann::json unmatchedJson(const ImportedProfile& p, size_t i) {
  const ImportedEvent& e = p.events[i];
  auto thread = p.threadNames.find(e.event.thread);
  return {{"name", e.label},
          {"op", e.event.op},
          {"kind", e.kind},
          {"start_us", us(e.event.startNs)},
          {"dur_us", us(e.event.durationNs())},
          {"run", e.event.run},
          {"thread", thread == p.threadNames.end() ? "" : thread->second}};
}

}  // namespace

std::vector<SideBySideRow> sideBySide(const ImportReportInput& in) {
  if (!in.graph || !in.ours) return {};
  const NodeTimes theirs = nodeTimes(in.imported->toRunProfile(), *in.graph);
  const NodeTimes ours = nodeTimes(*in.ours, *in.graph);
  std::vector<SideBySideRow> rows;
  for (const NodeGroupTimes& g : compareNodeTimes(theirs, ours)) {
    const Node& node = in.graph->node(g.node);
    rows.push_back({node.name, node.op, g.nodes, g.theirs * 1e6, g.ours * 1e6});
  }
  return rows;
}

nlohmann::json importReportJson(const ImportReportInput& in) {
  const ImportedProfile& p = *in.imported;
  const RunProfile theirs = p.toRunProfile();
  const int runs = theirs.runCount();
  nlohmann::json j = {{"profile", in.profilePath},
                      {"format", p.format},
                      {"events", p.events.size()},
                      {"node_events", p.nodeEventCount()},
                      {"runs", runs},
                      {"warnings", p.warnings},
                      {"matched", in.match.matched},
                      {"unmatched", in.match.unmatched()},
                      {"matched_by", in.match.byMethod},
                      {"nodes_covered", in.match.nodesCovered}};
  if (!in.graphNote.empty()) j["graph_note"] = in.graphNote;
  if (in.graph) j["graph_nodes"] = in.graph->size();
  j["ops"] = nlohmann::json::array();
  for (const auto& s : theirs.byOp()) {
    nlohmann::json row = statsJson(s, runs);
    row["op"] = s.key;
    row["backend"] = backendsOf(theirs, s.key);
    j["ops"].push_back(row);
  }
  j["slowest_nodes"] = nlohmann::json::array();
  for (const auto& s : theirs.slowestNodes(in.top.value_or(10))) {
    nlohmann::json row = statsJson(s, runs);
    row["node"] = s.key;
    j["slowest_nodes"].push_back(row);
  }
  j["unmatched_events"] = nlohmann::json::array();
  for (size_t i : p.unmatched()) j["unmatched_events"].push_back(unmatchedJson(p, i));
  if (!in.oursNote.empty()) j["ours_note"] = in.oursNote;
  if (in.ours) {
    j["side_by_side"] = nlohmann::json::array();
    const auto rows = sideBySide(in);
    for (size_t k = 0; k < rows.size() && k < in.top.value_or(rows.size()); ++k) {
      const SideBySideRow& r = rows[k];
      j["side_by_side"].push_back({{"node", r.node},
                                   {"op", r.op},
                                   {"nodes", r.nodes},
                                   {"theirs_us", r.theirsUs},
                                   {"ours_us", r.oursUs},
                                   {"ratio", r.oursUs > 0 ? r.theirsUs / r.oursUs : 0.0}});
    }
  }
  return j;
}

}  // namespace flowscope::cli
