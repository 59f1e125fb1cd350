// Preferences kept in memory and saved off the UI thread.
#include "session/settings_store.h"

#include <QSettings>

namespace flowscope {

SettingsStore& SettingsStore::instance() {
  static SettingsStore store;
  return store;
}

SettingsStore::SettingsStore() { m_saver.setMaxThreadCount(1); }

SettingsStore::~SettingsStore() { m_saver.waitForDone(); }

QVariant SettingsStore::value(const QString& key, const QVariant& fallback) const {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (auto it = m_unsaved.find(key); it != m_unsaved.end()) return it->second.value;
  }
  return QSettings().value(key, fallback);
}

bool SettingsStore::contains(const QString& key) const {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_unsaved.count(key)) return true;
  }
  return QSettings().contains(key);
}

void SettingsStore::setValue(const QString& key, const QVariant& value) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_unsaved[key] = {value, ++m_changes};
  if (m_saveQueued) return;
  m_saveQueued = true;
  m_saver.start([this] { save(); });
}

void SettingsStore::save() {
  std::map<QString, Unsaved> batch;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    batch = m_unsaved;
    m_saveQueued = false;  // a change from now on queues another save
  }
  {
    QSettings settings;
    for (const auto& [key, unsaved] : batch) settings.setValue(key, unsaved.value);
    settings.sync();
  }
  std::lock_guard<std::mutex> lock(m_mutex);
  for (const auto& [key, saved] : batch)
    if (auto it = m_unsaved.find(key); it != m_unsaved.end() && it->second.change == saved.change) m_unsaved.erase(it);
}

void SettingsStore::flush() { m_saver.waitForDone(); }

}  // namespace flowscope
