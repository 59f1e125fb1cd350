// The profiler panel: asks the session to profile the opened graph N times (on the CPU, a Vulkan device, or the null
// backend; optimized first unless the box is unticked, as `flowscope profile` does), then shows a sortable
// op-statistics table and a per-thread timeline of the session's profile. The canvas shows the same profile as an
// overlay (heat by time, share of the roofline, or colours by device).
#pragma once

#include <QWidget>
#include <map>
#include <string>
#include <vector>

#include "session/session.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace flowscope {

class OpStatsModel;
class TimelineView;

class ProfilePanel : public QWidget, public SessionViewer {
  Q_OBJECT

 public:
  ProfilePanel(Session* session, QWidget* parent = nullptr);
  ~ProfilePanel() override;
  /// Profiles `runs` runs with the panel's choices (device, threads, inputs, optimize).
  void profile(int runs);
  /// What the panel would ask for.
  ProfileRequest request(int runs) const;
  /// What each input is fed (label -> .npy path or literal; missing inputs get random values).
  void setInputSpecs(std::map<std::string, std::string> specs);
  const std::map<std::string, std::string>& inputSpecs() const { return m_inputSpecs; }
  void setOptimize(bool on);
  /// Chooses the device box's entry (0 is the CPU; the others arrive with the device list).
  void setDevice(int choice);
  void setPrecision(Precision precision);
  int deviceCount() const;
  bool devicesListed() const { return m_devicesListed; }
  QString statusText() const;
  OpStatsModel* opStats() const { return m_stats; }
  TimelineView* timeline() const { return m_timeline; }

  void documentChanged(const Session& session) override;
  void selectionChanged(const Session& session) override;
  void passChanged(const Session&) override {}
  void profileChanged(const Session& session) override;

 private:
  void buildControls();
  void addDevices(const DeviceList& list);
  void setRunning(bool running);
  QString describe(const ProfileView& view) const;

  Session* m_session;
  OpStatsModel* m_stats;
  QSortFilterProxyModel* m_sorted;
  QTableView* m_table;
  TimelineView* m_timeline;
  QSpinBox* m_runs;
  QSpinBox* m_threads;
  QPushButton* m_run;
  QPushButton* m_inputs;
  QComboBox* m_device;
  QComboBox* m_precision;  // fp32, fp16, bf16: Precision's order
  QCheckBox* m_optimize;
  QComboBox* m_colourBy;  // the canvas overlay: time, roofline, device
  QPushButton* m_cancelButton;
  QLabel* m_status;
  std::vector<std::string> m_deviceSpecs;  // device box entry -> `--device` spec
  bool m_devicesListed = false;
  std::map<std::string, std::string> m_inputSpecs;
};

}  // namespace flowscope
