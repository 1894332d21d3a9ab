#include "instrumentors/ProbeSpec.h"

#include <charconv>
#include <stdexcept>
#include <utility>

namespace ocelot::instrumentors {

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    size_t at = text.find(separator);
    parts.push_back(trim(text.substr(0, at)));
    if (at == std::string_view::npos)
      break;
    text.remove_prefix(at + 1);
  }
  return parts;
}

/// "head NAME; k=v; k=v" -> NAME and the pairs (empty parts are skipped).
std::pair<std::string, std::vector<std::pair<std::string, std::string>>>
keyValues(std::string_view text, std::string_view head) {
  auto parts = split(text, ';');
  std::string_view first = parts.front();
  if (!first.starts_with(head))
    throw std::invalid_argument("a spec must start with '" + std::string(head) + "'");
  std::string name(trim(first.substr(head.size())));
  if (name.empty())
    throw std::invalid_argument("a spec without a name");
  std::vector<std::pair<std::string, std::string>> pairs;
  for (size_t i = 1; i < parts.size(); ++i) {
    if (parts[i].empty())
      continue;
    size_t eq = parts[i].find('=');
    if (eq == std::string_view::npos)
      throw std::invalid_argument(name + ": '" + std::string(parts[i]) + "' is not key=value");
    pairs.emplace_back(std::string(trim(parts[i].substr(0, eq))),
                       std::string(trim(parts[i].substr(eq + 1))));
  }
  return {name, pairs};
}

uint64_t number(const std::string& owner, const std::string& key, const std::string& value) {
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size())
    throw std::invalid_argument(owner + ": " + key + "=" + value + " is not a number");
  return n;
}

std::regex regex(const std::string& owner, const std::string& key, const std::string& value) {
  try {
    return std::regex(value, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw std::invalid_argument(owner + ": " + key + "=" + value +
                                " is not a regular expression (" + e.what() + ")");
  }
}

std::optional<probe::OpcodeClass> opcodeClassFromName(std::string_view name) {
  for (unsigned c = 0; c < probe::kOpcodeClassCount; ++c)
    if (opcodeClassName(probe::OpcodeClass(c)) == name)
      return probe::OpcodeClass(c);
  return std::nullopt;
}

} // namespace

uint32_t regionId(std::string_view name) {
  uint32_t hash = 2166136261u;
  for (char c : name)
    hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  return hash;
}

std::string_view perName(RegionSpec::Per per) {
  switch (per) {
  case RegionSpec::Per::Instruction:
    return "instruction";
  case RegionSpec::Per::Block:
    return "block";
  case RegionSpec::Per::Site:
    return "site";
  case RegionSpec::Per::Kernel:
    return "kernel";
  case RegionSpec::Per::Warp:
    return "warp";
  case RegionSpec::Per::Cta:
    return "cta";
  case RegionSpec::Per::Thread:
    return "thread";
  case RegionSpec::Per::Sm:
    return "sm";
  case RegionSpec::Per::None:
    return "none";
  }
  return "none";
}

