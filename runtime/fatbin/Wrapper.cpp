#include "runtime/fatbin/Wrapper.h"

#include "runtime/fatbin/Format.h"
#include "support/ByteReader.h"

#include <string>

namespace ocelot::runtime::fatbin {

static_assert(sizeof(void*) == 8, "the wrapper layout below is the LP64 one");

bool RegistrationWrapper::linked() const {
  return version == format::kWrapperLinkedVersion;
}

FatbinaryResult<RegistrationWrapper> decodeWrapper(std::span<const std::byte> bytes) {
  support::ByteReader reader(bytes);
  if (!reader.contains(0, format::kWrapperSize))
    return FatbinaryError{"registration wrapper truncated: " + std::to_string(bytes.size()) +
                              " bytes, " + std::to_string(format::kWrapperSize) + " needed",
                          0};
  if (*reader.u32(0) != format::kWrapperMagic)
    return FatbinaryError{"bad registration wrapper magic", 0};
  RegistrationWrapper wrapper;
  wrapper.version = *reader.u32(4);
  wrapper.data = static_cast<uintptr_t>(*reader.u64(8));
  wrapper.prelinkedFatbins = static_cast<uintptr_t>(*reader.u64(16));
  if (wrapper.version != format::kWrapperVersion &&
      wrapper.version != format::kWrapperLinkedVersion)
    return FatbinaryError{
        "unsupported registration wrapper version " + std::to_string(wrapper.version), 4};
  if (wrapper.data == 0)
    return FatbinaryError{"registration wrapper without fatbinary data", 8};
  return wrapper;
}

} // namespace ocelot::runtime::fatbin
