// The process's runtime, assembled: the back ends it may run on and the instrumentation that
// intercepts its launches. The one place that knows every layer below the API; each of those
// layers knows only the ones under it (tests/LayersTest.cmake keeps that true).

#include "runtime/core/LogLevelVariable.h"
#include "runtime/core/PlatformSelection.h"
#include "runtime/core/Runtime.h"
#include "runtime/cpu/CpuPlatform.h"
#include "runtime/driver/DriverPlatform.h"
#include "runtime/instrumentation/InstrumentationFramework.h"

#include <memory>
#include <string>

namespace ocelot::runtime {

Runtime* Runtime::create() {
  auto backends = std::make_shared<PlatformRegistry>();
  driver::registerPlatform(*backends);
  cpu::registerPlatform(*backends);
  // Leaked on purpose; see instance().
  auto* runtime = new Runtime([backends] { return selectPlatform(*backends); });
  if (std::string problem = logLevelVariableProblem(); !problem.empty())
    Logger(LogLevel::Warn).warn(problem);
  instrumentation::InstrumentationFramework::installOn(*runtime);
  return runtime;
}

Runtime& Runtime::process() {
  return instance();
}

} // namespace ocelot::runtime
