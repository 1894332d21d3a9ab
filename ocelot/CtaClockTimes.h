#pragma once

#include "ocelot/InstrumentorResult.h"
#include "ocelot/LaunchInfo.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ocelot {

/// The CTA clock's result for one launch: when each CTA started and ended (in the SM's cycle
/// counter %clock64 and in the GPU's nanosecond timer %globaltimer), on which SM it ran, and what
/// that means for each SM: how long it was busy, how many CTAs it ran, and how unbalanced the
/// kernel was across the SMs (the paper's Experiment 3).
class CtaClockTimes final : public InstrumentorResult {
public:
  struct Cta {
    uint64_t index = 0;                    ///< linear CTA id: x + y * grid.x + z * grid.x * grid.y
    uint32_t sm = 0;                       ///< %smid
    uint64_t startCycle = 0, endCycle = 0; ///< %clock64 of the SM, first warp in, last thread out
    uint64_t startNs = 0, endNs = 0;       ///< %globaltimer, same events
    uint32_t warpsStarted = 0;             ///< warps that recorded their start
    uint32_t threadsExited = 0;            ///< threads that recorded their exit
    bool recorded() const { return warpsStarted != 0; }
  };

  struct Sm {
    uint32_t sm = 0;
    uint32_t ctas = 0;
    uint64_t busyCycles = 0; ///< length of the union of its CTAs' [start, end] cycle intervals
    uint64_t busyNs = 0;     ///< the same in %globaltimer nanoseconds
  };

  /// Computes the per-SM view over every SM of the device (idle ones included).
  CtaClockTimes(const LaunchInfo& launch, const DeviceFacts& device, std::vector<Cta> ctas);

  std::string_view instrumentor() const override { return "ctaclock"; }
  Json json() const override;
  std::string summary() const override;

  const std::vector<Cta>& ctas() const { return ctas_; }
  /// One entry per SM of the device, in SM order.
  const std::vector<Sm>& sms() const { return sms_; }
  /// max busy / mean busy over all SMs of the device (cycles); 1 is perfect balance, 0 when no
  /// SM was busy.
  double imbalance() const { return imbalance_; }
  /// From the first CTA's start to the last CTA's end, in %globaltimer nanoseconds.
  uint64_t kernelNs() const { return kernelNs_; }
  /// Whether every CTA recorded its start exactly once per warp and the exit of every thread, on
  /// an SM the device has. problems() lists what is not.
  bool complete() const { return problems_.empty(); }
  const std::vector<std::string>& problems() const { return problems_; }

private:
  std::vector<Cta> ctas_;
  std::vector<Sm> sms_;
  double imbalance_ = 0;
  uint64_t kernelNs_ = 0;
  std::vector<std::string> problems_;
};

/// The total length covered by a set of closed intervals [first, second] (overlaps counted once).
uint64_t unionLength(std::vector<std::pair<uint64_t, uint64_t>> intervals);

/// max / mean of `busy` (0 when all are 0 or the list is empty).
double loadImbalance(const std::vector<uint64_t>& busy);

} // namespace ocelot
