#include "runtime/core/LoadedImages.h"

#include <climits>
#include <cstdint>
#include <link.h>
#include <unistd.h>

namespace ocelot::runtime {
namespace {

struct Search {
  uintptr_t address = 0;
  std::optional<ImageRegion> found;
};

std::string executablePath() {
  char path[PATH_MAX];
  ssize_t length = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return length > 0 ? std::string(path, static_cast<size_t>(length)) : std::string("<executable>");
}

int visit(dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<Search*>(data);
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    if (header.p_type != PT_LOAD || (header.p_flags & PF_R) == 0)
      continue;
    uintptr_t begin = info->dlpi_addr + header.p_vaddr;
    uintptr_t end = begin + header.p_memsz;
    if (search->address < begin || search->address >= end)
      continue;
    const auto* first = reinterpret_cast<const std::byte*>(search->address);
    std::string path = info->dlpi_name != nullptr && info->dlpi_name[0] != '\0'
                           ? std::string(info->dlpi_name)
                           : executablePath();
    search->found = ImageRegion{{first, end - search->address}, std::move(path)};
    return 1; // stop iterating
  }
  return 0;
}

} // namespace

std::optional<ImageRegion> findImageRegion(const void* address) {
  Search search;
  search.address = reinterpret_cast<uintptr_t>(address);
  dl_iterate_phdr(visit, &search);
  return search.found;
}

} // namespace ocelot::runtime
