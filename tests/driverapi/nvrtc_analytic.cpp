// An NVRTC program, as CuPy and other frameworks work: CUDA C compiled to PTX at run time,
// loaded with cuModuleLoadData and launched with cuLaunchKernel; no CUDA runtime API at all. It
// links against libcuda.so.1 (the toolkit's stub at build time): under `ocelot run` that is
// Ocelot's libcuda.so.1, otherwise NVIDIA's driver.
//
// Built with OCELOT_LINK_WITH_NVJITLINK (driverapi_nvjitlink), it works as Numba-CUDA does through
// cuda.core: NVRTC emits LTO-IR, nvJitLink links it (-lto) into a "cubin", which is loaded with
// cuLibraryLoadData and launched through cuLibraryGetKernel/cuKernelGetFunction. Under `ocelot run`
// nvJitLink is Ocelot's libnvJitLink.so.13, which hands back the link's PTX, so the kernel is
// instrumented.
//
// ANALYTIC COUNTS: the counted loop of tests/e2e/programs/analytic_loop.cu, launched with trips =
// 10, 3, 0 over grid (4,1,1) x block (128,1,1) = 512 threads: ENTRY = EXIT = 512, BODY = 512 *
// trips. Each line `expected ENTRY=... BODY=... EXIT=...` is what check_analytic_counts.py
// compares bbcount's block counts with.

#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <nvrtc.h>
#ifdef OCELOT_LINK_WITH_NVJITLINK
#include <nvJitLink.h>
#endif
#include <string>
#include <vector>

namespace {

const char* const kSource = R"(
extern "C" __global__ void counted_loop(unsigned* values, int* body_runs, int trips) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc = static_cast<unsigned>(tid);
  int runs = 0;
#pragma unroll 1
  for (int i = 0; i < trips; ++i) {
    acc = acc * 2654435761u + static_cast<unsigned>(i);
    ++runs;
  }
  values[tid] = acc;
  body_runs[tid] = runs;
}
)";

int failures = 0;

bool check(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS)
    return true;
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::printf("FAILED: %s: %s\n", what, name != nullptr ? name : "unknown error");
  ++failures;
  return false;
}

/// CUDA C to PTX (to LTO-IR for the nvJitLink variant) with NVRTC (no GPU needed).
bool compile(std::string* code) {
  nvrtcProgram program = nullptr;
  if (nvrtcCreateProgram(&program, kSource, "counted_loop.cu", 0, nullptr, nullptr) !=
      NVRTC_SUCCESS)
    return false;
#ifdef OCELOT_LINK_WITH_NVJITLINK
  // LTO-IR, as Numba-CUDA's NVVM emits by default.
  const char* options[] = {"--gpu-architecture=compute_90", "-dlto"};
  nvrtcResult compiled = nvrtcCompileProgram(program, 2, options);
#else
  const char* options[] = {"--gpu-architecture=compute_75"};
  nvrtcResult compiled = nvrtcCompileProgram(program, 1, options);
#endif
  size_t logSize = 0;
  nvrtcGetProgramLogSize(program, &logSize);
  if (compiled != NVRTC_SUCCESS) {
    std::string log(logSize, '\0');
    nvrtcGetProgramLog(program, log.data());
    std::printf("FAILED: NVRTC: %s\n%s\n", nvrtcGetErrorString(compiled), log.c_str());
    nvrtcDestroyProgram(&program);
    return false;
  }
  size_t size = 0;
#ifdef OCELOT_LINK_WITH_NVJITLINK
  nvrtcGetLTOIRSize(program, &size);
  code->assign(size, '\0');
  nvrtcGetLTOIR(program, code->data());
#else
  nvrtcGetPTXSize(program, &size);
  code->assign(size, '\0');
  nvrtcGetPTX(program, code->data());
#endif
  nvrtcDestroyProgram(&program);
  return true;
}

