// Table-driven bad-argument calls: null pointers, invalid handles (null and never-created texture
// ids), double frees and destroys at the very end, oversize allocations, impossible
// launch configurations, too much dynamic shared memory, zero-sized grids, invalid memcpy kinds,
// invalid device ordinals, invalid symbols, invalid pitches, double frees, invalid flags and enums.
// One line per call, flushed at once:
//   "<n> <name>: <cudaGetErrorName(result)> | last: <cudaGetErrorName(cudaGetLastError())>".
// Nothing here may corrupt the context (no illegal addresses, no traps: those live
// in sticky_*.cu); the program ends by proving the device still works.
//
// Calls marked "must fail" are checked to return an error (any error: the exact code is what the
// comparison between NVIDIA's and Ocelot's runtimes is for); the others are only printed.
#include "e2e_common.h"

#include <cstdlib>
#include <functional>
#include <vector>

__global__ void small_kernel(int* p) {
  if (p)
    p[threadIdx.x] = static_cast<int>(threadIdx.x);
}

__global__ void dyn_kernel(int* p) {
  extern __shared__ int s[];
  s[threadIdx.x] = 1;
  __syncthreads();
  if (p)
    p[threadIdx.x] = s[threadIdx.x];
}

__global__ void __cluster_dims__(2, 1, 1) fixed_cluster_kernel(int* p) {
  if (p)
    p[blockIdx.x] = 1;
}

__device__ int g_symbol[4];
static int g_host_only[4];
static void host_function() {}
static void CUDART_CB dummy_callback(cudaStream_t, cudaError_t, void*) {}

struct Case {
  const char* name;
  bool must_fail;
  std::function<cudaError_t()> call;
};

