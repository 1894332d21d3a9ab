// GCP and GLB as seed 001 defines them (sections 3.2 and 3.3), and the overlap of host and device
// work, on constructed interval sets whose values are known.

#include "ocelot/HostMeasures.h"

#include "tools/report/ProfileSet.h"
#include "tools/report/RunMeasures.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace ocelot {
namespace {

using Kind = DeviceInterval::Kind;

TEST(HostMeasures, OneDeviceKernelsAndTransfers) {
  // Kernels [0,30) and [50,70), a transfer [30,40); wall clock 100.
  std::vector<DeviceInterval> intervals = {
      {0, 0, Kind::Kernel, 0, 30}, {0, 0, Kind::Transfer, 30, 40}, {0, 0, Kind::Kernel, 50, 70}};
  HostMeasures m = computeHostMeasures(intervals, 0, 100);
  ASSERT_EQ(m.devices.size(), 1u);
  const DeviceTimes& d = m.devices[0];
  EXPECT_EQ(d.kernels, 2u);
  EXPECT_EQ(d.transfers, 1u);
  EXPECT_DOUBLE_EQ(d.kernelNs, 50);
  EXPECT_DOUBLE_EQ(d.transferNs, 10);
  EXPECT_DOUBLE_EQ(d.deviceNs(), 60);
  EXPECT_DOUBLE_EQ(*d.gcp(), 50.0 / 60.0); // Equation 1
  EXPECT_DOUBLE_EQ(*d.glb(m.wallNs), 0.6); // Equation 2
  EXPECT_DOUBLE_EQ(d.busyNs, 60);
}

TEST(HostMeasures, TwoStreamsOfOneDeviceCountEachOperation) {
  // The CPU device with two streams: kernels [0,40) and [20,60) overlap, a transfer [60,70).
  // Device time sums the operations (90); the device was busy 70 of the 100.
  std::vector<DeviceInterval> intervals = {
      {0, 1, Kind::Kernel, 0, 40}, {0, 2, Kind::Kernel, 20, 60}, {0, 2, Kind::Transfer, 60, 70}};
  HostMeasures m = computeHostMeasures(intervals, 0, 100);
  const DeviceTimes& d = m.devices.at(0);
  EXPECT_DOUBLE_EQ(d.deviceNs(), 90);
  EXPECT_DOUBLE_EQ(*d.gcp(), 80.0 / 90.0);
  EXPECT_DOUBLE_EQ(*d.glb(m.wallNs), 0.9);
  EXPECT_DOUBLE_EQ(d.busyNs, 70);
  EXPECT_DOUBLE_EQ(m.gpuBusyNs, 70);
}

TEST(HostMeasures, TwoDevicesPerDeviceAndAcross) {
  // Device 0: kernel 30, transfer 10. Device 1: kernel 20, transfers 10 + 10. Wall 100.
  std::vector<DeviceInterval> intervals = {
      {0, 0, Kind::Transfer, 0, 10}, {0, 0, Kind::Kernel, 10, 40},   {1, 0, Kind::Transfer, 5, 15},
      {1, 0, Kind::Kernel, 15, 35},  {1, 0, Kind::Transfer, 35, 45},
  };
  HostMeasures m = computeHostMeasures(intervals, 0, 100);
  ASSERT_EQ(m.devices.size(), 2u);
  EXPECT_EQ(m.devices[0].device, 0);
  EXPECT_EQ(m.devices[1].device, 1);
  EXPECT_DOUBLE_EQ(*m.devices[0].gcp(), 0.75);
  EXPECT_DOUBLE_EQ(*m.devices[1].gcp(), 0.5);
  EXPECT_DOUBLE_EQ(*m.devices[0].glb(m.wallNs), 0.4);
  EXPECT_DOUBLE_EQ(*m.devices[1].glb(m.wallNs), 0.4);
  // Across: the sums (kernels 50 of device time 80), GLB the mean of the devices'.
  EXPECT_DOUBLE_EQ(*m.all.gcp(), 50.0 / 80.0);
  EXPECT_DOUBLE_EQ(*m.glbAcrossDevices(), 0.4);
  // Any device busy: [0,45).
  EXPECT_DOUBLE_EQ(m.gpuBusyNs, 45);
}

TEST(HostMeasures, OverlapOfHostAndDeviceWork) {
  // Device busy [0,40) and [50,70); host busy [0,10) and [35,55): overlap 10 + 5 + 5.
  std::vector<DeviceInterval> intervals = {{0, 0, Kind::Kernel, 0, 40},
                                           {0, 0, Kind::Kernel, 50, 70}};
  std::vector<HostInterval> host = {{35, 55}, {0, 10}};
  HostMeasures m = computeHostMeasures(intervals, 0, 100, host);
  EXPECT_DOUBLE_EQ(m.hostBusyNs, 30);
  EXPECT_DOUBLE_EQ(m.overlapNs, 20);
}

TEST(HostMeasures, NothingRanOrNoWallClock) {
  HostMeasures empty = computeHostMeasures({}, 0, 100);
  EXPECT_TRUE(empty.devices.empty());
  EXPECT_FALSE(empty.all.gcp()); // no device time: undefined, not 0 or 1
  std::vector<DeviceInterval> one = {{0, 0, Kind::Kernel, 0, 10}};
  HostMeasures noWall = computeHostMeasures(one, 5, 5);
  EXPECT_FALSE(noWall.devices[0].glb(noWall.wallNs));
  EXPECT_DOUBLE_EQ(unionLength({{0, 10}, {5, 15}, {20, 20}, {30, 25}}), 15);
}

TEST(RunMeasures, KernelsFollowTheirStreamAndTheFilesWallClock) {
  // Two kernels launched together on one stream run one after the other; a third on another
  // stream runs at its launch call. Times in ns: launch calls at 1000, 1000 and 1500.
  auto launch = [](uint64_t id, uint64_t stream, int64_t enqueued, double gpuMs) {
    return nlohmann::json{{"schema", 1},
                          {"kernel", "k"},
                          {"launch_id", id},
                          {"device", 0},
                          {"stream", stream},
                          {"enqueued_ns", enqueued},
                          {"completed_ns", 0},
                          {"gpu_ms", gpuMs},
                          {"execution", "original"},
                          {"results", nlohmann::json::object()}};
  };
  nlohmann::json document = {
      {"schema", 1},
      {"profiles",
       {launch(1, 0, 1000, 0.001), launch(2, 0, 1000, 0.002), launch(3, 7, 1500, 0.004)}},
      {"wall", {{"start_ns", 0}, {"end_ns", 10000}}}};
  report::ProfileSet set;
  set.add("p.json", 0, document);
  auto intervals = report::kernelIntervals(set, 0);
  ASSERT_EQ(intervals.size(), 3u);
  EXPECT_DOUBLE_EQ(intervals[0].startNs, 1000); // stream 0
  EXPECT_DOUBLE_EQ(intervals[1].startNs, 2000); // after the first
  EXPECT_DOUBLE_EQ(intervals[1].endNs, 4000);
  EXPECT_DOUBLE_EQ(intervals[2].startNs, 1500); // stream 7
  auto runs = report::runMeasures(set);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(runs[0].wallFromFile);
  EXPECT_DOUBLE_EQ(runs[0].measures.wallNs, 10000);
  EXPECT_DOUBLE_EQ(*runs[0].measures.devices[0].glb(10000), 7000.0 / 10000.0);
  EXPECT_DOUBLE_EQ(runs[0].measures.gpuBusyNs, 1000 + 2000 + (5500 - 4000)); // [1000,5500)
}

} // namespace
} // namespace ocelot
