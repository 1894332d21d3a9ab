#include "runtime/core/ErrorTable.h"

#include <algorithm>
#include <iterator>

namespace ocelot::runtime {
namespace {

struct ErrorInfo {
  int code;
  const char* name;
  const char* description;
};

// The table is data read from NVIDIA's library; spelling each row with its enumerator makes the
// compiler check every code against the CUDA headers.
#define OCELOT_CUDA_ERROR(code, enumerator, description)                                           \
  static_assert(static_cast<int>(enumerator) == (code), #enumerator " changed its value");
#include "runtime/core/CudaErrors.def"
#undef OCELOT_CUDA_ERROR

constexpr ErrorInfo kErrors[] = {
#define OCELOT_CUDA_ERROR(code, enumerator, description) {code, #enumerator, description},
#include "runtime/core/CudaErrors.def"
#undef OCELOT_CUDA_ERROR
};

static_assert(std::is_sorted(std::begin(kErrors), std::end(kErrors),
                             [](const ErrorInfo& a, const ErrorInfo& b) {
                               return a.code < b.code;
                             }),
              "CudaErrors.def must be sorted by code");

constexpr const char* kUnrecognized = "unrecognized error code";

const ErrorInfo* find(int code) {
  auto it = std::lower_bound(std::begin(kErrors), std::end(kErrors), code,
                             [](const ErrorInfo& info, int value) { return info.code < value; });
  return it != std::end(kErrors) && it->code == code ? it : nullptr;
}

} // namespace

const char* errorName(int error) {
  const ErrorInfo* info = find(error);
  return info != nullptr ? info->name : kUnrecognized;
}

const char* errorString(int error) {
  const ErrorInfo* info = find(error);
  return info != nullptr ? info->description : kUnrecognized;
}

bool isKnownError(int error) {
  return find(error) != nullptr;
}

bool isStickyError(cudaError_t error) {
  switch (error) {
  case cudaErrorECCUncorrectable:
  case cudaErrorIllegalAddress:
  case cudaErrorLaunchTimeout:
  case cudaErrorAssert:
  case cudaErrorHardwareStackError:
  case cudaErrorIllegalInstruction:
  case cudaErrorMisalignedAddress:
  case cudaErrorInvalidAddressSpace:
  case cudaErrorInvalidPc:
  case cudaErrorLaunchFailure:
    return true;
  default:
    return false;
  }
}

} // namespace ocelot::runtime