ProbeSpec parseProbeSpec(std::string_view text) {
  auto [name, pairs] = keyValues(text, "probe ");
  ProbeSpec spec;
  spec.name = name;
  spec.text = std::string(text);
  Placement& p = spec.placement;
  bool atGiven = false, whenGiven = false, guardGiven = false;
  auto fail = [&](const std::string& why) -> std::invalid_argument {
    return std::invalid_argument("probe '" + name + "': " + why);
  };
  for (const auto& [key, value] : pairs) {
    std::string owner = "probe '" + name + "'";
    if (key == "at") {
      atGiven = true;
      if (value == "kernel-entry") {
        p.at = Placement::At::KernelEntry;
      } else if (value == "kernel-exit") {
        p.at = Placement::At::KernelExit;
      } else if (value == "block-entry") {
        p.at = Placement::At::BlockEntry;
      } else if (value == "instruction") {
        p.at = Placement::At::Instruction;
      } else if (value == "branch" || value == "call" || value == "barrier") {
        p.at = Placement::At::Instruction;
        p.classes.push_back(value == "branch" ? probe::kBranch
                            : value == "call" ? probe::kCall
                                              : probe::kBarrier);
        if (value == "branch" && !guardGiven)
          p.receiveGuard = true;
      } else {
        throw fail("at=" + value +
                   " (kernel-entry, kernel-exit, block-entry, instruction, branch, call, barrier)");
      }
    } else if (key == "when") {
      whenGiven = true;
      if (value == "before")
        p.before = true, p.after = false;
      else if (value == "after")
        p.before = false, p.after = true;
      else if (value == "around")
        p.before = true, p.after = true;
      else
        throw fail("when=" + value + " (before, after, around)");
    } else if (key == "class") {
      for (std::string_view c : split(value, ',')) {
        if (c == "memory") {
          p.classes.insert(p.classes.end(), {probe::kLoad, probe::kStore, probe::kAtomic});
          continue;
        }
        auto cls = opcodeClassFromName(c);
        if (!cls)
          throw fail("class=" + std::string(c) + " is no opcode class");
        p.classes.push_back(*cls);
      }
    } else if (key == "opcode") {
      for (std::string_view o : split(value, ',')) {
        if (o.empty())
          continue;
        ir::Opcode opcode = ir::opcodeFromName(o);
        if (opcode == ir::Opcode::Unknown)
          throw fail("opcode=" + std::string(o) + " is no PTX opcode (write it without modifiers)");
        p.opcodes.push_back(opcode);
      }
    } else if (key == "space") {
      for (std::string_view s : split(value, ',')) {
        bool found = false;
        for (unsigned k = probe::kGeneric; k <= probe::kOtherSpace; ++k)
          if (stateSpaceName(probe::StateSpace(k)) == s) {
            p.spaces.push_back(probe::StateSpace(k));
            found = true;
          }
        if (!found)
          throw fail("space=" + std::string(s) + " (generic, global, shared, local, const, param)");
      }
    } else if (key == "kind") {
      for (std::string_view k : split(value, ',')) {
        if (k == "load")
          p.kinds.push_back(probe::kRead);
        else if (k == "store")
          p.kinds.push_back(probe::kWrite);
        else if (k == "atomic")
          p.kinds.push_back(probe::kAtomicAccess);
        else
          throw fail("kind=" + std::string(k) + " (load, store, atomic)");
      }
    } else if (key == "guarded") {
      if (value == "yes")
        p.guarded = true;
      else if (value == "no")
        p.guarded = false;
      else
        throw fail("guarded=" + value + " (yes, no)");
    } else if (key == "kernel") {
      p.kernel = regex(owner, key, value);
      p.kernelText = value;
    } else if (key == "file") {
      p.file = regex(owner, key, value);
      p.fileText = value;
    } else if (key == "guard") {
      guardGiven = true;
      if (value == "skip")
        p.receiveGuard = false;
      else if (value == "receive")
        p.receiveGuard = true;
      else
        throw fail("guard=" + value + " (skip, receive)");
    } else if (key == "derivable") {
      if (value == "skip")
        p.skipDerivable = true;
      else if (value == "probe")
        p.skipDerivable = false;
      else
        throw fail("derivable=" + value + " (skip, probe)");
    } else if (key == "sample-warps" || key == "sample-launches") {
      uint64_t n = number(owner, key, value);
      if (n == 0 || n > UINT32_MAX)
        throw fail(key + "=" + value + " must be at least 1");
      (key == "sample-warps" ? p.sampleWarps : p.sampleLaunches) = static_cast<uint32_t>(n);
    } else {
      throw fail("unknown key '" + key + "'");
    }
  }
  if (!atGiven)
    throw fail("no placement (at=kernel-entry, kernel-exit, block-entry, instruction, branch, "
               "call or barrier)");
  if (whenGiven && p.at != Placement::At::Instruction)
    throw fail("when= applies to instruction placements only");
  bool instructionFilters = !p.classes.empty() || !p.opcodes.empty() || !p.spaces.empty() ||
                            !p.kinds.empty() || p.guarded.has_value();
  if (instructionFilters && p.at != Placement::At::Instruction)
    throw fail("class=, opcode=, space=, kind= and guarded= apply to instruction placements only");
  if (p.skipDerivable && p.at != Placement::At::Instruction)
    throw fail("derivable= applies to instruction placements only");
  return spec;
}

