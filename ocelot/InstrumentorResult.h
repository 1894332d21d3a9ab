#pragma once

#include "ocelot/Json.h"

#include <string>
#include <string_view>

namespace ocelot {

/// What one instrumentor measured in one launch. Each instrumentor has its own result type
/// (BasicBlockCounts, CtaClockTimes, or a plugin's); a KernelProfile holds one per instrumentor
/// and `profile.result<BasicBlockCounts>()` finds it by type. Results are immutable once made.
class InstrumentorResult {
public:
  virtual ~InstrumentorResult() = default;

  /// The name of the instrumentor that produced it ("bbcount").
  virtual std::string_view instrumentor() const = 0;
  /// The result as one JSON object: the profile's `results.<instrumentor>` member. Built-in
  /// results are described by docs/profile.schema.json; a plugin's may hold anything.
  virtual Json json() const = 0;
  /// One line for people ("12 blocks, 1.2e6 block executions, 3.4e7 instructions").
  virtual std::string summary() const = 0;

protected:
  InstrumentorResult() = default;
  InstrumentorResult(const InstrumentorResult&) = default;
  InstrumentorResult& operator=(const InstrumentorResult&) = default;
};

} // namespace ocelot
