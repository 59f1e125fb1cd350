// The text form of an imported profile's report.
#include <cstdio>
#include <string>

#include "cli/import_report.h"

namespace flowscope::cli {
namespace {

std::string clip(const std::string& s, size_t n) { return s.size() > n ? s.substr(0, n - 3) + "..." : s; }

void printHeader(const ImportReportInput& in, const RunProfile& theirs) {
  const ImportedProfile& p = *in.imported;
  std::printf("%s: %s, %zu events (%zu about nodes) in %d run%s on %zu threads/streams\n", in.profilePath.c_str(),
              p.format.c_str(), p.events.size(), p.nodeEventCount(), theirs.runCount(),
              theirs.runCount() == 1 ? "" : "s", p.threadNames.size());
  if (in.graph) {
    std::printf("matched %zu of %zu node events to %zu of %zu graph nodes (", in.match.matched, in.match.nodeEvents,
                in.match.nodesCovered, in.graph->size());
    const char* sep = "";
    for (const auto& [method, count] : in.match.byMethod) {
      std::printf("%s%s %zu", sep, method.c_str(), count);
      sep = ", ";
    }
    std::printf("%s); %zu unmatched\n", in.match.byMethod.empty() ? "none" : "", in.match.unmatched());
  }
  if (!in.graphNote.empty()) std::printf("%s\n", in.graphNote.c_str());
  for (const auto& w : p.warnings) std::printf("warning: %s\n", w.c_str());
}

void printTables(const RunProfile& theirs, size_t slowest) {
  const int runs = theirs.runCount();
  std::printf("\n%-34s %-8s %7s %11s %9s %6s\n", "op", "backend", "count", "total us", "mean us", "share");
  for (const auto& s : theirs.byOp()) {
    std::string backend;
    for (const auto& e : theirs.events())
      if (e.op == s.key) {
        backend = backend.empty() || backend == e.backend ? e.backend : "mixed";
        if (backend == "mixed") break;
      }
    std::printf("%-34s %-8s %7lld %11.1f %9.1f %5.1f%%\n", s.key.substr(0, 34).c_str(), backend.c_str(),
                static_cast<long long>(s.count / runs), static_cast<double>(s.totalNs) / 1000.0 / runs,
                static_cast<double>(s.totalNs) / 1000.0 / static_cast<double>(s.count), 100.0 * s.share);
  }
  std::printf("\nslowest nodes (mean us per event)\n");
  for (const auto& s : theirs.slowestNodes(slowest))
    std::printf("  %10.1f  %s\n", static_cast<double>(s.totalNs) / 1000.0 / static_cast<double>(s.count),
                clip(s.key, 100).c_str());
}

void printUnmatched(const ImportedProfile& p) {
  const auto unmatched = p.unmatched();
  if (unmatched.empty()) return;
  std::printf("\nunmatched events (%zu; start and duration in us; --json lists all)\n", unmatched.size());
  for (size_t k = 0; k < unmatched.size() && k < 20; ++k) {
    const ImportedEvent& e = p.events[unmatched[k]];
    std::printf("  %12.1f %9.1f  run %d  %s (%s)\n", static_cast<double>(e.event.startNs) / 1000.0,
                static_cast<double>(e.event.durationNs()) / 1000.0, e.event.run, clip(e.label, 90).c_str(),
                clip(e.event.op, 40).c_str());
  }
  if (unmatched.size() > 20) std::printf("  ... %zu more\n", unmatched.size() - 20);
}

void printSideBySide(const ImportReportInput& in) {
  if (!in.oursNote.empty()) std::printf("\n%s\n", in.oursNote.c_str());
  const auto rows = sideBySide(in);
  if (rows.empty()) return;
  std::printf(
      "\nside by side (mean us per run; theirs / ours; a row sums the nodes either side fused into one kernel)\n");
  std::printf("%-60s %-18s %10s %10s %7s\n", "node", "op", "theirs", "ours", "ratio");
  for (size_t k = 0; k < rows.size() && k < in.top.value_or(25); ++k) {
    const auto& r = rows[k];
    std::string node = r.node.size() > 60 ? "..." + r.node.substr(r.node.size() - 57) : r.node;
    std::string op = r.op + (r.nodes > 1 ? "+" + std::to_string(r.nodes - 1) : "");
    if (r.oursUs > 0)
      std::printf("%-60s %-18s %10.1f %10.1f %7.2f\n", node.c_str(), op.c_str(), r.theirsUs, r.oursUs,
                  r.theirsUs / r.oursUs);
    else
      std::printf("%-60s %-18s %10.1f %10s %7s\n", node.c_str(), op.c_str(), r.theirsUs, "-", "-");
  }
}

}  // namespace

void printImportReport(const ImportReportInput& in) {
  const RunProfile theirs = in.imported->toRunProfile();
  printHeader(in, theirs);
  printTables(theirs, in.top.value_or(10));
  if (in.graph) printUnmatched(*in.imported);
  printSideBySide(in);
}

}  // namespace flowscope::cli
