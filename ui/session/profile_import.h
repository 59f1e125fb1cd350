// Other tools' profiles as the session shows them: imported, matched to the opened graph, summed per node. Runs on
// the worker (Session::importProfile); Qt-free apart from living in ui/.
#pragma once

#include <memory>
#include <string>

#include "base/status.h"
#include "ir/graph.h"
#include "session/profile_view.h"

namespace flowscope {

/// Imports `path`, matches its events to `graph` and sums them per node. The view's notes say how many events
/// matched and carry the importer's warnings.
Expected<std::shared_ptr<const ProfileView>> importedProfileView(const std::string& path, const Graph& graph);

/// Whether some profile importer recognizes the file better than every graph loader does.
bool isProfileFile(const std::string& path);

}  // namespace flowscope
