// What translating an indirect call's target costs on the GPU (instrumentors/
// FunctionAddressTranslation.h), for the two code shapes the pass emits: a chain of `setp.eq` and
// guarded `mov` over the candidates, and the branch-free binary search over a sorted table of the
// original addresses next to a table of the copies (ld.global.nc). Each kernel calls through a
// function pointer `iterations` times per thread; the pointers come from a table of "original"
// addresses (what the application's module would hold) that the translation maps to the module's
// own functions; `none` calls the module's own addresses untranslated (the baseline). Targets are
// uniform per warp (a virtual call on objects of one type) or differ per lane.
//
//   build: g++ -O2 -std=c++17 -I<cuda>/include function_translation_bench.cpp -o bench -ldl
//   run:   ./bench [--iterations N] [--sizes 2,4,8,16,32,64,256]   (--ptx N: print a module)
// Prints, per candidate count and pattern, the kernel's time per loop iteration (ns; every thread
// makes one call per iteration) for none/chain/search, and what the translation adds.
// Uses the driver API through dlopen (like Ocelot), so it builds without a GPU; exit 77 without
// one.

#include <cuda.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, CUjit_option*, void**);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuModuleGetGlobal)(CUdeviceptr*, size_t*, CUmodule, const char*);
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t);
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void**, void**);
  CUresult (*cuEventCreate)(CUevent*, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent);
  CUresult (*cuModuleUnload)(CUmodule);
};

template <class F> bool bind(void* library, const char* name, F* function) {
  *function = reinterpret_cast<F>(dlsym(library, name));
  return *function != nullptr;
}

