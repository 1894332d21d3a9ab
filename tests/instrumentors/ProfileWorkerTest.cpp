// Ocelot's profile thread (runtime/instrumentation/ProfileWorker.h): launches pushed back to back
// are completed in batches (each batch costs the worker a copy, a fill and a synchronization of
// its stream, whose driver calls contend with the application's launches), every launch that
// began is completed, and flush() waits for all of them.

#include "runtime/instrumentation/ProfileWorker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace ocelot::runtime::testing {
namespace {

using instrumentation::PendingLaunch;
using instrumentation::ProfileWorker;
using Clock = std::chrono::steady_clock;

struct Counts {
  std::atomic<uint64_t> batches{0}, launches{0};
};

ProfileWorker::Complete counting(Counts& counts) {
  return [&counts](ProfileWorker::Batch& batch) {
    counts.batches.fetch_add(1);
    counts.launches.fetch_add(batch.size());
    batch.clear();
  };
}

/// A launch without a completion event: finished as soon as the worker looks at it.
std::unique_ptr<PendingLaunch> finishedLaunch() {
  auto launch = std::make_unique<PendingLaunch>();
  launch->info.stream = 7;
  return launch;
}

TEST(ProfileWorker, LaunchesPushedBackToBackCompleteInBatchesNotOneByOne) {
  Counts counts;
  ProfileWorker worker(counting(counts));
  // One launch every ~5 us for ~40 ms, like an application launching short kernels: the worker
  // must pause between polls (2 ms) rather than wake for each push or after each batch.
  constexpr int kLaunches = 8000;
  const auto start = Clock::now();
  for (int i = 0; i < kLaunches; ++i) {
    worker.begin();
    worker.push(finishedLaunch());
    const auto until = Clock::now() + std::chrono::microseconds(5);
    while (Clock::now() < until) {
    }
  }
  const double elapsedMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  ASSERT_TRUE(worker.flush(std::chrono::seconds(30)));
  EXPECT_EQ(counts.launches.load(), uint64_t{kLaunches});
  // One batch per 2 ms pause while launches came, plus the flush's: a loaded machine only makes
  // the pauses longer (fewer batches). One batch per launch or per few launches fails this.
  EXPECT_LE(counts.batches.load(), static_cast<uint64_t>(elapsedMs / 2.0) + 10)
      << counts.batches.load() << " batches for " << kLaunches << " launches in " << elapsedMs
      << " ms";
}

TEST(ProfileWorker, FlushWaitsForEveryLaunchThatBegan) {
  Counts counts;
  ProfileWorker worker(counting(counts));
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 10; ++i) {
      worker.begin();
      worker.push(finishedLaunch());
    }
    ASSERT_TRUE(worker.flush(std::chrono::seconds(30)));
    EXPECT_EQ(counts.launches.load(), uint64_t(10 * (round + 1)));
    EXPECT_EQ(worker.pending(), 0u);
  }
}

TEST(ProfileWorker, ALoneLaunchCompletesWithoutAnotherPush) {
  Counts counts;
  ProfileWorker worker(counting(counts));
  // A batch, then (while the worker pauses) one more launch and no flush: it still completes.
  worker.begin();
  worker.push(finishedLaunch());
  ASSERT_TRUE(worker.flush(std::chrono::seconds(30)));
  worker.begin();
  worker.push(finishedLaunch());
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  while (counts.launches.load() < 2 && Clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  EXPECT_EQ(counts.launches.load(), 2u);
}

} // namespace
} // namespace ocelot::runtime::testing
