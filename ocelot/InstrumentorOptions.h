#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>

namespace ocelot {

/// An instrumentor's configuration: `key=value` pairs, written `mode=per-thread:budget-mb=256`
/// in OCELOT_INSTRUMENTORS (`bbcount:mode=per-thread`) and on the command line. Reading a value
/// that is malformed, or a key the instrumentor does not know (checkKnown), throws
/// std::invalid_argument with a message that names the key, so that a typo is an error and not a
/// silently ignored setting.
class InstrumentorOptions {
public:
  InstrumentorOptions() = default;
  InstrumentorOptions(std::initializer_list<std::pair<const std::string, std::string>> values)
      : values_(values) {}

  /// Parses "k=v:k=v" (also ';'-separated); a bare word `k` means `k=1`. Throws on an empty key.
  static InstrumentorOptions parse(std::string_view text);

  bool has(std::string_view key) const { return values_.find(key) != values_.end(); }
  void set(std::string key, std::string value) { values_[std::move(key)] = std::move(value); }
  std::string text(std::string_view key, std::string_view fallback = "") const;
  uint64_t unsignedNumber(std::string_view key, uint64_t fallback) const;
  bool flag(std::string_view key, bool fallback) const;
  /// Throws when a key is not in `known`.
  void checkKnown(std::string_view instrumentor,
                  std::initializer_list<std::string_view> known) const;

  /// Canonical text: keys sorted, "k=v:k=v" (empty for no options).
  std::string toString() const;
  const std::map<std::string, std::string, std::less<>>& values() const { return values_; }

private:
  std::map<std::string, std::string, std::less<>> values_;
};

} // namespace ocelot
