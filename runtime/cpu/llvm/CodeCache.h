#pragma once

#include <string>

namespace ocelot::runtime::cpu::native {

/// Machine code on disk, one file per key (a hash of the plan and the target). Every file carries
/// its key, its size and a checksum of its contents; a file that does not match them (truncated,
/// overwritten, from another key) is ignored and replaced, never trusted. Files are written under a
/// temporary name and renamed, so concurrent processes never see half a file.
class CodeCache {
public:
  /// An empty directory disables the cache.
  explicit CodeCache(std::string directory);

  bool enabled() const { return !directory_.empty(); }
  const std::string& directory() const { return directory_; }

  /// The object code stored under `key`, if a valid entry exists.
  bool load(const std::string& key, std::string* object) const;
  /// Stores `object` under `key` (failures are ignored: the cache is an optimization).
  void store(const std::string& key, const std::string& object) const;

  std::string path(const std::string& key) const;

private:
  std::string directory_;
};

} // namespace ocelot::runtime::cpu::native
