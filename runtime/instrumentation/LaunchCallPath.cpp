#include "runtime/instrumentation/LaunchCallPath.h"

#include "ocelot/Demangle.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <dlfcn.h>
#include <link.h>
#include <optional>
#include <pthread.h>
#include <unwind.h>

namespace ocelot::runtime::instrumentation {

namespace {

struct ObjectRange {
  uintptr_t base = 0;
  uintptr_t begin = UINTPTR_MAX, end = 0;
};

int findRange(dl_phdr_info* info, size_t, void* data) {
  auto* range = static_cast<ObjectRange*>(data);
  if (info->dlpi_addr != range->base)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || (segment.p_flags & PF_X) == 0)
      continue;
    range->begin = std::min<uintptr_t>(range->begin, info->dlpi_addr + segment.p_vaddr);
    range->end =
        std::max<uintptr_t>(range->end, info->dlpi_addr + segment.p_vaddr + segment.p_memsz);
  }
  return range->end != 0 ? 1 : 0;
}

std::string hex(uintptr_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%jx", static_cast<uintmax_t>(value));
  return text;
}

} // namespace

/// Return address -> the distance from the callee's CFA to the caller's (kEnd: the unwinder
/// stopped there). Open addressing without locks: a slot's address is claimed once and never
/// changes; its distance is published after the claim (kPending until then).
class CallPathCapture::FrameTable {
public:
  static constexpr intptr_t kPending = INTPTR_MIN;
  static constexpr intptr_t kEnd = INTPTR_MIN + 1;

  std::optional<intptr_t> find(uintptr_t address) const {
    for (size_t i = 0, slot = hash(address); i < kProbes; ++i, slot = (slot + 1) & (kSlots - 1)) {
      uintptr_t key = slots_[slot].address.load(std::memory_order_acquire);
      if (key == address) {
        intptr_t distance = slots_[slot].distance.load(std::memory_order_acquire);
        return distance == kPending ? std::nullopt : std::optional<intptr_t>(distance);
      }
      if (key == 0)
        return std::nullopt;
    }
    return std::nullopt;
  }

  void insert(uintptr_t address, intptr_t distance) {
    for (size_t i = 0, slot = hash(address); i < kProbes; ++i, slot = (slot + 1) & (kSlots - 1)) {
      uintptr_t expected = 0;
      if (slots_[slot].address.compare_exchange_strong(expected, address,
                                                       std::memory_order_acq_rel) ||
          expected == address) {
        slots_[slot].distance.store(distance, std::memory_order_release);
        return;
      }
    }
    // Full around here: this address keeps taking the unwinder.
  }

  std::atomic<uint64_t> unwinds{0};

private:
  static constexpr size_t kSlots = 1 << 13;
  static constexpr size_t kProbes = 32;
  static size_t hash(uintptr_t address) {
    return static_cast<size_t>((address * 0x9E3779B97F4A7C15ull) >> 40) & (kSlots - 1);
  }
  struct Slot {
    std::atomic<uintptr_t> address{0};
    std::atomic<intptr_t> distance{kPending};
  };
  std::array<Slot, kSlots> slots_;
};

namespace {

struct UnwoundFrame {
  uintptr_t ip = 0;
  /// _Unwind_GetCFA of the frame's context: the CFA of the frame it called, which is the frame's
  /// own stack pointer at the call.
  uintptr_t sp = 0;
};

struct UnwindState {
  UnwoundFrame* frames;
  size_t count = 0, capacity = 0;
  bool ended = false; ///< the unwinder found no frame beyond the last
};

_Unwind_Reason_Code collectFrame(_Unwind_Context* context, void* data) {
  auto* state = static_cast<UnwindState*>(data);
  if (state->count == state->capacity)
    return _URC_NORMAL_STOP;
  state->frames[state->count++] = {static_cast<uintptr_t>(_Unwind_GetIP(context)),
                                   static_cast<uintptr_t>(_Unwind_GetCFA(context))};
  return _URC_NO_REASON;
}

/// The launching thread's stack, where every frame of the walk must lie.
struct StackBounds {
  uintptr_t low = 0, high = 0;
};

StackBounds threadStack() {
  StackBounds bounds;
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0)
    return bounds;
  void* base = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&attributes, &base, &size) == 0) {
    bounds.low = reinterpret_cast<uintptr_t>(base);
    bounds.high = bounds.low + size;
  }
  pthread_attr_destroy(&attributes);
  return bounds;
}

constexpr size_t kOwnFramesMax = 24; ///< the runtime's frames above the application's, at most
constexpr size_t kWalkMax = CapturedCallPath::kMaxFrames + kOwnFramesMax;

} // namespace

CallPathCapture::CallPathCapture(uintptr_t begin, uintptr_t end)
    : begin_(begin), end_(end), table_(std::make_unique<FrameTable>()) {}
CallPathCapture::CallPathCapture(CallPathCapture&&) noexcept = default;
CallPathCapture& CallPathCapture::operator=(CallPathCapture&&) noexcept = default;
CallPathCapture::~CallPathCapture() = default;

uint64_t CallPathCapture::unwinds() const {
  return table_->unwinds.load(std::memory_order_relaxed);
}

