// ocelot/ocelot.h: the in-process API, exported from libcudart.so.13 under version node OCELOT_1.
// Each function forwards to the instrumentation framework of the process's runtime; the runtime
// is created on first use, so the API works before the application's first CUDA call.

#include "ocelot/ocelot.h"
#include "runtime/api/ApiBoundary.h"
#include "runtime/instrumentation/InstrumentationFramework.h"

namespace ocelot {

namespace {

runtime::instrumentation::InstrumentationFramework& framework() {
  return runtime::instrumentation::InstrumentationFramework::of(runtime::api::runtime());
}

} // namespace

InstrumentorHandle addInstrumentor(std::shared_ptr<const PTXInstrumentor> instrumentor) {
  return framework().add(std::move(instrumentor));
}

InstrumentorHandle addInstrumentor(std::string_view name, const InstrumentorOptions& options) {
  return framework().add(name, options);
}

bool removeInstrumentor(InstrumentorHandle handle) {
  return framework().remove(handle);
}

void removeAllInstrumentors() {
  framework().removeAll();
}

std::vector<std::string> activeInstrumentors() {
  return framework().activeDescriptions();
}

void registerInstrumentor(std::string name, std::string description, InstrumentorFactory factory) {
  framework().registry().add(std::move(name), std::move(description), std::move(factory));
}

std::vector<std::string> loadPlugin(const std::string& path) {
  return framework().registry().loadPlugin(path);
}

std::vector<std::pair<std::string, std::string>> availableInstrumentors() {
  return framework().registry().list();
}

void setSelection(const SelectionRules& rules) {
  framework().setSelection(rules);
}

SelectionRules selection() {
  return framework().selection();
}

std::shared_ptr<const KernelProfile> kernelProfile() {
  return framework().profiles().latest();
}

SubscriptionHandle subscribe(ProfileCallback callback) {
  return framework().profiles().subscribe(std::move(callback));
}

bool unsubscribe(SubscriptionHandle handle) {
  return framework().profiles().unsubscribe(handle);
}

void flushProfiles() {
  framework().flush();
}

} // namespace ocelot
