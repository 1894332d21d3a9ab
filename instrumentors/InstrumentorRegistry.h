#pragma once

#include "ocelot/Instrumentor.h"
#include "ocelot/InstrumentorOptions.h"
#include "ocelot/Plugin.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ocelot::instrumentors {

using InstrumentorFactory =
    std::function<std::shared_ptr<const PTXInstrumentor>(const InstrumentorOptions&)>;

/// Instrumentor types by name: the built-in ones (registered at construction through the plugin
/// interface, like any plugin) and those plugins and clients register. Thread safe.
class InstrumentorRegistry {
public:
  InstrumentorRegistry();
  InstrumentorRegistry(const InstrumentorRegistry&) = delete;
  InstrumentorRegistry& operator=(const InstrumentorRegistry&) = delete;

  /// Throws std::invalid_argument when the name is taken or malformed (letters, digits, '-', '_').
  void add(std::string name, std::string description, InstrumentorFactory factory);
  bool contains(std::string_view name) const;
  /// A new instrumentor; throws std::invalid_argument for an unknown name or bad options.
  std::shared_ptr<const PTXInstrumentor> create(std::string_view name,
                                                const InstrumentorOptions& options) const;
  /// (name, description), sorted by name.
  std::vector<std::pair<std::string, std::string>> list() const;

  /// Loads a plugin library: checks its ABI version and calls its entry point. Returns the names
  /// it registered. A library already loaded is not loaded twice (its names are returned again).
  /// Throws std::runtime_error with a message that says what is wrong.
  std::vector<std::string> loadPlugin(const std::string& path);

  /// The host structure handed to plugin entry points, registering into this registry.
  ocelot_plugin_host_v1 host();
  /// The host structure's register_instrumentor: `registry` is an InstrumentorRegistry.
  static int registerThroughHost(void* registry, const char* name, const char* description,
                                 ocelot_instrumentor_factory_v1 factory, void* userData);

private:
  struct Entry {
    std::string description;
    InstrumentorFactory factory;
  };

  mutable std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> entries_;
  std::map<std::string, std::vector<std::string>> plugins_; ///< loaded library -> its names
  std::vector<std::string>* registering_ = nullptr;         ///< names the current plugin adds
};

/// One item of an instrumentor list: a registered name or a plugin path, with options.
struct InstrumentorSpec {
  std::string name; ///< "bbcount", or a path when isPath
  bool isPath = false;
  InstrumentorOptions options;
};

/// Parses "bbcount:mode=per-thread,ctaclock,/opt/libmine.so:k=v" (OCELOT_INSTRUMENTORS, `ocelot
/// run -i`). An item is a path when it contains '/' or ends in ".so". Throws
/// std::invalid_argument on an empty item or malformed options.
std::vector<InstrumentorSpec> parseInstrumentorList(std::string_view text);

} // namespace ocelot::instrumentors
