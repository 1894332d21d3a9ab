#include "runtime/cpu/llvm/CodeCache.h"

#include <array>
#include <cstring>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/raw_ostream.h>

namespace ocelot::runtime::cpu::native {
namespace {

constexpr char kMagic[8] = {'O', 'C', 'L', 'T', 'J', 'I', 'T', '1'};
constexpr size_t kKeyBytes = 64; // hex SHA-256
constexpr size_t kDigestBytes = 32;
constexpr size_t kHeaderBytes = sizeof kMagic + kKeyBytes + 8 + kDigestBytes;

std::array<uint8_t, kDigestBytes> checksum(llvm::StringRef data) {
  llvm::SHA256 hash;
  hash.update(data);
  return hash.final();
}

} // namespace

CodeCache::CodeCache(std::string directory) : directory_(std::move(directory)) {
  if (!directory_.empty() && llvm::sys::fs::create_directories(directory_))
    directory_.clear(); // not writable: run without a cache
}

std::string CodeCache::path(const std::string& key) const {
  return directory_ + "/" + key + ".o";
}

bool CodeCache::load(const std::string& key, std::string* object) const {
  if (!enabled() || key.size() != kKeyBytes)
    return false;
  auto file = llvm::MemoryBuffer::getFile(path(key), /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return false;
  const llvm::StringRef data = (*file)->getBuffer();
  if (data.size() < kHeaderBytes || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0)
    return false;
  size_t at = sizeof kMagic;
  if (data.substr(at, kKeyBytes) != key)
    return false;
  at += kKeyBytes;
  uint64_t size = 0;
  std::memcpy(&size, data.data() + at, 8);
  at += 8;
  const llvm::StringRef digest = data.substr(at, kDigestBytes);
  at += kDigestBytes;
  if (size != data.size() - at)
    return false;
  const llvm::StringRef payload = data.substr(at);
  const auto actual = checksum(payload);
  if (std::memcmp(actual.data(), digest.data(), kDigestBytes) != 0)
    return false;
  object->assign(payload.data(), payload.size());
  return true;
}

void CodeCache::store(const std::string& key, const std::string& object) const {
  if (!enabled() || key.size() != kKeyBytes)
    return;
  const std::string target = path(key);
  const std::string temporary = target + ".tmp." +
                                std::to_string(llvm::sys::Process::getProcessId()) + "." +
                                std::to_string(reinterpret_cast<uintptr_t>(&object));
  {
    std::error_code error;
    llvm::raw_fd_ostream out(temporary, error, llvm::sys::fs::OF_None);
    if (error)
      return;
    out.write(kMagic, sizeof kMagic);
    out.write(key.data(), key.size());
    const uint64_t size = object.size();
    out.write(reinterpret_cast<const char*>(&size), sizeof size);
    const auto digest = checksum(object);
    out.write(reinterpret_cast<const char*>(digest.data()), digest.size());
    out.write(object.data(), object.size());
    out.close();
    if (out.has_error()) {
      out.clear_error();
      llvm::sys::fs::remove(temporary);
      return;
    }
  }
  if (llvm::sys::fs::rename(temporary, target))
    llvm::sys::fs::remove(temporary);
}

} // namespace ocelot::runtime::cpu::native