int main() {
  std::printf("initial cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaFree(nullptr));

  // Valid objects the calls below misuse.
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 4096));
  int* d2 = nullptr;
  CHECK(cudaMalloc(&d2, 4096));
  int* pinned = nullptr;
  CHECK(cudaMallocHost(&pinned, 4096));
  int* registered = static_cast<int*>(std::aligned_alloc(4096, 8192));
  CHECK(cudaHostRegister(registered, 8192, cudaHostRegisterDefault));
  int* plain = static_cast<int*>(std::aligned_alloc(4096, 8192));
  int stack_value = 0;
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaEvent_t ev1, ev2, ev_notiming;
  CHECK(cudaEventCreate(&ev1));
  CHECK(cudaEventCreate(&ev2));
  CHECK(cudaEventCreateWithFlags(&ev_notiming, cudaEventDisableTiming));
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaArray_t array_no_surface = nullptr;
  CHECK(cudaMallocArray(&array_no_surface, &fdesc, 16, 16));
  cudaMemPool_t pool = nullptr;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  // Stream and event that are destroyed before the end of the table.
  cudaStream_t dead_stream;
  CHECK(cudaStreamCreate(&dead_stream));
  cudaEvent_t dead_event;
  CHECK(cudaEventCreate(&dead_event));
  int* freed = nullptr;
  CHECK(cudaMalloc(&freed, 256));

  void* out_ptr = nullptr;
  size_t out_size = 0;
  int out_int = 0;
  float out_float = 0.0f;
  int host_buf[1024] = {0};
  int* null_int = nullptr;
  void* args_small[] = {&null_int};

  std::vector<Case> cases = {
      // ---- memory allocation and release ----
      {"cudaMalloc(nullptr out pointer)", true, [&] { return cudaMalloc(nullptr, 16); }},
      {"cudaMalloc(1 PiB)", true, [&] { return cudaMalloc(&out_ptr, size_t(1) << 50); }},
      {"cudaMallocHost(1 PiB)", true, [&] { return cudaMallocHost(&out_ptr, size_t(1) << 50); }},
      {"cudaHostAlloc(invalid flags 0xff00)", true,
       [&] { return cudaHostAlloc(&out_ptr, 64, 0xff00); }},
      {"cudaMallocManaged(invalid flags 0x7)", true,
       [&] { return cudaMallocManaged(&out_ptr, 64, 0x7); }},
      {"cudaMallocManaged(size 0)", false, [&] { return cudaMallocManaged(&out_ptr, 0); }},
      {"cudaMallocPitch(width 2^40)", true,
       [&] { return cudaMallocPitch(&out_ptr, &out_size, size_t(1) << 40, 4); }},
      {"cudaMallocArray(0 x 0)", true,
       [&] {
         cudaArray_t a = nullptr;
         return cudaMallocArray(&a, &fdesc, 0, 0);
       }},
      {"cudaMallocArray(7-bit channel)", true,
       [&] {
         cudaChannelFormatDesc odd =
             cudaCreateChannelDesc(7, 0, 0, 0, cudaChannelFormatKindUnsigned);
         cudaArray_t a = nullptr;
         return cudaMallocArray(&a, &odd, 16, 16);
       }},
      {"cudaFree(host stack pointer)", true, [&] { return cudaFree(&stack_value); }},
      {"cudaFree(device pointer + 4)", true,
       [&] { return cudaFree(reinterpret_cast<char*>(d) + 4); }},
      {"cudaFreeHost(device pointer)", false, [&] { return cudaFreeHost(d); }},
      {"cudaFreeHost(malloc'ed pointer)", false, [&] { return cudaFreeHost(plain); }},
      {"cudaFreeArray(nullptr)", false, [&] { return cudaFreeArray(nullptr); }},
      {"cudaHostRegister(nullptr)", true, [&] { return cudaHostRegister(nullptr, 4096, 0); }},
      {"cudaHostRegister(already registered)", true,
       [&] { return cudaHostRegister(registered, 8192, 0); }},
      {"cudaHostRegister(invalid flags 0x80)", false,
       [&] { return cudaHostRegister(plain, 4096, 0x80); }},
      {"cudaHostUnregister(never registered)", true, [&] { return cudaHostUnregister(plain); }},
      {"cudaHostGetDevicePointer(unregistered memory)", false,
       [&] { return cudaHostGetDevicePointer(&out_ptr, plain, 0); }},
      {"cudaHostGetDevicePointer(flags 1)", false,
       [&] { return cudaHostGetDevicePointer(&out_ptr, pinned, 1); }},
      {"cudaHostGetFlags(device pointer)", true,
       [&] {
         unsigned f = 0;
         return cudaHostGetFlags(&f, d);
       }},
      {"cudaMemAdvise(cudaMalloc memory)", false,
       [&] {
         cudaMemLocation loc{cudaMemLocationTypeDevice, 0};
         return cudaMemAdvise(d, 4096, cudaMemAdviseSetReadMostly, loc);
       }},
      {"cudaMemPrefetchAsync(cudaMalloc memory)", false,
       [&] {
         cudaMemLocation loc{cudaMemLocationTypeDevice, 0};
         return cudaMemPrefetchAsync(d, 4096, loc, 0, s);
       }},
      {"cudaMemGetInfo(nullptr, nullptr)", false, [&] { return cudaMemGetInfo(nullptr, nullptr); }},
      {"cudaPointerGetAttributes(nullptr attributes)", true,
       [&] { return cudaPointerGetAttributes(nullptr, d); }},

      // ---- copies and memsets ----
      {"cudaMemcpy(kind 7)", true,
       [&] { return cudaMemcpy(d, d2, 16, static_cast<cudaMemcpyKind>(7)); }},
      {"cudaMemcpy(kind -1)", true,
       [&] { return cudaMemcpy(d, d2, 16, static_cast<cudaMemcpyKind>(-1)); }},
      {"cudaMemcpy(nullptr destination)", true,
       [&] { return cudaMemcpy(nullptr, host_buf, 16, cudaMemcpyHostToDevice); }},
      {"cudaMemcpy(nullptr source)", true,
       [&] { return cudaMemcpy(host_buf, nullptr, 16, cudaMemcpyDeviceToHost); }},
      {"cudaMemcpy(0 bytes)", false,
       [&] { return cudaMemcpy(d, host_buf, 0, cudaMemcpyHostToDevice); }},
      {"cudaMemcpyAsync(kind 9)", true,
       [&] { return cudaMemcpyAsync(d, d2, 16, static_cast<cudaMemcpyKind>(9), s); }},
      {"cudaMemset(nullptr)", true, [&] { return cudaMemset(nullptr, 0, 16); }},
      {"cudaMemsetAsync(nullptr)", true, [&] { return cudaMemsetAsync(nullptr, 0, 16, s); }},
      {"cudaMemcpy2D(spitch < width)", true,
       [&] { return cudaMemcpy2D(d, 256, host_buf, 16, 64, 4, cudaMemcpyHostToDevice); }},
      {"cudaMemcpy2D(dpitch < width)", true,
       [&] { return cudaMemcpy2D(host_buf, 16, d, 256, 64, 4, cudaMemcpyDeviceToHost); }},
      {"cudaMemset2D(pitch < width)", false, [&] { return cudaMemset2D(d, 4, 0, 64, 2); }},
      {"cudaMemcpy3D(nullptr parameters)", true, [&] { return cudaMemcpy3D(nullptr); }},
      {"cudaMemcpyPeer(dst device 99)", true, [&] { return cudaMemcpyPeer(d, 99, d2, 0, 16); }},
      {"cudaMemcpyToSymbol(host-only variable)", true,
       [&] { return cudaMemcpyToSymbol(g_host_only, host_buf, sizeof g_host_only); }},
      {"cudaMemcpyToSymbol(size > symbol)", true,
       [&] { return cudaMemcpyToSymbol(g_symbol, host_buf, 1000); }},
      {"cudaMemcpyFromSymbol(offset past end)", true,
       [&] { return cudaMemcpyFromSymbol(host_buf, g_symbol, 8, sizeof(g_symbol)); }},
      {"cudaMemcpyToSymbol(kind DeviceToHost)", true,
       [&] { return cudaMemcpyToSymbol(g_symbol, d, 16, 0, cudaMemcpyDeviceToHost); }},
      {"cudaGetSymbolAddress(host-only variable)", true,
       [&] { return cudaGetSymbolAddress(&out_ptr, g_host_only); }},
      {"cudaGetSymbolSize(nullptr symbol)", true,
       [&] { return cudaGetSymbolSize(&out_size, static_cast<const void*>(nullptr)); }},

      // ---- devices ----
      {"cudaSetDevice(99)", true, [&] { return cudaSetDevice(99); }},
      {"cudaSetDevice(-1)", true, [&] { return cudaSetDevice(-1); }},
      {"cudaGetDevice(nullptr)", true, [&] { return cudaGetDevice(nullptr); }},
      {"cudaGetDeviceCount(nullptr)", true, [&] { return cudaGetDeviceCount(nullptr); }},
      {"cudaGetDeviceProperties(device 99)", true,
       [&] {
         cudaDeviceProp p;
         return cudaGetDeviceProperties(&p, 99);
       }},
      {"cudaDeviceGetAttribute(attribute 99999)", true,
       [&] { return cudaDeviceGetAttribute(&out_int, static_cast<cudaDeviceAttr>(99999), 0); }},
      {"cudaDeviceGetAttribute(device 99)", true,
       [&] { return cudaDeviceGetAttribute(&out_int, cudaDevAttrWarpSize, 99); }},
      {"cudaDeviceCanAccessPeer(peer 99)", true,
       [&] { return cudaDeviceCanAccessPeer(&out_int, 0, 99); }},
      {"cudaChooseDevice(nullptr properties)", true,
       [&] { return cudaChooseDevice(&out_int, nullptr); }},
      {"cudaDeviceGetByPCIBusId(\"not a bus id\")", true,
       [&] { return cudaDeviceGetByPCIBusId(&out_int, "not a bus id"); }},
      {"cudaSetDeviceFlags(0xffff)", true, [&] { return cudaSetDeviceFlags(0xffff); }},
      {"cudaDeviceSetLimit(limit 99)", true,
       [&] { return cudaDeviceSetLimit(static_cast<cudaLimit>(99), 0); }},
      {"cudaDeviceGetLimit(nullptr)", true,
       [&] { return cudaDeviceGetLimit(nullptr, cudaLimitStackSize); }},
      {"cudaRuntimeGetVersion(nullptr)", true, [&] { return cudaRuntimeGetVersion(nullptr); }},
      {"cudaDriverGetVersion(nullptr)", true, [&] { return cudaDriverGetVersion(nullptr); }},

      // ---- streams, events, callbacks ----
      {"cudaStreamCreate(nullptr)", true, [&] { return cudaStreamCreate(nullptr); }},
      {"cudaStreamCreateWithFlags(flags 0x10)", true,
       [&] {
         cudaStream_t t;
         return cudaStreamCreateWithFlags(&t, 0x10);
       }},
      {"cudaStreamGetPriority(nullptr)", true, [&] { return cudaStreamGetPriority(s, nullptr); }},
      {"cudaStreamWaitEvent(null event)", true, [&] { return cudaStreamWaitEvent(s, nullptr, 0); }},
      {"cudaStreamAddCallback(flags 1)", false,
       [&] { return cudaStreamAddCallback(s, dummy_callback, nullptr, 1); }},
      {"cudaStreamEndCapture(not capturing)", true,
       [&] {
         cudaGraph_t g = nullptr;
         return cudaStreamEndCapture(s, &g);
       }},
      {"cudaStreamBeginCapture(legacy NULL stream)", true,
       [&] { return cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal); }},
      {"cudaEventCreateWithFlags(flags 0x80)", true,
       [&] {
         cudaEvent_t e;
         return cudaEventCreateWithFlags(&e, 0x80);
       }},
      {"cudaEventRecord(null event)", true, [&] { return cudaEventRecord(nullptr, s); }},
      {"cudaEventQuery(null event)", true, [&] { return cudaEventQuery(nullptr); }},
      {"cudaEventElapsedTime(never recorded)", true,
       [&] { return cudaEventElapsedTime(&out_float, ev1, ev2); }},
      {"cudaEventElapsedTime(DisableTiming event)", true,
       [&] {
         cudaError_t e = cudaEventRecord(ev_notiming, s);
         if (e != cudaSuccess)
           return e;
         e = cudaEventRecord(ev1, s);
         if (e != cudaSuccess)
           return e;
         e = cudaEventSynchronize(ev1);
         if (e != cudaSuccess)
           return e;
         return cudaEventElapsedTime(&out_float, ev1, ev_notiming);
       }},

      // ---- launches and functions ----
      {"cudaLaunchKernel(2048 threads per block)", true,
       [&] {
         return cudaLaunchKernel(reinterpret_cast<const void*>(small_kernel), dim3(1), dim3(2048),
                                 args_small, 0, s);
       }},
      {"cudaLaunchKernel(block 32 x 32 x 2)", true,
       [&] {
         return cudaLaunchKernel(reinterpret_cast<const void*>(small_kernel), dim3(1),
                                 dim3(32, 32, 2), args_small, 0, s);
       }},
      {"cudaLaunchKernel(blockDim.z = 65)", true,
       [&] {
         return cudaLaunchKernel(reinterpret_cast<const void*>(small_kernel), dim3(1),
                                 dim3(1, 1, 65), args_small, 0, s);
       }},
      {"cudaLaunchKernel(zero grid)", true,
       [&] {
         return cudaLaunchKernel(reinterpret_cast<const void*>(small_kernel), dim3(0), dim3(32),
                                 args_small, 0, s);
       }},
      {"cudaLaunchKernel(zero block)", true,
       [&] {
         return cudaLaunchKernel(reinterpret_cast<const void*>(small_kernel), dim3(1), dim3(0),
                                 args_small, 0, s);
       }},
      {"cudaLaunchKernel(gridDim.y = 65536)", true,
       [&] {
         return cudaLaunchKernel(reinterpret_cast<const void*>(small_kernel), dim3(1, 65536),
                                 dim3(1), args_small, 0, s);
       }},
      {"cudaLaunchKernel(300 KiB dynamic shared memory)", true,
       [&] {
         return cudaLaunchKernel(reinterpret_cast<const void*>(dyn_kernel), dim3(1), dim3(32),
                                 args_small, 300 * 1024, s);
       }},
      {"cudaLaunchKernel(64 KiB dynamic smem without opt-in)", false,
       [&] {
         return cudaLaunchKernel(reinterpret_cast<const void*>(dyn_kernel), dim3(1), dim3(32),
                                 args_small, 64 * 1024, s);
       }},
      {"cudaLaunchKernel(nullptr function)", true,
       [&] {
         return cudaLaunchKernel(static_cast<const void*>(nullptr), dim3(1), dim3(1), args_small, 0,
                                 s);
       }},
      {"cudaLaunchKernel(host function)", true,
       [&] {
         return cudaLaunchKernel(reinterpret_cast<const void*>(host_function), dim3(1), dim3(1),
                                 args_small, 0, s);
       }},
      {"<<<1, 1025>>>", true,
       [&] {
         small_kernel<<<1, 1025, 0, s>>>(nullptr);
         return cudaPeekAtLastError();
       }},
      {"cudaLaunchCooperativeKernel(100000 blocks)", true,
       [&] {
         return cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(small_kernel),
                                            dim3(100000), dim3(1024), args_small, 0, s);
       }},
      {"cudaLaunchKernelExC(cluster 2 with grid 3)", true,
       [&] {
         cudaLaunchAttribute attr[1] = {};
         attr[0].id = cudaLaunchAttributeClusterDimension;
         attr[0].val.clusterDim.x = 2;
         attr[0].val.clusterDim.y = 1;
         attr[0].val.clusterDim.z = 1;
         cudaLaunchConfig_t cfg = {};
         cfg.gridDim = dim3(3);
         cfg.blockDim = dim3(32);
         cfg.stream = s;
         cfg.attrs = attr;
         cfg.numAttrs = 1;
         return cudaLaunchKernelExC(&cfg, reinterpret_cast<const void*>(small_kernel), args_small);
       }},
      {"<<<3, 32>>> of a __cluster_dims__(2,1,1) kernel", true,
       [&] {
         fixed_cluster_kernel<<<3, 32, 0, s>>>(nullptr);
         return cudaPeekAtLastError();
       }},
      {"cudaFuncSetAttribute(max dynamic smem 300 KiB)", true,
       [&] {
         return cudaFuncSetAttribute(reinterpret_cast<const void*>(dyn_kernel),
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024);
       }},
      {"cudaFuncSetAttribute(attribute 999)", true,
       [&] {
         return cudaFuncSetAttribute(reinterpret_cast<const void*>(dyn_kernel),
                                     static_cast<cudaFuncAttribute>(999), 0);
       }},
      {"cudaFuncGetAttributes(nullptr function)", true,
       [&] {
         cudaFuncAttributes a;
         return cudaFuncGetAttributes(&a, static_cast<const void*>(nullptr));
       }},
      {"cudaFuncGetAttributes(host function)", true,
       [&] {
         cudaFuncAttributes a;
         return cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(host_function));
       }},
      {"cudaFuncSetCacheConfig(host function)", true,
       [&] {
         return cudaFuncSetCacheConfig(reinterpret_cast<const void*>(host_function),
                                       cudaFuncCachePreferL1);
       }},
      {"cudaGetFuncBySymbol(host function)", true,
       [&] {
         cudaFunction_t f = nullptr;
         return cudaGetFuncBySymbol(&f, reinterpret_cast<const void*>(host_function));
       }},
      {"cudaFuncGetName(host function)", true,
       [&] {
         const char* name = nullptr;
         return cudaFuncGetName(&name, reinterpret_cast<const void*>(host_function));
       }},
      {"cudaOccupancyMaxActiveBlocksPerMultiprocessor(block 0)", false,
       [&] { return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out_int, small_kernel, 0, 0); }},
      {"cudaOccupancyMaxActiveBlocksPerMultiprocessor(host function)", true,
       [&] {
         return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
             &out_int, reinterpret_cast<const void*>(host_function), 128, 0);
       }},

      // ---- graphs, pools, textures ----
      {"cudaGraphInstantiate(null graph)", true,
       [&] {
         cudaGraphExec_t e = nullptr;
         return cudaGraphInstantiate(&e, nullptr, 0);
       }},
      {"cudaGraphLaunch(null exec)", true, [&] { return cudaGraphLaunch(nullptr, s); }},
      {"cudaGraphAddKernelNode(null parameters)", true,
       [&] {
         cudaGraphNode_t n = nullptr;
         return cudaGraphAddKernelNode(&n, graph, nullptr, 0, nullptr);
       }},
      {"cudaGraphAddDependencies(null nodes)", true,
       [&] {
         cudaGraphNode_t a = nullptr, b = nullptr;
         return cudaGraphAddDependencies(graph, &a, &b, nullptr, 1);
       }},
      {"cudaMallocAsync(1 PiB)", true,
       [&] { return cudaMallocAsync(&out_ptr, size_t(1) << 50, s); }},
      {"cudaMemPoolSetAttribute(attribute 99)", true,
       [&] {
         unsigned long long v = 0;
         return cudaMemPoolSetAttribute(pool, static_cast<cudaMemPoolAttr>(99), &v);
       }},
      {"cudaMemPoolCreate(device 99)", true,
       [&] {
         cudaMemPoolProps props = {};
         props.allocType = cudaMemAllocationTypePinned;
         props.location.type = cudaMemLocationTypeDevice;
         props.location.id = 99;
         cudaMemPool_t p = nullptr;
         return cudaMemPoolCreate(&p, &props);
       }},
      {"cudaCreateTextureObject(null resource)", true,
       [&] {
         cudaTextureObject_t t = 0;
         cudaTextureDesc td = {};
         return cudaCreateTextureObject(&t, nullptr, &td, nullptr);
       }},
      {"cudaCreateTextureObject(linear, null pointer)", true,
       [&] {
         cudaResourceDesc r = {};
         r.resType = cudaResourceTypeLinear;
         r.res.linear.devPtr = nullptr;
         r.res.linear.desc = fdesc;
         r.res.linear.sizeInBytes = 1024;
         cudaTextureDesc td = {};
         cudaTextureObject_t t = 0;
         return cudaCreateTextureObject(&t, &r, &td, nullptr);
       }},
      // NVIDIA's runtime accepts this (CUDA 13.0 on an H100): printed, not required to fail.
      {"cudaCreateSurfaceObject(array without SurfaceLoadStore)", false,
       [&] {
         cudaResourceDesc r = {};
         r.resType = cudaResourceTypeArray;
         r.res.array.array = array_no_surface;
         cudaSurfaceObject_t so = 0;
         return cudaCreateSurfaceObject(&so, &r);
       }},
      {"cudaGetTextureObjectResourceDesc(never-created id)", false,
       [&] {
         cudaResourceDesc r = {};
         return cudaGetTextureObjectResourceDesc(&r,
                                                 static_cast<cudaTextureObject_t>(0xdeadbeefULL));
       }},
      {"cudaIpcGetMemHandle(host pointer)", true,
       [&] {
         cudaIpcMemHandle_t h;
         return cudaIpcGetMemHandle(&h, &stack_value);
       }},

      // ---- freed and destroyed objects ----
      // (Using a destroyed stream or event is undefined: NVIDIA's runtime crashes on it, so the
      // table stops at destroying them.)
      {"cudaFree(first free)", false, [&] { return cudaFree(freed); }},
      {"cudaFree(same pointer again)", true, [&] { return cudaFree(freed); }},
      {"cudaEventDestroy(event)", false, [&] { return cudaEventDestroy(dead_event); }},
      {"cudaStreamDestroy(stream)", false, [&] { return cudaStreamDestroy(dead_stream); }},
  };

  int index = 0;
  for (const Case& c : cases) {
    cudaError_t result = c.call();
    cudaError_t last = cudaGetLastError();
    ++index;
    std::printf("%3d %s: %s | last: %s\n", index, c.name, cudaGetErrorName(result),
                cudaGetErrorName(last));
    std::fflush(stdout);
    if (c.must_fail && result == cudaSuccess) {
      std::printf("    MISMATCH: expected an error\n");
      ++e2e::failures();
    }
  }
  std::printf("calls: %d\n", index);

  // Every error above was non-sticky: the device still works.
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  small_kernel<<<1, 32, 0, s>>>(d);
  CHECK_LAUNCH();
  CHECK(cudaStreamSynchronize(s));
  int h[32];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < 32; ++i)
    ok = ok && h[i] == i;
  e2e::expect(ok, "device still works after all bad calls");
  std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));

  CHECK(cudaHostUnregister(registered));
  std::free(registered);
  std::free(plain);
  CHECK(cudaFreeArray(array_no_surface));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaEventDestroy(ev1));
  CHECK(cudaEventDestroy(ev2));
  CHECK(cudaEventDestroy(ev_notiming));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(d));
  CHECK(cudaFree(d2));
  return e2e::finish();
}
