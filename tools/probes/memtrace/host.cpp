// memtrace, the host side: each launch's records appended to a zstd-compressed trace file (one
// frame per launch, TraceFormat.h), up to a size cap; the result says what was written and what
// was dropped.
//
//   ocelot run -i memtrace:file=trace.zst:max-mb=512:records.count=1048576 -- ./app
//   ocelot run -i memtrace:traceAccess.sample-warps=8 -- ./app        (every 8th warp)
#include "TraceFormat.h"
#include "ocelot/ProbeTool.h"

#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unistd.h>
#include <vector>

namespace {

using ocelot::Json;

/// The trace files of the process, by path: launches append to the file their options name.
class TraceFiles {
public:
  struct Written {
    uint64_t records = 0, bytes = 0, droppedByCap = 0;
  };
  /// Appends one launch's frame; throws std::runtime_error when the file cannot be written.
  Written append(const std::string& path, uint64_t capBytes, const memtrace::LaunchHeader& header,
                 const std::string& kernel, const std::vector<memtrace::WarpAccess>& records) {
    std::lock_guard lock(mutex_);
    File& file = files_[path];
    if (!file.handle) {
      // The first launch starts the file afresh; later ones append.
      file.handle.reset(std::fopen(path.c_str(), "wb"));
      if (!file.handle)
        throw std::runtime_error("cannot write the trace file '" + path +
                                 "': " + std::strerror(errno));
    }
    Written out;
    // Records go in while the frame fits the cap, counting the compressed size conservatively
    // as ZSTD_compressBound of what is kept.
    uint64_t keep = records.size();
    auto frameBound = [&](uint64_t n) {
      return ZSTD_compressBound(sizeof header + kernel.size() + n * sizeof(memtrace::WarpAccess));
    };
    while (keep > 0 && file.bytes + frameBound(keep) > capBytes)
      keep = file.bytes + frameBound(0) > capBytes ? 0 : keep / 2;
    if (file.bytes + frameBound(keep) > capBytes) {
      out.droppedByCap = records.size();
      return out;
    }
    out.droppedByCap = records.size() - keep;
    memtrace::LaunchHeader h = header;
    h.records = keep;
    h.dropped += out.droppedByCap;
    std::vector<char> raw(sizeof h + kernel.size() + keep * sizeof(memtrace::WarpAccess));
    std::memcpy(raw.data(), &h, sizeof h);
    std::memcpy(raw.data() + sizeof h, kernel.data(), kernel.size());
    if (keep != 0)
      std::memcpy(raw.data() + sizeof h + kernel.size(), records.data(),
                  keep * sizeof(memtrace::WarpAccess));
    std::vector<char> frame(ZSTD_compressBound(raw.size()));
    size_t size = ZSTD_compress(frame.data(), frame.size(), raw.data(), raw.size(), 3);
    if (ZSTD_isError(size))
      throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(size));
    if (std::fwrite(frame.data(), 1, size, file.handle.get()) != size ||
        std::fflush(file.handle.get()) != 0)
      throw std::runtime_error("cannot write the trace file '" + path +
                               "': " + std::strerror(errno));
    file.bytes += size;
    out.records = keep;
    out.bytes = size;
    return out;
  }

private:
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  struct File {
    std::unique_ptr<std::FILE, Closer> handle;
    uint64_t bytes = 0;
  };
  std::mutex mutex_;
  std::map<std::string, File> files_;
};

class MemoryTrace final : public ocelot::InstrumentorResult {
public:
  MemoryTrace(const ocelot::ProbeData& data, TraceFiles& files) {
    std::vector<std::string> errors = data.errors();
    const ocelot::InstrumentorOptions& options = data.options();
    std::string path = options.text("file", "memtrace-" + std::to_string(::getpid()) + ".zst");
    auto records = data.records<memtrace::WarpAccess>("records");
    uint64_t inKernel = data.dropped("records");
    TraceFiles::Written written;
    try {
      uint64_t capMb = options.unsignedNumber("max-mb", 4096);
      if (capMb == 0)
        throw std::invalid_argument("max-mb=0: the size cap must be at least 1 MB");
      memtrace::LaunchHeader header{{'O', 'C', 'M', 'T', 'R', 'C', '1', 0},
                                    data.launch().launchId,
                                    0,
                                    inKernel,
                                    sizeof(memtrace::WarpAccess),
                                    static_cast<unsigned>(data.launch().kernelName.size())};
      written = files.append(path, capMb << 20, header, data.launch().kernelName, records);
    } catch (const std::exception& e) {
      errors.push_back(std::string("memtrace: ") + e.what() + "; this launch is not traced");
      written.droppedByCap = records.size();
    }
    // The instructions the records name, so that the trace reads without the module.
    Json instructions = Json::object();
    for (const auto& r : records)
      if (r.instruction < data.instructions().size() &&
          !instructions.contains(std::to_string(r.instruction))) {
        const ocelot::ProbeInstruction& inst = data.instructions()[r.instruction];
        instructions[std::to_string(r.instruction)] = {{"function", inst.function},
                                                       {"opcode", inst.opcode},
                                                       {"location", data.location(r.instruction)}};
      }
    records_ = written.records;
    dropped_ = inKernel + written.droppedByCap;
    file_ = path;
    failed_ = !errors.empty();
    json_ = {{"file", path},
             {"records", written.records},
             {"compressed_bytes", written.bytes},
             {"dropped_capacity", inKernel},
             {"dropped_size_cap", written.droppedByCap},
             {"instructions", std::move(instructions)},
             {"errors", std::move(errors)}};
  }
  std::string_view instrumentor() const override { return "memtrace"; }
  Json json() const override { return json_; }
  std::string summary() const override {
    std::string line = std::to_string(records_) + " warp accesses traced to " + file_;
    if (dropped_ != 0)
      line += ", " + std::to_string(dropped_) +
              " dropped (raise records.count= or max-mb=, or sample with "
              "traceAccess.sample-warps=)";
    if (failed_)
      line += "; errors: " + json_["errors"].back().get<std::string>();
    return line;
  }

private:
  Json json_;
  uint64_t records_ = 0, dropped_ = 0;
  std::string file_;
  bool failed_ = false;
};

ocelot::ProbeToolDefinition memtraceTool() {
  ocelot::ProbeToolDefinition tool{
      "memtrace",
      "every warp-level memory access (each lane's address) to a zstd-compressed file "
      "(file=PATH, max-mb=N)",
      ocelot::embeddedProbeModules(),
      {},
      {"file", "max-mb"}};
  auto files = std::make_shared<TraceFiles>();
  tool.result = [files](const ocelot::ProbeData& data) {
    return std::make_shared<MemoryTrace>(data, *files);
  };
  return tool;
}

} // namespace

OCELOT_PROBE_TOOL(memtraceTool)
