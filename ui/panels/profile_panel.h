// The profiling panel: runs the open graph N times on the CPU off the UI thread (random inputs, cancelable), then
// shows a sortable op-statistics table and a timeline, and hands per-node times to the canvas as a heat overlay.
// Chrome trace JSON can be exported and imported (an imported trace drives the same views).
#pragma once

#include <QFutureWatcher>
#include <QWidget>
#include <atomic>
#include <map>
#include <memory>

#include "ir/model.h"
#include "profile/run_profile.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace flowscope {

class Backend;
struct DeviceList;
class OpStatsModel;
class TimelineView;

class ProfilePanel : public QWidget {
  Q_OBJECT

 public:
  explicit ProfilePanel(QWidget* parent = nullptr);
  ~ProfilePanel() override;
  void setModel(std::shared_ptr<const Model> model);
  void profile(int runs);
  /// What each input is fed (label -> .npy path or literal; missing inputs get random values).
  void setInputSpecs(std::map<std::string, std::string> specs);
  const std::map<std::string, std::string>& inputSpecs() const { return m_inputSpecs; }
  void cancel();
  /// Shows a trace (from a run or a file) against the open model.
  void showTrace(std::shared_ptr<const RunProfile> trace, int runs);
  Status exportChromeTrace(const QString& path) const;
  Status importChromeTrace(const QString& path);

  std::shared_ptr<const RunProfile> trace() const { return m_trace; }
  OpStatsModel* opStats() const { return m_stats; }
  TimelineView* timeline() const { return m_timeline; }
  /// Seconds per graph node, averaged over the runs (for the canvas overlay).
  const std::vector<double>& nodeSeconds() const { return m_nodeSeconds; }
  void highlightNode(size_t node);
  /// Chooses the device: 0 is the CPU, k > 0 the k-th Vulkan device listed in the panel's device box.
  void setDevice(int choice);
  /// Entries of the device box (waits for the Vulkan device list if it is still being made).
  int deviceCount();
  /// Shows which backend ran each node as colours on the canvas (Vulkan purple, CPU slate) instead of heat.
  void setDeviceColours(bool on);
  static QColor vulkanColour() { return QColor("#8e24aa"); }
  static QColor cpuColour() { return QColor("#78909c"); }

 signals:
  void profiled();
  void failed(const QString& message);
  void nodeTimesReady(const std::vector<double>& seconds);
  void nodeClicked(size_t node);
  /// Device colours per node (empty when they are off: show the heat overlay again).
  void deviceColoursChanged(const std::vector<std::pair<size_t, QColor>>& colours);

 private:
  std::shared_ptr<const Model> m_model;
  std::shared_ptr<const RunProfile> m_trace;
  std::vector<double> m_nodeSeconds;
  OpStatsModel* m_stats;
  QSortFilterProxyModel* m_sorted;
  QTableView* m_table;
  TimelineView* m_timeline;
  QSpinBox* m_runs;
  QPushButton* m_run;
  QPushButton* m_inputs;
  QComboBox* m_device;
  QCheckBox* m_deviceColours;
  std::vector<std::string> m_deviceSpecs;  // device box entry -> `--device` spec
  QFutureWatcher<std::shared_ptr<DeviceList>> m_devicesWatcher;
  bool m_devicesAdded = false;
  void addVulkanDevices();
  std::shared_ptr<Backend> m_backend;
  std::map<std::string, std::string> m_inputSpecs;
  QPushButton* m_cancelButton;
  QLabel* m_status;
  QFutureWatcher<Expected<std::shared_ptr<RunProfile>>> m_watcher;
  std::atomic<bool> m_cancelled{false};
  int m_pendingRuns = 1;
};

}  // namespace flowscope
