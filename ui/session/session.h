// Session: the open document and everything the app knows about it — the model as loaded, the function bodies opened
// from it, the selection, the optimizer's pass records and the profiles — and the EngineWorker that computes them.
// Panels change it through its methods and hear about changes through the SessionViewer interface; they never call
// each other. Engine work (loading, optimizing, profiling) runs on the worker, so the UI thread never waits.
#pragma once

#include <QObject>
#include <QString>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/backend.h"
#include "ir/model.h"
#include "passes/pass_manager.h"
#include "session/engine_worker.h"
#include "session/graph_navigation.h"
#include "session/profile_view.h"
#include "session/selection.h"
#include "session/session_viewer.h"

namespace flowscope {

class Session : public QObject {
  Q_OBJECT

 public:
  explicit Session(QObject* parent = nullptr);
  ~Session() override;
  EngineWorker& worker() const { return *m_worker; }

  void addViewer(SessionViewer* viewer);
  void removeViewer(SessionViewer* viewer);

  // The document.
  /// Loads in the background; a newer open supersedes a pending one.
  void open(const QString& path);
  /// Abandons the pending open (its result is dropped; the open document stays).
  void cancelOpen();
  bool isOpening() const { return m_openPending; }
  const QString& openingPath() const { return m_openingPath; }
  /// How many op types the opened file's graph has (counted with the load, off the UI thread).
  size_t openedOpTypes() const { return m_openedOpTypes; }
  void close();
  /// The opened model (null until a load succeeds).
  std::shared_ptr<const Model> model() const { return m_navigation.root(); }
  /// What the canvas shows: the opened model, or a function body opened from it.
  std::shared_ptr<const Model> shownModel() const { return m_navigation.current(); }
  const GraphNavigation& navigation() const { return m_navigation; }
  /// Shows the body of a library function one level down; an error (the view stays) when there is no such body.
  Status openFunction(const std::string& name);
  /// Goes back up (0: the opened graph).
  void goToLevel(int depth);

  // The selection, in the shown graph.
  const Selection& selection() const { return m_selection; }
  void select(const Selection& selection);
  /// Selects a node of the opened graph, going back up from a function body first (profiles are of the opened graph).
  void selectInOpenedGraph(size_t node);

  // The optimizer's passes over the opened graph.
  /// Runs the default pipeline in the background (once per document).
  void optimize();
  void cancelOptimize();
  const PipelineResult* pipeline() const { return m_pipeline.get(); }
  int currentPass() const { return m_currentPass; }
  void setCurrentPass(int index);

  // Profiles of the opened graph.
  void profile(const ProfileRequest& request);
  void cancelProfile();
  bool isProfiling() const;
  const ProfileView* profileView() const { return m_profile.get(); }
  /// The last profile our engine made of this document (shown or not), to compare an imported one with.
  const ProfileView* ownProfileView() const { return m_ownProfile.get(); }
  /// Imports another tool's profile (profile/import/importer.h: TensorFlow profiler, TensorBoard, ONNX Runtime,
  /// Chrome/PyTorch traces) on the worker, matches its events to the opened graph and shows it as the profile
  /// (profiled() or profileFailed() follow). An error only when no graph is open.
  Status importProfile(const QString& path);
  /// Whether a file is better read as a profile than opened as a graph (for drag and drop).
  static bool looksLikeProfile(const QString& path);
  /// Writes the shown profile as Chrome trace JSON.
  Status exportProfile(const QString& path) const;
  void setOverlayMode(OverlayMode mode);
  OverlayMode overlayMode() const { return m_overlay; }
  /// Lists every backend's devices in the background; devicesListed() brings them.
  void listDevices();

 signals:
  void opened();
  void openFailed(const QString& message);
  void optimized();
  void optimizeFailed(const QString& message);
  void profiled();
  void profileFailed(const QString& message);
  void devicesListed(const DeviceList& devices);
  void statusMessage(const QString& text);

 private:
  template <typename F>
  void broadcast(F call) {
    for (SessionViewer* viewer : std::vector<SessionViewer*>(m_viewers)) call(*viewer);
  }
  void setDocument(std::shared_ptr<const Model> model);
  void showProfile(std::shared_ptr<const ProfileView> view);
  Expected<std::shared_ptr<Backend>> backendFor(const std::string& spec, std::vector<std::string>* notes);

  EngineWorker* m_worker;
  std::vector<SessionViewer*> m_viewers;
  GraphNavigation m_navigation;
  Selection m_selection;
  QString m_openingPath;
  bool m_openPending = false;
  size_t m_openedOpTypes = 0;
  quint64 m_openTicket = 0;      // a cancelled or superseded open's result is dropped
  quint64 m_optimizeTicket = 0;  // likewise for optimizing
  quint64 m_profileTicket = 0;   // and profiling
  std::shared_ptr<const PipelineResult> m_pipeline;
  std::shared_ptr<const Model> m_pipelineModel;  // the document the pipeline ran (or runs) on
  int m_currentPass = -1;
  std::shared_ptr<const ProfileView> m_profile;
  std::shared_ptr<const ProfileView> m_ownProfile;
  OverlayMode m_overlay = OverlayMode::kTime;
  std::mutex m_backendsMutex;  // opened on the worker, kept for later profiles
  std::map<std::string, std::shared_ptr<Backend>> m_backends;
};

}  // namespace flowscope

Q_DECLARE_METATYPE(flowscope::DeviceList)
