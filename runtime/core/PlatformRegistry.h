#pragma once

#include "runtime/core/PlatformResult.h"

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ocelot::runtime {

/// The back ends a runtime may run on, by name: "gpu" (the NVIDIA driver) and "cpu" (Ocelot's CPU
/// back end). Each back end's own file adds its factory (driver::registerPlatform,
/// cpu::registerPlatform), so that the core chooses among them (selectPlatform) without
/// including any of them.
class PlatformRegistry {
public:
  using Factory = std::function<PlatformResult()>;

  /// Adds (or replaces) the back end `name`.
  void add(std::string name, Factory factory) {
    for (auto& [known, existing] : factories_)
      if (known == name) {
        existing = std::move(factory);
        return;
      }
    factories_.emplace_back(std::move(name), std::move(factory));
  }

  bool has(std::string_view name) const { return find(name) != nullptr; }

  /// Starts the back end `name`; without one of that name, no platform and why.
  PlatformResult create(std::string_view name) const {
    if (const Factory* factory = find(name))
      return (*factory)();
    return {nullptr, cudaErrorNoDevice, 0,
            "this build of Ocelot has no '" + std::string(name) + "' back end"};
  }

private:
  const Factory* find(std::string_view name) const {
    for (const auto& [known, factory] : factories_)
      if (known == name)
        return &factory;
    return nullptr;
  }

  std::vector<std::pair<std::string, Factory>> factories_;
};

} // namespace ocelot::runtime
