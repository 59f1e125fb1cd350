// The profile importer table and format selection by content.
#include "profile/import/importer.h"

namespace flowscope {

const std::vector<std::unique_ptr<ProfileImporter>>& profileImporters() {
  static const std::vector<std::unique_ptr<ProfileImporter>> table = [] {
    std::vector<std::unique_ptr<ProfileImporter>> t;
    t.push_back(makeXPlaneImporter());
    t.push_back(makeTfEventsImporter());
    t.push_back(makeOrtProfileImporter());
    t.push_back(makeChromeTraceImporter());
    return t;
  }();
  return table;
}

Expected<ImportedProfile> importProfile(const std::string& path) {
  FS_ASSIGN_OR_RETURN(Source source, Source::open(path));
  const ProfileImporter* best = nullptr;
  float bestScore = 0;
  for (const auto& importer : profileImporters()) {
    float score = importer->match(source);
    if (score > bestScore) {
      best = importer.get();
      bestScore = score;
    }
  }
  if (!best) {
    if (!source.isDirectory() && source.size() == 0) return invalidArgument(path + ": file is empty");
    return invalidArgument(path +
                           ": not a profile Flowscope can import; expected a TensorFlow profiler *.xplane.pb (or a "
                           "directory of them), a TensorBoard events.out.tfevents.* file, an ONNX Runtime profile "
                           "JSON, or a Chrome trace JSON (.json or .json.gz, PyTorch's included)");
  }
  auto profile = best->load(source);
  if (!profile) return profile.status().withContext(path + ": ");
  profile->normalizeTimes();
  return profile;
}

}  // namespace flowscope
