#include "instrumentors/InstrumentorRegistry.h"

#include "instrumentors/BuiltinInstrumentors.h"
#include "instrumentors/ProbeInstrumentor.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <dlfcn.h>
#include <stdexcept>

namespace ocelot::instrumentors {

namespace {

bool validName(std::string_view name) {
  return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

/// Wraps a plugin's C factory.
InstrumentorFactory fromCFactory(ocelot_instrumentor_factory_v1 factory, void* userData,
                                 std::string name) {
  return [factory, userData, name](const InstrumentorOptions& options) {
    char error[512] = {};
    std::string text = options.toString();
    void* created = factory(text.c_str(), error, sizeof error, userData);
    if (created == nullptr)
      throw std::invalid_argument(name + ": " + (error[0] != '\0' ? error : "cannot be created"));
    return std::shared_ptr<const PTXInstrumentor>(static_cast<PTXInstrumentor*>(created));
  };
}

} // namespace

InstrumentorRegistry::InstrumentorRegistry() {
  ocelot_plugin_host_v1 builtin = host();
  if (registerBuiltinInstrumentors(&builtin) != 0)
    throw std::logic_error("the built-in instrumentors do not register");
}

int InstrumentorRegistry::registerThroughHost(void* registry, const char* name,
                                              const char* description,
                                              ocelot_instrumentor_factory_v1 factory,
                                              void* userData) {
  if (registry == nullptr || name == nullptr || factory == nullptr)
    return 1;
  auto& self = *static_cast<InstrumentorRegistry*>(registry);
  try {
    self.add(name, description != nullptr ? description : "",
             fromCFactory(factory, userData, name));
  } catch (const std::exception&) {
    return 1;
  }
  if (self.registering_ != nullptr)
    self.registering_->push_back(name);
  return 0;
}

ocelot_plugin_host_v1 InstrumentorRegistry::host() {
  return ocelot_plugin_host_v1{OCELOT_PLUGIN_ABI_VERSION, this, &registerThroughHost,
                               &registerProbeToolThroughHost};
}

void InstrumentorRegistry::add(std::string name, std::string description,
                               InstrumentorFactory factory) {
  if (!validName(name))
    throw std::invalid_argument("instrumentor name '" + name +
                                "' is not letters, digits, '-' and '_'");
  if (!factory)
    throw std::invalid_argument("instrumentor " + name + " has no factory");
  std::lock_guard lock(mutex_);
  if (entries_.contains(name))
    throw std::invalid_argument("an instrumentor named " + name + " is already registered");
  entries_.emplace(std::move(name), Entry{std::move(description), std::move(factory)});
}

bool InstrumentorRegistry::contains(std::string_view name) const {
  std::lock_guard lock(mutex_);
  return entries_.find(name) != entries_.end();
}

std::shared_ptr<const PTXInstrumentor>
InstrumentorRegistry::create(std::string_view name, const InstrumentorOptions& options) const {
  InstrumentorFactory factory;
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      std::string known;
      for (const auto& [n, e] : entries_)
        known += (known.empty() ? "" : ", ") + n;
      throw std::invalid_argument("no instrumentor named '" + std::string(name) +
                                  "' (registered: " + known + ")");
    }
    factory = it->second.factory;
  }
  auto instrumentor = factory(options); // outside the lock: factories may be slow or re-enter
  if (!instrumentor)
    throw std::invalid_argument(std::string(name) + ": the factory made no instrumentor");
  return instrumentor;
}

std::vector<std::pair<std::string, std::string>> InstrumentorRegistry::list() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, entry] : entries_)
    out.emplace_back(name, entry.description);
  return out;
}

std::vector<std::string> InstrumentorRegistry::loadPlugin(const std::string& path) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = plugins_.find(path); it != plugins_.end())
      return it->second;
  }
  // Plugins stay loaded for the life of the process: instrumentors they made may be in use.
  void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* reason = ::dlerror();
    throw std::runtime_error("cannot load plugin " + path + ": " +
                             (reason != nullptr ? reason : "unknown reason"));
  }
  auto version =
      reinterpret_cast<ocelot_plugin_abi_version_fn>(::dlsym(library, "ocelot_plugin_abi_version"));
  auto entry =
      reinterpret_cast<ocelot_plugin_entry_v1_fn>(::dlsym(library, "ocelot_plugin_entry_v1"));
  if (version == nullptr || entry == nullptr)
    throw std::runtime_error(
        path + " is not an Ocelot plugin (it lacks " +
        (version == nullptr ? "ocelot_plugin_abi_version" : "ocelot_plugin_entry_v1") + ")");
  uint32_t abi = version();
  if (abi != OCELOT_PLUGIN_ABI_VERSION)
    throw std::runtime_error(path + " was built for plugin ABI " + std::to_string(abi) +
                             ", this Ocelot has ABI " + std::to_string(OCELOT_PLUGIN_ABI_VERSION));
  std::vector<std::string> names;
  ocelot_plugin_host_v1 hostStructure = host();
  int status = 0;
  {
    // registering_ collects the names; entry points run one at a time.
    static std::mutex entryMutex;
    std::lock_guard entryLock(entryMutex);
    registering_ = &names;
    status = entry(&hostStructure);
    registering_ = nullptr;
  }
  if (status != 0)
    throw std::runtime_error(path + ": the plugin's entry point failed (status " +
                             std::to_string(status) + ")");
  if (names.empty())
    throw std::runtime_error(path + " registered no instrumentor");
  std::lock_guard lock(mutex_);
  plugins_[path] = names;
  return names;
}

std::vector<InstrumentorSpec> parseInstrumentorList(std::string_view text) {
  std::vector<InstrumentorSpec> specs;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string_view item = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front())))
      item.remove_prefix(1);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back())))
      item.remove_suffix(1);
    if (item.empty())
      throw std::invalid_argument("empty item in instrumentor list '" + std::string(text) + "'");
    size_t colon = item.find(':');
    InstrumentorSpec spec;
    spec.name = std::string(item.substr(0, colon));
    spec.isPath = spec.name.find('/') != std::string::npos || spec.name.ends_with(".so");
    if (colon != std::string_view::npos)
      spec.options = InstrumentorOptions::parse(item.substr(colon + 1));
    specs.push_back(std::move(spec));
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  return specs;
}

} // namespace ocelot::instrumentors
