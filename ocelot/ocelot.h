#pragma once

// Ocelot's in-process API: add and remove instrumentors while the application runs, and receive
// a KernelProfile for each instrumented launch as soon as its kernel has finished. The functions
// live in Ocelot's libcudart.so.13 (version node OCELOT_1); link a client with it
// (find_package(Ocelot), target Ocelot::cudart). All functions are thread safe.
//
//     auto counter = ocelot::addInstrumentor("bbcount");
//     auto token = ocelot::subscribe([](std::shared_ptr<const ocelot::KernelProfile> p) {
//       if (auto* counts = p->result<ocelot::BasicBlockCounts>())
//         std::printf("%s: %llu instructions\n", p->demangledName().c_str(),
//                     (unsigned long long)counts->dynamicInstructions());
//     });
//     kernel<<<grid, block>>>(...);      // instrumented from this launch on
//     ocelot::removeInstrumentor(counter); // the next launch runs the original kernel again

#include "ocelot/BasicBlockCounts.h"
#include "ocelot/CtaClockTimes.h"
#include "ocelot/Instrumentor.h"
#include "ocelot/InstrumentorOptions.h"
#include "ocelot/KernelProfile.h"
#include "ocelot/KernelSelection.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot {

/// Identifies an added instrumentor; 0 is never a valid handle.
using InstrumentorHandle = uint64_t;
/// Identifies a callback subscription; 0 is never a valid handle.
using SubscriptionHandle = uint64_t;
using ProfileCallback = std::function<void(const std::shared_ptr<const KernelProfile>&)>;
using InstrumentorFactory =
    std::function<std::shared_ptr<const PTXInstrumentor>(const InstrumentorOptions&)>;

/// Activates an instrumentor for launches made after this call returns. Kernels are instrumented
/// lazily, at their first launch that needs the new set of instrumentors.
InstrumentorHandle addInstrumentor(std::shared_ptr<const PTXInstrumentor> instrumentor);
/// Creates the registered instrumentor `name` ("bbcount", "ctaclock", a plugin's) with `options`
/// and activates it. Throws std::invalid_argument for an unknown name or bad options.
InstrumentorHandle addInstrumentor(std::string_view name, const InstrumentorOptions& options = {});
/// Deactivates an instrumentor from the next launch on (launches already made still deliver
/// their profiles). False for an unknown handle.
bool removeInstrumentor(InstrumentorHandle handle);
void removeAllInstrumentors();
/// "name options" of each active instrumentor, in slot order.
std::vector<std::string> activeInstrumentors();

/// Registers an instrumentor type under `name`, like a plugin does. Throws std::invalid_argument
/// when the name is taken or malformed.
void registerInstrumentor(std::string name, std::string description, InstrumentorFactory factory);
/// Loads a plugin library and returns the names it registered. Throws std::runtime_error.
std::vector<std::string> loadPlugin(const std::string& path);
/// Names and descriptions of the registered instrumentors.
std::vector<std::pair<std::string, std::string>> availableInstrumentors();

/// Which launches are instrumented (default: all). Throws std::invalid_argument for a bad regular
/// expression. Launch numbering restarts with new rules.
void setSelection(const SelectionRules& rules);
SelectionRules selection();

/// The profile of the launch whose results arrived last, or nullptr.
std::shared_ptr<const KernelProfile> kernelProfile();
/// Calls `callback` with every profile from now on, on Ocelot's profile thread, as soon as the
/// launch's kernel has finished (in the order results arrive). Callbacks may call this API and the
/// CUDA runtime; they should return quickly, as later profiles wait for them.
SubscriptionHandle subscribe(ProfileCallback callback);
/// After this returns the callback is not running and will not be called again (unless called
/// from the callback itself, which then finishes its current call).
bool unsubscribe(SubscriptionHandle handle);
/// Blocks until the profiles of every launch made before the call have been delivered. It waits
/// for those kernels to finish, like a stream synchronization would, without synchronizing the
/// application's streams.
void flushProfiles();

} // namespace ocelot
