#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ocelot::ir {
class Module;
}

namespace ocelot::runtime {

/// What a device is asked to load for one registered fatbinary.
struct ModuleImage {
  enum class Form {
    Ptx,       ///< one PTX module, Ocelot's output
    LinkedPtx, ///< -rdc: one relocatable PTX module per unit, to be JIT-linked into one module
    Original,  ///< the application's own fatbinary container or cubin, loaded as NVIDIA would
  };

  Form form = Form::Original;
  std::vector<std::string> ptx; ///< Ptx: one text; LinkedPtx: one per unit
  /// The same units as Ocelot's IR, exactly what `ptx` was emitted from, when the module pipeline
  /// was asked to keep them (for a device that runs the IR itself, Device::runsIr): the device
  /// takes them instead of parsing `ptx` again. Empty otherwise.
  std::vector<std::shared_ptr<ir::Module>> units;
  std::span<const std::byte> original; ///< Original: bytes in the application's image
  std::string label;                   ///< names the module in log lines
};

} // namespace ocelot::runtime
