#pragma once

#include "runtime/instrumentation/ElfFunctionSymbols.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace ocelot::runtime::instrumentation {

/// The host return addresses of a launch call, innermost first, without Ocelot's own frames:
/// captured on the launching thread (an unwind of the stack, no symbols), named later.
struct CapturedCallPath {
  static constexpr size_t kMaxFrames = 16;
  std::array<uintptr_t, kMaxFrames> frames{};
  uint32_t depth = 0;
};

/// Takes the launching thread's call path and drops the leading frames inside `ownImage` (the
/// library's code: the hook, the runtime, the API entry), keeping up to kMaxFrames of the
/// application's.
///
/// Unwinding with libgcc's unwinder (backtrace()) costs about 1 us plus 0.2 us per frame, more
/// than a launch may spend (issue 16: at most 1 us). So the unwinder runs once per new return
/// address, and what it finds is kept: for each return address, how far the caller's canonical
/// frame address (CFA) lies above the callee's. On x86-64 the return address sits just below the
/// CFA, so a stack whose return addresses are all known is walked with one table lookup and one
/// load per frame. Reads stay inside the thread's stack; an unknown address (or another
/// architecture) takes the unwinder again. Thread safe: the table takes no lock.
class CallPathCapture {
public:
  /// The address range of the loaded object that holds `codeAddress` (this library's, given a
  /// function of it).
  static CallPathCapture forObjectOf(const void* codeAddress);
  /// The range of the object Ocelot's runtime is linked into (libcudart.so.13, or a test).
  static CallPathCapture forThisLibrary();
  CallPathCapture(uintptr_t begin, uintptr_t end);
  CallPathCapture(CallPathCapture&&) noexcept;
  CallPathCapture& operator=(CallPathCapture&&) noexcept;
  ~CallPathCapture();

  void capture(CapturedCallPath& out) const;
  bool inOwnImage(uintptr_t address) const { return address >= begin_ && address < end_; }
  /// Captures that had to run the unwinder (tests: a repeated stack must not).
  uint64_t unwinds() const;

  class FrameTable;

private:
  uintptr_t begin_ = 0, end_ = 0;
  std::unique_ptr<FrameTable> table_;
};

/// Names return addresses: the function (demangled) around each, from the symbol table of the
/// object it lies in, read once per object; each distinct address is named once. Frames outside
/// `main` (the C library's start-up) are left out. Thread safe.
class CallPathSymbolizer {
public:
  std::vector<std::string> symbolize(const CapturedCallPath& path);
  /// One address: "function" when a symbol covers it, else "object+0xoffset", else "0xaddress".
  std::string frame(uintptr_t returnAddress);

private:
  std::string name(uintptr_t returnAddress); ///< frame() without the cache; mutex_ held
  const ElfFunctionSymbols& symbolsOf(const std::string& path);

  std::mutex mutex_;
  std::unordered_map<uintptr_t, std::string> frames_;
  std::map<std::string, std::unique_ptr<ElfFunctionSymbols>> objects_;
};

} // namespace ocelot::runtime::instrumentation
