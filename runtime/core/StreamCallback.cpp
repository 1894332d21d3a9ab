#include "runtime/core/StreamCallback.h"

#include <memory>

namespace ocelot::runtime {

void CUDART_CB StreamCallback::run(void* record) {
  std::unique_ptr<StreamCallback> callback(static_cast<StreamCallback*>(record));
  callback->callback(callback->stream, cudaSuccess, callback->userData);
}

} // namespace ocelot::runtime
