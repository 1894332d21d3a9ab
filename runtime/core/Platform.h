#pragma once

#include "runtime/core/Device.h"

#include <cuda_runtime_api.h>

#include <driver_types.h>
#include <string>

namespace ocelot::runtime {

/// A source of devices: the NVIDIA driver, later Ocelot's CPU back end. The runtime creates one
/// platform when it initializes and keeps it for the life of the process.
class Platform {
public:
  virtual ~Platform() = default;
  virtual std::string name() const = 0;
  /// What cudaDriverGetVersion reports (13000 for CUDA 13.0).
  virtual int driverVersion() const = 0;
  virtual int deviceCount() const = 0;
  virtual Device& device(int ordinal) = 0;
  /// cudaGetDriverEntryPoint: the address of a function of the platform's driver API, or a status
  /// that says why there is none (the call itself succeeds either way). `flags` are
  /// cudaEnableDefault/LegacyStream/PerThreadDefaultStream. Platforms without a driver API
  /// answer cudaErrorNotSupported.
  virtual cudaError_t driverEntryPoint(const char* /*symbol*/, void** /*function*/,
                                       int /*cudaVersion*/, unsigned long long /*flags*/,
                                       cudaDriverEntryPointQueryResult* /*status*/) {
    return cudaErrorNotSupported;
  }

  /// The driver's error log (cudaLogs*): callbacks for new entries and dumps of what was logged.
  virtual cudaError_t logsRegisterCallback(cudaLogsCallback_t /*callback*/, void* /*userData*/,
                                           cudaLogsCallbackHandle* /*handle*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t logsUnregisterCallback(cudaLogsCallbackHandle /*handle*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t logsCurrent(cudaLogIterator* /*iterator*/, unsigned int /*flags*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t logsDumpToFile(cudaLogIterator* /*iterator*/, const char* /*path*/,
                                     unsigned int /*flags*/) {
    return cudaErrorNotSupported;
  }
  virtual cudaError_t logsDumpToMemory(cudaLogIterator* /*iterator*/, char* /*buffer*/,
                                       size_t* /*size*/, unsigned int /*flags*/) {
    return cudaErrorNotSupported;
  }
};

} // namespace ocelot::runtime
