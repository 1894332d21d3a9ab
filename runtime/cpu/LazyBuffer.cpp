#include "runtime/cpu/LazyBuffer.h"

#include <new>
#include <sys/mman.h>

namespace ocelot::runtime::cpu {

LazyBuffer::~LazyBuffer() {
  if (data_ != nullptr)
    munmap(data_, size_);
}

void LazyBuffer::reserve(size_t bytes) {
  if (bytes <= size_)
    return;
  void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED)
    throw std::bad_alloc();
  if (data_ != nullptr)
    munmap(data_, size_);
  data_ = static_cast<std::byte*>(mapped);
  size_ = bytes;
}

} // namespace ocelot::runtime::cpu
