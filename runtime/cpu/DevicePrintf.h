#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace ocelot::runtime::cpu {

/// Reads `size` bytes of device memory at a generic address; false when it is not accessible.
using DeviceReader = std::function<bool(uint64_t address, void* out, size_t size)>;

/// Formats one device printf: `format` is the address of the format string, `arguments` the
/// address of the packed argument buffer nvcc builds (each argument aligned to its size; floats
/// promoted to double, strings as 64-bit pointers), like CUDA's printf.
/// `count` receives the number of arguments the format consumed (what device printf returns).
std::string formatDevicePrintf(uint64_t format, uint64_t arguments, const DeviceReader& read,
                               int* count = nullptr);

/// Reads a NUL-terminated string from device memory (at most `limit` bytes).
std::string readDeviceString(uint64_t address, const DeviceReader& read, size_t limit = 4096);

} // namespace ocelot::runtime::cpu
