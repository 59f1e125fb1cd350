// ImportedProfile: conversion to RunProfile, counts, time normalization and run detection.
#include "profile/imported_profile.h"

#include <algorithm>
#include <limits>

namespace flowscope {

RunProfile ImportedProfile::toRunProfile() const {
  std::vector<NodeEvent> out;
  for (const ImportedEvent& e : events) {
    if (!e.inTables) continue;
    out.push_back(e.event);
    if (e.nodes.size() > 1) out.back().fusedFrom = e.nodes;  // the tool fused them: the overlay marks the others
  }
  RunProfile profile;
  profile.addAll(std::move(out));
  return profile;
}

size_t ImportedProfile::matchedCount() const {
  return static_cast<size_t>(std::count_if(events.begin(), events.end(),
                                           [](const ImportedEvent& e) { return e.nodeEvent && !e.nodes.empty(); }));
}

size_t ImportedProfile::nodeEventCount() const {
  return static_cast<size_t>(
      std::count_if(events.begin(), events.end(), [](const ImportedEvent& e) { return e.nodeEvent; }));
}

std::vector<size_t> ImportedProfile::unmatched() const {
  std::vector<size_t> out;
  for (size_t i = 0; i < events.size(); ++i)
    if (events[i].nodeEvent && events[i].nodes.empty()) out.push_back(i);
  return out;
}

void ImportedProfile::normalizeTimes() {
  int64_t origin = std::numeric_limits<int64_t>::max();
  for (const ImportedEvent& e : events) origin = std::min(origin, e.event.startNs);
  if (events.empty()) return;
  size_t backwards = 0;
  for (ImportedEvent& e : events) {
    e.event.startNs -= origin;
    e.event.endNs -= origin;
    if (e.event.endNs >= e.event.startNs) continue;
    if (++backwards <= 5)
      warnings.push_back("event '" + e.label + "' ends before it starts (duration " +
                         std::to_string(e.event.endNs - e.event.startNs) + " ns); shown as 0 ns");
    e.event.endNs = e.event.startNs;
  }
  if (backwards > 5) warnings.push_back(std::to_string(backwards - 5) + " more events end before they start");
}

namespace {

// The smallest period P (dividing names.size()) with names[i] == names[i % P]; names.size() when there is none.
size_t periodOf(const std::vector<const std::string*>& names) {
  const size_t n = names.size();
  for (size_t p = 1; p < n; ++p) {
    if (n % p != 0) continue;
    bool ok = true;
    for (size_t i = p; i < n && ok; ++i) ok = *names[i] == *names[i % p];
    if (ok) return p;
  }
  return n;
}

}  // namespace

void assignRunsByPeriod(ImportedProfile* profile) {
  auto& events = profile->events;
  std::vector<size_t> top;  // counted host events with no launcher, in start order
  for (size_t i = 0; i < events.size(); ++i)
    if (events[i].parent < 0 && events[i].inTables && events[i].event.backend == "cpu") top.push_back(i);
  std::stable_sort(top.begin(), top.end(),
                   [&](size_t a, size_t b) { return events[a].event.startNs < events[b].event.startNs; });
  std::vector<const std::string*> names;
  for (size_t i : top) names.push_back(&events[i].label);
  const size_t period = std::max<size_t>(1, periodOf(names));
  for (size_t k = 0; k < top.size(); ++k) events[top[k]].event.run = static_cast<int>(k / period);
  for (ImportedEvent& e : events) {
    int p = e.parent;
    for (int hops = 0; p >= 0 && hops < 8 && events[static_cast<size_t>(p)].parent >= 0; ++hops)
      p = events[static_cast<size_t>(p)].parent;
    if (p >= 0) {
      e.event.run = events[static_cast<size_t>(p)].event.run;
    } else if (!top.empty() && (e.event.backend != "cpu" || !e.inTables)) {  // by time: the last run begun
      auto it = std::upper_bound(top.begin(), top.end(), e.event.startNs,
                                 [&](int64_t t, size_t i) { return t < events[i].event.startNs; });
      e.event.run = it == top.begin() ? 0 : events[*(it - 1)].event.run;
    }
  }
}

}  // namespace flowscope
