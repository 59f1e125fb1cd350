// The session: document state and the engine work behind it.
#include "session/session.h"

#include <QFile>
#include <QFileInfo>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "base/atomic_file.h"
#include "io/loader.h"
#include "ir/buffer_pool.h"
#include "profile/chrome_trace.h"
#include "session/profile_import.h"
#include "workflow/optimize_model.h"
#include "workflow/prepared_run.h"

namespace flowscope {
namespace {

// A loaded model, and what the header shows that would take a walk over its nodes on the UI thread.
struct Loaded {
  Expected<Model> model;
  size_t opTypes = 0;
};
using LoadResult = std::shared_ptr<Loaded>;
using PipelineJobResult = std::shared_ptr<Expected<PipelineResult>>;
using ProfileJobResult = Expected<std::shared_ptr<const ProfileView>>;

// The profile as the views show it: the events summed onto the opened graph, and how the run was made.
std::shared_ptr<ProfileView> viewOf(const PreparedRun& prepared, ProfiledRun run, const Graph& opened) {
  auto view = std::make_shared<ProfileView>();
  auto profile = std::make_shared<RunProfile>(std::move(run.profile));
  view->times = nodeTimes(*profile, opened);
  view->profile = std::move(profile);
  view->source = QObject::tr("profiled here");
  view->optimized = prepared.optimized;
  view->nodesBeforeOptimizing = prepared.nodesBeforeOptimizing;
  view->nodesRun = prepared.model->graph.size();
  view->device = prepared.deviceName();
  view->precision = prepared.precisionSummary();
  view->threads = prepared.threads;
  view->executionMode = run.executionMode;
  view->roofline = run.roofline;
  view->medianMicros = run.medianMicros;
  view->placement = std::move(run.placement);
  return view;
}

}  // namespace

Session::Session(QObject* parent) : QObject(parent), m_worker(new EngineWorker(this)) {}

Session::~Session() = default;

void Session::addViewer(SessionViewer* viewer) { m_viewers.push_back(viewer); }

void Session::removeViewer(SessionViewer* viewer) { std::erase(m_viewers, viewer); }

void Session::open(const QString& path) {
  m_openingPath = path;
  m_openPending = true;
  const quint64 ticket = ++m_openTicket;
  const std::string file = path.toStdString();
  m_worker->submit<LoadResult>(
      "load", tr("Loading %1").arg(QFileInfo(path).fileName()), this,
      [file](JobControl&) {
        auto loaded = std::make_shared<Loaded>(Loaded{loadModel(file)});
        if (loaded->model) loaded->opTypes = loaded->model->graph.opHistogram().size();
        return loaded;
      },
      [this, ticket, path](LoadResult result) {
        if (ticket != m_openTicket) return;  // cancelled, or a newer open is pending
        m_openPending = false;
        if (!result->model) return emit openFailed(QString::fromStdString(result->model.status().message()));
        m_openedOpTypes = result->opTypes;
        setDocument(std::make_shared<const Model>(std::move(result->model).value()));
        emit opened();
      });
}

void Session::cancelOpen() {
  if (!m_openPending) return;
  ++m_openTicket;
  m_openPending = false;
  m_worker->cancelTag("load");
  emit statusMessage(tr("Stopped loading %1").arg(m_openingPath));
}

void Session::close() { setDocument(nullptr); }

void Session::setDocument(std::shared_ptr<const Model> model) {
  cancelOptimize();
  cancelProfile();
  m_navigation.reset(std::move(model));
  m_selection = {};
  m_pipeline.reset();
  m_pipelineModel.reset();
  m_currentPass = -1;
  m_profile.reset();
  m_ownProfile.reset();
  broadcast([this](SessionViewer& v) { v.documentChanged(*this); });
  broadcast([this](SessionViewer& v) { v.selectionChanged(*this); });
  broadcast([this](SessionViewer& v) { v.passChanged(*this); });
  broadcast([this](SessionViewer& v) { v.profileChanged(*this); });
  // The previous document's memory goes back to the system: the tensor buffers this thread keeps for reuse, and the
  // pages malloc keeps in its arenas once a big model and its layouts are freed (hundreds of MiB otherwise).
  releaseCachedTensorBuffers();
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

Status Session::openFunction(const std::string& name) {
  Status s = m_navigation.openFunction(name);
  if (!s) {
    emit statusMessage(tr("Cannot open %1: %2").arg(QString::fromStdString(name), QString::fromStdString(s.message())));
    return s;
  }
  emit statusMessage(tr("Function %1 (%2 nodes); the breadcrumb above the canvas goes back")
                         .arg(QString::fromStdString(name))
                         .arg(shownModel()->graph.size()));
  m_selection = {};
  broadcast([this](SessionViewer& v) { v.documentChanged(*this); });
  broadcast([this](SessionViewer& v) { v.selectionChanged(*this); });
  return Status::ok();
}

void Session::goToLevel(int depth) {
  if (depth == m_navigation.depth()) return;
  m_navigation.goTo(depth);
  m_selection = {};
  broadcast([this](SessionViewer& v) { v.documentChanged(*this); });
  broadcast([this](SessionViewer& v) { v.selectionChanged(*this); });
}

void Session::select(const Selection& selection) {
  if (selection == m_selection) return;
  m_selection = selection;
  broadcast([this](SessionViewer& v) { v.selectionChanged(*this); });
}

void Session::selectInOpenedGraph(size_t node) {
  goToLevel(0);
  select(Selection::ofNode(node));
}

void Session::optimize() {
  auto model = this->model();
  if (!model || m_pipelineModel == model) return;  // done, or running, for this document
  m_pipelineModel = model;
  const quint64 ticket = ++m_optimizeTicket;
  m_worker->submit<PipelineJobResult>(
      "optimize", tr("Optimizing"), this,
      [model](JobControl& control) {
        PipelineOptions options;
        options.cancelled = control.cancelFlag();
        options.progress = [&control](size_t done, size_t total, const std::string& pass) {
          control.progress(static_cast<double>(done) / static_cast<double>(std::max<size_t>(total, 1)),
                           QString::fromStdString(pass));
        };
        return std::make_shared<Expected<PipelineResult>>(optimizeForViewing(model, options));
      },
      [this, model, ticket](PipelineJobResult result) {
        if (model != this->model() || ticket != m_optimizeTicket) return;
        if (!result->hasValue()) {
          m_pipelineModel.reset();  // asking again tries again
          return emit optimizeFailed(QString::fromStdString(result->status().message()));
        }
        m_pipeline = std::make_shared<const PipelineResult>(std::move(*result).value());
        m_currentPass = -1;
        broadcast([this](SessionViewer& v) { v.passChanged(*this); });
        emit optimized();
      });
}

void Session::cancelOptimize() {
  if (!m_pipelineModel || m_pipeline) return;  // nothing pending
  ++m_optimizeTicket;                          // whatever the job still delivers is dropped
  m_pipelineModel.reset();
  m_worker->cancelTag("optimize");
  emit optimizeFailed(tr("optimizing was cancelled"));
}

void Session::setCurrentPass(int index) {
  if (!m_pipeline || index < 0 || index >= static_cast<int>(m_pipeline->records.size()) || index == m_currentPass)
    return;
  m_currentPass = index;
  broadcast([this](SessionViewer& v) { v.passChanged(*this); });
}

Expected<std::shared_ptr<Backend>> Session::backendFor(const std::string& spec, std::vector<std::string>* notes) {
  std::lock_guard<std::mutex> lock(m_backendsMutex);
  if (auto it = m_backends.find(spec); it != m_backends.end()) return it->second;
  FS_ASSIGN_OR_RETURN(auto backend, openBackendOrFallback(spec, notes));
  if (notes->empty()) m_backends[spec] = backend;  // a fallback is not remembered: the device may appear later
  return backend;
}

void Session::profile(const ProfileRequest& request) {
  auto model = this->model();
  if (!model) return;
  const quint64 ticket = ++m_profileTicket;
  m_worker->submit<ProfileJobResult>(
      "profile", tr("Profiling %n runs", nullptr, request.runs), this,
      [this, model, request](JobControl& control) -> ProfileJobResult {
        RunSetup setup;
        setup.inputs.inputs = request.inputs;
        setup.optimize = request.optimize;
        setup.threads = request.threads;
        setup.precision = request.precision;
        setup.cancelled = control.cancelFlag();
        std::vector<std::string> notes;
        FS_ASSIGN_OR_RETURN(setup.backend, backendFor(request.device, &notes));
        FS_ASSIGN_OR_RETURN(PreparedRun prepared, prepareRun(model, setup));
        ProfileOptions options{request.runs, request.warmup, [&control](int done, int total) {
                                 control.progress(static_cast<double>(done) / total);
                               }};
        FS_ASSIGN_OR_RETURN(ProfiledRun run, profileRun(prepared, options));
        auto view = viewOf(prepared, std::move(run), model->graph);
        view->notes = std::move(notes);
        return std::shared_ptr<const ProfileView>(std::move(view));
      },
      [this, model, ticket](ProfileJobResult result) {
        if (model != this->model() || ticket != m_profileTicket) return;
        if (!result) return emit profileFailed(QString::fromStdString(result.status().message()));
        showProfile(std::move(result).value());
        emit profiled();
      });
}

void Session::cancelProfile() {
  if (!isProfiling()) return;
  ++m_profileTicket;  // whatever the job still delivers is dropped
  m_worker->cancelTag("profile");
  emit profileFailed(tr("profiling was cancelled"));
}

bool Session::isProfiling() const { return m_worker->isBusy("profile"); }

void Session::showProfile(std::shared_ptr<const ProfileView> view) {
  if (!view->imported) m_ownProfile = view;  // kept beside imported profiles for the side-by-side table
  m_profile = std::move(view);
  broadcast([this](SessionViewer& v) { v.profileChanged(*this); });
}

Status Session::importProfile(const QString& path) {
  auto model = this->model();
  if (!model) return invalidArgument("open the graph the profile belongs to first");
  using Result = Expected<std::shared_ptr<const ProfileView>>;
  const quint64 ticket = ++m_profileTicket;
  m_worker->submit<Result>(
      "profile", tr("Importing %1").arg(QFileInfo(path).fileName()), this,
      [model, path](JobControl&) -> Result { return importedProfileView(path.toStdString(), model->graph); },
      [this, model, ticket](Result result) {
        if (model != this->model() || ticket != m_profileTicket) return;
        if (!result) return emit profileFailed(QString::fromStdString(result.status().message()));
        showProfile(std::move(result).value());
        emit profiled();
      });
  return Status::ok();
}

bool Session::looksLikeProfile(const QString& path) { return isProfileFile(path.toStdString()); }

Status Session::exportProfile(const QString& path) const {
  if (!m_profile) return invalidArgument("there is no profile to export yet");
  return writeFileAtomically(path.toStdString(), toChromeTraceJson(*m_profile->profile));
}

void Session::setOverlayMode(OverlayMode mode) {
  if (mode == m_overlay) return;
  m_overlay = mode;
  broadcast([this](SessionViewer& v) { v.profileChanged(*this); });
}

void Session::listDevices() {
  m_worker->submit<std::shared_ptr<DeviceList>>(
      "devices", {}, this, [](JobControl&) { return std::make_shared<DeviceList>(flowscope::listDevices()); },
      [this](std::shared_ptr<DeviceList> list) { emit devicesListed(*list); });
}

}  // namespace flowscope
