// A small command-line parser: positionals, `--name value`, `--name=value`, repeatable options and flags.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace flowscope::cli {

struct ArgSpec {
  std::set<std::string> valueOptions;  ///< e.g. "--out"; may repeat
  std::set<std::string> flags;         ///< e.g. "--json"
  size_t minPositional = 0;
  size_t maxPositional = 0;
};

class Args {
 public:
  /// Parses argv[first..]; on failure returns nullopt and sets `error`.
  static std::optional<Args> parse(int argc, char** argv, int first, const ArgSpec& spec, std::string* error);

  const std::vector<std::string>& positional() const { return m_positional; }
  bool flag(const std::string& name) const { return m_flags.count(name) > 0; }
  std::optional<std::string> value(const std::string& name) const;
  std::vector<std::string> values(const std::string& name) const;
  bool helpRequested() const { return m_help; }

 private:
  std::vector<std::string> m_positional;
  std::multimap<std::string, std::string> m_values;
  std::set<std::string> m_flags;
  bool m_help = false;
};

/// Exit codes shared by every command.
constexpr int kExitOk = 0;
constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;

}  // namespace flowscope::cli