RegionSpec parseRegionSpec(std::string_view text) {
  auto [name, pairs] = keyValues(text, "region ");
  RegionSpec spec;
  spec.name = name;
  spec.id = regionId(name);
  spec.text = std::string(text);
  std::string owner = "region '" + name + "'";
  auto fail = [&](const std::string& why) -> std::invalid_argument {
    return std::invalid_argument(owner + ": " + why);
  };
  bool perGiven = false, countGiven = false;
  for (const auto& [key, value] : pairs) {
    if (key == "kind") {
      if (value == "counters")
        spec.kind = ProbeRegion::Kind::Counters;
      else if (value == "histogram")
        spec.kind = ProbeRegion::Kind::Histogram;
      else if (value == "stream")
        spec.kind = ProbeRegion::Kind::Stream;
      else
        throw fail("kind=" + value);
    } else if (key == "type") {
      spec.type = value;
    } else if (key == "bytes") {
      spec.bytes = static_cast<uint32_t>(number(owner, key, value));
    } else if (key == "align") {
      spec.align = static_cast<uint32_t>(number(owner, key, value));
    } else if (key == "per") {
      perGiven = true;
      bool found = false;
      for (auto per : {RegionSpec::Per::Instruction, RegionSpec::Per::Block, RegionSpec::Per::Site,
                       RegionSpec::Per::Kernel, RegionSpec::Per::Warp, RegionSpec::Per::Cta,
                       RegionSpec::Per::Thread, RegionSpec::Per::Sm, RegionSpec::Per::None})
        if (perName(per) == value) {
          spec.per = per;
          found = true;
        }
      if (!found)
        throw fail("per=" + value +
                   " (instruction, block, site, kernel, warp, cta, thread, sm, none)");
    } else if (key == "count" || key == "capacity") {
      countGiven = true;
      spec.count = number(owner, key, value);
    } else if (key == "stripes") {
      spec.stripes = static_cast<uint32_t>(number(owner, key, value));
      if (spec.stripes == 0 || (spec.stripes & (spec.stripes - 1)) != 0 || spec.stripes > 1024)
        throw fail("stripes=" + value + " must be a power of two up to 1024");
    } else if (key == "bins") {
      spec.bins = static_cast<uint32_t>(number(owner, key, value));
      if (spec.bins == 0 || spec.bins > (1u << 20))
        throw fail("bins=" + value + " must be 1 to 1048576");
    } else if (key == "entries") {
      if (value == "lanes")
        spec.entries = RegionSpec::Entries::Lanes;
      else if (value == "warps")
        spec.entries = RegionSpec::Entries::Warps;
      else
        throw fail("entries=" + value + " (lanes, warps)");
    } else if (key == "sms") {
      spec.sms = static_cast<uint32_t>(number(owner, key, value));
      if (spec.sms == 0)
        throw fail("sms=0");
    } else {
      throw fail("unknown key '" + key + "'");
    }
  }
  if (spec.bytes == 0 || spec.bytes > 4096)
    throw fail("element size " + std::to_string(spec.bytes) + " (1 to 4096 bytes)");
  if (spec.align == 0 || spec.align > 16 || (spec.align & (spec.align - 1)) != 0)
    throw fail("alignment " + std::to_string(spec.align) + " (at most 16)");
  if (spec.kind == ProbeRegion::Kind::Stream) {
    if (perGiven && spec.per != RegionSpec::Per::None)
      throw fail("a stream has a capacity, not per=");
    if (!countGiven)
      throw fail("a stream needs capacity=N (records)");
    if (spec.stripes != 1 || spec.bins != 1)
      throw fail("a stream has neither stripes nor bins");
  } else {
    if (spec.type == "record")
      throw fail("counters need an arithmetic type (unsigned int, unsigned long long, int, "
                 "long long, float, double)");
    if (countGiven && spec.per != RegionSpec::Per::None)
      throw fail("count= goes with per=none");
    if (spec.kind == ProbeRegion::Kind::Counters && spec.bins != 1)
      throw fail("bins= goes with OCELOT_HISTOGRAM");
  }
  if (spec.entries != RegionSpec::Entries::None &&
      (spec.kind != ProbeRegion::Kind::Counters || spec.per != RegionSpec::Per::Block ||
       spec.type != "u64"))
    throw fail("entries= goes with unsigned long long counters per=block (OCELOT_BLOCK_COUNTS)");
  if (spec.count == 0 || spec.count > (uint64_t{1} << 40))
    throw fail("count " + std::to_string(spec.count) + " out of range");
  return spec;
}

} // namespace ocelot::instrumentors
