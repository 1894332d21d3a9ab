#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ocelot {

/// One `--nvtx-include` rule in Nsight Compute's syntax (docs/report.md):
///   `range` or `domain@range`           a start/end range of that name is open (any thread)
///   `range/`, `domain@a/b/`              push/pop ranges: `a` with `b` pushed directly inside it
///                                        on the launching thread's stack of the domain (outermost
///                                        first; anywhere in the stack unless anchored)
///   `[a/b/`, `a/b]/`                     `[`: `a` is the outermost range; `]`: `b` the innermost
///   `a/*/b/`                             `*`: any number of ranges in between
/// The default domain is the one without `@`.
class NvtxRule {
public:
  /// Throws std::invalid_argument for an empty rule or range name.
  static NvtxRule parse(std::string_view text);

  std::string domain;
  std::vector<std::string> path; ///< push/pop: the ranges ("*": any number); start/end: one name
  bool pushPop = false;
  bool anchoredOuter = false, anchoredInner = false;

  /// Whether a push/pop stack (outermost first) satisfies the rule.
  bool matchesStack(const std::vector<std::string>& stack) const;
};

} // namespace ocelot
