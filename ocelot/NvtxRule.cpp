#include "ocelot/NvtxRule.h"

#include <stdexcept>

namespace ocelot {

namespace {

bool matchFrom(const std::vector<std::string>& pattern, size_t p,
               const std::vector<std::string>& stack, size_t s, bool anchoredInner) {
  if (p == pattern.size())
    return !anchoredInner || s == stack.size();
  if (pattern[p] == "*") {
    for (size_t k = s; k <= stack.size(); ++k)
      if (matchFrom(pattern, p + 1, stack, k, anchoredInner))
        return true;
    return false;
  }
  return s < stack.size() && stack[s] == pattern[p] &&
         matchFrom(pattern, p + 1, stack, s + 1, anchoredInner);
}

} // namespace

NvtxRule NvtxRule::parse(std::string_view text) {
  NvtxRule rule;
  std::string_view rest = text;
  if (size_t at = rest.find('@'); at != std::string_view::npos) {
    rule.domain = std::string(rest.substr(0, at));
    rest = rest.substr(at + 1);
    if (rule.domain.empty())
      throw std::invalid_argument("NVTX rule '" + std::string(text) + "': empty domain before @");
  }
  if (!rest.empty() && rest.back() == '/') {
    rule.pushPop = true;
    rest.remove_suffix(1);
    if (!rest.empty() && rest.front() == '[') {
      rule.anchoredOuter = true;
      rest.remove_prefix(1);
    }
    if (!rest.empty() && rest.back() == ']') {
      rule.anchoredInner = true;
      rest.remove_suffix(1);
    }
    size_t start = 0;
    while (true) {
      size_t slash = rest.find('/', start);
      std::string_view part =
          rest.substr(start, slash == std::string_view::npos ? slash : slash - start);
      if (part.empty())
        throw std::invalid_argument("NVTX rule '" + std::string(text) + "': an empty range name");
      rule.path.emplace_back(part);
      if (slash == std::string_view::npos)
        break;
      start = slash + 1;
    }
  } else {
    if (rest.empty())
      throw std::invalid_argument("NVTX rule '" + std::string(text) + "': no range name");
    rule.path.emplace_back(rest);
  }
  return rule;
}

bool NvtxRule::matchesStack(const std::vector<std::string>& stack) const {
  for (size_t s = 0; s <= stack.size(); ++s) {
    if (matchFrom(path, 0, stack, s, anchoredInner))
      return true;
    if (anchoredOuter)
      break;
  }
  return false;
}

} // namespace ocelot