CallPathCapture CallPathCapture::forObjectOf(const void* codeAddress) {
  Dl_info info{};
  link_map* map = nullptr;
  if (dladdr1(codeAddress, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0 ||
      map == nullptr)
    return {0, 0};
  ObjectRange range;
  range.base = map->l_addr;
  dl_iterate_phdr(&findRange, &range);
  if (range.end == 0)
    return {0, 0};
  return {range.begin, range.end};
}

CallPathCapture CallPathCapture::forThisLibrary() {
  return forObjectOf(reinterpret_cast<const void*>(&findRange));
}

namespace {

/// The unwinder's walk from the caller of capture() (whose CFA is `captureCfa`), teaching `table`
/// each return address's CFA distance. Returns the return addresses from capture()'s onwards.
__attribute__((noinline)) size_t unwindAndLearn(CallPathCapture::FrameTable& table,
                                                uintptr_t captureReturn, uintptr_t* out) {
  UnwoundFrame frames[kWalkMax + 4];
  UnwindState state{frames, 0, std::size(frames)};
  _Unwind_Reason_Code reason = _Unwind_Backtrace(&collectFrame, &state);
  state.ended = reason == _URC_END_OF_STACK && state.count < state.capacity;
  ++table.unwinds;
  // The outermost frame (_start) returns nowhere: the unwinder reports address 0 after it.
  while (state.count > 0 && frames[state.count - 1].ip < 4096) {
    --state.count;
    state.ended = true;
  }
  // frames[0] is this function, then capture(), then capture()'s caller (ip == captureReturn).
  // A frame's CFA is the stack pointer of its caller, the next frame: the distance that takes
  // the walk from a frame's CFA to its caller's belongs to the caller's return address.
  size_t first = 0;
  while (first < state.count && frames[first].ip != captureReturn)
    ++first;
  if (first == state.count)
    return 0;
  size_t count = 0;
  for (size_t k = first; k < state.count && count < kWalkMax; ++k) {
    out[count++] = frames[k].ip;
    if (k + 1 < state.count)
      table.insert(frames[k].ip, static_cast<intptr_t>(frames[k + 1].sp - frames[k].sp));
  }
  if (state.ended && count > 0 && first + count == state.count)
    table.insert(frames[state.count - 1].ip, CallPathCapture::FrameTable::kEnd);
  return count;
}

} // namespace

__attribute__((noinline)) void CallPathCapture::capture(CapturedCallPath& out) const {
  uintptr_t walked[kWalkMax];
  size_t count = 0;
  auto captureReturn = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
#if defined(__x86_64__)
  // This function keeps a frame pointer (it asks for its frame address): its CFA is 16 bytes
  // above it (the saved frame pointer, then the return address).
  uintptr_t cfa = reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) + 16;
  thread_local const StackBounds stack = threadStack();
  uintptr_t ip = captureReturn;
  bool known = stack.high != 0;
  while (known && count < kWalkMax) {
    walked[count++] = ip;
    std::optional<intptr_t> distance = table_->find(ip);
    if (!distance) {
      known = false;
      break;
    }
    if (*distance == FrameTable::kEnd)
      break;
    cfa += static_cast<uintptr_t>(*distance);
    if (*distance <= 0 || cfa - sizeof(uintptr_t) < stack.low || cfa > stack.high) {
      known = false;
      break;
    }
    ip = *reinterpret_cast<const uintptr_t*>(cfa - sizeof(uintptr_t));
  }
  if (!known)
    count = unwindAndLearn(*table_, captureReturn, walked);
#else
  count = unwindAndLearn(*table_, captureReturn, walked);
#endif
  size_t first = 0;
  while (first < count && inOwnImage(walked[first]))
    ++first;
  out.depth = 0;
  for (size_t i = first; i < count && out.depth < CapturedCallPath::kMaxFrames; ++i)
    out.frames[out.depth++] = walked[i];
}

std::vector<std::string> CallPathSymbolizer::symbolize(const CapturedCallPath& path) {
  std::vector<std::string> names;
  for (uint32_t i = 0; i < path.depth; ++i) {
    names.push_back(frame(path.frames[i]));
    if (names.back() == "main")
      break; // what is outside main is the C library starting the program
  }
  return names;
}

std::string CallPathSymbolizer::frame(uintptr_t returnAddress) {
  std::lock_guard lock(mutex_);
  auto found = frames_.find(returnAddress);
  if (found != frames_.end())
    return found->second;
  return frames_.emplace(returnAddress, name(returnAddress)).first->second;
}

std::string CallPathSymbolizer::name(uintptr_t returnAddress) {
  // The call instruction ends at the return address: look up the byte before it, which is in the
  // caller even when the call was the function's last instruction.
  uintptr_t address = returnAddress - 1;
  Dl_info info{};
  link_map* map = nullptr;
  if (dladdr1(reinterpret_cast<void*>(address), &info, reinterpret_cast<void**>(&map),
              RTLD_DL_LINKMAP) == 0 ||
      map == nullptr)
    return hex(returnAddress);
  // The main program's link map has an empty name.
  std::string path =
      map->l_name != nullptr && map->l_name[0] != '\0' ? map->l_name : "/proc/self/exe";
  const ElfFunctionSymbols& symbols = symbolsOf(path);
  uintptr_t fileAddress = symbols.relocatable() ? address - map->l_addr : address;
  if (const auto* function = symbols.find(fileAddress))
    return demangle(function->name);
  if (info.dli_sname != nullptr)
    return demangle(info.dli_sname);
  std::string object = path == "/proc/self/exe" ? "program" : path.substr(path.rfind('/') + 1);
  return object + "+" + hex(address + 1 - map->l_addr);
}

const ElfFunctionSymbols& CallPathSymbolizer::symbolsOf(const std::string& path) {
  auto& symbols = objects_[path];
  if (!symbols)
    symbols = std::make_unique<ElfFunctionSymbols>(ElfFunctionSymbols::read(path));
  return *symbols;
}

} // namespace ocelot::runtime::instrumentation
