// SoakDriver: one MainWindow taken through every document of the corpus, step by step, as a user would, with the
// heartbeat charging each UI-thread stall to the step that caused it; then the summary.
#pragma once

#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

#include "main_window.h"
#include "soak_corpus.h"
#include "soak_monitor.h"

class QAction;

namespace flowscope::soak {

struct SoakOptions {
  QStringList roots;
  int runs = 1;    ///< profile runs per graph
  int repeat = 1;  ///< passes over the corpus
  int timeoutMs = 120000;
  QString keep, only;
};

/// The path from the folder above its root ("graphs/tensorflow-rust/...").
QString displayName(const QString& path, const QStringList& roots);

class SoakDriver {
 public:
  SoakDriver(const SoakOptions& options, const QString& exportDir);
  void run(const std::vector<CorpusEntry>& entries);
  /// Prints the summary; false when a step failed unexpectedly.
  bool summarize(int skipped) const;

 private:
  struct FileRecord {
    int index;
    QString name;
    Memory memory;  // after closing it
    Block worst;
    double seconds;
  };

  void soakGraph(const QString& path);
  void soakProfile(const CorpusEntry& entry);
  bool open(const QString& path);
  void openProfileAsGraph(const QString& path);
  void openFunctionBodies();
  void expandAll();
  void stepPasses();
  bool optimize();
  void profile();
  void importByDrop(const QString& path);
  void exportCanvas(const QString& format);
  void switchTheme();
  void close();
  bool step(const QString& name, const std::function<void()>& act, const std::function<bool()>& done);
  void fail(const QString& step, const QString& message);
  void shown(const QString& step, const QString& message);
  QAction* menuAction(const QString& text) const;
  void record(double seconds);
  void printCurve() const;
  void printBlocks() const;

  SoakOptions m_options;
  QString m_exportDir;
  MainWindow m_window;
  Heartbeat m_beat{5, 100.0, 30};
  QString m_file;  // the document in progress, as displayName() gives it
  int m_index = 0;
  int m_graphsOpened = 0, m_profilesImported = 0;
  std::vector<FileRecord> m_curve;
  QStringList m_failures, m_shownErrors;
};

}  // namespace flowscope::soak
