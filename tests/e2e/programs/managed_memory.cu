// Unified (managed) memory: cudaMallocManaged (global and host attach), host and device access,
// cudaMemAdvise with cudaMemLocation (read mostly, preferred location, accessed by; CUDA 13
// signatures), cudaMemPrefetchAsync to the device and back to the host, cudaMemRangeGetAttribute,
// cudaStreamAttachMemAsync.
#include "e2e_common.h"

__global__ void triple(long long* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * 3 + 1;
}

__global__ void gather_sum(const long long* data, int n, long long* out) {
  // One block: fixed order of additions.
  __shared__ long long part[128];
  long long acc = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    acc += data[i];
  part[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long t = 0;
    for (int k = 0; k < blockDim.x; ++k)
      t += part[k];
    *out = t;
  }
}

static cudaMemLocation device_location(int dev) {
  cudaMemLocation loc;
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  return loc;
}

static cudaMemLocation host_location() {
  cudaMemLocation loc;
  loc.type = cudaMemLocationTypeHost;
  loc.id = 0;
  return loc;
}

int main() {
  int concurrent = 0;
  CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, 0));
  std::printf("cudaDevAttrConcurrentManagedAccess: %d\n", concurrent);

  const int n = 1 << 18;
  const size_t bytes = n * sizeof(long long);
  long long* data = nullptr;
  CHECK(cudaMallocManaged(&data, bytes, cudaMemAttachGlobal));
  for (int i = 0; i < n; ++i)
    data[i] = i - n / 2;

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  // Advice and prefetch to the device, compute there, prefetch back to the host.
  CHECK(cudaMemAdvise(data, bytes, cudaMemAdviseSetPreferredLocation, device_location(0)));
  CHECK(cudaMemAdvise(data, bytes, cudaMemAdviseSetAccessedBy, device_location(0)));
  int attr = -7;
  CHECK(cudaMemRangeGetAttribute(&attr, sizeof attr, cudaMemRangeAttributePreferredLocation, data,
                                 bytes));
  std::printf("preferred location after advice: %d\n", attr);
  if (concurrent) {
    CHECK(cudaMemPrefetchAsync(data, bytes, device_location(0), 0, s));
  }
  triple<<<(n + 255) / 256, 256, 0, s>>>(data, n);
  CHECK_LAUNCH();
  if (concurrent) {
    CHECK(cudaMemPrefetchAsync(data, bytes, host_location(), 0, s));
    CHECK(cudaStreamSynchronize(s));
    int type = -1;
    cudaError_t e = cudaMemRangeGetAttribute(
        &type, sizeof type, cudaMemRangeAttributeLastPrefetchLocationType, data, bytes);
    std::printf("last prefetch location type: %s, %d\n", cudaGetErrorName(e), type);
    (void)cudaGetLastError();
  }
  CHECK(cudaStreamSynchronize(s));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && data[i] == (long long)(i - n / 2) * 3 + 1;
  e2e::expect(ok, "managed data tripled on the device, read on the host");

  // Read-mostly data: duplicated, read by a kernel, then unset.
  CHECK(cudaMemAdvise(data, bytes, cudaMemAdviseUnsetPreferredLocation, device_location(0)));
  CHECK(cudaMemAdvise(data, bytes, cudaMemAdviseSetReadMostly, device_location(0)));
  CHECK(cudaMemRangeGetAttribute(&attr, sizeof attr, cudaMemRangeAttributeReadMostly, data, bytes));
  std::printf("read mostly after SetReadMostly: %d\n", attr);
  long long* sum = nullptr;
  CHECK(cudaMallocManaged(&sum, sizeof *sum));
  *sum = 0;
  gather_sum<<<1, 128, 0, s>>>(data, n, sum);
  CHECK_LAUNCH();
  CHECK(cudaStreamSynchronize(s));
  long long want = 0;
  for (int i = 0; i < n; ++i)
    want += (long long)(i - n / 2) * 3 + 1;
  std::printf("device sum of managed data: %lld\n", *sum);
  e2e::expect(*sum == want, "sum over read-mostly managed data");
  CHECK(cudaMemAdvise(data, bytes, cudaMemAdviseUnsetReadMostly, device_location(0)));
  CHECK(cudaMemRangeGetAttribute(&attr, sizeof attr, cudaMemRangeAttributeReadMostly, data, bytes));
  std::printf("read mostly after UnsetReadMostly: %d\n", attr);
  CHECK(cudaMemAdvise(data, bytes, cudaMemAdviseUnsetAccessedBy, device_location(0)));

  // Host-attached managed memory, attached to a stream for the kernel, then back to the host.
  long long* local = nullptr;
  CHECK(cudaMallocManaged(&local, 1000 * sizeof(long long), cudaMemAttachHost));
  for (int i = 0; i < 1000; ++i)
    local[i] = i;
  CHECK(cudaStreamAttachMemAsync(s, local, 0, cudaMemAttachSingle));
  triple<<<4, 256, 0, s>>>(local, 1000);
  CHECK_LAUNCH();
  CHECK(cudaStreamSynchronize(s));
  ok = true;
  for (int i = 0; i < 1000; ++i)
    ok = ok && local[i] == 3LL * i + 1;
  e2e::expect(ok, "cudaMemAttachHost + cudaStreamAttachMemAsync");
  CHECK(cudaStreamAttachMemAsync(s, local, 0, cudaMemAttachHost));
  CHECK(cudaStreamSynchronize(s));
  local[0] = 99; // host access after re-attaching to the host
  e2e::expect(local[0] == 99, "host write after cudaMemAttachHost");

  // Managed memory is a valid cudaMemcpy source and destination.
  long long* dev = nullptr;
  CHECK(cudaMalloc(&dev, 1000 * sizeof(long long)));
  CHECK(cudaMemcpy(dev, local, 1000 * sizeof(long long), cudaMemcpyDefault));
  CHECK(cudaMemcpy(data, dev, 1000 * sizeof(long long), cudaMemcpyDefault));
  ok = data[0] == 99;
  for (int i = 1; i < 1000; ++i)
    ok = ok && data[i] == 3LL * i + 1;
  e2e::expect(ok, "cudaMemcpyDefault between managed and device memory");

  CHECK(cudaFree(dev));
  CHECK(cudaFree(local));
  CHECK(cudaFree(sum));
  CHECK(cudaFree(data));
  CHECK(cudaStreamDestroy(s));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return e2e::finish();
}
