#include "ocelot/KernelSelection.h"

#include <charconv>
#include <stdexcept>

namespace ocelot {

namespace {

std::optional<uint64_t> parseNumber(std::string_view text) {
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    return std::nullopt;
  return value;
}

} // namespace

std::optional<std::string> SelectionRules::parseLaunchRange(std::string_view text) {
  auto bad = [&] {
    return "launch range '" + std::string(text) + "': expected N:M, N:, :M or N (1-based)";
  };
  size_t colon = text.find(':');
  std::string_view first = text.substr(0, colon);
  std::string_view last = colon == std::string_view::npos ? text : text.substr(colon + 1);
  uint64_t from = 1, to = UINT64_MAX;
  if (!first.empty()) {
    auto n = parseNumber(first);
    if (!n || *n == 0)
      return bad();
    from = *n;
  }
  if (!last.empty()) {
    auto n = parseNumber(last);
    if (!n || *n == 0)
      return bad();
    to = *n;
  }
  if (first.empty() && last.empty())
    return bad();
  if (to < from)
    return "launch range '" + std::string(text) + "' is empty";
  firstLaunch = from;
  lastLaunch = to;
  return std::nullopt;
}

std::string SelectionRules::describe() const {
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : " ") + part; };
  if (!kernelRegex.empty())
    add("kernel=/" + kernelRegex + "/");
  if (firstLaunch != 1 || lastLaunch != UINT64_MAX)
    add("launches=" + std::to_string(firstLaunch) + ":" +
        (lastLaunch == UINT64_MAX ? std::string() : std::to_string(lastLaunch)));
  if (every != 1)
    add("every=" + std::to_string(every));
  if (maxPerKernel != UINT64_MAX)
    add("max-per-kernel=" + std::to_string(maxPerKernel));
  return text.empty() ? "all launches" : text;
}

KernelSelection::KernelSelection(SelectionRules rules) : rules_(std::move(rules)) {
  if (rules_.every == 0)
    throw std::invalid_argument("selection: every must be at least 1");
  if (!rules_.kernelRegex.empty()) {
    try {
      regex_.emplace(rules_.kernelRegex, std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error& error) {
      throw std::invalid_argument("kernel regular expression '" + rules_.kernelRegex +
                                  "': " + error.what());
    }
  }
  lockFree_ = !regex_ && rules_.maxPerKernel == UINT64_MAX;
}

KernelSelection::Decision KernelSelection::decide(std::string_view mangledName,
                                                  std::string_view demangledName) {
  // Asked at every launch: no string is made and no lock taken unless a rule needs one.
  std::unique_lock lock(mutex_, std::defer_lock);
  if (!lockFree_)
    lock.lock();
  Decision decision;
  bool matches = true;
  if (regex_) {
    std::string key(mangledName);
    auto cached = matches_.find(key);
    if (cached == matches_.end()) {
      std::string demangled(demangledName);
      bool found = std::regex_search(key, *regex_) || std::regex_search(demangled, *regex_);
      cached = matches_.emplace(std::move(key), found).first;
    }
    matches = cached->second;
  }
  if (!matches) {
    decision.reason = "kernel does not match /" + rules_.kernelRegex + "/";
    return decision;
  }
  const uint64_t number = matchingLaunches_.fetch_add(1, std::memory_order_relaxed) + 1;
  decision.matchingLaunch = number;
  if (number < rules_.firstLaunch || number > rules_.lastLaunch) {
    decision.reason = "launch " + std::to_string(number) + " is outside the selected range";
    return decision;
  }
  if ((number - rules_.firstLaunch) % rules_.every != 0) {
    decision.reason =
        "launch " + std::to_string(number) + " is not one of every " + std::to_string(rules_.every);
    return decision;
  }
  if (rules_.maxPerKernel == UINT64_MAX) {
    decision.instrument = true; // no per-kernel limit to count against
    return decision;
  }
  uint64_t& done = instrumented_[std::string(mangledName)];
  if (done >= rules_.maxPerKernel) {
    decision.reason = "kernel already instrumented " + std::to_string(done) + " times";
    return decision;
  }
  ++done;
  decision.instrument = true;
  return decision;
}

} // namespace ocelot
