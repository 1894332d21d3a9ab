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

TEST(HostMeasures, ApiCallsThatWaitForTheDevice) {
  for (const char* waits : {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaMemcpy",
                            "cudaMemcpy2D", "cudaMemcpyToSymbol", "cudaEventSynchronize"})
    EXPECT_TRUE(apiCallWaitsForDevice(waits)) << waits;
  for (const char* returns : {"cudaMemcpyAsync", "cudaMemcpy2DAsync", "cudaMemsetAsync",
                              "__cudaLaunchKernel", "cudaMalloc", "copy"})
    EXPECT_FALSE(apiCallWaitsForDevice(returns)) << returns;
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
  auto intervals = report::deviceIntervals(set, 0);
  ASSERT_EQ(intervals.size(), 3u);
  // Times from the first call (1000).
  EXPECT_DOUBLE_EQ(intervals[0].startNs, 0);    // stream 0
  EXPECT_DOUBLE_EQ(intervals[1].startNs, 1000); // after the first
  EXPECT_DOUBLE_EQ(intervals[1].endNs, 3000);
  EXPECT_DOUBLE_EQ(intervals[2].startNs, 500); // stream 7
  auto runs = report::runMeasures(set);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(runs[0].wallFromFile);
  EXPECT_DOUBLE_EQ(runs[0].measures.wallNs, 10000);
  EXPECT_DOUBLE_EQ(*runs[0].measures.devices[0].glb(10000), 7000.0 / 10000.0);
  EXPECT_DOUBLE_EQ(runs[0].measures.gpuBusyNs, 1000 + 2000 + (5500 - 4000)); // [1000,5500)
}

TEST(RunMeasures, TransfersAndUnprofiledKernelsShareTheirStreams) {
  // The CPU device with two streams, as the runtime writes it with host measures on. Stream 1: a
  // copy called at 500 taking 1000 ns, then a profiled kernel called at 1000 taking 4000 ns (it
  // waits for the copy: [1500,5500)). Stream 2: a memset called at 2000 taking 2000 ns, then an
  // unprofiled kernel called at 2500 taking 1000 ns ([4000,5000)). Wall clock 10000 ns. All host
  // times are offset by a real clock value (2026): a double keeps only 256 ns of such values.
  constexpr int64_t kBase = 1795726127928281636;
  nlohmann::json kernel = {{"schema", 1},
                           {"kernel", "k"},
                           {"launch_id", 1},
                           {"device", 0},
                           {"stream", 1},
                           {"enqueued_ns", kBase + 1000},
                           {"completed_ns", 0},
                           {"gpu_ms", 0.004},
                           {"execution", "original"},
                           {"results", nlohmann::json::object()}};
  auto operation = [](const char* kind, uint64_t stream, int64_t enqueued, double ns) {
    return nlohmann::json{{"kind", kind},     {"name", kind},  {"device", 0},
                          {"stream", stream}, {"bytes", 4096}, {"enqueued_ns", kBase + enqueued},
                          {"gpu_ns", ns}};
  };
  nlohmann::json document = {{"schema", 1},
                             {"profiles", {kernel}},
                             {"operations",
                              {operation("copy", 1, 500, 1000), operation("memset", 2, 2000, 2000),
                               operation("kernel", 2, 2500, 1000)}},
                             {"wall", {{"start_ns", kBase}, {"end_ns", kBase + 10000}}}};
  report::ProfileSet set;
  set.add("p.json", 0, document);
  ASSERT_EQ(set.operations().size(), 3u);
  auto placed = report::placeWork(set, 0);
  ASSERT_EQ(placed.size(), 4u);
  // Times from the first call (kBase + 500).
  EXPECT_EQ(report::workOrigin(set), kBase + 500);
  EXPECT_DOUBLE_EQ(placed[0].startNs, 0);    // stream 1: the copy
  EXPECT_DOUBLE_EQ(placed[1].startNs, 1000); // the kernel after it
  EXPECT_DOUBLE_EQ(placed[2].startNs, 1500); // stream 2: the memset
  EXPECT_DOUBLE_EQ(placed[3].startNs, 3500); // the unprofiled kernel after it
  auto runs = report::runMeasures(set);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(runs[0].transfersRecorded);
  const DeviceTimes& d = runs[0].measures.devices.at(0);
  EXPECT_EQ(d.kernels, 2u);
  EXPECT_EQ(d.transfers, 2u);
  EXPECT_DOUBLE_EQ(d.kernelNs, 5000);
  EXPECT_DOUBLE_EQ(d.transferNs, 3000);
  EXPECT_DOUBLE_EQ(*d.gcp(), 5000.0 / 8000.0);
  EXPECT_DOUBLE_EQ(*d.glb(runs[0].measures.wallNs), 0.8);
  EXPECT_DOUBLE_EQ(d.busyNs, 5000); // [500,5500)

  // A file written without host measures has no `operations`: transfers are unknown.
  report::ProfileSet old;
  old.add("q.json", 0, {{"schema", 1}, {"profiles", {kernel}}});
  EXPECT_FALSE(report::runMeasures(old).at(0).transfersRecorded);
}

TEST(RunMeasures, TwoDevicesWithPeerCopies) {
  // Device 0: kernel 3000 ns, copy 1000 ns; device 1: peer copy 2000 ns, kernel 2000 ns. Wall
  // 10000 ns. GCP 0.75 and 0.5; across 5000/8000; GLB 0.4 each and across.
  auto operation = [](const char* kind, int device, int64_t enqueued, double ns) {
    return nlohmann::json{{"kind", kind}, {"name", kind}, {"device", device},
                          {"stream", 0},  {"bytes", 1},   {"enqueued_ns", enqueued},
                          {"gpu_ns", ns}};
  };
  nlohmann::json document = {
      {"schema", 1},
      {"profiles", nlohmann::json::array()},
      {"operations",
       {operation("copy", 0, 0, 1000), operation("kernel", 0, 0, 3000),
        operation("copy", 1, 4000, 2000), operation("kernel", 1, 4000, 2000)}},
      {"wall", {{"start_ns", 0}, {"end_ns", 10000}}}};
  report::ProfileSet set;
  set.add("p.json", 0, document);
  auto runs = report::runMeasures(set);
  ASSERT_EQ(runs.size(), 1u);
  const HostMeasures& m = runs[0].measures;
  ASSERT_EQ(m.devices.size(), 2u);
  EXPECT_DOUBLE_EQ(*m.devices[0].gcp(), 0.75);
  EXPECT_DOUBLE_EQ(*m.devices[1].gcp(), 0.5);
  EXPECT_DOUBLE_EQ(*m.all.gcp(), 5000.0 / 8000.0);
  EXPECT_DOUBLE_EQ(*m.devices[0].glb(m.wallNs), 0.4);
  EXPECT_DOUBLE_EQ(*m.glbAcrossDevices(), 0.4);
  EXPECT_DOUBLE_EQ(m.gpuBusyNs, 8000); // [0,4000) and [4000,8000)
}

} // namespace
} // namespace ocelot
