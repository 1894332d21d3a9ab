#pragma once

#include "ir/Module.h"
#include "runtime/cpu/DecodedKernel.h"
#include "support/Expected.h"

#include <cstdint>
#include <driver_types.h>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ocelot::runtime::cpu {

class DeviceMemory;

/// Why a module could not be loaded or a kernel not decoded: one line for the user.
struct ModuleError {
  std::string message;
  /// What the runtime answers: cudaErrorInvalidPtx for PTX that ptxas would refuse too,
  /// cudaErrorUnsupportedPtxVersion, cudaErrorMemoryAllocation (the front end's budget), or
  /// cudaErrorNotSupported for valid PTX the CPU device cannot run yet.
  cudaError_t error = cudaErrorInvalidPtx;
};

/// A module-scope variable of a loaded module.
struct ModuleVariable {
  std::string_view name;
  ir::StateSpace space = ir::StateSpace::Global; ///< Global, Const or Shared
  uintptr_t address = 0;                         ///< Global and Const: the storage in device memory
  uint64_t size = 0;
  uint32_t alignment = 1;
  uint32_t unit = 0;
  bool visible = false;       ///< .visible / .weak / .common: other units can link to it
  bool dynamicShared = false; ///< `.extern .shared x[]`: the launch's dynamic shared memory
};

/// A function of a loaded module (with or without a body).
struct ModuleFunction {
  std::string_view name;
  ir::Function* function = nullptr; ///< the definition when there is one, else the declaration
  uint32_t unit = 0;
  uint32_t ordinal = 0;            ///< index in CpuModule::functions()
  Builtin builtin = Builtin::None; ///< for bodiless functions the device provides
  uint64_t codeOffset = 0;         ///< where the module's code layout puts it (see functionAddress)
};

/// A module loaded on the CPU device: its PTX units parsed into IR (several units when the
/// program was built with -rdc, linked here by name as the driver's JIT linker would), every
/// .global and .const variable placed in device memory and initialized, and its kernels decoded
/// on first use.
class CpuModule {
public:
  /// Parses and links `units` (one PTX text each) and places the variables in `memory`.
  static support::Expected<std::unique_ptr<CpuModule>, ModuleError>
  load(const std::vector<std::string>& units, const std::string& label, DeviceMemory& memory);
  /// The same for units already parsed (by the module pipeline): they are not parsed again. The
  /// module keeps them; nothing else may change them while it is loaded.
  static support::Expected<std::unique_ptr<CpuModule>, ModuleError>
  load(std::vector<std::shared_ptr<ir::Module>> units, const std::string& label,
       DeviceMemory& memory);
  ~CpuModule();
  /// A device reset released the arena: the destructor must not release the variables' storage
  /// (by then it may belong to newer allocations).
  void forgetStorage() { storage_.clear(); }
  CpuModule(const CpuModule&) = delete;
  CpuModule& operator=(const CpuModule&) = delete;

  const std::string& label() const { return label_; }
  DeviceMemory& memory() const { return memory_; }
  size_t unitCount() const { return units_.size(); }
  ir::Module& unit(uint32_t index) const { return *units_[index]; }

  /// Name lookup as seen from `unit`: its own definitions first, then visible ones of any unit.
  const ModuleVariable* findVariable(uint32_t unit, std::string_view name) const;
  const ModuleFunction* findFunction(uint32_t unit, std::string_view name) const;
  /// A visible (or the first) variable by name, for cudaMemcpyToSymbol & co.
  const ModuleVariable* findGlobal(std::string_view name) const;

  const std::vector<ModuleFunction>& functions() const { return functions_; }
  /// The value a function's name has in device code (its "address"), and back. As on a GPU, a
  /// function address belongs to the module that took it: it is the function's offset in this
  /// module's code layout (kernels first, then the other functions, 16 bytes per instruction),
  /// tagged with a fingerprint of that layout. The same PTX loaded twice gives the same values;
  /// a value taken in a module with another layout (an instrumented copy, say) is not a function
  /// of this one, and an indirect call through it faults instead of calling something.
  uint64_t functionAddress(uint32_t ordinal) const;
  /// The function at `address` in this module, or nullptr.
  const ModuleFunction* functionAt(uint64_t address) const;
  /// The `.file` path of a unit by index, "" when there is none.
  std::string_view fileName(uint32_t unit, uint32_t index) const;

  /// The kernel named `name`, decoded on first use (thread-safe). Decoding fails for kernels that
  /// use instructions the CPU device does not implement; the error names them.
  support::Expected<std::shared_ptr<const DecodedKernel>, ModuleError>
  kernel(std::string_view name);
  bool hasKernel(std::string_view name) const;

private:
  CpuModule(std::string label, DeviceMemory& memory) : label_(std::move(label)), memory_(memory) {}
  void layOutCode();
  std::string placeVariables();
  std::string initialize(const ModuleVariable& variable, const ir::Declarator& declarator,
                         ir::ScalarType type, unsigned vectorWidth);

  std::string label_;
  DeviceMemory& memory_;
  std::vector<std::shared_ptr<ir::Module>> units_;
  std::vector<ModuleVariable> variables_;
  std::vector<ModuleFunction> functions_;
  /// Per unit: name -> index into variables_ / functions_ (definitions of that unit).
  std::vector<std::unordered_map<std::string_view, size_t>> unitVariables_, unitFunctions_;
  std::unordered_map<std::string_view, size_t> visibleVariables_, visibleFunctions_;
  std::vector<std::map<uint32_t, std::string_view>> files_;
  uint64_t codeTag_ = 0; ///< the layout's fingerprint, in the bits above the offsets
  std::unordered_map<uint64_t, uint32_t> functionAtAddress_; ///< address -> ordinal
  std::vector<void*> storage_; ///< device memory of the variables, released with the module

  mutable std::mutex kernelsMutex_;
  std::unordered_map<std::string,
                     support::Expected<std::shared_ptr<const DecodedKernel>, ModuleError>>
      kernels_;
};

} // namespace ocelot::runtime::cpu