#define CU(call)                                                                                   \
  do {                                                                                             \
    CUresult r_ = (call);                                                                          \
    if (r_ != CUDA_SUCCESS) {                                                                      \
      std::printf("error %d: %s (line %d)\n", static_cast<int>(r_), #call, __LINE__);              \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

uint64_t original(int i) {
  return 0x1000 + 16 * static_cast<uint64_t>(i);
}

/// One module: `n` functions, their table (`own`), a table of the original addresses (`orig`),
/// the sorted search tables, and kernels bench_none/_chain/_search.
std::string modulePtx(int n) {
  std::ostringstream p;
  p << ".version 8.0\n.target sm_90\n.address_size 64\n\n";
  for (int i = 0; i < n; ++i)
    p << ".func (.param .b32 r) f" << i << "(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
      << "ld.param.b32 %r1, [x];\nadd.s32 %r2, %r1, " << (i + 1) << ";\nst.param.b32 [r], %r2;\n"
      << "ret;\n}\n";
  const int size = static_cast<int>(std::bit_ceil(static_cast<unsigned>(n)));
  auto list = [&](auto element, int count) {
    std::string text;
    for (int i = 0; i < count; ++i)
      text += (i ? ", " : "") + element(std::min(i, n - 1));
    return text;
  };
  p << ".global .align 8 .u64 own[" << n << "] = {"
    << list([](int i) { return "f" + std::to_string(i); }, n) << "};\n";
  p << ".global .align 8 .u64 orig[" << n << "] = {"
    << list([](int i) { return std::to_string(original(i)); }, n) << "};\n";
  p << ".global .align 8 .u64 sorted_orig[" << size << "] = {"
    << list([](int i) { return std::to_string(original(i)); }, size) << "};\n";
  p << ".global .align 8 .u64 sorted_own[" << size << "] = {"
    << list([](int i) { return "f" + std::to_string(i); }, size) << "};\n\n";

  for (const std::string variant : {"none", "chain", "search"}) {
    p << ".visible .entry bench_" << variant
      << "(.param .u64 out, .param .u32 iterations, .param .u32 uniform)\n{\n"
      << ".reg .pred %p<40>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<200>;\n"
      << "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [iterations];\n"
      << "ld.param.u32 %r2, [uniform];\n"
      << "mov.u32 %r3, %tid.x;\nmov.u32 %r4, %ctaid.x;\nmov.u32 %r5, %ntid.x;\n"
      << "mad.lo.u32 %r6, %r4, %r5, %r3;\n"                         // global thread id
      << "shr.u32 %r7, %r6, 5;\n"                                   // warp id
      << "setp.ne.u32 %p1, %r2, 0;\nselp.b32 %r8, %r7, %r6, %p1;\n" // the target's seed
      << "mov.u32 %r9, %r6;\nmov.u32 %r10, 0;\n"
      << (variant == "none" ? "mov.u64 %rd2, own;\n" : "mov.u64 %rd2, orig;\n") << "LOOP:\n"
      << "mad.lo.u32 %r11, %r10, 13, %r8;\nrem.u32 %r12, %r11, " << n << ";\n"
      << "mul.wide.u32 %rd3, %r12, 8;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u64 %rd5, [%rd4];\n";
    if (variant == "chain") {
      p << "mov.u64 %rd6, %rd5;\n";
      for (int i = 0; i < n; ++i)
        p << "setp.eq.u64 %p2, %rd5, " << original(i) << ";\n@%p2 mov.u64 %rd6, f" << i << ";\n";
    } else if (variant == "search") {
      p << "mov.u64 %rd10, sorted_orig;\nmov.u64 %rd11, 0;\n";
      int r = 12;
      for (int step = size / 2; step >= 1; step /= 2) {
        p << "add.u64 %rd" << r << ", %rd11, " << step * 8 << ";\n"
          << "add.u64 %rd" << r + 1 << ", %rd10, %rd" << r << ";\n"
          << "ld.global.nc.u64 %rd" << r + 2 << ", [%rd" << r + 1 << "];\n"
          << "setp.le.u64 %p3, %rd" << r + 2 << ", %rd5;\n"
          << "selp.b64 %rd11, %rd" << r << ", %rd11, %p3;\n";
        r += 3;
      }
      p << "add.u64 %rd190, %rd10, %rd11;\nld.global.nc.u64 %rd191, [%rd190];\n"
        << "setp.eq.u64 %p4, %rd191, %rd5;\nmov.u64 %rd192, sorted_own;\n"
        << "add.u64 %rd193, %rd192, %rd11;\nld.global.nc.u64 %rd194, [%rd193];\n"
        << "selp.b64 %rd6, %rd194, %rd5, %p4;\n";
    } else {
      p << "mov.u64 %rd6, %rd5;\n";
    }
    p << "{\n.param .b32 a;\nst.param.b32 [a], %r9;\n.param .b32 ret;\n"
      << "proto : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
      << "call (ret), %rd6, (a), proto;\nld.param.b32 %r9, [ret];\n}\n"
      << "add.u32 %r10, %r10, 1;\nsetp.lt.u32 %p5, %r10, %r1;\n@%p5 bra LOOP;\n"
      << "mul.wide.u32 %rd7, %r6, 4;\nadd.s64 %rd8, %rd1, %rd7;\nst.global.u32 [%rd8], %r9;\n"
      << "ret;\n}\n\n";
  }
  return p.str();
}

} // namespace

int main(int argc, char** argv) {
  unsigned iterations = 256;
  std::vector<int> sizes = {2, 4, 8, 16, 32, 64, 256};
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--ptx") == 0) { // the module for N candidates, to read or assemble
      std::fputs(modulePtx(std::atoi(argv[i + 1])).c_str(), stdout);
      return 0;
    }
    if (std::strcmp(argv[i], "--iterations") == 0) {
      iterations = static_cast<unsigned>(std::atoi(argv[i + 1]));
    } else if (std::strcmp(argv[i], "--sizes") == 0) {
      sizes.clear();
      std::stringstream list(argv[i + 1]);
      for (std::string item; std::getline(list, item, ',');)
        sizes.push_back(std::atoi(item.c_str()));
    }
  }
  void* library = dlopen("libcuda.so.1", RTLD_NOW);
  Driver d{};
  if (library == nullptr || !bind(library, "cuInit", &d.cuInit) ||
      !bind(library, "cuDeviceGet", &d.cuDeviceGet) ||
      !bind(library, "cuDevicePrimaryCtxRetain", &d.cuDevicePrimaryCtxRetain) ||
      !bind(library, "cuCtxSetCurrent", &d.cuCtxSetCurrent) ||
      !bind(library, "cuModuleLoadDataEx", &d.cuModuleLoadDataEx) ||
      !bind(library, "cuModuleGetFunction", &d.cuModuleGetFunction) ||
      !bind(library, "cuModuleGetGlobal_v2", &d.cuModuleGetGlobal) ||
      !bind(library, "cuMemAlloc_v2", &d.cuMemAlloc) ||
      !bind(library, "cuMemcpyHtoD_v2", &d.cuMemcpyHtoD) ||
      !bind(library, "cuMemcpyDtoH_v2", &d.cuMemcpyDtoH) ||
      !bind(library, "cuLaunchKernel", &d.cuLaunchKernel) ||
      !bind(library, "cuEventCreate", &d.cuEventCreate) ||
      !bind(library, "cuEventRecord", &d.cuEventRecord) ||
      !bind(library, "cuEventSynchronize", &d.cuEventSynchronize) ||
      !bind(library, "cuEventElapsedTime", &d.cuEventElapsedTime) ||
      !bind(library, "cuModuleUnload", &d.cuModuleUnload) || d.cuInit(0) != CUDA_SUCCESS) {
    std::printf("SKIP: no GPU (libcuda.so.1)\n");
    return 77;
  }
  CUdevice device;
  CUcontext context;
  CU(d.cuDeviceGet(&device, 0));
  CU(d.cuDevicePrimaryCtxRetain(&context, device));
  CU(d.cuCtxSetCurrent(context));
  const unsigned blocks = 528, threads = 256; // 4 CTAs of 256 threads per SM of an H100/H200
  CUdeviceptr out;
  CU(d.cuMemAlloc(&out, size_t{blocks} * threads * 4));
  CUevent start, end;
  CU(d.cuEventCreate(&start, 0));
  CU(d.cuEventCreate(&end, 0));
  std::printf(
      "candidates\tpattern\tnone_ns\tchain_ns\tsearch_ns\tchain_extra_ns\tsearch_extra_ns\n");
  for (int n : sizes) {
    std::string ptx = modulePtx(n);
    CUmodule module;
    char log[8192] = {};
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* values[] = {log, reinterpret_cast<void*>(sizeof log)};
    if (d.cuModuleLoadDataEx(&module, ptx.c_str(), 2, options, values) != CUDA_SUCCESS) {
      std::printf("JIT failed for %d candidates: %s\n", n, log);
      return 1;
    }
    for (unsigned uniform : {1u, 0u}) {
      double ns[3] = {};
      std::vector<unsigned> results[3];
      const char* names[3] = {"bench_none", "bench_chain", "bench_search"};
      for (int v = 0; v < 3; ++v) {
        CUfunction kernel;
        CU(d.cuModuleGetFunction(&kernel, module, names[v]));
        void* args[] = {&out, &iterations, &uniform};
        float best = 1e30f;
        for (int rep = 0; rep < 6; ++rep) { // the first is a warm-up
          CU(d.cuEventRecord(start, nullptr));
          CU(d.cuLaunchKernel(kernel, blocks, 1, 1, threads, 1, 1, 0, nullptr, args, nullptr));
          CU(d.cuEventRecord(end, nullptr));
          CU(d.cuEventSynchronize(end));
          float ms = 0;
          CU(d.cuEventElapsedTime(&ms, start, end));
          if (rep > 0)
            best = std::min(best, ms);
        }
        results[v].resize(size_t{blocks} * threads);
        CU(d.cuMemcpyDtoH(results[v].data(), out, results[v].size() * 4));
        // ns per call and thread-slot: the kernel's time over the calls one SM's lanes make.
        ns[v] = best * 1e6 / iterations;
      }
      if (results[1] != results[0] || results[2] != results[0]) {
        std::printf("WRONG RESULTS for %d candidates (%s)\n", n, uniform ? "uniform" : "divergent");
        return 1;
      }
      std::printf("%d\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n", n, uniform ? "uniform" : "divergent",
                  ns[0], ns[1], ns[2], ns[1] - ns[0], ns[2] - ns[0]);
    }
    CU(d.cuModuleUnload(module));
  }
  return 0;
}
