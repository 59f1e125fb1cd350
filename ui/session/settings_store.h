// SettingsStore: the app's preferences (theme, minimap, recent files, window layout) without disk work on the UI
// thread. QSettings saves its file with an fdatasync on every change, which takes 100 ms and more on a busy disk; here
// a change is kept in memory at once (reads see it) and a background thread saves the changes, in order.
#pragma once
#include <QString>
#include <QThreadPool>
#include <QVariant>
#include <map>
#include <mutex>

namespace flowscope {

class SettingsStore {
 public:
  /// The store of the application named by QCoreApplication's organization and application names.
  static SettingsStore& instance();
  ~SettingsStore();

  QVariant value(const QString& key, const QVariant& fallback = {}) const;
  bool contains(const QString& key) const;
  /// Returns at once; the value is on disk after the next save (flush() waits for it).
  void setValue(const QString& key, const QVariant& value);
  /// Waits until every change made so far is saved (the app's exit, tests).
  void flush();

 private:
  struct Unsaved {
    QVariant value;
    quint64 change = 0;  // which setValue wrote it: a save forgets only what it saved
  };
  SettingsStore();
  void save();  // on m_saver's thread

  mutable std::mutex m_mutex;
  std::map<QString, Unsaved> m_unsaved;
  quint64 m_changes = 0;
  bool m_saveQueued = false;
  QThreadPool m_saver;  // one thread, so saves happen in the order of the changes
};

}  // namespace flowscope
