#include "instrumentors/ProbeProgram.h"

#include "ir/Casting.h"
#include "ir/Parser.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>

namespace ocelot::instrumentors {

namespace {

constexpr std::string_view kProbePrefix = "__ocelot_spec_probe_";
constexpr std::string_view kRegionPrefix = "__ocelot_spec_region_";

constexpr std::array<std::string_view, 21> kIntrinsics{"__ocelot_probe_kernel_id",
                                                       "__ocelot_probe_site_id",
                                                       "__ocelot_probe_instruction_id",
                                                       "__ocelot_probe_block_id",
                                                       "__ocelot_probe_opcode_class",
                                                       "__ocelot_probe_source_file",
                                                       "__ocelot_probe_source_line",
                                                       "__ocelot_probe_when",
                                                       "__ocelot_probe_address",
                                                       "__ocelot_probe_access_size",
                                                       "__ocelot_probe_state_space",
                                                       "__ocelot_probe_access_kind",
                                                       "__ocelot_probe_predicate",
                                                       "__ocelot_probe_region_base",
                                                       "__ocelot_probe_region_elements",
                                                       "__ocelot_probe_region_index",
                                                       "__ocelot_probe_region_stripes",
                                                       "__ocelot_probe_region_bins",
                                                       "__ocelot_probe_block_entries_reach",
                                                       "__ocelot_probe_guarded",
                                                       "__ocelot_probe_skipped_lanes_derivable"};

/// The text of a spec variable: its byte initializer up to the first 0. Empty when the variable
/// has no byte initializer; `truncated` when the text filled the array.
std::string specText(const ir::Declarator& declarator, bool& truncated) {
  std::string text;
  truncated = false;
  if (!declarator.initializer)
    return text;
  const ir::Initializer& init = *declarator.initializer;
  auto add = [&](int64_t value) {
    if (value == 0)
      return false;
    text.push_back(static_cast<char>(value));
    return true;
  };
  bool ended = false;
  if (init.kind() == ir::Initializer::Kind::IntegerList) {
    for (int64_t v : init.integerValues())
      if (!add(v)) {
        ended = true;
        break;
      }
  } else if (init.kind() == ir::Initializer::Kind::List) {
    for (const auto& element : init.elements()) {
      const auto* imm = element.kind() == ir::Initializer::Kind::Value
                            ? element.scalar().getIf<ir::ImmediateOperand>()
                            : nullptr;
      if (imm == nullptr || !add(imm->integerValue())) {
        ended = true;
        break;
      }
    }
  }
  uint64_t size = 0;
  if (!declarator.dimensions.empty() && declarator.dimensions.front())
    size = *declarator.dimensions.front();
  truncated = !ended && size != 0 && text.size() + 1 >= size;
  return text;
}

} // namespace

unsigned architectureNumber(const ir::Module& module) {
  std::string_view arch = module.architecture();
  if (!arch.starts_with("sm_"))
    return 0;
  unsigned number = 0;
  std::from_chars(arch.data() + 3, arch.data() + arch.size(), number);
  return number;
}

bool ProbeProgram::isIntrinsic(std::string_view name) {
  for (std::string_view known : kIntrinsics)
    if (known == name)
      return true;
  return false;
}

const RegionSpec* ProbeProgram::region(uint32_t id) const {
  for (const auto& r : regions_)
    if (r.id == id)
      return &r;
  return nullptr;
}

ProbeProgram::ProbeProgram(const std::vector<std::string>& ptx) {
  std::vector<std::string> problems;
  std::vector<std::pair<ProbeSpec, const ir::Function*>> specs;
  if (ptx.empty())
    problems.push_back("no probe module (the tool has no PTX)");
  for (size_t m = 0; m < ptx.size(); ++m) {
    std::string label = "probe module " + std::to_string(m + 1);
    ir::ParseResult parsed = ir::parsePtx(ptx[m], label);
    if (!parsed.ok()) {
      problems.push_back(label + " does not parse: " + parsed.firstError());
      continue;
    }
    ir::Module& module = *parsed.module;
    if (module.addressSize().value_or(64) != 64)
      problems.push_back(label + ": probes must be compiled for 64-bit addresses");
    architecture_ = std::max(architecture_, architectureNumber(module));
    for (const auto& item : module.items()) {
      const auto* global = ir::dyn_cast<ir::GlobalVariable>(item.get());
      if (global == nullptr)
        continue;
      for (const auto& declarator : global->spec().declarators) {
        bool isProbe = declarator.name.starts_with(kProbePrefix);
        bool isRegion = declarator.name.starts_with(kRegionPrefix);
        if (!isProbe && !isRegion)
          continue;
        std::string_view name =
            declarator.name.substr((isProbe ? kProbePrefix : kRegionPrefix).size());
        bool truncated = false;
        std::string text = specText(declarator, truncated);
        std::string what = std::string(isProbe ? "probe '" : "region '") + std::string(name) + "'";
        if (truncated) {
          problems.push_back(what + ": its spec is too long");
          continue;
        }
        try {
          if (isProbe) {
            ProbeSpec spec = parseProbeSpec(text);
            const ir::Function* function = module.findFunction(spec.name);
            if (function == nullptr || !function->hasBody())
              problems.push_back(what + ": no function of that name in the probe module");
            else
              specs.emplace_back(std::move(spec), function);
          } else {
            RegionSpec spec = parseRegionSpec(text);
            bool duplicate = false;
            for (const auto& other : regions_) {
              if (other.name == spec.name && other.text == spec.text)
                duplicate = true; // the same declaration in two modules (a shared header)
              else if (other.name == spec.name)
                throw std::invalid_argument(what + " is declared twice, differently");
              else if (other.id == spec.id)
                throw std::invalid_argument(what + " has the same id as region '" + other.name +
                                            "'; rename one");
            }
            if (!duplicate)
              regions_.push_back(std::move(spec));
          }
        } catch (const std::invalid_argument& e) {
          problems.push_back(e.what());
        }
      }
    }
    modules_.push_back(std::shared_ptr<const ir::Module>(std::move(parsed.module)));
  }
  for (auto& [spec, function] : specs) {
    for (const auto& other : probes_)
      if (other.spec.name == spec.name)
        problems.push_back("probe '" + spec.name + "' is declared twice");
    try {
      probes_.push_back({spec, passes::InlineTemplate::prepare(*function, &isIntrinsic)});
    } catch (const passes::InlineError& e) {
      problems.push_back("probe '" + spec.name + "' " + e.what());
    }
  }
  bool laneCounts = std::any_of(regions_.begin(), regions_.end(), [](const RegionSpec& r) {
    return r.entries == RegionSpec::Entries::Lanes;
  });
  for (const auto& probe : probes_)
    if (probe.spec.placement.skipDerivable && !laneCounts)
      problems.push_back("probe '" + probe.spec.name +
                         "': derivable=skip needs the lanes' block entries to derive from "
                         "(OCELOT_BLOCK_COUNTS(name, \"lanes\"))");
  if (problems.empty() && probes_.empty())
    problems.push_back("the probe modules declare no probe (OCELOT_PROBE)");
  if (probes_.size() > 30)
    problems.push_back("more than 30 probes in one tool");
  if (!problems.empty()) {
    std::string message;
    for (const auto& p : problems)
      message += (message.empty() ? "" : "\n") + p;
    throw std::invalid_argument(message);
  }
}

bool ProbeProgram::isOverride(std::string_view key) const {
  size_t dot = key.rfind('.');
  if (dot == std::string_view::npos)
    return false;
  std::string_view owner = key.substr(0, dot), setting = key.substr(dot + 1);
  for (const auto& p : probes_)
    if (p.spec.name == owner)
      return setting == "sample-warps" || setting == "sample-launches" || setting == "kernel";
  for (const auto& r : regions_)
    if (r.name == owner)
      return setting == "count";
  return false;
}

ProbeProgram ProbeProgram::configured(const InstrumentorOptions& options) const {
  ProbeProgram copy = *this;
  for (const auto& [key, value] : options.values()) {
    if (!isOverride(key))
      continue;
    size_t dot = key.rfind('.');
    std::string owner = key.substr(0, dot), setting = key.substr(dot + 1);
    for (auto& p : copy.probes_) {
      if (p.spec.name != owner)
        continue;
      Placement& placement = p.spec.placement;
      if (setting == "kernel") {
        try {
          placement.kernel = std::regex(value, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
          throw std::invalid_argument(key + "=" + value + " is not a regular expression (" +
                                      e.what() + ")");
        }
        placement.kernelText = value;
        continue;
      }
      uint64_t n = options.unsignedNumber(key, 1);
      if (n == 0 || n > UINT32_MAX)
        throw std::invalid_argument(key + "=" + value + " must be at least 1");
      (setting == "sample-warps" ? placement.sampleWarps : placement.sampleLaunches) =
          static_cast<uint32_t>(n);
    }
    for (auto& r : copy.regions_) {
      if (r.name != owner)
        continue;
      if (r.per != RegionSpec::Per::None)
        throw std::invalid_argument(key + ": region '" + r.name + "' is sized per " +
                                    std::string(perName(r.per)) + ", not by a count");
      uint64_t n = options.unsignedNumber(key, 1);
      if (n == 0 || n > (uint64_t{1} << 40))
        throw std::invalid_argument(key + "=" + value + " out of range");
      r.count = n;
    }
  }
  return copy;
}

} // namespace ocelot::instrumentors
