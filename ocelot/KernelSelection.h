#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ocelot {

/// Which launches to instrument. Launches are numbered 1, 2, ... in the order the application
/// makes them, counting only launches of kernels that match `kernelRegex`; a launch is
/// instrumented when its number is in [firstLaunch, lastLaunch], it is the first of each run of
/// `every` numbers from firstLaunch, and its kernel has been instrumented fewer than
/// `maxPerKernel` times. The rest run the application's original kernels.
struct SelectionRules {
  /// ECMAScript regular expression searched in the mangled and the demangled kernel name; empty
  /// selects every kernel.
  std::string kernelRegex;
  uint64_t firstLaunch = 1;
  uint64_t lastLaunch = UINT64_MAX;
  uint64_t every = 1; ///< 1: every launch in the range
  uint64_t maxPerKernel = UINT64_MAX;

  /// Parses "N:M", "N:", ":M" or "N" (both ends inclusive, 1-based) into first/lastLaunch.
  /// Returns an error message for malformed text.
  std::optional<std::string> parseLaunchRange(std::string_view text);
  /// "kernel=/re/ launches=3:10 every=2 max-per-kernel=5"; "all launches" for the defaults.
  std::string describe() const;
};

/// Applies SelectionRules to a stream of launches. Thread safe: launches from several host
/// threads are numbered in the order their decide() calls count them (one atomic counter).
class KernelSelection {
public:
  struct Decision {
    bool instrument = false;
    uint64_t matchingLaunch = 0; ///< the launch's number among matching launches; 0 if no match
    std::string reason;          ///< why not, when not ("kernel does not match ...")
  };

  /// Throws std::invalid_argument when the regular expression does not compile or `every` is 0.
  explicit KernelSelection(SelectionRules rules = {});

  const SelectionRules& rules() const { return rules_; }

  /// Decides about the next launch of `kernel` and counts it.
  Decision decide(std::string_view mangledName, std::string_view demangledName);

private:
  SelectionRules rules_;
  std::optional<std::regex> regex_;
  /// Rules with neither a regular expression nor a per-kernel limit need no lock (asked at every
  /// launch).
  bool lockFree_ = false;
  std::mutex mutex_; ///< the regular expression's cache and the per-kernel counts
  std::atomic<uint64_t> matchingLaunches_{0};
  std::unordered_map<std::string, bool> matches_;          ///< per mangled name
  std::unordered_map<std::string, uint64_t> instrumented_; ///< per mangled name
};

} // namespace ocelot
