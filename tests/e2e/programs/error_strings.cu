// cudaGetErrorName and cudaGetErrorString for every cudaError_t value in 0..1100 that the runtime
// knows, plus a few that it does not. The real runtime's table is the reference: Ocelot's
// replacement must print the same text for every code.
#include "e2e_common.h"

int main() {
  const char* unknown_name = cudaGetErrorName(static_cast<cudaError_t>(123456));
  const char* unknown_string = cudaGetErrorString(static_cast<cudaError_t>(123456));
  std::printf("unknown code 123456: name \"%s\" string \"%s\"\n", unknown_name, unknown_string);

  int known = 0;
  for (int code = 0; code <= 1100; ++code) {
    const char* name = cudaGetErrorName(static_cast<cudaError_t>(code));
    const char* text = cudaGetErrorString(static_cast<cudaError_t>(code));
    if (name == nullptr || text == nullptr) {
      std::printf("%d: null\n", code);
      continue;
    }
    if (std::strcmp(name, unknown_name) == 0)
      continue; // not a code this runtime knows
    std::printf("%d %s: %s\n", code, name, text);
    ++known;
  }
  std::printf("known codes: %d\n", known);

  // A few well-known codes must have their documented names.
  e2e::expect(std::strcmp(cudaGetErrorName(cudaSuccess), "cudaSuccess") == 0,
              "name of cudaSuccess");
  e2e::expect(std::strcmp(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue") == 0,
              "name of cudaErrorInvalidValue");
  e2e::expect(std::strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") ==
                  0,
              "name of cudaErrorIllegalAddress");
  e2e::expect(known > 100, "more than 100 known codes");

  // Nothing above touched the device: the last error is still cudaSuccess.
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
