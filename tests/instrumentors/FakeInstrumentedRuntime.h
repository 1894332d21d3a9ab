#pragma once

// A Runtime with Ocelot's instrumentation framework over the fake device
// (tests/runtime/FakePlatform.h), for tests of the framework's runtime side.

#include "../runtime/FakePlatform.h"
#include "../runtime/PtxRegistration.h"
#include "runtime/core/Runtime.h"
#include "runtime/instrumentation/InstrumentationFramework.h"

#include <gtest/gtest.h>

namespace ocelot::runtime::testing {

class FakeInstrumentedRuntime : public ::testing::Test {
protected:
  /// Installs the framework and registers `ptx` (in `image`) as the application's fatbinary; the
  /// caller registers its functions and variables with the handle, then ends the registration.
  template <size_t Slots, size_t SlotBytes>
  void** installAndRegister(StaticImage<Slots, SlotBytes>& image, const std::string& ptx) {
    runtime.thread() = ThreadState{};
    instrumentation::InstrumentationFramework::installOn(runtime);
    return registerPtxFatbinary(runtime, image, ptx);
  }
  instrumentation::InstrumentationFramework& framework() {
    return instrumentation::InstrumentationFramework::of(runtime);
  }

  FakeDevice device;
  Runtime runtime{fakePlatformOf(device), LogLevel::Off, nullptr};
};

} // namespace ocelot::runtime::testing
