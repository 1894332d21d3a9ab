#include "ocelot/Instrumentor.h"

namespace ocelot {

VariantChoice PTXInstrumentor::variant(const LaunchInfo&, const KernelFacts&) const {
  return {};
}

} // namespace ocelot
