#include "runtime/cpu/CpuModule.h"

#include "ir/Casting.h"
#include "ir/Parser.h"
#include "runtime/core/ParseErrors.h"
#include "runtime/cpu/DeviceMemory.h"
#include "runtime/cpu/ImmediateValues.h"
#include "runtime/cpu/KernelDecoder.h"

#include <cstring>

namespace ocelot::runtime::cpu {
namespace {

// A function address: kFunctionAddressBase | layout fingerprint << kTagShift | code offset.
constexpr uint64_t kFunctionAddressBase = 0x0f00000000000000ull;
constexpr unsigned kTagShift = 40;
constexpr uint64_t kTagMask = 0xffff;
constexpr uint64_t kOffsetMask = (uint64_t{1} << kTagShift) - 1;
constexpr uint64_t kInstructionBytes = 16;

Builtin builtinNamed(std::string_view name) {
  if (name == "vprintf")
    return Builtin::Vprintf;
  if (name == "malloc")
    return Builtin::Malloc;
  if (name == "free")
    return Builtin::Free;
  if (name == "__assertfail")
    return Builtin::AssertFail;
  if (name == "cudaGraphSetConditional")
    return Builtin::GraphSetConditional;
  // Dynamic parallelism: nvcc 13 calls the __cudaCDP2 spellings; hand-written PTX may use the
  // documented names.
  std::string_view call = name;
  if (call.starts_with("__cudaCDP2"))
    call = call.substr(10);
  else if (call.starts_with("cuda"))
    call = call.substr(4);
  else
    return Builtin::None;
  if (call.ends_with("_ptsz"))
    call = call.substr(0, call.size() - 5);
  if (call == "GetParameterBufferV2")
    return Builtin::DeviceGetParameterBufferV2;
  if (call == "GetParameterBuffer")
    return Builtin::DeviceGetParameterBuffer;
  if (call == "LaunchDeviceV2")
    return Builtin::DeviceLaunchV2;
  if (call == "LaunchDevice")
    return Builtin::DeviceLaunch;
  if (call == "StreamCreateWithFlags")
    return Builtin::DeviceStreamCreate;
  if (call == "GetLastError")
    return Builtin::DeviceGetLastError;
  if (call == "PeekAtLastError")
    return Builtin::DevicePeekAtLastError;
  if (call == "GetDevice")
    return Builtin::DeviceGetDevice;
  if (call == "StreamDestroy" || call == "EventCreateWithFlags" || call == "EventDestroy" ||
      call == "EventRecord" || call == "EventRecordWithFlags" || call == "StreamWaitEvent")
    return Builtin::DeviceSuccess;
  return Builtin::None;
}

bool isVisible(ir::Linkage linkage) {
  return linkage == ir::Linkage::Visible || linkage == ir::Linkage::Weak ||
         linkage == ir::Linkage::Common;
}

/// Elements of a declarator: the product of its dimensions; an unsized dimension takes the
/// initializer's length; 0 when unknown.
uint64_t elementCount(const ir::Declarator& declarator) {
  uint64_t count = 1;
  for (size_t i = 0; i < declarator.dimensions.size(); ++i) {
    const auto& dimension = declarator.dimensions[i];
    if (dimension) {
      count *= *dimension;
    } else if (i == 0 && declarator.initializer) {
      count *= declarator.initializer->size();
    } else {
      return 0;
    }
  }
  return count;
}

} // namespace

uint64_t CpuModule::functionAddress(uint32_t ordinal) const {
  return kFunctionAddressBase | codeTag_ << kTagShift |
         (functions_[ordinal].codeOffset & kOffsetMask);
}

const ModuleFunction* CpuModule::functionAt(uint64_t address) const {
  auto it = functionAtAddress_.find(address);
  return it == functionAtAddress_.end() ? nullptr : &functions_[it->second];
}

void CpuModule::layOutCode() {
  // Kernels first, as a GPU module puts them where it likes: what matters is that a module whose
  // code differs (instrumentation adds instructions to kernels and to the functions they call)
  // has other addresses for its functions, as it has on a GPU.
  std::vector<uint32_t> order;
  for (const ModuleFunction& function : functions_)
    if (function.function->isEntry())
      order.push_back(function.ordinal);
  for (const ModuleFunction& function : functions_)
    if (!function.function->isEntry())
      order.push_back(function.ordinal);
  uint64_t offset = 0;
  uint64_t fingerprint = 0xcbf29ce484222325ull; // FNV-1a over names and sizes, in layout order
  auto mix = [&](std::string_view bytes) {
    for (char c : bytes) {
      fingerprint ^= static_cast<unsigned char>(c);
      fingerprint *= 0x100000001b3ull;
    }
  };
  for (uint32_t ordinal : order) {
    ModuleFunction& function = functions_[ordinal];
    function.codeOffset = offset;
    const uint64_t instructions = function.function->hasBody()
                                      ? std::max<uint64_t>(function.function->instructionCount(), 1)
                                      : 1;
    offset += instructions * kInstructionBytes;
    mix(function.name);
    mix(std::to_string(instructions));
  }
  codeTag_ = (fingerprint ^ fingerprint >> 32) & kTagMask;
  for (const ModuleFunction& function : functions_)
    functionAtAddress_.emplace(functionAddress(function.ordinal), function.ordinal);
}

support::Expected<std::unique_ptr<CpuModule>, ModuleError>
CpuModule::load(const std::vector<std::string>& units, const std::string& label,
                DeviceMemory& memory) {
  if (units.empty())
    return ModuleError{label + ": no PTX to load"};
  std::vector<std::shared_ptr<ir::Module>> parsedUnits;
  for (size_t i = 0; i < units.size(); ++i) {
    std::string name = label + (units.size() > 1 ? ".unit" + std::to_string(i) : "") + ".ptx";
    ir::ParseResult parsed = ir::parsePtx(units[i], name);
    if (!parsed.ok())
      return ModuleError{"PTX does not parse: " + parsed.firstError(), parseFailureError(parsed)};
    parsedUnits.push_back(std::move(parsed.module));
  }
  return load(std::move(parsedUnits), label, memory);
}

support::Expected<std::unique_ptr<CpuModule>, ModuleError>
CpuModule::load(std::vector<std::shared_ptr<ir::Module>> units, const std::string& label,
                DeviceMemory& memory) {
  std::unique_ptr<CpuModule> module(new CpuModule(label, memory));
  if (units.empty())
    return ModuleError{label + ": no PTX to load"};
  for (auto& unit : units)
    if (unit == nullptr)
      return ModuleError{label + ": a unit has no IR"};
  module->units_ = std::move(units);
  const size_t unitCount = module->units_.size();
  module->unitVariables_.resize(unitCount);
  module->unitFunctions_.resize(unitCount);
  module->files_.resize(unitCount);

  // Definitions first, so that declarations resolve to them whatever the unit order.
  for (uint32_t u = 0; u < unitCount; ++u) {
    for (const auto& item : module->units_[u]->items()) {
      if (const auto* file = ir::dyn_cast<ir::FileDirective>(item.get())) {
        module->files_[u][file->index()] = file->path();
      } else if (const auto* variable = ir::dyn_cast<ir::GlobalVariable>(item.get())) {
        const ir::DeclarationSpec& spec = variable->spec();
        const ir::StateSpace space = spec.stateSpace();
        if (space != ir::StateSpace::Global && space != ir::StateSpace::Const &&
            space != ir::StateSpace::Shared)
          continue; // .tex/.surfref/.samplerref: texture references no longer exist in CUDA 13
        const bool isExtern = spec.linkage() == ir::Linkage::Extern;
        const auto type = spec.type();
        const uint32_t elementBytes = type ? scalarTypeBytes(*type) * spec.vectorWidth() : 1;
        for (const ir::Declarator& declarator : spec.declarators) {
          const uint64_t count = elementCount(declarator);
          const bool dynamicShared = space == ir::StateSpace::Shared && count == 0;
          if (isExtern && !dynamicShared)
            continue; // resolved by name against another unit's definition
          ModuleVariable entry;
          entry.name = declarator.name;
          entry.space = space;
          entry.size = count * elementBytes;
          entry.alignment = static_cast<uint32_t>(
              std::max<uint64_t>(spec.alignment(), std::max<uint32_t>(elementBytes, 1)));
          entry.unit = u;
          entry.visible = isVisible(spec.linkage());
          entry.dynamicShared = dynamicShared;
          module->unitVariables_[u].emplace(entry.name, module->variables_.size());
          if (entry.visible)
            module->visibleVariables_.emplace(entry.name, module->variables_.size());
          module->variables_.push_back(entry);
        }
      }
    }
    for (ir::Function* function : module->units_[u]->functions()) {
      if (!function->hasBody())
        continue;
      ModuleFunction entry{function->name(), function, u,
                           static_cast<uint32_t>(module->functions_.size()), Builtin::None};
      module->unitFunctions_[u].emplace(entry.name, module->functions_.size());
      if (function->linkage() != ir::Linkage::None || function->isEntry())
        module->visibleFunctions_.emplace(entry.name, module->functions_.size());
      module->functions_.push_back(entry);
    }
  }
  // Bodiless functions nobody defines: the ones the device provides itself.
  for (uint32_t u = 0; u < unitCount; ++u) {
    for (ir::Function* function : module->units_[u]->functions()) {
      if (function->hasBody() || module->visibleFunctions_.count(function->name()))
        continue;
      const Builtin builtin = builtinNamed(function->name());
      if (builtin == Builtin::None)
        continue; // calls to it fail when a kernel using them is decoded
      ModuleFunction entry{function->name(), function, u,
                           static_cast<uint32_t>(module->functions_.size()), builtin};
      module->visibleFunctions_.emplace(entry.name, module->functions_.size());
      module->functions_.push_back(entry);
    }
  }
  module->layOutCode();
  if (std::string error = module->placeVariables(); !error.empty())
    return ModuleError{error};
  return module;
}

CpuModule::~CpuModule() {
  for (void* pointer : storage_)
    memory_.release(pointer);
}

std::string CpuModule::placeVariables() {
  for (ModuleVariable& variable : variables_) {
    if (variable.space == ir::StateSpace::Shared)
      continue;
    void* storage =
        memory_.allocate(std::max<uint64_t>(variable.size, 1), DeviceMemory::Kind::Module);
    if (storage == nullptr)
      return "out of device memory for the variable " + std::string(variable.name);
    storage_.push_back(storage);
    variable.address = reinterpret_cast<uintptr_t>(storage);
  }
  // Initializers may hold the addresses of other variables: all are placed by now.
  for (uint32_t u = 0; u < units_.size(); ++u) {
    for (const auto& item : units_[u]->items()) {
      const auto* global = ir::dyn_cast<ir::GlobalVariable>(item.get());
      if (global == nullptr)
        continue;
      const ir::DeclarationSpec& spec = global->spec();
      const ir::StateSpace space = spec.stateSpace();
      if (space != ir::StateSpace::Global && space != ir::StateSpace::Const)
        continue;
      for (const ir::Declarator& declarator : spec.declarators) {
        if (!declarator.initializer)
          continue;
        auto it = unitVariables_[u].find(declarator.name);
        if (it == unitVariables_[u].end() || !spec.type())
          continue;
        std::string error =
            initialize(variables_[it->second], declarator, *spec.type(), spec.vectorWidth());
        if (!error.empty())
          return error;
      }
    }
  }
  return {};
}

std::string CpuModule::initialize(const ModuleVariable& variable, const ir::Declarator& declarator,
                                  ir::ScalarType type, unsigned vectorWidth) {
  (void)vectorWidth; // vector elements are nested lists, flattened below
  const uint32_t bytes = scalarTypeBytes(type);
  auto* storage = reinterpret_cast<std::byte*>(variable.address);
  uint64_t offset = 0;
  std::string error;
  auto write = [&](uint64_t value) {
    if (offset + bytes > variable.size) {
      error = "initializer of " + std::string(variable.name) + " is longer than the variable";
      return;
    }
    std::memcpy(storage + offset, &value, bytes); // little endian: the low bytes
    offset += bytes;
  };
  auto scalar = [&](const ir::Operand& operand) {
    if (const auto* immediate = operand.getIf<ir::ImmediateOperand>()) {
      auto bits = immediateBits(*immediate, type);
      if (!bits) {
        error = "initializer of " + std::string(variable.name) + " has a literal of another type";
        return;
      }
      write(*bits);
    } else if (const auto* symbol = operand.getIf<ir::SymbolOperand>()) {
      uint64_t address = 0;
      if (const ModuleVariable* target = findVariable(variable.unit, symbol->name))
        address = target->address;
      else if (const ModuleFunction* function = findFunction(variable.unit, symbol->name))
        address = functionAddress(function->ordinal);
      else
        error = "initializer of " + std::string(variable.name) + " names unknown symbol " +
                std::string(symbol->name);
      write(address + static_cast<uint64_t>(symbol->offset));
    } else {
      error = "unsupported initializer of " + std::string(variable.name);
    }
  };
  auto visit = [&](auto& self, const ir::Initializer& init) -> void {
    switch (init.kind()) {
    case ir::Initializer::Kind::Value:
      scalar(init.scalar());
      break;
    case ir::Initializer::Kind::IntegerList:
      for (int64_t value : init.integerValues()) {
        if (!error.empty())
          return;
        write(static_cast<uint64_t>(value));
      }
      break;
    case ir::Initializer::Kind::List:
      for (const ir::Initializer& element : init.elements()) {
        if (!error.empty())
          return;
        self(self, element);
      }
      break;
    }
  };
  visit(visit, *declarator.initializer);
  return error;
}

const ModuleVariable* CpuModule::findVariable(uint32_t unit, std::string_view name) const {
  if (unit < unitVariables_.size()) {
    if (auto it = unitVariables_[unit].find(name); it != unitVariables_[unit].end())
      return &variables_[it->second];
  }
  if (auto it = visibleVariables_.find(name); it != visibleVariables_.end())
    return &variables_[it->second];
  return nullptr;
}

const ModuleFunction* CpuModule::findFunction(uint32_t unit, std::string_view name) const {
  if (unit < unitFunctions_.size()) {
    if (auto it = unitFunctions_[unit].find(name); it != unitFunctions_[unit].end())
      return &functions_[it->second];
  }
  if (auto it = visibleFunctions_.find(name); it != visibleFunctions_.end())
    return &functions_[it->second];
  return nullptr;
}

const ModuleVariable* CpuModule::findGlobal(std::string_view name) const {
  if (auto it = visibleVariables_.find(name); it != visibleVariables_.end())
    return &variables_[it->second];
  for (const ModuleVariable& variable : variables_)
    if (variable.name == name && variable.space != ir::StateSpace::Shared)
      return &variable;
  return nullptr;
}

std::string_view CpuModule::fileName(uint32_t unit, uint32_t index) const {
  if (unit >= files_.size())
    return {};
  auto it = files_[unit].find(index);
  return it == files_[unit].end() ? std::string_view{} : it->second;
}

bool CpuModule::hasKernel(std::string_view name) const {
  for (const ModuleFunction& function : functions_)
    if (function.name == name && function.function->isEntry())
      return true;
  return false;
}

support::Expected<std::shared_ptr<const DecodedKernel>, ModuleError>
CpuModule::kernel(std::string_view name) {
  std::lock_guard lock(kernelsMutex_);
  if (auto it = kernels_.find(std::string(name)); it != kernels_.end())
    return it->second;
  const ModuleFunction* found = nullptr;
  for (const ModuleFunction& function : functions_)
    if (function.name == name && function.function->isEntry())
      found = &function;
  support::Expected<std::shared_ptr<const DecodedKernel>, ModuleError> result =
      found != nullptr ? decodeKernel(*this, *found)
                       : support::Expected<std::shared_ptr<const DecodedKernel>, ModuleError>(
                             ModuleError{"no kernel named " + std::string(name)});
  kernels_.emplace(std::string(name), result);
  return result;
}

} // namespace ocelot::runtime::cpu
