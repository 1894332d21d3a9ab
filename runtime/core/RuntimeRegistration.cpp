// Runtime: the __cudaRegister* entry points. They run in the application's static constructors,
// before main, so they only record what is registered; nothing here touches the driver.

#include "runtime/core/LoadedImages.h"
#include "runtime/core/Runtime.h"
#include "runtime/fatbin/Format.h"
#include "runtime/fatbin/Wrapper.h"
#include "support/ByteReader.h"

#include <cstdio>

namespace ocelot::runtime {
namespace {

/// The most per-unit containers a device-linked program may list; anything longer is a corrupt
/// (unterminated) array.
constexpr uint64_t kMaxPrelinkedUnits = 1 << 16;

std::string address(const void* pointer) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", pointer);
  return text;
}

/// Reads the container at `data`, bounded by the loaded segment that holds it.
fatbin::FatbinaryResult<FatbinaryUnit> readUnit(const void* data) {
  auto region = findImageRegion(data);
  if (!region)
    return fatbin::FatbinaryError{"container at " + address(data) + " is not in a loaded image", 0};
  auto container = fatbin::parseContainer(region->bytes, 0);
  if (!container)
    return container.error();
  FatbinaryUnit unit;
  unit.bytes = region->bytes.first(static_cast<size_t>(container->totalSize));
  unit.container = std::move(*container);
  return unit;
}

} // namespace

void Runtime::readFatbinary(FatbinaryRegistration& registration) {
  auto fail = [&](const std::string& what) { registration.readError = what; };
  auto region = findImageRegion(registration.wrapperAddress);
  if (!region)
    return fail("registration data at " + address(registration.wrapperAddress) +
                " is not in a loaded image");
  registration.imagePath = region->imagePath;

  // Some producers register a bare container instead of a wrapper; accept both.
  const void* data = registration.wrapperAddress;
  uintptr_t prelinked = 0;
  registration.wrapperVersion = fatbin::format::kWrapperVersion;
  if (!fatbin::startsWithContainer(region->bytes)) {
    auto wrapper = fatbin::decodeWrapper(region->bytes);
    if (!wrapper)
      return fail(wrapper.error().message());
    registration.wrapperVersion = wrapper->version;
    data = reinterpret_cast<const void*>(wrapper->data);
    prelinked = wrapper->linked() ? wrapper->prelinkedFatbins : 0;
  }

  auto main = readUnit(data);
  if (!main)
    return fail(main.error().message());
  registration.mainUnits.push_back(std::move(*main));

  if (prelinked == 0)
    return;
  // The null-terminated array of per-unit containers, read within its own segment.
  auto array = findImageRegion(reinterpret_cast<const void*>(prelinked));
  if (!array)
    return fail("the per-unit fatbinary list is not in a loaded image");
  support::ByteReader reader(array->bytes);
  for (uint64_t i = 0;; ++i) {
    auto entry = reader.u64(i * sizeof(uint64_t));
    if (!entry || i == kMaxPrelinkedUnits)
      return fail("the per-unit fatbinary list is not terminated");
    if (*entry == 0)
      break;
    auto unit = readUnit(reinterpret_cast<const void*>(static_cast<uintptr_t>(*entry)));
    if (!unit)
      return fail("unit " + std::to_string(i) + ": " + unit.error().message());
    registration.prelinkedUnits.push_back(std::move(*unit));
  }
}

void** Runtime::registerFatBinary(const void* fatCubin) {
  auto registration = std::make_unique<FatbinaryRegistration>();
  registration->wrapperAddress = fatCubin;
  readFatbinary(*registration);
  FatbinaryRegistration& added = registry_.addFatbinary(std::move(registration));
  std::string label = ModulePipeline::label(added);
  if (!added.readError.empty()) {
    logger_.warn(label + ": " + added.readError +
                 (added.mainUnits.empty() ? "; its kernels cannot run"
                                          : "; Ocelot will load the original code"));
  } else if (logger_.enabled(LogLevel::Debug)) {
    size_t entries = 0;
    for (const auto& unit : added.mainUnits)
      entries += unit.container.entries.size();
    logger_.debug(label + ": registered (wrapper version " + std::to_string(added.wrapperVersion) +
                  ", " + std::to_string(entries) + " entries, " +
                  std::to_string(added.prelinkedUnits.size()) + " pre-linked units)");
  }
  return added.handle();
}

void Runtime::registerFatBinaryEnd(void** handle) {
  FatbinaryRegistration* registration = registry_.findFatbinary(handle);
  if (registration == nullptr) {
    logger_.warn("__cudaRegisterFatBinaryEnd: unknown handle " + address(handle));
    return;
  }
  if (registration->ended)
    return;
  registration->ended = true;
  if (dump_)
    dump_->write(*registration, registry_.functionsOf(*registration), logger_);
}

void Runtime::unregisterFatBinary(void** handle) {
  FatbinaryRegistration* registration = registry_.findFatbinary(handle);
  if (registration == nullptr)
    return;
  // A registration that never saw __cudaRegisterFatBinaryEnd still gets its dump.
  if (!registration->ended && dump_)
    dump_->write(*registration, registry_.functionsOf(*registration), logger_);
  std::unique_ptr<FatbinaryRegistration> removed = registry_.removeFatbinary(handle);
  auto modules = modules_.take(removed->id);
  if (modules.empty() || initialize() != cudaSuccess)
    return;
  for (auto& [ordinal, module] : modules)
    if (module->handle() != nullptr)
      platform_.platform->device(ordinal).unloadModule(module->handle());
}

void Runtime::registerFunction(void** handle, const void* hostFunction, const char* deviceName) {
  if (deviceName == nullptr || !registry_.addFunction(handle, hostFunction, deviceName))
    logger_.warn("__cudaRegisterFunction: unknown handle " + address(handle) + " or no name");
  else
    logger_.debug("registered kernel " + std::string(deviceName));
}

void Runtime::registerVariable(void** handle, const RegisteredVariable& variable) {
  if (!registry_.addVariable(handle, variable))
    logger_.warn("__cudaRegister*Var: unknown handle " + address(handle) + " for " +
                 variable.deviceName);
  else
    logger_.debug("registered variable " + variable.deviceName + " (" +
                  std::to_string(variable.size) + " bytes)");
}

bool Runtime::initModule(void** handle) {
  FatbinaryRegistration* registration = registry_.findFatbinary(handle);
  if (registration == nullptr)
    return false;
  Device* device = nullptr;
  LoadedModule* module = nullptr;
  if (moduleOnCurrentDevice(*registration, &device, &module) != cudaSuccess)
    return false;
  for (const RegisteredVariable* variable : registry_.variablesOf(*registration)) {
    if (variable->managedPointer == nullptr)
      continue;
    void* storage = nullptr;
    if (device->global(module->handle(), variable->deviceName.c_str(), &storage, nullptr) !=
        cudaSuccess)
      return false;
    *variable->managedPointer = storage;
  }
  return true;
}

} // namespace ocelot::runtime
