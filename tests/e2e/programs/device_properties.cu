// Device management and properties: cudaGetDeviceCount, cudaGetDeviceProperties,
// cudaDeviceGetAttribute (cross-checked against the struct), cudaChooseDevice, the PCI bus id round
// trip, stream priority range, limits, cache configuration and the 1D linear texture width.
// Prints only facts that are the same on every H100 (no name, SM count, memory size or clocks).
// Lines starting "hw: " describe the hardware itself (integrated memory, clusters, preemption, the
// printf buffer the driver sizes by the GPU): compared between runtimes on one GPU, but not between
// the GPU and Ocelot's CPU device, whose honest answers differ (tests/cpu/run-e2e-cpu.sh drops them
// from that comparison).
#include "e2e_common.h"

__global__ void touch(int* p) {
  p[threadIdx.x] = static_cast<int>(threadIdx.x);
}

int main() {
  int count = -1;
  CHECK(cudaGetDeviceCount(&count));
  std::printf("cudaGetDeviceCount: %d\n", count);
  e2e::expect(count >= 1, "at least one device");

  int dev = -1;
  CHECK(cudaGetDevice(&dev));
  std::printf("current device: %d\n", dev);

  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("compute capability: %d.%d\n", p.major, p.minor);
  std::printf("warpSize: %d\n", p.warpSize);
  std::printf("maxThreadsPerBlock: %d\n", p.maxThreadsPerBlock);
  std::printf("maxThreadsDim: %d %d %d\n", p.maxThreadsDim[0], p.maxThreadsDim[1],
              p.maxThreadsDim[2]);
  std::printf("maxGridSize: %d %d %d\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  std::printf("sharedMemPerBlock: %zu\n", p.sharedMemPerBlock);
  std::printf("sharedMemPerBlockOptin: %zu\n", p.sharedMemPerBlockOptin);
  std::printf("sharedMemPerMultiprocessor: %zu\n", p.sharedMemPerMultiprocessor);
  std::printf("reservedSharedMemPerBlock: %zu\n", p.reservedSharedMemPerBlock);
  std::printf("regsPerBlock: %d\n", p.regsPerBlock);
  std::printf("regsPerMultiprocessor: %d\n", p.regsPerMultiprocessor);
  std::printf("maxThreadsPerMultiProcessor: %d\n", p.maxThreadsPerMultiProcessor);
  std::printf("maxBlocksPerMultiProcessor: %d\n", p.maxBlocksPerMultiProcessor);
  std::printf("totalConstMem: %zu\n", p.totalConstMem);
  std::printf("textureAlignment: %zu\n", p.textureAlignment);
  std::printf("texturePitchAlignment: %zu\n", p.texturePitchAlignment);
  std::printf("surfaceAlignment: %zu\n", p.surfaceAlignment);
  std::printf("memPitch: %zu\n", p.memPitch);
  std::printf("maxTexture1D: %d\n", p.maxTexture1D);
  std::printf("maxTexture2D: %d %d\n", p.maxTexture2D[0], p.maxTexture2D[1]);
  std::printf("maxTexture3D: %d %d %d\n", p.maxTexture3D[0], p.maxTexture3D[1], p.maxTexture3D[2]);
  std::printf("maxSurface2D: %d %d\n", p.maxSurface2D[0], p.maxSurface2D[1]);
  std::printf("hw: integrated: %d\n", p.integrated);
  std::printf("canMapHostMemory: %d\n", p.canMapHostMemory);
  std::printf("unifiedAddressing: %d\n", p.unifiedAddressing);
  std::printf("managedMemory: %d\n", p.managedMemory);
  std::printf("concurrentKernels: %d\n", p.concurrentKernels);
  std::printf("cooperativeLaunch: %d\n", p.cooperativeLaunch);
  std::printf("hw: clusterLaunch: %d\n", p.clusterLaunch);
  std::printf("memoryPoolsSupported: %d\n", p.memoryPoolsSupported);
  std::printf("streamPrioritiesSupported: %d\n", p.streamPrioritiesSupported);
  std::printf("globalL1CacheSupported: %d\n", p.globalL1CacheSupported);
  std::printf("hw: computePreemptionSupported: %d\n", p.computePreemptionSupported);
  e2e::expect(p.major >= 9, "compute capability >= 9.0");
  e2e::expect(p.multiProcessorCount > 0, "multiProcessorCount > 0");
  e2e::expect(p.totalGlobalMem > (size_t(1) << 30), "totalGlobalMem > 1 GiB");
  e2e::expect(std::strlen(p.name) > 0, "name is not empty");

  // cudaDeviceGetAttribute must agree with the property struct.
  struct AttrCheck {
    cudaDeviceAttr attr;
    long long expected;
    const char* name;
  };
  const AttrCheck attrs[] = {
      {cudaDevAttrComputeCapabilityMajor, p.major, "ComputeCapabilityMajor"},
      {cudaDevAttrComputeCapabilityMinor, p.minor, "ComputeCapabilityMinor"},
      {cudaDevAttrWarpSize, p.warpSize, "WarpSize"},
      {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock, "MaxThreadsPerBlock"},
      {cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0], "MaxBlockDimX"},
      {cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2], "MaxBlockDimZ"},
      {cudaDevAttrMaxGridDimX, p.maxGridSize[0], "MaxGridDimX"},
      {cudaDevAttrMaxGridDimY, p.maxGridSize[1], "MaxGridDimY"},
      {cudaDevAttrMaxSharedMemoryPerBlock, static_cast<long long>(p.sharedMemPerBlock),
       "MaxSharedMemoryPerBlock"},
      {cudaDevAttrMaxSharedMemoryPerBlockOptin, static_cast<long long>(p.sharedMemPerBlockOptin),
       "MaxSharedMemoryPerBlockOptin"},
      {cudaDevAttrMultiProcessorCount, p.multiProcessorCount, "MultiProcessorCount"},
      {cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock, "MaxRegistersPerBlock"},
      {cudaDevAttrTotalConstantMemory, static_cast<long long>(p.totalConstMem),
       "TotalConstantMemory"},
      {cudaDevAttrUnifiedAddressing, p.unifiedAddressing, "UnifiedAddressing"},
      {cudaDevAttrManagedMemory, p.managedMemory, "ManagedMemory"},
      {cudaDevAttrCooperativeLaunch, p.cooperativeLaunch, "CooperativeLaunch"},
      {cudaDevAttrClusterLaunch, p.clusterLaunch, "ClusterLaunch"},
      {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor,
       "MaxBlocksPerMultiprocessor"},
      {cudaDevAttrConcurrentManagedAccess, p.concurrentManagedAccess, "ConcurrentManagedAccess"},
      {cudaDevAttrPciBusId, p.pciBusID, "PciBusId"},
  };
  for (const AttrCheck& a : attrs) {
    int v = -1;
    CHECK(cudaDeviceGetAttribute(&v, a.attr, 0));
    char what[96];
    std::snprintf(what, sizeof what, "cudaDeviceGetAttribute(%s) matches cudaDeviceProp", a.name);
    e2e::expect(v == a.expected, what);
  }

  // cudaChooseDevice: ask for compute capability 9.0.
  cudaDeviceProp want;
  std::memset(&want, 0, sizeof want);
  want.major = 9;
  want.minor = 0;
  int chosen = -1;
  CHECK(cudaChooseDevice(&chosen, &want));
  e2e::expect(chosen >= 0 && chosen < count, "cudaChooseDevice returns a valid ordinal");

  // PCI bus id round trip.
  char bus[32] = {0};
  CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
  int back = -1;
  CHECK(cudaDeviceGetByPCIBusId(&back, bus));
  std::printf("cudaDeviceGetByPCIBusId(cudaDeviceGetPCIBusId(0)): %d\n", back);

  int least = 0, greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  std::printf("stream priority range: least %d greatest %d\n", least, greatest);
  e2e::expect(greatest <= least, "greatest priority <= least priority");

  // Limits: defaults, then set and read back.
  size_t heap = 0, fifo = 0, stack = 0;
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  CHECK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
  CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
  std::printf("default limits: malloc heap %zu, stack %zu\n", heap, stack);
  std::printf("hw: default printf fifo: %zu\n", fifo);
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t(32) << 20));
  CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
  std::printf("after set: malloc heap %zu, stack %zu\n", heap, stack);
  e2e::expect(heap >= (size_t(32) << 20), "malloc heap limit took effect");
  e2e::expect(stack >= 4096, "stack limit took effect");

  cudaFuncCache cache = cudaFuncCachePreferEqual;
  CHECK(cudaDeviceGetCacheConfig(&cache));
  std::printf("default cache config: %d\n", static_cast<int>(cache));
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
  CHECK(cudaDeviceGetCacheConfig(&cache));
  std::printf("cache config after set: %d\n", static_cast<int>(cache));

  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  size_t maxw = 0;
  CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&maxw, &fdesc, 0));
  std::printf("texture 1D linear max width (float): %zu\n", maxw);

  // The device still works after all of the above.
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 32 * sizeof(int)));
  touch<<<1, 32>>>(d);
  CHECK_LAUNCH();
  int h[32];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < 32; ++i)
    ok = ok && h[i] == i;
  e2e::expect(ok, "kernel after property queries");
  CHECK(cudaFree(d));
  return e2e::finish();
}
