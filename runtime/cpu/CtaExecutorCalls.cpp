// Calls: frames on the per-thread stack, user functions and the builtins (printf, malloc,
// device-side launches) the device implements itself.

#include "runtime/cpu/CpuModule.h"
#include "runtime/cpu/CtaExecutor.h"
#include "runtime/cpu/CtaExecutorWarp.h"
#include "runtime/cpu/DeviceLaunches.h"
#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/DevicePrintf.h"
#include "runtime/cpu/MemoryAccess.h"

#include <algorithm>
#include <cstring>

namespace ocelot::runtime::cpu {

uint64_t CtaExecutor::readFrameValue(const Warp& warp, uint32_t base, uint32_t offset,
                                     uint32_t size, uint32_t lane) const {
  uint64_t value = 0;
  const uint32_t bytes = std::min<uint32_t>(size, 8);
  const size_t at = size_t{base} + offset;
  if (at + bytes <= context_.localSize)
    std::memcpy(&value,
                local_.data() + (size_t{warp.index} * kWarpSize + lane) * context_.localStride + at,
                bytes);
  return value;
}

void CtaExecutor::writeFrameValue(Warp& warp, uint32_t base, uint32_t offset, uint32_t size,
                                  uint32_t lane, uint64_t value) {
  const uint32_t bytes = std::min<uint32_t>(size, 8);
  const size_t at = size_t{base} + offset;
  if (at + bytes <= context_.localSize)
    std::memcpy(local_.data() + (size_t{warp.index} * kWarpSize + lane) * context_.localStride + at,
                &value, bytes);
}

bool CtaExecutor::readGeneric(uint32_t lane, uint64_t address, void* out, size_t size) {
  const Fault saved = context_.fault;
  std::byte* host = resolveAddress(context_, MemorySpace::Generic, address, 1, lane);
  if (host != nullptr && size > 1)
    host = resolveAddress(context_, MemorySpace::Generic, address + size - 1, 1, lane) != nullptr
               ? host
               : nullptr;
  context_.fault = saved;
  if (host == nullptr)
    return false;
  std::memcpy(out, host, size);
  return true;
}

bool CtaExecutor::writeGeneric(uint32_t lane, uint64_t address, const void* in, size_t size) {
  const Fault saved = context_.fault;
  std::byte* host = resolveAddress(context_, MemorySpace::Generic, address, 1, lane);
  if (host != nullptr && size > 1 &&
      resolveAddress(context_, MemorySpace::Generic, address + size - 1, 1, lane) == nullptr)
    host = nullptr;
  context_.fault = saved;
  if (host == nullptr)
    return false;
  std::memcpy(host, in, size);
  return true;
}

bool CtaExecutor::finishCall(Warp& warp) {
  const CallFrame frame = warp.calls.back();
  warp.calls.pop_back();
  const DecodedKernel& k = *kernel_;
  const CallSite& site = k.callSites[frame.callSite];
  const DecodedFunction& callee = k.functions[frame.callee];
  const LaneMask lanes = frame.lanes & ~warp.exited;
  const size_t count = std::min(site.results.size(), callee.returnOffsets.size());
  // Values first: restoring a recursive caller's rows may overwrite the callee's.
  std::vector<uint64_t> values(count * kWarpSize);
  for (size_t i = 0; i < count; ++i) {
    const CallValue& destination = site.results[i];
    forEachLane(lanes, [&](uint32_t lane) {
      if (callee.returnRows[i] != kNone) {
        values[i * kWarpSize + lane] = warp.rows[size_t{callee.returnRows[i]} * kWarpSize + lane];
      } else if (destination.row == kNone) {
        // frame to frame: copy the whole value now (frames do not move on restore).
        const size_t bytes = std::min(destination.size, callee.returnSizes[i]);
        std::byte* base =
            local_.data() + (size_t{warp.index} * kWarpSize + lane) * context_.localStride;
        const size_t from = size_t{warp.frameBase} + callee.returnOffsets[i];
        const size_t to = size_t{frame.savedFrameBase} + destination.frameOffset;
        if (from + bytes <= context_.localSize && to + bytes <= context_.localSize)
          std::memmove(base + to, base + from, bytes);
      } else {
        values[i * kWarpSize + lane] = readFrameValue(warp, warp.frameBase, callee.returnOffsets[i],
                                                      callee.returnSizes[i], lane);
      }
    });
  }
  if (frame.spilled) {
    const size_t rowWords = size_t{callee.rowEnd - callee.rowBegin} * kWarpSize;
    std::memcpy(warp.rows + size_t{callee.rowBegin} * kWarpSize,
                warp.spill.data() + frame.spillBegin, rowWords * sizeof(uint64_t));
    for (uint32_t p = callee.predBegin; p < callee.predEnd; ++p)
      warp.predicates[p] =
          static_cast<LaneMask>(warp.spill[frame.spillBegin + rowWords + (p - callee.predBegin)]);
    warp.spill.resize(frame.spillBegin);
  }
  warp.frameBase = frame.savedFrameBase;
  warp.stackTop = frame.savedStackTop;
  context_.frameBase = warp.frameBase;
  context_.stackTop = warp.stackTop;
  for (size_t i = 0; i < count; ++i) {
    const CallValue& destination = site.results[i];
    if (destination.row == kNone && callee.returnRows[i] == kNone)
      continue; // copied above
    forEachLane(lanes, [&](uint32_t lane) {
      const uint64_t value = values[i * kWarpSize + lane];
      if (destination.row != kNone)
        warp.rows[size_t{destination.row} * kWarpSize + lane] = value;
      else
        writeFrameValue(warp, warp.frameBase, destination.frameOffset, destination.size, lane,
                        value);
    });
  }
  return true;
}

bool CtaExecutor::builtin(Warp& warp, const CallSite& site, LaneMask lanes) {
  auto argument = [&](size_t index, uint32_t lane) -> uint64_t {
    if (index >= site.arguments.size())
      return 0;
    const CallValue& value = site.arguments[index];
    if (value.row != kNone)
      return warp.rows[size_t{value.row} * kWarpSize + lane];
    return readFrameValue(warp, warp.frameBase, value.frameOffset, value.size, lane);
  };
  auto result = [&](uint32_t lane, uint64_t value) {
    if (site.results.empty())
      return;
    const CallValue& destination = site.results[0];
    if (destination.row != kNone)
      warp.rows[size_t{destination.row} * kWarpSize + lane] = value;
    else
      writeFrameValue(warp, warp.frameBase, destination.frameOffset, destination.size, lane, value);
  };
  // A dim3 argument (a 12-byte .param aggregate in the caller's frame).
  auto dim3Argument = [&](size_t index, uint32_t lane) -> dim3 {
    uint32_t xyz[3] = {1, 1, 1};
    if (index < site.arguments.size()) {
      const CallValue& value = site.arguments[index];
      if (value.row == kNone) {
        const size_t at = size_t{warp.frameBase} + value.frameOffset;
        if (at + sizeof xyz <= context_.localSize)
          std::memcpy(xyz,
                      local_.data() +
                          (size_t{warp.index} * kWarpSize + lane) * context_.localStride + at,
                      sizeof xyz);
      }
    }
    return dim3(xyz[0], xyz[1], xyz[2]);
  };
  const uint32_t pc = warp.stack.back().pc;
  switch (site.builtin) {
  case Builtin::DeviceGetParameterBufferV2:
    forEachLane(lanes, [&](uint32_t lane) {
      result(lane, deviceParameterBuffer(*launch_, argument(0, lane), dim3Argument(1, lane),
                                         dim3Argument(2, lane),
                                         static_cast<uint32_t>(argument(3, lane))));
    });
    return true;
  case Builtin::DeviceGetParameterBuffer:
    forEachLane(lanes, [&](uint32_t lane) {
      result(lane, deviceParameterBuffer(*launch_, argument(1, lane)));
    });
    return true;
  case Builtin::DeviceLaunchV2:
    forEachLane(lanes, [&](uint32_t lane) {
      result(lane, deviceLaunch(*launch_, argument(0, lane), argument(1, lane)));
    });
    return true;
  case Builtin::DeviceLaunch:
    forEachLane(lanes, [&](uint32_t lane) {
      result(lane, deviceLaunch(*launch_, argument(0, lane), argument(1, lane),
                                dim3Argument(2, lane), dim3Argument(3, lane),
                                static_cast<uint32_t>(argument(4, lane)), argument(5, lane)));
    });
    return true;
  case Builtin::DeviceStreamCreate:
  case Builtin::DeviceGetDevice: {
    // cudaStreamCreateWithFlags gives a handle that orders nothing beyond launch order (children
    // run one after another here); cudaGetDevice gives device 0.
    bool ok = true;
    forEachLane(lanes, [&](uint32_t lane) {
      const uint64_t value =
          site.builtin == Builtin::DeviceGetDevice ? 0 : 0x100 + uint64_t{warp.index} * 64 + lane;
      const size_t bytes = site.builtin == Builtin::DeviceGetDevice ? 4 : 8;
      ok = ok && writeGeneric(lane, argument(0, lane), &value, bytes);
      result(lane, 0);
    });
    if (!ok)
      faultAt(warp, FaultKind::IllegalAddress, static_cast<uint32_t>(std::countr_zero(lanes)), pc,
              "device runtime call with an invalid pointer");
    return ok;
  }
  case Builtin::DeviceGetLastError:
  case Builtin::DevicePeekAtLastError:
    forEachLane(lanes, [&](uint32_t lane) {
      result(lane, site.builtin == Builtin::DeviceGetLastError
                       ? launch_->deviceError.exchange(0, std::memory_order_relaxed)
                       : launch_->deviceError.load(std::memory_order_relaxed));
    });
    return true;
  case Builtin::DeviceSuccess:
    forEachLane(lanes, [&](uint32_t lane) { result(lane, 0); });
    return true;
  case Builtin::Vprintf: {
    bool ok = true;
    forEachLane(lanes, [&](uint32_t lane) {
      DeviceReader reader = [&](uint64_t address, void* out, size_t size) {
        return readGeneric(lane, address, out, size);
      };
      int count = 0;
      std::string text = formatDevicePrintf(argument(0, lane), argument(1, lane), reader, &count);
      result(lane, static_cast<uint64_t>(static_cast<int64_t>(count)));
      if (output_ != nullptr && launch_->takePrintfRecord())
        *output_ += text;
    });
    return ok;
  }
  case Builtin::Malloc:
    forEachLane(lanes, [&](uint32_t lane) {
      result(lane, launch_->heap != nullptr ? launch_->heap->allocate(argument(0, lane)) : 0);
    });
    return true;
  case Builtin::Free:
    forEachLane(lanes, [&](uint32_t lane) {
      if (launch_->heap != nullptr)
        launch_->heap->release(argument(0, lane));
    });
    return true;
  case Builtin::AssertFail: {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(lanes));
    DeviceReader reader = [&](uint64_t address, void* out, size_t size) {
      return readGeneric(lane, address, out, size);
    };
    const std::string message = readDeviceString(argument(0, lane), reader);
    const std::string file = readDeviceString(argument(1, lane), reader);
    const auto line = static_cast<uint32_t>(argument(2, lane));
    const std::string function = readDeviceString(argument(3, lane), reader);
    forEachLane(lanes, [&](uint32_t l) {
      const dim3 tid = unlinear(uint64_t{warp.index} * kWarpSize + l, launch_->block);
      std::fprintf(stderr,
                   "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
                   file.c_str(), line, function.c_str(), ctaid_.x, ctaid_.y, ctaid_.z, tid.x, tid.y,
                   tid.z, message.c_str());
    });
    faultAt(warp, FaultKind::Assert, lane, pc, "assert(" + message + ")");
    return false;
  }
  case Builtin::GraphSetConditional:
    // cudaGraphSetConditional(handle, value): the last lane to set a handle wins, as on a GPU.
    if (launch_->conditionals != nullptr)
      forEachLane(lanes, [&](uint32_t lane) {
        launch_->conditionals->set(argument(0, lane), static_cast<uint32_t>(argument(1, lane)));
      });
    return true;
  default:
    faultAt(warp, FaultKind::IllegalInstruction, static_cast<uint32_t>(std::countr_zero(lanes)), pc,
            "call to a device-runtime function the CPU device does not provide");
    return false;
  }
}

