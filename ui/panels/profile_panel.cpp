// The profiling panel.
#include "panels/profile_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "exec/backend.h"
#include "profile/chrome_trace.h"
#include "workflow/prepared_run.h"
#include "base/atomic_file.h"
#include "models/op_stats_model.h"
#include "panels/inputs_dialog.h"
#include "panels/timeline_view.h"

namespace flowscope {

ProfilePanel::ProfilePanel(QWidget* parent)
    : QWidget(parent), m_stats(new OpStatsModel(this)), m_sorted(new QSortFilterProxyModel(this)), m_table(new QTableView(this)),
      m_timeline(new TimelineView(this)), m_runs(new QSpinBox(this)), m_run(new QPushButton(tr("Profile"), this)),
      m_inputs(new QPushButton(tr("Inputs..."), this)), m_device(new QComboBox(this)),
      m_deviceColours(new QCheckBox(tr("Device colours"), this)), m_cancelButton(new QPushButton(tr("Cancel"), this)),
      m_status(new QLabel(this)) {
  m_sorted->setSourceModel(m_stats);
  m_sorted->setSortRole(Qt::UserRole);
  m_table->setModel(m_sorted);
  m_table->setSortingEnabled(true);
  m_table->sortByColumn(OpStatsModel::kTotal, Qt::DescendingOrder);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_runs->setRange(1, 10000);
  m_runs->setValue(10);
  m_runs->setPrefix(tr("runs: "));
  auto* controls = new QHBoxLayout();
  controls->addWidget(m_runs);
  controls->addWidget(m_run);
  controls->addWidget(m_inputs);
  controls->addWidget(m_device);
  controls->addWidget(m_deviceColours);
  controls->addWidget(m_cancelButton);
  controls->addWidget(m_status, 1);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(m_table);
  split->addWidget(m_timeline);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(split, 1);
  m_cancelButton->hide();
  m_status->setText(tr("Runs the graph on the CPU, with random inputs (1 per unknown dim) unless Inputs... says otherwise."));
  connect(m_run, &QPushButton::clicked, this, [this] { profile(m_runs->value()); });
  connect(m_cancelButton, &QPushButton::clicked, this, &ProfilePanel::cancel);
  m_device->addItem(tr("CPU"));
  m_device->setSizeAdjustPolicy(QComboBox::AdjustToContents);  // grows when the Vulkan devices arrive
  // Listing Vulkan devices loads the drivers (tens of milliseconds): off the UI thread, not at start-up.
  m_devicesWatcher.setFuture(QtConcurrent::run([] { return std::make_shared<DeviceList>(listDevices()); }));
  connect(&m_devicesWatcher, &QFutureWatcherBase::finished, this, &ProfilePanel::addVulkanDevices);
  m_deviceColours->setToolTip(tr("Colour nodes by the backend that ran them (Vulkan purple, CPU slate) instead of by time"));
  connect(m_deviceColours, &QCheckBox::toggled, this, &ProfilePanel::setDeviceColours);
  m_inputs->setToolTip(tr("Feed inputs from .npy files or literals instead of random values"));
  connect(m_inputs, &QPushButton::clicked, this, [this] {
    if (!m_model) return;
    auto inputs = runInputs(*m_model);
    if (!inputs) return m_status->setText(QString::fromStdString(inputs.status().message()));
    InputsDialog dialog(*inputs, m_inputSpecs, this);
    if (dialog.exec() == QDialog::Accepted) setInputSpecs(dialog.specs());
  });
  connect(m_timeline, &TimelineView::nodeClicked, this, [this](const QString& name) {
    if (!m_model) return;
    int64_t node = m_model->graph.find(name.toStdString());
    if (node >= 0) emit nodeClicked(static_cast<size_t>(node));
  });
  connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
    m_run->setEnabled(true);
    m_cancelButton->hide();
    auto result = m_watcher.result();
    if (!result) {
      m_status->setText(tr("Profiling stopped: %1").arg(QString::fromStdString(result.status().message())));
      emit failed(QString::fromStdString(result.status().message()));
      return;
    }
    showTrace(*result, m_pendingRuns);
    emit profiled();
  });
}

ProfilePanel::~ProfilePanel() {
  m_devicesWatcher.waitForFinished();
  m_cancelled = true;
  m_watcher.waitForFinished();
}

void ProfilePanel::setModel(std::shared_ptr<const Model> model) {
  m_model = std::move(model);
  m_inputSpecs.clear();
  m_trace.reset();
  m_nodeSeconds.clear();
  m_stats->setStats({}, 1);
  m_timeline->setEvents({});
}

void ProfilePanel::cancel() { m_cancelled = true; }

void ProfilePanel::setInputSpecs(std::map<std::string, std::string> specs) {
  m_inputSpecs = std::move(specs);
  m_status->setText(m_inputSpecs.empty() ? tr("Inputs: random values.")
                                         : tr("Inputs: %n given, the rest random.", nullptr, static_cast<int>(m_inputSpecs.size())));
}

