// Basic memory management: cudaMalloc/cudaFree (incl. size 0 and freeing null), cudaMemcpy in every
// direction (HostToDevice, DeviceToHost, DeviceToDevice, HostToHost, and Default with unified
// addressing for each pair), cudaMemset with byte patterns and unaligned ranges, cudaMemGetInfo
// sanity and cudaPointerGetAttributes for each kind of pointer.
#include "e2e_common.h"

#include <vector>

__global__ void add_index(unsigned* data, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n)
    data[i] += static_cast<unsigned>(i);
}

static const char* type_name(cudaMemoryType t) {
  switch (t) {
  case cudaMemoryTypeUnregistered:
    return "Unregistered";
  case cudaMemoryTypeHost:
    return "Host";
  case cudaMemoryTypeDevice:
    return "Device";
  case cudaMemoryTypeManaged:
    return "Managed";
  }
  return "?";
}

static void show_attributes(const char* label, const void* p) {
  cudaPointerAttributes a;
  std::memset(&a, 0, sizeof a);
  cudaError_t e = cudaPointerGetAttributes(&a, p);
  std::printf("cudaPointerGetAttributes(%s): %s, type %s, device %d, devicePointer==p %s, "
              "hostPointer==p %s\n",
              label, cudaGetErrorName(e), type_name(a.type),
              a.type == cudaMemoryTypeUnregistered ? -2 : a.device,
              a.devicePointer == p ? "yes" : "no", a.hostPointer == p ? "yes" : "no");
}

int main() {
  const size_t n = 1 << 20; // 1 Mi elements, 4 MiB
  const size_t bytes = n * sizeof(unsigned);
  std::vector<unsigned> src(n), dst(n), again(n);
  e2e::Rng rng(42);
  for (size_t i = 0; i < n; ++i)
    src[i] = static_cast<unsigned>(rng.next());
  std::printf("input checksum: %016llx\n", (unsigned long long)e2e::fnv1a(src.data(), bytes));

  size_t free0 = 0, total = 0;
  CHECK(cudaMemGetInfo(&free0, &total));
  e2e::expect(total > 0 && free0 <= total, "cudaMemGetInfo: 0 < free <= total");

  unsigned *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  void* big = nullptr;
  CHECK(cudaMalloc(&big, size_t(256) << 20));
  size_t free1 = 0;
  CHECK(cudaMemGetInfo(&free1, &total));
  e2e::expect(free1 + (size_t(256) << 20) <= free0, "free memory dropped by at least 256 MiB");
  CHECK(cudaFree(big));

  // HostToDevice, kernel, DeviceToDevice, DeviceToHost.
  CHECK(cudaMemcpy(a, src.data(), bytes, cudaMemcpyHostToDevice));
  add_index<<<(n + 255) / 256, 256>>>(a, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy(dst.data(), b, bytes, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (size_t i = 0; i < n; ++i)
    ok = ok && dst[i] == src[i] + static_cast<unsigned>(i);
  e2e::expect(ok, "HtoD, kernel, DtoD, DtoH");
  std::printf("result checksum: %016llx\n", (unsigned long long)e2e::fnv1a(dst.data(), bytes));

  // HostToHost.
  CHECK(cudaMemcpy(again.data(), dst.data(), bytes, cudaMemcpyHostToHost));
  e2e::expect(again == dst, "HostToHost");

  // cudaMemcpyDefault: the runtime infers the direction from unified addresses.
  std::vector<unsigned> back(n, 0);
  CHECK(cudaMemset(a, 0, bytes));
  CHECK(cudaMemcpy(a, src.data(), bytes, cudaMemcpyDefault));  // host -> device
  CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDefault));           // device -> device
  CHECK(cudaMemcpy(back.data(), b, bytes, cudaMemcpyDefault)); // device -> host
  e2e::expect(back == src, "Default: HtoD, DtoD, DtoH");
  CHECK(cudaMemcpy(again.data(), src.data(), bytes, cudaMemcpyDefault)); // host -> host
  e2e::expect(again == src, "Default: HtoH");

  // Partial copies at odd offsets and sizes.
  CHECK(cudaMemcpy(reinterpret_cast<char*>(b) + 3, reinterpret_cast<const char*>(src.data()) + 5,
                   1001, cudaMemcpyHostToDevice));
  std::vector<unsigned char> part(1001);
  CHECK(cudaMemcpy(part.data(), reinterpret_cast<char*>(b) + 3, 1001, cudaMemcpyDeviceToHost));
  e2e::expect(std::memcmp(part.data(), reinterpret_cast<const char*>(src.data()) + 5, 1001) == 0,
              "unaligned 1001-byte copy");

  // cudaMemset: byte values, on an unaligned subrange.
  CHECK(cudaMemset(a, 0xAB, bytes));
  CHECK(cudaMemset(reinterpret_cast<char*>(a) + 7, 0x12, 4093));
  std::vector<unsigned char> bytes_back(bytes);
  CHECK(cudaMemcpy(bytes_back.data(), a, bytes, cudaMemcpyDeviceToHost));
  ok = true;
  for (size_t i = 0; i < bytes; ++i) {
    unsigned char want = (i >= 7 && i < 7 + 4093) ? 0x12 : 0xAB;
    ok = ok && bytes_back[i] == want;
  }
  e2e::expect(ok, "cudaMemset byte pattern with unaligned subrange");

  // Zero-size allocation and freeing null.
  void* zero = reinterpret_cast<void*>(0x1);
  cudaError_t e = cudaMalloc(&zero, 0);
  std::printf("cudaMalloc(0): %s, pointer null %s\n", cudaGetErrorName(e),
              zero == nullptr ? "yes" : "no");
  std::printf("cudaFree(nullptr): %s\n", cudaGetErrorName(cudaFree(nullptr)));

  // Pointer attributes for each kind of memory.
  void* pinned = nullptr;
  void* managed = nullptr;
  CHECK(cudaMallocHost(&pinned, 4096));
  CHECK(cudaMallocManaged(&managed, 4096));
  show_attributes("device", a);
  show_attributes("device+4", reinterpret_cast<char*>(a) + 4);
  show_attributes("pinned host", pinned);
  show_attributes("managed", managed);
  show_attributes("malloc host", src.data());
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(managed));

  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
