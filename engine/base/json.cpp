#include "base/json.h"

namespace flowscope {

Expected<nlohmann::json> parseJson(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return invalidArgument("not valid JSON at byte " + std::to_string(e.byte) + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    return invalidArgument(std::string("not valid JSON: ") + e.what());
  }
}

}  // namespace flowscope
