#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ocelot::report {

/// One kernel launch of a profile file (docs/profile.schema.json), with the fields reports use
/// pulled out. `bbcount`/`ctaclock` point into the document the set keeps; null when absent.
struct Launch {
  int rank = 0;          ///< the process (MPI rank) whose file it came from
  std::string kernel;    ///< PTX name
  std::string demangled; ///< never empty (the PTX name when the profile had none)
  uint64_t launchId = 0;
  uint64_t kernelLaunch = 0;
  int device = 0;
  uint64_t stream = 0;
  uint64_t ctas = 0, threadsPerCta = 0;
  int64_t enqueuedNs = 0, completedNs = 0;
  std::optional<double> gpuMs;
  bool instrumented = false;
  std::vector<std::string> notes;
  /// The host functions that made the launch, innermost first; empty when not recorded.
  std::vector<std::string> callPath;
  /// The launching thread's NVTX push/pop ranges, outermost first (`domain@name` outside the
  /// default domain); empty without NVTX.
  std::vector<std::string> nvtx;
  const nlohmann::json* bbcount = nullptr;
  const nlohmann::json* ctaclock = nullptr;
  /// Results of other instrumentors (plugins, probes), by name.
  std::map<std::string, const nlohmann::json*> otherResults;
};

/// A copy, memset or unprofiled kernel the runtime timed with host measures on (the file's
/// `operations`, docs/report.md).
struct Operation {
  int rank = 0;
  std::string kind; ///< "kernel", "copy" or "memset"
  std::string name; ///< the kernel's PTX name, or the call family ("copy", "memset 2D", ...)
  int device = 0;
  uint64_t stream = 0;
  uint64_t bytes = 0;
  int64_t enqueuedNs = 0;
  std::optional<double> gpuNs;
};

/// A Runtime API call of a host thread (the file's `api_calls`, host measures on).
struct ApiCall {
  int rank = 0;
  std::string name; ///< cudaMemcpyAsync, __cudaLaunchKernel, ...
  uint32_t thread = 0;
  int64_t beginNs = 0, endNs = 0;
  /// Whether the host waits for the device in it: a synchronize, or a copy that is not Async.
  bool blocking() const;
};

/// An NVTX range or mark (the file's `nvtx`, with Ocelot as the NVTX injection library).
struct NvtxRecord {
  int rank = 0;
  std::string kind; ///< "push" (push/pop range), "start" (start/end range), "mark"
  std::string domain, name;
  uint32_t thread = 0;
  int64_t beginNs = 0;
  std::optional<int64_t> endNs; ///< none: still open at exit
};

/// Profiles of one or more processes: every launch, in file order, and the code structures
/// (bbcount's `cfg`) by module id. Each file is one process: its rank is the N of a
/// `.rankN.` in its name (what `ocelot run -o` writes under MPI), else its position on the
/// command line.
class ProfileSet {
public:
  /// Reads `paths`; throws std::runtime_error naming the file and what is wrong with it.
  static ProfileSet load(const std::vector<std::string>& paths);
  /// Adds the profiles of one parsed document (a profile file) as process `rank`.
  void add(const std::string& source, int rank, nlohmann::json document);

  const std::vector<Launch>& launches() const { return launches_; }
  const std::vector<Operation>& operations() const { return operations_; }
  const std::vector<ApiCall>& apiCalls() const { return apiCalls_; }
  const std::vector<NvtxRecord>& nvtx() const { return nvtx_; }
  /// Whether rank's file records device operations (written with host measures on): without
  /// them transfers are unknown, not absent.
  bool operationsRecorded(int rank) const { return operationRanks_.contains(rank); }
  /// The `cfg` written for module `id`, or nullptr.
  const nlohmann::json* structure(const std::string& id) const;
  /// The process's wall clock [start, end] in ns (the file's `wall`, written at exit), or
  /// nullopt for files without it.
  std::optional<std::pair<int64_t, int64_t>> wall(int rank) const;
  /// Ranks present, ascending.
  std::vector<int> ranks() const;
  const std::vector<std::string>& sources() const { return sources_; }
  bool empty() const { return launches_.empty(); }

private:
  std::vector<std::unique_ptr<nlohmann::json>> documents_;
  std::vector<std::string> sources_;
  std::vector<Launch> launches_;
  std::vector<Operation> operations_;
  std::vector<ApiCall> apiCalls_;
  std::vector<NvtxRecord> nvtx_;
  std::set<int> operationRanks_;
  std::map<std::string, const nlohmann::json*> structures_;
  std::map<int, std::pair<int64_t, int64_t>> walls_;
};

/// The rank a profile file's name gives (`profile.rank3.json` -> 3), or nullopt.
std::optional<int> rankFromFileName(const std::string& path);

} // namespace ocelot::report