bool CtaExecutor::call(Warp& warp, const DecodedInstruction& in, LaneMask active, LaneMask lanes) {
  const DecodedKernel& k = *kernel_;
  const uint32_t pc = warp.stack.back().pc;
  const CallSite& site = k.callSites[in.aux];
  uint32_t calleeIndex = site.callee;
  if (site.targetRow != kNone) {
    // Indirect: lanes may call different functions; run one group at a time.
    const uint64_t* targets = warp.rows + size_t{site.targetRow} * kWarpSize;
    const uint32_t first = static_cast<uint32_t>(std::countr_zero(lanes));
    LaneMask same = 0;
    forEachLane(lanes, [&](uint32_t lane) {
      if (targets[lane] == targets[first])
        same |= LaneMask{1} << lane;
    });
    if (same != lanes) {
      SimtEntry& top = warp.stack.back();
      top.pc = pc + 1;
      warp.stack.push_back({pc, pc + 1, active & ~same});
      warp.stack.push_back({pc, pc + 1, same});
      return true;
    }
    // Function addresses are relative to the module that took them (CpuModule::functionAddress):
    // one taken in another module, an instrumented copy say, is not a function here.
    auto callee = k.functionAtAddress.find(targets[first]);
    if (callee == k.functionAtAddress.end()) {
      char value[32];
      std::snprintf(value, sizeof value, "0x%llx", static_cast<unsigned long long>(targets[first]));
      faultAt(warp, FaultKind::IllegalInstruction, first, pc,
              std::string("indirect call through ") + value +
                  ", which is not the address of a function of this module");
      return false;
    }
    calleeIndex = callee->second;
  }
  if (site.builtin != Builtin::None ||
      (calleeIndex != kNone && k.functions[calleeIndex].builtin != Builtin::None)) {
    CallSite resolved = site;
    if (site.builtin == Builtin::None)
      resolved.builtin = k.functions[calleeIndex].builtin;
    if (!builtin(warp, resolved, lanes))
      return false;
    warp.stack.back().pc = pc + 1;
    return true;
  }
  const uint32_t firstLane = static_cast<uint32_t>(std::countr_zero(lanes));
  if (calleeIndex == kNone) {
    faultAt(warp, FaultKind::IllegalInstruction, firstLane, pc, "call to an unknown function");
    return false;
  }
  const DecodedFunction& callee = k.functions[calleeIndex];
  if (!callee.error.empty()) {
    faultAt(warp, FaultKind::IllegalInstruction, firstLane, pc, callee.error);
    return false;
  }
  const uint32_t newBase =
      (warp.stackTop + kFrameAlignment - 1) / kFrameAlignment * kFrameAlignment;
  if (size_t{newBase} + callee.frameSize > context_.localSize) {
    faultAt(warp, FaultKind::StackOverflow, firstLane, pc,
            "calls need more than " + std::to_string(context_.localSize) +
                " bytes of local memory per thread");
    return false;
  }
  // Arguments are read before anything is written: with recursion, caller and callee rows are
  // the same rows.
  const size_t count = std::min(site.arguments.size(), callee.parameterOffsets.size());
  std::vector<uint64_t> values(count * kWarpSize);
  for (size_t i = 0; i < count; ++i) {
    const CallValue& argument = site.arguments[i];
    forEachLane(lanes, [&](uint32_t lane) {
      if (argument.row != kNone)
        values[i * kWarpSize + lane] = warp.rows[size_t{argument.row} * kWarpSize + lane];
      else if (callee.parameterRows[i] != kNone)
        values[i * kWarpSize + lane] =
            readFrameValue(warp, warp.frameBase, argument.frameOffset, argument.size, lane);
      else {
        const size_t bytes = std::min(argument.size, callee.parameterSizes[i]);
        std::byte* base =
            local_.data() + (size_t{warp.index} * kWarpSize + lane) * context_.localStride;
        std::memmove(base + newBase + callee.parameterOffsets[i],
                     base + warp.frameBase + argument.frameOffset, bytes);
      }
    });
  }
  bool active_ = false;
  for (const CallFrame& frame : warp.calls)
    active_ = active_ || frame.callee == calleeIndex;
  CallFrame frame{};
  frame.callSite = in.aux;
  frame.callee = calleeIndex;
  frame.savedFrameBase = warp.frameBase;
  frame.savedStackTop = warp.stackTop;
  frame.lanes = lanes;
  frame.spillBegin = warp.spill.size();
  frame.spilled = active_;
  if (active_) {
    const size_t rowWords = size_t{callee.rowEnd - callee.rowBegin} * kWarpSize;
    warp.spill.insert(warp.spill.end(), warp.rows + size_t{callee.rowBegin} * kWarpSize,
                      warp.rows + size_t{callee.rowBegin} * kWarpSize + rowWords);
    for (uint32_t p = callee.predBegin; p < callee.predEnd; ++p)
      warp.spill.push_back(warp.predicates[p]);
  }
  for (size_t i = 0; i < count; ++i) {
    const CallValue& argument = site.arguments[i];
    forEachLane(lanes, [&](uint32_t lane) {
      const uint64_t value = values[i * kWarpSize + lane];
      if (callee.parameterRows[i] != kNone)
        warp.rows[size_t{callee.parameterRows[i]} * kWarpSize + lane] = value;
      else if (argument.row != kNone)
        writeFrameValue(warp, newBase, callee.parameterOffsets[i], callee.parameterSizes[i], lane,
                        value);
    });
  }
  warp.stack.back().pc = pc + 1;
  frame.depth = static_cast<uint32_t>(warp.stack.size());
  warp.calls.push_back(frame);
  warp.stack.push_back({callee.entryPc, kNone, lanes});
  warp.frameBase = newBase;
  warp.stackTop = newBase + callee.frameSize;
  context_.frameBase = warp.frameBase;
  context_.stackTop = warp.stackTop;
  return true;
}

} // namespace ocelot::runtime::cpu
