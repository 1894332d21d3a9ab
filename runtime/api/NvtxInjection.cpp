// Ocelot as an NVTX injection library: an application's NVTX calls (nvtx3 headers) load the library
// NVTX_INJECTION64_PATH names (`ocelot run` points it at this libcudart.so.13) and call
// InitializeInjectionNvtx2, which fills NVTX's function tables with the callbacks below. They
// forward to the runtime's NvtxRanges (ranges for the trace, each launch's range stack,
// `--nvtx-include`). Nothing here may throw into the application.

#include "runtime/api/ApiBoundary.h"

#include <nvtx3/nvToolsExt.h>
#include <string>

namespace ocelot::runtime::api {
namespace {

instrumentation::NvtxRanges& ranges() {
  return runtime().nvtx();
}

std::string message(const nvtxEventAttributes_t* attributes) {
  if (attributes == nullptr)
    return "";
  switch (attributes->messageType) {
  case NVTX_MESSAGE_TYPE_ASCII:
    return attributes->message.ascii != nullptr ? attributes->message.ascii : "";
  case NVTX_MESSAGE_TYPE_REGISTERED:
    return ranges().registeredString(attributes->message.registered);
  case NVTX_MESSAGE_TYPE_UNICODE: {
    // Names are kept as UTF-8-ish bytes: ASCII code points as they are, others as '?'.
    std::string text;
    for (const wchar_t* c = attributes->message.unicode; c != nullptr && *c != 0; ++c)
      text += *c < 128 ? static_cast<char>(*c) : '?';
    return text;
  }
  default:
    return "";
  }
}

template <class Body> auto guarded(Body&& body, decltype(body()) fallback) noexcept {
  try {
    return body();
  } catch (...) {
    return fallback;
  }
}

using Domain = instrumentation::NvtxRanges::Domain;

void NVTX_API markA(const char* text) {
  guarded(
      [&] {
        ranges().mark(nullptr, text != nullptr ? text : "");
        return 0;
      },
      0);
}
void NVTX_API markEx(const nvtxEventAttributes_t* attributes) {
  guarded(
      [&] {
        ranges().mark(nullptr, message(attributes));
        return 0;
      },
      0);
}
nvtxRangeId_t NVTX_API rangeStartA(const char* text) {
  return guarded([&] { return ranges().start(nullptr, text != nullptr ? text : ""); },
                 nvtxRangeId_t{0});
}
nvtxRangeId_t NVTX_API rangeStartEx(const nvtxEventAttributes_t* attributes) {
  return guarded([&] { return ranges().start(nullptr, message(attributes)); }, nvtxRangeId_t{0});
}
void NVTX_API rangeEnd(nvtxRangeId_t id) {
  guarded(
      [&] {
        ranges().end(id);
        return 0;
      },
      0);
}
int NVTX_API rangePushA(const char* text) {
  return guarded([&] { return ranges().push(nullptr, text != nullptr ? text : ""); }, -1);
}
int NVTX_API rangePushEx(const nvtxEventAttributes_t* attributes) {
  return guarded([&] { return ranges().push(nullptr, message(attributes)); }, -1);
}
int NVTX_API rangePop() {
  return guarded([&] { return ranges().pop(nullptr); }, -1);
}

void NVTX_API domainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  guarded(
      [&] {
        ranges().mark(domain, message(attributes));
        return 0;
      },
      0);
}
nvtxRangeId_t NVTX_API domainRangeStartEx(nvtxDomainHandle_t domain,
                                          const nvtxEventAttributes_t* attributes) {
  return guarded([&] { return ranges().start(domain, message(attributes)); }, nvtxRangeId_t{0});
}
void NVTX_API domainRangeEnd(nvtxDomainHandle_t /*domain*/, nvtxRangeId_t id) {
  guarded(
      [&] {
        ranges().end(id);
        return 0;
      },
      0);
}
int NVTX_API domainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  return guarded([&] { return ranges().push(domain, message(attributes)); }, -1);
}
int NVTX_API domainRangePop(nvtxDomainHandle_t domain) {
  return guarded([&] { return ranges().pop(domain); }, -1);
}
nvtxStringHandle_t NVTX_API domainRegisterStringA(nvtxDomainHandle_t domain, const char* text) {
  return guarded(
      [&] {
        return static_cast<nvtxStringHandle_t>(
            const_cast<void*>(ranges().registerString(domain, text)));
      },
      nvtxStringHandle_t{nullptr});
}
nvtxDomainHandle_t NVTX_API domainCreateA(const char* name) {
  return guarded(
      [&] {
        return static_cast<nvtxDomainHandle_t>(const_cast<void*>(ranges().createDomain(name)));
      },
      nvtxDomainHandle_t{nullptr});
}
void NVTX_API domainDestroy(nvtxDomainHandle_t domain) {
  guarded(
      [&] {
        ranges().destroyDomain(domain);
        return 0;
      },
      0);
}

/// Points the entry `id` of one of NVTX's function tables at `function`.
template <class Function>
void install(NvtxFunctionTable table, unsigned int size, unsigned int id, Function function) {
  if (table != nullptr && id < size && table[id] != nullptr)
    *table[id] = reinterpret_cast<NvtxFunctionPointer>(function);
}

} // namespace
} // namespace ocelot::runtime::api

using namespace ocelot::runtime::api;

/// NVTX's entry point into an injection library: returns 1 when the callbacks are installed, 0 to
/// leave NVTX's calls doing nothing.
extern "C" int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable) {
  try {
    if (getExportTable == nullptr)
      return 0;
    const auto* callbacks =
        static_cast<const NvtxExportTableCallbacks*>(getExportTable(NVTX_ETID_CALLBACKS));
    if (callbacks == nullptr || callbacks->struct_size < sizeof(NvtxExportTableCallbacks) ||
        callbacks->GetModuleFunctionTable == nullptr)
      return 0;
    NvtxFunctionTable core = nullptr, core2 = nullptr;
    unsigned int coreSize = 0, core2Size = 0;
    if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &coreSize) == 0 ||
        callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &core2Size) == 0)
      return 0;
    install(core, coreSize, NVTX_CBID_CORE_MarkA, &markA);
    install(core, coreSize, NVTX_CBID_CORE_MarkEx, &markEx);
    install(core, coreSize, NVTX_CBID_CORE_RangeStartA, &rangeStartA);
    install(core, coreSize, NVTX_CBID_CORE_RangeStartEx, &rangeStartEx);
    install(core, coreSize, NVTX_CBID_CORE_RangeEnd, &rangeEnd);
    install(core, coreSize, NVTX_CBID_CORE_RangePushA, &rangePushA);
    install(core, coreSize, NVTX_CBID_CORE_RangePushEx, &rangePushEx);
    install(core, coreSize, NVTX_CBID_CORE_RangePop, &rangePop);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainMarkEx, &domainMarkEx);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRangeStartEx, &domainRangeStartEx);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRangeEnd, &domainRangeEnd);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRangePushEx, &domainRangePushEx);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRangePop, &domainRangePop);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRegisterStringA, &domainRegisterStringA);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainCreateA, &domainCreateA);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainDestroy, &domainDestroy);
    runtime().nvtx().attach();
    return 1;
  } catch (...) {
    return 0;
  }
}
