// The GUI soak's corpus: every file under the given folders, each a graph to open (a SavedModel folder counts as
// one), a profile to import onto a graph, or skipped with the reason (weight shards, checkpoints, text).
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

namespace flowscope::soak {

struct CorpusEntry {
  enum class Kind { kGraph, kProfile, kSkipped };
  Kind kind = Kind::kSkipped;
  QString path;
  QString reason;  ///< kSkipped: why it is not opened
  QString host;    ///< kProfile: the graph it is imported onto (one in its folder, else the first graph found)
};

/// Walks `roots` (sorted, recursively); graphs and profiles come in walking order, the skipped files last.
std::vector<CorpusEntry> collectCorpus(const QStringList& roots);

}  // namespace flowscope::soak
