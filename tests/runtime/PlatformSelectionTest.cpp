// Which back end the process's runtime starts (selectPlatform) for each OCELOT_DEVICE value: a
// value Ocelot does not know is never taken silently (issue 18 item 12: OCELOT_DEVICE=tpu was
// ignored without a word).

#include "runtime/core/PlatformSelection.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace ocelot::runtime {
namespace {

/// Back ends that start nothing but record which of them were asked for, in order; "gpu" answers
/// `gpuError` (no platform), "cpu" cudaErrorNotSupported.
struct RecordingBackends {
  explicit RecordingBackends(cudaError_t gpuError) {
    backends.add("gpu", [this, gpuError] {
      asked.push_back("gpu");
      return PlatformResult{nullptr, gpuError, 0, "gpu"};
    });
    backends.add("cpu", [this] {
      asked.push_back("cpu");
      return PlatformResult{nullptr, cudaErrorNotSupported, 0, "cpu"};
    });
  }
  PlatformRegistry backends;
  std::vector<std::string> asked;
};

/// Sets (or unsets) an environment variable while it lives, then puts the caller's value back.
class EnvironmentVariable {
public:
  EnvironmentVariable(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name))
      saved_ = old;
    if (value != nullptr)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~EnvironmentVariable() {
    if (saved_)
      ::setenv(name_, saved_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

private:
  const char* name_;
  std::optional<std::string> saved_;
};

struct Selection {
  std::vector<std::string> asked;
  cudaError_t error;
  std::string log;
};

Selection select(const char* device, cudaError_t gpuError) {
  EnvironmentVariable variable("OCELOT_DEVICE", device);
  EnvironmentVariable log("OCELOT_LOG", nullptr); // warnings on, whatever the caller's setting
  RecordingBackends recording(gpuError);
  ::testing::internal::CaptureStderr();
  PlatformResult result = selectPlatform(recording.backends);
  std::string printed = ::testing::internal::GetCapturedStderr();
  return {recording.asked, result.error, printed};
}

TEST(PlatformSelection, KnownValuesChooseTheirBackEndSilently) {
  // Unset: the GPU, and the CPU device where there is no GPU or no driver.
  Selection unset = select(nullptr, cudaErrorNoDevice);
  EXPECT_EQ(unset.asked, (std::vector<std::string>{"gpu", "cpu"}));
  EXPECT_EQ(unset.error,
            cudaErrorNoDevice); // a CPU device that does not start: the driver's answer
  EXPECT_EQ(unset.log, "");
  // A driver that fails otherwise is reported, not replaced by the CPU device.
  Selection broken = select(nullptr, cudaErrorUnknown);
  EXPECT_EQ(broken.asked, (std::vector<std::string>{"gpu"}));
  EXPECT_EQ(broken.error, cudaErrorUnknown);
  // cpu: the CPU device only; gpu: the driver only, even without a GPU.
  Selection cpu = select("cpu", cudaErrorNoDevice);
  EXPECT_EQ(cpu.asked, (std::vector<std::string>{"cpu"}));
  EXPECT_EQ(cpu.error, cudaErrorNotSupported);
  EXPECT_EQ(cpu.log, "");
  Selection gpu = select("gpu", cudaErrorNoDevice);
  EXPECT_EQ(gpu.asked, (std::vector<std::string>{"gpu"}));
  EXPECT_EQ(gpu.error, cudaErrorNoDevice);
  EXPECT_EQ(gpu.log, "");
}

TEST(PlatformSelection, AnUnknownDeviceWarnsAndChoosesAsIfUnset) {
  for (const char* value : {"tpu", "CPU", "cpu "}) {
    Selection chosen = select(value, cudaErrorNoDevice);
    EXPECT_EQ(chosen.asked, (std::vector<std::string>{"gpu", "cpu"})) << value;
    EXPECT_NE(chosen.log.find("ocelot[warn]: OCELOT_DEVICE=" + std::string(value) +
                              " is not a device Ocelot knows"),
              std::string::npos)
        << chosen.log;
    EXPECT_NE(chosen.log.find("choosing as if it were unset"), std::string::npos) << chosen.log;
  }
  // Empty is unset, not unknown.
  Selection empty = select("", cudaErrorNoDevice);
  EXPECT_EQ(empty.asked, (std::vector<std::string>{"gpu", "cpu"}));
  EXPECT_EQ(empty.log, "");
}

} // namespace
} // namespace ocelot::runtime
