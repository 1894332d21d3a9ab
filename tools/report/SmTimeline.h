#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ocelot::report {

/// One CTA of a ctaclock result, in %globaltimer nanoseconds.
struct CtaSpan {
  uint64_t cta = 0;
  uint32_t sm = 0;
  uint64_t startNs = 0, endNs = 0;
};

/// The recorded CTAs of a ctaclock result (CTAs that never recorded a start are left out).
std::vector<CtaSpan> ctaSpans(const nlohmann::json& ctaclock);

/// Greedy interval colouring: for each span (in the order given), the lowest slot of its SM that
/// is free at its start, so that CTAs resident on one SM at the same time get different slots.
/// Returns the slot of each span and, per SM, the slots used.
std::vector<uint32_t> assignSlots(const std::vector<CtaSpan>& spans,
                                  std::vector<uint32_t>* slotsPerSm = nullptr);

/// The SM timeline of one launch as SVG: a lane per SM, each CTA a bar from its start to its end
/// (overlapping CTAs of one SM in sub-lanes), time from the first CTA's start. At most
/// `maxCtas` bars are drawn (the first ones); the rest are counted in the caption.
std::string smTimelineSvg(const nlohmann::json& ctaclock, size_t maxCtas = 20000);

/// The load chart of one launch as SVG: per SM its busy time as a bar with the mean as a line
/// (imbalance = busiest / mean), and below it how many SMs had a CTA resident over time (the tail
/// where few SMs still work).
std::string smLoadSvg(const nlohmann::json& ctaclock);

} // namespace ocelot::report
