// Command-line parsing.
#include "cli/args.h"

namespace flowscope::cli {

std::optional<Args> Args::parse(int argc, char** argv, int first, const ArgSpec& spec, std::string* error) {
  Args args;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      args.m_help = true;
      continue;
    }
    if (arg.size() > 2 && arg.rfind("--", 0) == 0) {
      std::string name = arg, value;
      bool inlineValue = false;
      if (size_t eq = arg.find('='); eq != std::string::npos) {
        name = arg.substr(0, eq);
        value = arg.substr(eq + 1);
        inlineValue = true;
      }
      if (spec.flags.count(name)) {
        if (inlineValue) {
          *error = "option " + name + " takes no value";
          return std::nullopt;
        }
        args.m_flags.insert(name);
      } else if (spec.valueOptions.count(name)) {
        if (!inlineValue) {
          if (i + 1 >= argc) {
            *error = "option " + name + " needs a value";
            return std::nullopt;
          }
          value = argv[++i];
        }
        args.m_values.emplace(name, value);
      } else {
        *error = "unknown option " + name;
        return std::nullopt;
      }
      continue;
    }
    args.m_positional.push_back(arg);
  }
  if (args.m_help) return args;
  if (args.m_positional.size() < spec.minPositional || args.m_positional.size() > spec.maxPositional) {
    *error = args.m_positional.size() < spec.minPositional ? "missing arguments" : "too many arguments";
    return std::nullopt;
  }
  return args;
}

std::optional<std::string> Args::value(const std::string& name) const {
  auto range = m_values.equal_range(name);
  if (range.first == range.second) return std::nullopt;
  return std::prev(range.second)->second;  // the last one wins
}

std::vector<std::string> Args::values(const std::string& name) const {
  std::vector<std::string> out;
  auto range = m_values.equal_range(name);
  for (auto it = range.first; it != range.second; ++it) out.push_back(it->second);
  return out;
}

}  // namespace flowscope::cli
