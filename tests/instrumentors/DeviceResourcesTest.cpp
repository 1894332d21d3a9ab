// What an instrumented launch takes from its device's pool (runtime/instrumentation/
// DeviceResources.h): events with timing for intervals, events without timing for completions
// (a timing event after each kernel costs the GPU about 2 us per launch), each back in its pool.

#include "runtime/instrumentation/DeviceResources.h"

#include "../runtime/FakePlatform.h"

#include <gtest/gtest.h>

namespace ocelot::runtime::testing {
namespace {

using instrumentation::DeviceResources;

TEST(DeviceResources, CompletionEventsHaveNoTimingAndGoBackToTheirOwnPool) {
  FakeDevice device;
  DeviceResources pool(device);
  Event* timed = pool.acquireEvent();
  Event* untimed = pool.acquireEvent(false);
  ASSERT_NE(timed, nullptr);
  ASSERT_NE(untimed, nullptr);
  EXPECT_EQ(dynamic_cast<FakeEvent&>(*timed).createdWith, unsigned{cudaEventDefault});
  EXPECT_EQ(dynamic_cast<FakeEvent&>(*untimed).createdWith, unsigned{cudaEventDisableTiming});
  pool.releaseEvent(untimed, pool.generation());
  pool.releaseEvent(timed, pool.generation());
  // Each comes back from its own pool, never a timing event for a completion or the reverse.
  EXPECT_EQ(pool.acquireEvent(false), untimed);
  EXPECT_EQ(pool.acquireEvent(true), timed);
  Event* another = pool.acquireEvent(true);
  EXPECT_NE(another, untimed);
  EXPECT_EQ(dynamic_cast<FakeEvent&>(*another).createdWith, unsigned{cudaEventDefault});
}

} // namespace
} // namespace ocelot::runtime::testing
