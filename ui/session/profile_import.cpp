// Other tools' profiles as the session shows them.
#include "session/profile_import.h"

#include "io/loader.h"
#include "profile/import/importer.h"
#include "profile/profile_match.h"

namespace flowscope {

Expected<std::shared_ptr<const ProfileView>> importedProfileView(const std::string& path, const Graph& graph) {
  FS_ASSIGN_OR_RETURN(ImportedProfile imported, importProfile(path));
  const MatchSummary match = matchProfileToGraph(graph, &imported);
  auto view = std::make_shared<ProfileView>();
  auto profile = std::make_shared<const RunProfile>(imported.toRunProfile());
  view->times = nodeTimes(*profile, graph);
  view->profile = std::move(profile);
  view->source = QString::fromStdString(path);
  view->imported = true;
  view->device = imported.format;
  view->notes.push_back(imported.format + ": matched " + std::to_string(match.matched) + " of " +
                        std::to_string(match.nodeEvents) + " events to " + std::to_string(match.nodesCovered) +
                        " nodes, " + std::to_string(match.unmatched()) + " unmatched");
  for (size_t i = 0; i < imported.warnings.size() && i < 3; ++i) view->notes.push_back(imported.warnings[i]);
  return std::shared_ptr<const ProfileView>(std::move(view));
}

bool isProfileFile(const std::string& path) {
  auto source = Source::open(path);
  if (!source) return false;
  float profile = 0, graph = 0;
  for (const auto& importer : profileImporters()) profile = std::max(profile, importer->match(*source));
  for (const auto& loader : loaders()) graph = std::max(graph, loader->match(*source));
  return profile > graph;
}

}  // namespace flowscope
