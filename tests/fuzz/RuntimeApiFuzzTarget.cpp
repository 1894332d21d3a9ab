#include "RuntimeApiFuzzTarget.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <vector>

namespace ocelot::fuzz {
namespace {

/// A small kernel the sequences launch: p[i] = i for i < n.
constexpr const char* kKernelPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry fill(.param .u64 p, .param .u32 n) {
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
  .reg .pred %p1;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r2, %r3, %r4, %r2;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r2;
DONE:
  ret;
}
)";

/// Host memory the sequences copy to and from. The fuzzer never lets a copy overrun it: the
/// runtime cannot know the size of pageable host memory, so overrunning it would be the fuzzer's
/// own bug.
constexpr size_t kHostBytes = size_t{4} << 20;
alignas(4096) char gHost[kHostBytes];
/// The upper part of gHost that sequences may register (cudaHostRegister).
constexpr size_t kRegisterOffset = size_t{3} << 20;
/// An address no mapping of the process holds (48 TiB: above the heap, below where mmap places,
/// and outside ASan's shadow on x86-64, which is mapped and writable from 2 TiB to 16 TiB).
void* const kWild = reinterpret_cast<void*>(uintptr_t{3} << 44);

std::atomic<uint64_t> gHostFunctionRuns{0};
void CUDART_CB countRun(void*) {
  gHostFunctionRuns.fetch_add(1, std::memory_order_relaxed);
}

/// The input as a stream of choices; 0 once it is used up.
class Choices {
public:
  Choices(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool more() const { return at_ < size_; }
  uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  uint32_t below(uint32_t n) { return n == 0 ? 0 : byte() % n; }
  uint32_t u16() {
    const uint32_t low = byte();
    return low | uint32_t{byte()} << 8;
  }

private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

struct Allocation {
  char* pointer = nullptr;
  size_t size = 0;
  bool live = false;
};

/// One side of a copy: where, and how many bytes the fuzzer knows are there (host memory: the
/// bytes the runtime must not be asked to go beyond; 0: nothing the fuzzer may overrun).
struct Side {
  void* pointer = nullptr;
  size_t hostCapacity = SIZE_MAX; ///< SIZE_MAX: the runtime can check this side itself
};

class Sequence {
public:
  Sequence(Choices& choices, RuntimeApiCoverage* coverage) : in_(choices), coverage_(coverage) {}

  void run() {
    while (in_.more())
      step();
    finish();
  }

private:
  cudaError_t note(const char* call, cudaError_t result) {
    if (coverage_ != nullptr) {
      ++coverage_->calls;
      ++coverage_->outcomes[std::string(call) + " -> " + cudaGetErrorName(result)];
    }
    return result;
  }

  Side side() {
    Side s;
    switch (in_.below(9)) {
    case 0:
    case 1: { // a device allocation, live or freed, at an offset at or near its end
      if (allocations_.empty())
        return s;
      const Allocation& a = allocations_[in_.below(static_cast<uint32_t>(allocations_.size()))];
      const size_t offsets[] = {0, a.size / 2, a.size == 0 ? 0 : a.size - 1, a.size, a.size + 256};
      s.pointer = a.pointer + offsets[in_.below(5)];
      return s;
    }
    case 2:
    case 3: { // pageable host memory
      const size_t offset = in_.below(2) == 0 ? 0 : in_.u16();
      s.pointer = gHost + offset;
      s.hostCapacity = kHostBytes - offset;
      return s;
    }
    case 4: // page-locked host memory (in the device's arena: the runtime knows its size)
      if (!pinned_.empty())
        s.pointer = pinned_[in_.below(static_cast<uint32_t>(pinned_.size()))].pointer;
      return s;
    case 5:
      return s; // null
    case 6:
      s.pointer = kWild;
      return s;
    case 7:
      s.pointer = reinterpret_cast<void*>(uintptr_t{16});
      return s;
    default: // registered host memory
      s.pointer = gHost + kRegisterOffset + in_.below(64) * 64;
      s.hostCapacity = kHostBytes - kRegisterOffset;
      return s;
    }
  }

  size_t size() {
    const size_t sizes[] = {0,        1, 16, 1000, 4096, size_t{1} << 20, SIZE_MAX, size_t{1} << 30,
                            in_.u16()};
    return sizes[in_.below(9)];
  }

  /// A size that overruns neither host side (the runtime checks everything else).
  size_t sizeFor(const Side& a, const Side& b) {
    return std::min({size(), a.hostCapacity, b.hostCapacity});
  }

  cudaMemcpyKind kind() {
    const int kinds[] = {0, 1, 2, 3, 4, 7, -1};
    const int k = kinds[in_.below(7)];
    cudaMemcpyKind result;
    std::memcpy(&result, &k, sizeof k);
    return result;
  }

  cudaStream_t stream() {
    switch (in_.below(6)) {
    case 0:
      return nullptr;
    case 1:
      return cudaStreamLegacy;
    case 2:
      return cudaStreamPerThread;
    case 3:
    case 4:
      if (!streams_.empty())
        return streams_[in_.below(static_cast<uint32_t>(streams_.size()))]; // maybe destroyed
      return nullptr;
    default:
      return reinterpret_cast<cudaStream_t>(uintptr_t{0x12345});
    }
  }

  cudaEvent_t event() {
    if (events_.empty() || in_.below(8) == 0)
      return reinterpret_cast<cudaEvent_t>(uintptr_t{0x54321});
    return events_[in_.below(static_cast<uint32_t>(events_.size()))]; // maybe destroyed
  }

  void step() {
    switch (in_.below(24)) {
    case 0: {
      const size_t bytes = std::min<size_t>(size(), size_t{1} << 20);
      void* p = nullptr;
      if (note("cudaMalloc", cudaMalloc(&p, bytes)) == cudaSuccess && p != nullptr)
        allocations_.push_back({static_cast<char*>(p), bytes, true});
      break;
    }
    case 1: {
      if (allocations_.empty())
        break;
      Allocation& a = allocations_[in_.below(static_cast<uint32_t>(allocations_.size()))];
      char* p = a.pointer + (in_.below(4) == 0 ? 16 : 0);
      if (note("cudaFree", cudaFree(p)) == cudaSuccess && p == a.pointer)
        a.live = false;
      break;
    }
    case 2:
    case 3: {
      Side to = side(), from = side();
      const size_t bytes = sizeFor(to, from);
      const cudaMemcpyKind k = kind();
      note("cudaMemcpy", cudaMemcpy(to.pointer, from.pointer, bytes, k));
      break;
    }
    case 4: {
      Side to = side(), from = side();
      const size_t bytes = sizeFor(to, from);
      const cudaMemcpyKind k = kind();
      const cudaStream_t s = stream();
      note("cudaMemcpyAsync", cudaMemcpyAsync(to.pointer, from.pointer, bytes, k, s));
      break;
    }
    case 5: {
      Side to = side();
      const size_t bytes = std::min(size(), to.hostCapacity);
      const bool async = in_.below(2) != 0;
      const int value = in_.byte();
      if (!async)
        note("cudaMemset", cudaMemset(to.pointer, value, bytes));
      else
        note("cudaMemsetAsync", cudaMemsetAsync(to.pointer, value, bytes, stream()));
      break;
    }
    case 6: {
      Side to = side(), from = side();
      size_t width = in_.below(4) * 1024;
      width += in_.below(3);
      const size_t height = in_.below(70);
      const size_t pitches[] = {width, width + 64, width == 0 ? 0 : width - 1, 4096};
      const size_t toPitch = pitches[in_.below(4)], fromPitch = pitches[in_.below(4)];
      const cudaMemcpyKind k = kind();
      // The host sides' spans stay within the host buffer (at most 4 KiB x 70 rows).
      note("cudaMemcpy2D",
           cudaMemcpy2D(to.pointer, toPitch, from.pointer, fromPitch, width, height, k));
      break;
    }
    case 7: {
      Side to = side(), from = side();
      const int device = in_.below(3) == 0 ? 1 : 0;
      const size_t bytes = sizeFor(to, from);
      note("cudaMemcpyPeer", cudaMemcpyPeer(to.pointer, device, from.pointer, 0, bytes));
      break;
    }
    case 8: {
      Side to = side();
      const size_t width = in_.below(4) * 1024, height = in_.below(70);
      note("cudaMemset2D",
           cudaMemset2D(to.pointer, in_.below(2) == 0 ? width : 4096, 1, width, height));
      break;
    }
    case 9: {
      cudaStream_t s = nullptr;
      const unsigned flags = in_.below(4) == 0 ? 0x10 : in_.below(2);
      if (note("cudaStreamCreateWithFlags", cudaStreamCreateWithFlags(&s, flags)) == cudaSuccess)
        streams_.push_back(s);
      break;
    }
    case 10:
      if (!streams_.empty())
        note("cudaStreamDestroy",
             cudaStreamDestroy(streams_[in_.below(static_cast<uint32_t>(streams_.size()))]));
      break;
    case 11:
      note("cudaStreamSynchronize", cudaStreamSynchronize(stream()));
      break;
    case 12: {
      cudaEvent_t e = nullptr;
      const unsigned flags = in_.below(4) == 0 ? 0x80 : in_.below(3);
      if (note("cudaEventCreateWithFlags", cudaEventCreateWithFlags(&e, flags)) == cudaSuccess)
        events_.push_back(e);
      break;
    }
    case 13:
      switch (in_.below(5)) {
      case 0: {
        const cudaEvent_t e = event();
        note("cudaEventRecord", cudaEventRecord(e, stream()));
      } break;
      case 1:
        note("cudaEventSynchronize", cudaEventSynchronize(event()));
        break;
      case 2: {
        float ms = 0;
        const cudaEvent_t start = event();
        note("cudaEventElapsedTime", cudaEventElapsedTime(&ms, start, event()));
        break;
      }
      case 3: {
        const cudaStream_t s = stream();
        const cudaEvent_t e = event();
        note("cudaStreamWaitEvent", cudaStreamWaitEvent(s, e, in_.below(2)));
      } break;
      default:
        note("cudaEventDestroy", cudaEventDestroy(event()));
        break;
      }
      break;
    case 14:
      launch();
      break;
    case 15:
      note("cudaLaunchHostFunc", cudaLaunchHostFunc(stream(), countRun, nullptr));
      break;
    case 16:
      capture();
      break;
    case 17: {
      cudaPointerAttributes attributes{};
      note("cudaPointerGetAttributes", cudaPointerGetAttributes(&attributes, side().pointer));
      break;
    }
    case 18: {
      void* p = nullptr;
      if (in_.below(3) == 0) {
        if (!pinned_.empty()) {
          Allocation& a = pinned_[in_.below(static_cast<uint32_t>(pinned_.size()))];
          if (note("cudaFreeHost", cudaFreeHost(a.pointer)) == cudaSuccess)
            a.live = false;
        }
      } else if (note("cudaMallocHost",
                      cudaMallocHost(&p, std::min<size_t>(size(), size_t{1} << 20))) ==
                     cudaSuccess &&
                 p != nullptr) {
        pinned_.push_back({static_cast<char*>(p), 0, true});
      }
      break;
    }
    case 19:
      if (in_.below(2) == 0)
        note("cudaHostRegister",
             cudaHostRegister(gHost + kRegisterOffset, size_t{1} << 20, in_.below(3)));
      else
        note("cudaHostUnregister", cudaHostUnregister(gHost + kRegisterOffset));
      break;
    case 20: {
      void* p = nullptr;
      const cudaStream_t s = stream();
      if (note("cudaMallocAsync",
               cudaMallocAsync(&p, std::min<size_t>(size(), size_t{1} << 20), s)) == cudaSuccess &&
          p != nullptr) {
        if (in_.below(2) == 0)
          note("cudaFreeAsync", cudaFreeAsync(p, stream()));
        else
          note("cudaFreeAsync", cudaFreeAsync(p, s));
      }
      break;
    }
    case 21: {
      const cudaLimit limits[] = {cudaLimitStackSize, cudaLimitPrintfFifoSize};
      const size_t values[] = {0, 1000, 523712, 523713, size_t{1} << 40};
      const cudaLimit limit = limits[in_.below(2)];
      note("cudaDeviceSetLimit", cudaDeviceSetLimit(limit, values[in_.below(5)]));
      break;
    }
    case 22:
      note("cudaDeviceSynchronize", cudaDeviceSynchronize());
      break;
    default:
      note("cudaGetLastError", cudaGetLastError());
      break;
    }
  }

  void launch() {
    if (library_ == nullptr) {
      if (note("cudaLibraryLoadData", cudaLibraryLoadData(&library_, kKernelPtx, nullptr, nullptr,
                                                          0, nullptr, nullptr, 0)) != cudaSuccess ||
          note("cudaLibraryGetKernel", cudaLibraryGetKernel(&kernel_, library_, "fill")) !=
              cudaSuccess) {
        library_ = nullptr;
        return;
      }
    }
    const unsigned grids[] = {0, 1, 4, 64, 1u << 31};
    const unsigned blocks[] = {0, 1, 32, 256, 1024, 1025};
    dim3 grid(grids[in_.below(5)], 1, 1);
    grid.y = in_.below(8) == 0 ? 65536 : 1;
    dim3 block(blocks[in_.below(6)], 1, 1);
    block.z = in_.below(8) == 0 ? 65 : 1;
    const size_t shared = in_.below(8) == 0 ? size_t{1} << 20 : 0;
    void* pointer = side().pointer;
    unsigned n = in_.u16();
    void* args[] = {&pointer, &n};
    void** arguments = in_.below(8) == 0 ? nullptr : args;
    note("cudaLaunchKernel", cudaLaunchKernel(reinterpret_cast<const void*>(kernel_), grid, block,
                                              arguments, shared, stream()));
  }

  void capture() {
    if (streams_.empty())
      return;
    cudaStream_t s = streams_[in_.below(static_cast<uint32_t>(streams_.size()))];
    const cudaStreamCaptureMode modes[] = {cudaStreamCaptureModeGlobal,
                                           cudaStreamCaptureModeThreadLocal,
                                           cudaStreamCaptureModeRelaxed};
    note("cudaStreamBeginCapture", cudaStreamBeginCapture(s, modes[in_.below(3)]));
    // A few calls that may be captured, refused, or invalidate the capture.
    for (uint32_t i = in_.below(4); i > 0; --i)
      step();
    cudaGraph_t graph = nullptr;
    if (note("cudaStreamEndCapture", cudaStreamEndCapture(s, &graph)) != cudaSuccess ||
        graph == nullptr)
      return;
    cudaGraphExec_t exec = nullptr;
    if (note("cudaGraphInstantiate", cudaGraphInstantiate(&exec, graph, 0)) == cudaSuccess) {
      for (uint32_t i = in_.below(3); i > 0; --i)
        note("cudaGraphLaunch", cudaGraphLaunch(exec, stream()));
      note("cudaGraphExecDestroy", cudaGraphExecDestroy(exec));
    }
    note("cudaGraphDestroy", cudaGraphDestroy(graph));
  }

  void finish() {
    // Streams may be mid-capture; the reset ends everything, as it does on a GPU.
    note("cudaDeviceSynchronize", cudaDeviceSynchronize());
    note("cudaDeviceReset", cudaDeviceReset());
    cudaGetLastError();
  }

  Choices& in_;
  RuntimeApiCoverage* coverage_;
  std::vector<Allocation> allocations_;
  std::vector<Allocation> pinned_;
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> events_;
  cudaLibrary_t library_ = nullptr;
  cudaKernel_t kernel_ = nullptr;
};

} // namespace

int fuzzRuntimeApi(const uint8_t* data, size_t size, RuntimeApiCoverage* coverage) {
  Choices choices(data, size);
  Sequence(choices, coverage).run();
  return 0;
}

} // namespace ocelot::fuzz
