#include "instrumentors/InstrumentorHelp.h"

namespace ocelot::instrumentors {

namespace {

// Keep in step with BasicBlockCounter's constructor (InstrumentorHelpTest checks that each key
// here is accepted and that others are refused).
constexpr InstrumentorOptionHelp kBlockCounterOptions[] = {
    {"mode", "per-warp|per-thread",
     "count with one atomic per warp (default) or in the per-thread counter matrix"},
    {"budget-mb", "N",
     "per-thread mode: the matrix's memory budget (default $OCELOT_BBCOUNT_BUDGET_MB or 512)"},
    {"stripes", "N", "per-warp mode: counter copies that spread the atomics (power of two, 32)"},
    {"registers", "N", "per-warp mode: loop blocks counted in registers (0-64, default 32)"},
    {"derive", "on|off", "give no code to blocks whose count equals another's (default on)"},
};

// bbcount-warp and bbcount-thread fix the mode.
constexpr InstrumentorOptionHelp kFixedModeOptions[] = {
    kBlockCounterOptions[1], kBlockCounterOptions[2], kBlockCounterOptions[3],
    kBlockCounterOptions[4]};

} // namespace

std::span<const InstrumentorOptionHelp> builtinInstrumentorOptions(std::string_view name) {
  if (name == "bbcount")
    return kBlockCounterOptions;
  if (name == "bbcount-warp" || name == "bbcount-thread")
    return kFixedModeOptions;
  return {};
}

} // namespace ocelot::instrumentors