void ProfilePanel::profile(int runs) {
  if (!m_model || m_watcher.isRunning()) return;
  m_cancelled = false;
  m_pendingRuns = runs;
  m_run->setEnabled(false);
  m_cancelButton->show();
  m_status->setText(tr("Profiling %1 runs...").arg(runs));
  auto model = m_model;
  RunSpecOptions spec;
  spec.inputs = m_inputSpecs;
  RunSetup setup;
  setup.inputs = spec;
  setup.optimize = false;
  setup.backend = fallbackBackend();
  if (m_device->currentIndex() > 0) {
    const std::string& wanted = m_deviceSpecs[static_cast<size_t>(m_device->currentIndex() - 1)];
    if (!m_backend || m_backend->deviceName().rfind(wanted, 0) != 0) {
      auto opened = openBackend(wanted);
      if (!opened) {
        m_status->setText(tr("%1 is not available (%2); profiling on the CPU")
                              .arg(QString::fromStdString(wanted), QString::fromStdString(opened.status().message())));
        m_device->setCurrentIndex(0);
      } else {
        m_backend = *opened;
      }
    }
    if (m_device->currentIndex() > 0) setup.backend = m_backend;
  }
  m_watcher.setFuture(QtConcurrent::run([model, runs, setup]() -> Expected<std::shared_ptr<RunProfile>> {
    FS_ASSIGN_OR_RETURN(PreparedRun prepared, prepareRun(model, setup));
    FS_ASSIGN_OR_RETURN(ProfiledRun run, profileRun(prepared, {runs, 1, {}}));
    return std::make_shared<RunProfile>(std::move(run.profile));
  }));
}

void ProfilePanel::showTrace(std::shared_ptr<const RunProfile> trace, int runs) {
  m_trace = std::move(trace);
  m_stats->setStats(m_trace->byOp(), runs);
  m_timeline->setEvents(m_trace->events());
  m_nodeSeconds.assign(m_model ? m_model->graph.size() : 0, 0.0);
  int64_t total = 0;
  for (const auto& e : m_trace->events()) {
    total += e.durationNs();
    if (!m_model) continue;
    int64_t node = m_model->graph.find(e.name);
    if (node >= 0) m_nodeSeconds[static_cast<size_t>(node)] += static_cast<double>(e.durationNs()) * 1e-9 / std::max(1, runs);
  }
  m_table->resizeColumnsToContents();
  size_t vulkanEvents = 0;
  for (const auto& e : m_trace->events()) vulkanEvents += e.backend == "vulkan";
  m_status->setText(tr("%1 runs, %2 events, %3 us of node time per run%4")
                        .arg(runs)
                        .arg(m_trace->size())
                        .arg(static_cast<double>(total) / 1000.0 / std::max(1, runs), 0, 'f', 1)
                        .arg(vulkanEvents ? tr("; %1 of %2 node runs on Vulkan (GPU time from timestamps)").arg(vulkanEvents).arg(m_trace->size())
                                          : QString()));
  emit nodeTimesReady(m_nodeSeconds);
  if (m_deviceColours->isChecked()) setDeviceColours(true);
}

Status ProfilePanel::exportChromeTrace(const QString& path) const {
  if (!m_trace) return invalidArgument("there is no profile to export yet");
  return writeFileAtomically(path.toStdString(), toChromeTraceJson(*m_trace));
}

Status ProfilePanel::importChromeTrace(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return notFound("cannot read " + path.toStdString());
  FS_ASSIGN_OR_RETURN(RunProfile trace, fromChromeTraceJson(file.readAll().toStdString()));
  int runs = 1;
  for (const auto& e : trace.events()) runs = std::max(runs, e.run + 1);
  showTrace(std::make_shared<const RunProfile>(std::move(trace)), runs);
  return Status::ok();
}

void ProfilePanel::addVulkanDevices() {
  if (m_devicesAdded) return;
  m_devicesWatcher.waitForFinished();
  m_devicesAdded = true;
  const DeviceList& list = *m_devicesWatcher.result();
  if (auto why = list.unavailable.find("vulkan"); why != list.unavailable.end())
    m_device->setToolTip(QString::fromStdString(why->second));
  for (const auto& d : list.devices) {
    if (d.backend != "vulkan" || !d.usable) continue;
    m_device->addItem(tr("Vulkan %1: %2").arg(d.index).arg(QString::fromStdString(d.name)));
    m_deviceSpecs.push_back(d.spec());
  }
}

void ProfilePanel::setDevice(int choice) {
  addVulkanDevices();
  m_device->setCurrentIndex(choice);
}

int ProfilePanel::deviceCount() {
  addVulkanDevices();
  return m_device->count();
}

void ProfilePanel::setDeviceColours(bool on) {
  if (m_deviceColours->isChecked() != on) return m_deviceColours->setChecked(on);  // toggled() comes back here
  std::vector<std::pair<size_t, QColor>> colours;
  if (on && m_trace && m_model) {
    std::map<size_t, bool> onVulkan;
    for (const auto& e : m_trace->events())
      if (int64_t node = m_model->graph.find(e.name); node >= 0) onVulkan[static_cast<size_t>(node)] |= e.backend == "vulkan";
    for (const auto& [node, vulkan] : onVulkan) colours.emplace_back(node, vulkan ? vulkanColour() : cpuColour());
  }
  emit deviceColoursChanged(colours);
}

void ProfilePanel::highlightNode(size_t node) {
  if (m_model && node < m_model->graph.size()) m_timeline->highlightNode(m_model->graph.node(node).name);
}

}  // namespace flowscope
