// ProfileImporter: the plug-in shape for other tools' profiles (match by content, then load), as io/loader.h is for
// graph formats, and the table that picks one. Each importer is one file: xplane_importer.cpp, tfevents_importer.cpp,
// ort_importer.cpp, chrome_trace_importer.cpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/source.h"
#include "profile/imported_profile.h"

namespace flowscope {

class ProfileImporter {
 public:
  virtual ~ProfileImporter() = default;
  virtual std::string name() const = 0;
  /// 0 = not this format; higher = more certain. Looks at the head bytes and the name only.
  virtual float match(const Source& source) const = 0;
  /// The events, unmatched (profile/profile_match.h matches them to a graph). Errors name the file and the place.
  virtual Expected<ImportedProfile> load(const Source& source) const = 0;
};

/// The table: every importer, in one place.
const std::vector<std::unique_ptr<ProfileImporter>>& profileImporters();

/// Opens `path` (a file, or a directory of *.xplane.pb files, one per host) with the best-matching importer.
Expected<ImportedProfile> importProfile(const std::string& path);

std::unique_ptr<ProfileImporter> makeXPlaneImporter();
std::unique_ptr<ProfileImporter> makeTfEventsImporter();
std::unique_ptr<ProfileImporter> makeOrtProfileImporter();
std::unique_ptr<ProfileImporter> makeChromeTraceImporter();

}  // namespace flowscope