#ifdef OCELOT_LINK_WITH_NVJITLINK
/// The LTO-IR linked for sm_90 by nvJitLink, as cuda.core's Linker does for Numba; the result is
/// what the caller loads (a cubin from NVIDIA's library, the link's PTX from Ocelot's).
bool link(const std::string& ltoir, std::string* image) {
  nvJitLinkHandle handle = nullptr;
  const char* options[] = {"-arch=sm_90", "-lto"};
  if (nvJitLinkCreate(&handle, 2, options) != NVJITLINK_SUCCESS) {
    std::printf("FAILED: nvJitLinkCreate\n");
    return false;
  }
  size_t size = 0;
  bool ok = nvJitLinkAddData(handle, NVJITLINK_INPUT_LTOIR, ltoir.data(), ltoir.size(),
                             "counted_loop.ltoir") == NVJITLINK_SUCCESS &&
            nvJitLinkComplete(handle) == NVJITLINK_SUCCESS &&
            nvJitLinkGetLinkedCubinSize(handle, &size) == NVJITLINK_SUCCESS;
  if (ok) {
    image->assign(size, '\0');
    ok = nvJitLinkGetLinkedCubin(handle, image->data()) == NVJITLINK_SUCCESS;
  }
  if (!ok) {
    size_t logSize = 0;
    nvJitLinkGetErrorLogSize(handle, &logSize);
    std::string log(logSize, '\0');
    nvJitLinkGetErrorLog(handle, log.data());
    std::printf("FAILED: nvJitLink: %s\n", log.c_str());
  }
  nvJitLinkDestroy(&handle);
  const bool elf = image->size() >= 4 && std::memcmp(image->data(), "\177ELF", 4) == 0;
  // On stderr: stdout is compared with the program's output without Ocelot.
  std::fprintf(stderr, "driverapi_nvjitlink: nvJitLink returned %s (%zu bytes)\n",
               elf ? "a cubin" : "PTX", image->size());
  return ok;
}
#endif

} // namespace

int main() {
  std::string code; // PTX, or LTO-IR for the nvJitLink variant
  if (!compile(&code))
    return 1;
  CUdevice device = 0;
  CUcontext context = nullptr;
  if (!check(cuInit(0), "cuInit") || !check(cuDeviceGet(&device, 0), "cuDeviceGet") ||
      !check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain") ||
      !check(cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return 1;
  CUfunction kernel = nullptr;
#ifdef OCELOT_LINK_WITH_NVJITLINK
  std::string image;
  CUlibrary library = nullptr;
  CUkernel libraryKernel = nullptr;
  if (!link(code, &image) ||
      !check(cuLibraryLoadData(&library, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
             "cuLibraryLoadData") ||
      !check(cuLibraryGetKernel(&libraryKernel, library, "counted_loop"), "cuLibraryGetKernel") ||
      !check(cuKernelGetFunction(&kernel, libraryKernel), "cuKernelGetFunction"))
    return 1;
#else
  CUmodule module = nullptr;
  if (!check(cuModuleLoadData(&module, code.c_str()), "cuModuleLoadData") ||
      !check(cuModuleGetFunction(&kernel, module, "counted_loop"), "cuModuleGetFunction"))
    return 1;
#endif

  const unsigned blocks = 4, threadsPerBlock = 128;
  const int threads = 512, warps = threads / 32;
  CUdeviceptr values = 0, runs = 0;
  if (!check(cuMemAlloc(&values, threads * sizeof(unsigned)), "cuMemAlloc") ||
      !check(cuMemAlloc(&runs, threads * sizeof(int)), "cuMemAlloc"))
    return 1;
  std::printf("driverapi_nvrtc: grid (%u,1,1) block (%u,1,1)\n", blocks, threadsPerBlock);
  int launch = 0;
  for (int trips : {10, 3, 0}) {
    ++launch;
    void* args[] = {&values, &runs, &trips};
    if (!check(
            cuLaunchKernel(kernel, blocks, 1, 1, threadsPerBlock, 1, 1, 0, nullptr, args, nullptr),
            "cuLaunchKernel"))
      continue;
    std::vector<unsigned> v(threads);
    std::vector<int> r(threads);
    check(cuMemcpyDtoH(v.data(), values, threads * sizeof(unsigned)), "cuMemcpyDtoH");
    check(cuMemcpyDtoH(r.data(), runs, threads * sizeof(int)), "cuMemcpyDtoH");
    long long body = 0;
    bool ok = true;
    for (int t = 0; t < threads; ++t) {
      unsigned acc = static_cast<unsigned>(t);
      for (int i = 0; i < trips; ++i)
        acc = acc * 2654435761u + static_cast<unsigned>(i);
      ok = ok && v[t] == acc;
      body += r[t];
    }
    std::printf("launch %d: trips=%d expected ENTRY=%d BODY=%d EXIT=%d (warps %d/%d/%d); measured "
                "BODY=%lld\n",
                launch, trips, threads, threads * trips, threads, warps, warps * trips, warps,
                body);
    if (!ok || body != static_cast<long long>(threads) * trips) {
      std::printf("FAILED: launch %d computed wrong values\n", launch);
      ++failures;
    }
  }
  check(cuMemFree(values), "cuMemFree");
  check(cuMemFree(runs), "cuMemFree");
#ifdef OCELOT_LINK_WITH_NVJITLINK
  check(cuLibraryUnload(library), "cuLibraryUnload");
#else
  check(cuModuleUnload(module), "cuModuleUnload");
#endif
  std::printf(failures == 0 ? "PASS\n" : "FAIL\n");
  return failures == 0 ? 0 : 1;
}
