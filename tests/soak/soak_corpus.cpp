// Walking and classifying the soak's corpus.
#include "soak_corpus.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <algorithm>

#include "session/session.h"

namespace flowscope::soak {
namespace {

QStringList filesUnder(const QStringList& roots) {
  QStringList files;
  for (const QString& root : roots) {
    QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) files << QFileInfo(it.next()).absoluteFilePath();
  }
  files.sort();
  return files;
}

QString savedModelHolding(const QString& file, const QStringList& savedModels) {
  for (const QString& dir : savedModels)
    if (file.startsWith(dir + "/")) return dir;
  return {};
}

// Why a file is data rather than a document (part of a SavedModel, weights, text); empty when it may be one.
QString dataReason(const QFileInfo& file, const QStringList& savedModels) {
  const QString dir = savedModelHolding(file.absoluteFilePath(), savedModels);
  if (!dir.isEmpty())
    return "part of the SavedModel " + QDir(dir).dirName() + " (variables, assets, fingerprint: read with it)";
  const QString suffix = file.suffix().toLower();
  if (suffix == "bin") {
    const bool manifest = !file.dir().entryList({"*.json"}, QDir::Files).isEmpty();
    return manifest ? "TF.js weight shard (read through the model JSON beside it)" : "weights without a model JSON";
  }
  if (QStringList{"md", "txt", "csv", "py", "sh", "cpp", "h"}.contains(suffix)) return "text, not a model";
  if (file.fileName().startsWith("variables.") || file.path().endsWith("/variables")) return "checkpoint data";
  return {};
}

CorpusEntry classify(const QFileInfo& file, const QStringList& savedModels) {
  CorpusEntry e;
  e.path = file.absoluteFilePath();
  if (savedModels.contains(file.path()) && file.fileName() == "saved_model.pb") {
    e.kind = CorpusEntry::Kind::kGraph;  // the folder is the document
    e.path = file.path();
  } else if (e.reason = dataReason(file, savedModels); !e.reason.isEmpty()) {
    e.kind = CorpusEntry::Kind::kSkipped;
  } else if (Session::looksLikeProfile(e.path)) {
    e.kind = CorpusEntry::Kind::kProfile;
  } else if (QStringList{"pb", "pbtxt", "json", "onnx", "meta"}.contains(file.suffix().toLower())) {
    e.kind = CorpusEntry::Kind::kGraph;
  } else {
    e.reason = "not a graph or profile the app opens (." + file.suffix() + ")";
  }
  return e;
}

// Each profile's host: a graph in its own folder, else the first graph of the corpus.
void assignHosts(std::vector<CorpusEntry>* entries) {
  QString first;
  for (const auto& e : *entries)
    if (e.kind == CorpusEntry::Kind::kGraph && first.isEmpty()) first = e.path;
  for (auto& e : *entries) {
    if (e.kind != CorpusEntry::Kind::kProfile) continue;
    e.host = first;
    for (const auto& g : *entries)
      if (g.kind == CorpusEntry::Kind::kGraph && QFileInfo(g.path).path() == QFileInfo(e.path).path()) e.host = g.path;
  }
}

}  // namespace

std::vector<CorpusEntry> collectCorpus(const QStringList& roots) {
  const QStringList files = filesUnder(roots);
  QStringList savedModels;
  for (const QString& f : files)
    if (QFileInfo(f).fileName() == "saved_model.pb") savedModels << QFileInfo(f).path();
  std::vector<CorpusEntry> entries;
  for (const QString& f : files) entries.push_back(classify(QFileInfo(f), savedModels));
  std::stable_partition(entries.begin(), entries.end(),
                        [](const CorpusEntry& e) { return e.kind != CorpusEntry::Kind::kSkipped; });
  assignHosts(&entries);
  return entries;
}

}  // namespace flowscope::soak
