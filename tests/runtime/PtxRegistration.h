#pragma once

// Registers a PTX module the way nvcc's host code registers a fatbinary, for tests of the runtime.

#include "StaticImage.h"
#include "runtime/core/Runtime.h"

#include <gtest/gtest.h>

#include <string>

namespace ocelot::runtime::testing {

/// Places `ptx` in slot 0 of `image` as an uncompressed sm_`arch` fatbinary and registers it with
/// `runtime`. The caller registers its functions and variables, then calls registerFatBinaryEnd.
/// Null, with a test failure, when the container does not fit the slot.
template <size_t Slots, size_t SlotBytes>
void** registerPtxFatbinary(Runtime& runtime, StaticImage<Slots, SlotBytes>& image,
                            const std::string& ptx, uint32_t arch = 90) {
  Bytes container = buildContainer({ptxEntry(ptx, arch, fatbin::Compression::None)});
  if (container.size() > image.kSlotBytes) {
    ADD_FAILURE() << "a container of " << container.size() << " bytes does not fit the image's "
                  << image.kSlotBytes << "-byte slot";
    return nullptr;
  }
  return runtime.registerFatBinary(image.wrap(image.place(0, container)));
}

} // namespace ocelot::runtime::testing
