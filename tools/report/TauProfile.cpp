#include "tools/report/TauProfile.h"

#include "tools/report/KernelTotals.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <tuple>

namespace ocelot::report {

std::string tauName(const std::string& name) {
  std::string out;
  for (char c : name)
    out += c == '"' ? '\'' : (c == '\n' || c == '\r') ? ' ' : c;
  return out;
}

namespace {

std::string xml(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '\n':
      out += ' ';
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.10g", std::isfinite(v) ? v : 0.0);
  return text;
}

/// Count, max, min, mean and sum of squares of one user event.
struct Samples {
  uint64_t count = 0;
  double max = 0, min = 0, sum = 0, sumSquares = 0;
  void add(double v) {
    if (count == 0 || v > max)
      max = v;
    if (count == 0 || v < min)
      min = v;
    ++count;
    sum += v;
    sumSquares += v * v;
  }
};

struct Function {
  uint64_t calls = 0;
  double microseconds = 0;
  bool callpath = false; ///< "range => ... => kernel": the NVTX ranges the launch was made in
};

} // namespace

std::vector<std::string> writeTauProfiles(const ProfileSet& set, const std::string& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error)
    throw std::runtime_error(directory + ": " + error.message());
  // (rank, device, stream) -> thread number within the rank
  std::map<std::tuple<int, int, uint64_t>, std::vector<const Launch*>> streams;
  for (const Launch& l : set.launches())
    streams[{l.rank, l.device, l.stream}].push_back(&l);
  std::map<int, int> threadsOfRank;
  std::vector<std::string> written;
  for (const auto& [key, launches] : streams) {
    auto [rank, device, stream] = key;
    int thread = threadsOfRank[rank]++;
    std::map<std::string, Function> functions; // by TAU name, in name order
    std::map<std::string, Samples> events;
    for (const Launch* l : launches) {
      std::string name = tauName(l->demangled);
      Function& f = functions[name];
      ++f.calls;
      if (l->gpuMs)
        f.microseconds += *l->gpuMs * 1000.0;
      if (!l->nvtx.empty()) {
        // TAU's callpath notation: the launching thread's NVTX push/pop ranges, outermost first,
        // then the kernel, as ParaProf shows a call path (the flat entry above stays).
        std::string path;
        for (const std::string& range : l->nvtx)
          path += tauName(range) + " => ";
        Function& c = functions[path + name];
        c.callpath = true;
        ++c.calls;
        if (l->gpuMs)
          c.microseconds += *l->gpuMs * 1000.0;
      }
      if (auto v = launchInstructions(*l))
        events["Dynamic PTX instructions : " + name].add(*v);
      if (l->bbcount != nullptr)
        events["Basic-block executions : " + name].add(
            static_cast<double>(l->bbcount->value("block_executions", uint64_t{0})));
      if (auto v = launchImbalance(*l))
        events["SM load imbalance : " + name].add(*v);
    }
    std::string path = (std::filesystem::path(directory) /
                        ("profile." + std::to_string(rank) + ".0." + std::to_string(thread)))
                           .string();
    std::ofstream out(path, std::ios::trunc);
    if (!out)
      throw std::runtime_error(path + ": cannot write");
    char streamText[32];
    std::snprintf(streamText, sizeof streamText, "0x%llx", static_cast<unsigned long long>(stream));
    out << functions.size() << " templated_functions_MULTI_TIME\n";
    out << "# Name Calls Subrs Excl Incl ProfileCalls<metadata>"
        << "<attribute><name>Ocelot rank</name><value>" << rank << "</value></attribute>"
        << "<attribute><name>Ocelot device</name><value>" << device << "</value></attribute>"
        << "<attribute><name>Ocelot stream</name><value>" << streamText << "</value></attribute>"
        << "<attribute><name>Ocelot timer</name><value>GPU time of kernels (events around each "
           "launch), microseconds</value></attribute>"
        << "<attribute><name>Ocelot source</name><value>"
        << xml(set.sources().empty() ? std::string() : set.sources()[0])
        << "</value></attribute></metadata>\n";
    for (const auto& [name, f] : functions)
      out << '"' << name << "\" " << f.calls << " 0 " << number(f.microseconds) << " "
          << number(f.microseconds) << " 0 GROUP=\""
          << (f.callpath ? "TAU_GPU | TAU_CALLPATH" : "TAU_GPU") << "\"\n";
    out << "0 aggregates\n";
    if (!events.empty()) {
      out << events.size() << " userevents\n";
      out << "# eventname numevents max min mean sumsqr\n";
      for (const auto& [name, s] : events)
        out << '"' << name << "\" " << s.count << " " << number(s.max) << " " << number(s.min)
            << " " << number(s.sum / static_cast<double>(s.count)) << " " << number(s.sumSquares)
            << "\n";
    }
    if (!out)
      throw std::runtime_error(path + ": write failed");
    written.push_back(path);
  }
  return written;
}

} // namespace ocelot::report
