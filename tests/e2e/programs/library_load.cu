// Runtime library management (CUDA 12.0+): cudaLibraryLoadData on hand-written PTX (JIT-compiled by
// the driver), cudaLibraryGetKernelCount / EnumerateKernels / GetKernel, cudaFuncGetName on a
// cudaKernel_t, launching a cudaKernel_t through cudaLaunchKernel, cudaLibraryGetGlobal on a
// .global variable of the PTX, cudaLibraryUnload, and the errors for a missing kernel and an
// invalid image.
#include "e2e_common.h"

#include <vector>

// Written for this test: y[i] += a * x[i] for i < n, and an atomic counter bump.
static const char kPtx[] = R"PTX(
.version 8.0
.target sm_90
.address_size 64

.visible .global .align 4 .u32 lib_counter = 7;

.visible .entry lib_axpy(
    .param .u64 p_y,
    .param .u64 p_x,
    .param .u32 p_a,
    .param .u32 p_n
)
{
    .reg .pred  %p<2>;
    .reg .b32   %r<10>;
    .reg .b64   %rd<8>;

    ld.param.u64    %rd1, [p_y];
    ld.param.u64    %rd2, [p_x];
    ld.param.u32    %r1, [p_a];
    ld.param.u32    %r2, [p_n];
    mov.u32         %r3, %ctaid.x;
    mov.u32         %r4, %ntid.x;
    mov.u32         %r5, %tid.x;
    mad.lo.s32      %r6, %r3, %r4, %r5;
    setp.ge.s32     %p1, %r6, %r2;
    @%p1 bra        DONE;
    cvta.to.global.u64  %rd3, %rd1;
    cvta.to.global.u64  %rd4, %rd2;
    mul.wide.s32    %rd5, %r6, 4;
    add.s64         %rd6, %rd3, %rd5;
    add.s64         %rd7, %rd4, %rd5;
    ld.global.u32   %r7, [%rd7];
    ld.global.u32   %r8, [%rd6];
    mad.lo.s32      %r9, %r1, %r7, %r8;
    st.global.u32   [%rd6], %r9;
DONE:
    ret;
}

.visible .entry lib_bump()
{
    .reg .b32   %r<2>;
    atom.global.add.u32 %r1, [lib_counter], 1;
    ret;
}
)PTX";

int main() {
  CHECK(cudaFree(nullptr)); // make sure the context exists
  cudaLibrary_t lib = nullptr;
  CHECK(cudaLibraryLoadData(&lib, kPtx, nullptr, nullptr, 0, nullptr, nullptr, 0));
  unsigned count = 0;
  CHECK(cudaLibraryGetKernelCount(&count, lib));
  std::printf("kernels in the library: %u\n", count);
  std::vector<cudaKernel_t> kernels(count);
  CHECK(cudaLibraryEnumerateKernels(kernels.data(), count, lib));
  int named = 0;
  for (cudaKernel_t k : kernels) {
    const char* name = nullptr;
    if (cudaFuncGetName(&name, reinterpret_cast<const void*>(k)) == cudaSuccess && name)
      ++named;
  }
  std::printf("enumerated kernels with names: %d\n", named);
  (void)cudaGetLastError();

  cudaError_t e = cudaSuccess;
  cudaKernel_t axpy = nullptr, bump = nullptr;
  CHECK(cudaLibraryGetKernel(&axpy, lib, "lib_axpy"));
  CHECK(cudaLibraryGetKernel(&bump, lib, "lib_bump"));
  const char* name = nullptr;
  e = cudaFuncGetName(&name, reinterpret_cast<const void*>(axpy));
  std::printf("cudaFuncGetName(lib_axpy handle): %s %s\n", cudaGetErrorName(e),
              e == cudaSuccess && name ? name : "");
  (void)cudaGetLastError();
  cudaKernel_t missing = nullptr;
  e = cudaLibraryGetKernel(&missing, lib, "no_such_kernel");
  std::printf("cudaLibraryGetKernel(no_such_kernel): %s\n", cudaGetErrorName(e));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));

  const int n = 5000;
  std::vector<int> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = i % 13;
    hy[i] = i;
  }
  int *x = nullptr, *y = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(int)));
  CHECK(cudaMalloc(&y, n * sizeof(int)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, hy.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int a = 6, count_n = n;
  void* args[] = {&y, &x, &a, &count_n};
  CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(axpy), dim3((n + 255) / 256), dim3(256),
                         args, 0, 0));
  CHECK(cudaMemcpy(hy.data(), y, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && hy[i] == i + 6 * (i % 13);
  e2e::expect(ok, "kernel from a loaded library via cudaLaunchKernel");

  void* counter = nullptr;
  size_t bytes = 0;
  CHECK(cudaLibraryGetGlobal(&counter, &bytes, lib, "lib_counter"));
  unsigned value = 0;
  CHECK(cudaMemcpy(&value, counter, sizeof value, cudaMemcpyDeviceToHost));
  std::printf("lib_counter: %zu bytes, initial value %u\n", bytes, value);
  CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(bump), dim3(10), dim3(100), nullptr, 0, 0));
  CHECK(cudaMemcpy(&value, counter, sizeof value, cudaMemcpyDeviceToHost));
  std::printf("lib_counter after 1000 atomic increments: %u\n", value);
  e2e::expect(value == 1007, "global of a loaded library");

  CHECK(cudaLibraryUnload(lib));

  cudaLibrary_t bad = nullptr;
  static const char garbage[] = "this is neither PTX nor a cubin";
  e = cudaLibraryLoadData(&bad, garbage, nullptr, nullptr, 0, nullptr, nullptr, 0);
  std::printf("cudaLibraryLoadData(garbage): %s\n", cudaGetErrorName(e));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  // The context is still usable.
  CHECK(cudaMemset(y, 0, n * sizeof(int)));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return e2e::finish();
}
