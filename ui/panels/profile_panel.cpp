// The profiling panel.
#include "panels/profile_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

#include "base/thread_pool.h"
#include "models/op_stats_model.h"
#include "panels/inputs_dialog.h"
#include "panels/timeline_view.h"

namespace flowscope {

ProfilePanel::ProfilePanel(Session* session, QWidget* parent)
    : QWidget(parent),
      m_session(session),
      m_stats(new OpStatsModel(this)),
      m_sorted(new QSortFilterProxyModel(this)),
      m_table(new QTableView(this)),
      m_timeline(new TimelineView(this)),
      m_runs(new QSpinBox(this)),
      m_threads(new QSpinBox(this)),
      m_run(new QPushButton(tr("Profile"), this)),
      m_inputs(new QPushButton(tr("Inputs..."), this)),
      m_device(new QComboBox(this)),
      m_precision(new QComboBox(this)),
      m_optimize(new QCheckBox(tr("Optimize first"), this)),
      m_colourBy(new QComboBox(this)),
      m_cancelButton(new QPushButton(tr("Cancel"), this)),
      m_status(new QLabel(this)) {
  m_sorted->setSourceModel(m_stats);
  m_sorted->setSortRole(Qt::UserRole);
  m_table->setModel(m_sorted);
  m_table->setSortingEnabled(true);
  m_table->sortByColumn(OpStatsModel::kTotal, Qt::DescendingOrder);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setStretchLastSection(true);
  buildControls();
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(m_table);
  split->addWidget(m_timeline);
  layout()->addWidget(split);
  static_cast<QVBoxLayout*>(layout())->setStretch(1, 1);
  connect(m_timeline, &TimelineView::nodeClicked, this, [this](const QStringList& names) {
    auto model = m_session->model();
    if (!model) return;
    for (const QString& name : names)  // the first the opened graph holds
      if (int64_t node = model->graph.find(name.toStdString()); node >= 0) {
        m_session->selectInOpenedGraph(static_cast<size_t>(node));
        return;
      }
  });
  connect(session, &Session::profiled, this, [this] { setRunning(false); });
  connect(session, &Session::profileFailed, this, [this](const QString& message) {
    setRunning(false);
    m_status->setText(tr("Profiling stopped: %1").arg(message));
  });
  // Listing devices loads the GPU drivers (tens of milliseconds): on the worker, not at start-up.
  connect(session, &Session::devicesListed, this, &ProfilePanel::addDevices);
  session->listDevices();
  session->addViewer(this);
}

ProfilePanel::~ProfilePanel() { m_session->removeViewer(this); }

void ProfilePanel::buildControls() {
  m_runs->setRange(1, 10000);
  m_runs->setValue(10);
  m_runs->setPrefix(tr("runs: "));
  m_threads->setRange(1, std::max(1, QThread::idealThreadCount()));
  m_threads->setValue(physicalCores());  // as TensorFlow and ONNX Runtime do: every physical core
  m_threads->setToolTip(
      tr("Intra-op threads (oneDNN and the parallel kernels); wide graphs may also run "
         "independent ops at once"));
  m_threads->setPrefix(tr("threads: "));
  m_device->addItem(tr("CPU"));
  m_deviceSpecs.push_back("cpu");
  m_device->setSizeAdjustPolicy(QComboBox::AdjustToContents);  // grows when the other devices arrive
  for (Precision p : {Precision::kFp32, Precision::kFp16, Precision::kBf16}) m_precision->addItem(precisionName(p));
  m_precision->setToolTip(
      tr("Precision of MatMul and convolutions on a GPU: fp32 (TensorFlow's semantics), or operands rounded to fp16 or "
         "bf16 with fp32 sums, on the device's matrix units where it has them; the status line says which"));
  m_optimize->setChecked(true);
  m_optimize->setToolTip(
      tr("Run the optimizer's default passes first, as `flowscope profile` does "
         "(untick for --no-optimize)"));
  m_colourBy->addItems({tr("Colour: time"), tr("Colour: roofline"), tr("Colour: device"), tr("Colour: ours / theirs")});
  m_colourBy->setToolTip(
      tr("How the graph colours profiled nodes: heat by time; by share of the roofline (red: far below what this "
         "machine's FMA peak and memory bandwidth allow, green: near it); by the backend that ran them; or, with an "
         "imported profile, by our engine's time over theirs (green: ours faster, red: slower)"));
  m_inputs->setToolTip(tr("Feed inputs from .npy files or literals instead of random values"));
  auto* controls = new QHBoxLayout();
  for (QWidget* w : std::initializer_list<QWidget*>{m_runs, m_run, m_inputs, m_device, m_precision, m_threads,
                                                    m_optimize, m_colourBy, m_cancelButton})
    controls->addWidget(w);
  controls->addWidget(m_status, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  m_cancelButton->hide();
  m_status->setText(tr("Runs the graph with random inputs (1 per unknown dim) unless Inputs... says otherwise."));
  connect(m_run, &QPushButton::clicked, this, [this] { profile(m_runs->value()); });
  connect(m_cancelButton, &QPushButton::clicked, m_session, &Session::cancelProfile);
  connect(m_colourBy, &QComboBox::currentIndexChanged, this,
          [this](int index) { m_session->setOverlayMode(static_cast<OverlayMode>(index)); });
  connect(m_inputs, &QPushButton::clicked, this, [this] {
    auto model = m_session->model();
    if (!model) return;
    auto inputs = runInputs(*model);
    if (!inputs) return m_status->setText(QString::fromStdString(inputs.status().message()));
    InputsDialog dialog(*inputs, m_inputSpecs, this);
    if (dialog.exec() == QDialog::Accepted) setInputSpecs(dialog.specs());
  });
}

ProfileRequest ProfilePanel::request(int runs) const {
  ProfileRequest request;
  request.runs = runs;
  request.inputs = m_inputSpecs;
  request.optimize = m_optimize->isChecked();
  request.device = m_deviceSpecs[static_cast<size_t>(std::max(0, m_device->currentIndex()))];
  request.threads = m_threads->value();
  request.precision = static_cast<Precision>(std::max(0, m_precision->currentIndex()));
  return request;
}

void ProfilePanel::profile(int runs) {
  if (!m_session->model()) return;
  setRunning(true);
  m_status->setText(tr("Profiling %1 runs on %2...").arg(runs).arg(m_device->currentText()));
  m_session->profile(request(runs));
}

void ProfilePanel::setRunning(bool running) {
  m_run->setEnabled(!running);
  m_cancelButton->setVisible(running);
}

void ProfilePanel::setInputSpecs(std::map<std::string, std::string> specs) {
  m_inputSpecs = std::move(specs);
  m_status->setText(m_inputSpecs.empty()
                        ? tr("Inputs: random values.")
                        : tr("Inputs: %n given, the rest random.", nullptr, static_cast<int>(m_inputSpecs.size())));
}

void ProfilePanel::setOptimize(bool on) { m_optimize->setChecked(on); }

void ProfilePanel::setDevice(int choice) { m_device->setCurrentIndex(choice); }

void ProfilePanel::setPrecision(Precision precision) { m_precision->setCurrentIndex(static_cast<int>(precision)); }

int ProfilePanel::deviceCount() const { return m_device->count(); }

QString ProfilePanel::statusText() const { return m_status->text(); }

void ProfilePanel::addDevices(const DeviceList& list) {
  m_devicesListed = true;
  if (auto why = list.unavailable.find("vulkan"); why != list.unavailable.end())
    m_device->setToolTip(tr("Vulkan: %1").arg(QString::fromStdString(why->second)));
  for (const auto& d : list.devices) {
    if (d.backend == "cpu" || !d.usable) continue;
    m_device->addItem(d.backend == "vulkan" ? tr("Vulkan %1: %2").arg(d.index).arg(QString::fromStdString(d.name))
                                            : tr("Null (runs nothing: Flowscope's own cost)"));
    m_deviceSpecs.push_back(d.spec());
  }
}

void ProfilePanel::documentChanged(const Session& session) {
  if (!session.navigation().atRoot()) return;  // profiles are of the opened graph
  m_inputSpecs.clear();
}

void ProfilePanel::selectionChanged(const Session& session) {
  const Selection& s = session.selection();
  auto shown = session.shownModel();
  if (s.kind == Selection::Kind::kNode && session.navigation().atRoot() && shown && s.node < shown->graph.size())
    m_timeline->highlightNode(shown->graph.node(s.node).name);
}

QString ProfilePanel::describe(const ProfileView& v) const {
  if (v.imported) return tr("Imported %1: %2 runs, %3 events").arg(v.source).arg(v.runs()).arg(v.profile->size());
  QString text = tr("%1 runs on %2, %3 thread(s), %4; ")
                     .arg(v.runs())
                     .arg(QString::fromStdString(v.device))
                     .arg(v.threads)
                     .arg(QString::fromStdString(v.executionMode));
  text += v.optimized ? tr("optimized first (%1 → %2 nodes); ").arg(v.nodesBeforeOptimizing).arg(v.nodesRun)
                      : tr("not optimized (%1 nodes); ").arg(v.nodesRun);
  text += tr("median %1 us per run, %2 us of node time")
              .arg(v.medianMicros, 0, 'f', 1)
              .arg((v.times.matchedSeconds + v.times.unmatchedSeconds) * 1e6, 0, 'f', 1);
  size_t vulkan = 0;
  for (const auto& e : v.profile->events()) vulkan += e.backend == "vulkan";
  if (vulkan) text += tr("; %1 of %2 node runs on Vulkan (GPU time)").arg(vulkan).arg(v.profile->size());
  if (v.precision != "fp32") text += tr("; precision %1").arg(QString::fromStdString(v.precision));
  for (const auto& note : v.notes) text += "; " + QString::fromStdString(note);
  if (v.roofline.known())
    text += tr("; roofline %1 GFLOP/s, %2 GB/s from memory")
                .arg(v.roofline.peakGflops, 0, 'f', 0)
                .arg(v.roofline.bandwidthGBs, 0, 'f', 0);
  return text;
}

void ProfilePanel::profileChanged(const Session& session) {
  const ProfileView* view = session.profileView();
  m_colourBy->setCurrentIndex(static_cast<int>(session.overlayMode()));
  if (!view) {
    m_stats->setStats({}, 1, {});
    m_timeline->setEvents({});
    return;
  }
  m_stats->setStats(view->profile->byOp(), view->runs(), view->roofline);
  m_timeline->setEvents(view->profile->events());
  m_table->resizeColumnsToContents();
  m_status->setText(describe(*view));
}

}  // namespace flowscope
