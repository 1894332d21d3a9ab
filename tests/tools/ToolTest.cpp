// The `ocelot` command line as users meet it: bad options fail before anything runs, with the
// valid values named; --version; `-` reads standard input; --help lists every instrumentor's
// options; `ocelot run` refuses applications linked with NVIDIA's static runtime.

#include "tests/support/Ptxas.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int status = -1;
  std::string out;
  std::string err;
};

std::string quote(const std::string& word) {
  std::string quoted = "'";
  for (char c : word)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class ToolTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/ocelot-tool-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, ignored);
    fs::remove_all(dir_, ignored);
  }

  /// Runs `ocelot ARGS` (with `input` on standard input, and `variable` (NAME=VALUE) set when
  /// given) and collects what it printed.
  Outcome ocelot(const std::vector<std::string>& args, const std::string& input = "",
                 const std::string& variable = "") {
    std::ofstream(dir_ / "stdin") << input;
    std::string command =
        (variable.empty() ? "" : "env " + quote(variable) + " ") + quote(OCELOT_TOOL);
    for (const auto& arg : args)
      command += " " + quote(arg);
    command += " <" + quote((dir_ / "stdin").string()) + " >" + quote((dir_ / "stdout").string()) +
               " 2>" + quote((dir_ / "stderr").string());
    int raw = std::system(command.c_str());
    Outcome outcome;
    outcome.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    outcome.out = readFile(dir_ / "stdout");
    outcome.err = readFile(dir_ / "stderr");
    return outcome;
  }

  fs::path dir_;
};

constexpr const char* kModule = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_param_0)
{
	.reg .pred %p<2>;
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra $L__done;
	st.global.u32 [%rd1], %r1;
$L__done:
	ret;
}
)";

TEST_F(ToolTest, CountsRejectNegativeOverflowingAndMalformedValues) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--every=-1"}, "--every -1: expected a whole number from 1"},
      {{"--every", "0"}, "--every 0: expected a whole number from 1"},
      {{"--every", "18446744073709551616"}, "(too large)"},
      {{"--every", "1e3"}, "--every 1e3: expected a whole number"},
      {{"--max-per-kernel=-3"}, "--max-per-kernel -3: expected a whole number from 0"},
      {{"--budget-mb", "abc"}, "--budget-mb abc: expected a whole number"},
      {{"--watchdog-ms", "1s"}, "--watchdog-ms 1s: expected a whole number"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"run", "--dry-run"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    args.insert(args.end(), {"--", "true"});
    Outcome outcome = ocelot(args);
    EXPECT_EQ(outcome.status, 2) << c.args[0];
    EXPECT_NE(outcome.err.find(c.message), std::string::npos) << outcome.err;
    EXPECT_EQ(outcome.out, "") << "nothing may run after a bad option";
  }
  // `--every -1` as two words is refused too (Boost takes -1 for an option).
  Outcome split = ocelot({"run", "--dry-run", "--every", "-1", "--", "true"});
  EXPECT_EQ(split.status, 2);
  EXPECT_EQ(split.out, "");

  Outcome good =
      ocelot({"run", "--dry-run", "--every", "5", "--max-per-kernel", "0", "--", "true"});
  EXPECT_EQ(good.status, 0) << good.err;
  EXPECT_NE(good.out.find("OCELOT_EVERY=5\n"), std::string::npos) << good.out;
  EXPECT_NE(good.out.find("OCELOT_MAX_PER_KERNEL=0\n"), std::string::npos) << good.out;
}

TEST_F(ToolTest, LogLevelMustBeOneOfTheValidOnes) {
  Outcome bad = ocelot({"run", "--dry-run", "--log", "shouty", "--", "true"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--log shouty: expected off, warn, info or debug"), std::string::npos)
      << bad.err;
  for (const char* level : {"off", "warn", "info", "debug"}) {
    Outcome good = ocelot({"run", "--dry-run", "--log", level, "--", "true"});
    EXPECT_EQ(good.status, 0) << level << ": " << good.err;
    EXPECT_NE(good.out.find("OCELOT_LOG=" + std::string(level) + "\n"), std::string::npos);
  }
}

// Ocelot's libcuda.so.1 goes in front of NVIDIA's by default, on a GPU too (since frameworks ran
// through it on an H200, 2026-11-27: docs/driver-api.md), unless turned off.
TEST_F(ToolTest, TheDriverApiShimIsInFrontUnlessTurnedOff) {
  auto shimOnPath = [&](std::vector<std::string> options, const std::string& variable = "") {
    std::vector<std::string> args = {"run", "--dry-run"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {"--", "true"});
    Outcome outcome = ocelot(args, "", variable);
    EXPECT_EQ(outcome.status, 0) << outcome.err;
    const size_t line = outcome.out.find("LD_LIBRARY_PATH=");
    const std::string path = outcome.out.substr(line, outcome.out.find('\n', line) - line);
    return path.find("/driverapi") != std::string::npos;
  };
  if (!shimOnPath({"--device", "cpu"}))
    GTEST_SKIP() << "the driver-API shim is not built (not x86-64)";
  EXPECT_TRUE(shimOnPath({"--device", "gpu"}));
  EXPECT_TRUE(shimOnPath({"--device", "gpu", "--driver-api"}));
  EXPECT_FALSE(shimOnPath({"--device", "gpu", "--no-driver-api"}));
  EXPECT_FALSE(shimOnPath({"--device", "cpu", "--no-driver-api"}));
  EXPECT_FALSE(shimOnPath({"--device", "gpu"}, "OCELOT_DRIVER_API=0"));
  EXPECT_TRUE(shimOnPath({"--device", "gpu"}, "OCELOT_DRIVER_API=1"));
}

TEST_F(ToolTest, NvtxRulesAreCheckedAndOcelotBecomesTheInjectionLibrary) {
  for (const char* bad : {"a//b/", "@x/", "d@", "a;b/"}) {
    Outcome outcome = ocelot({"run", "--dry-run", "--nvtx-include", bad, "--", "true"});
    EXPECT_EQ(outcome.status, 2) << bad;
    EXPECT_NE(outcome.err.find(bad), std::string::npos) << outcome.err;
    EXPECT_EQ(outcome.out, "") << "nothing may run after a bad option";
  }
  Outcome good = ocelot({"run", "--dry-run", "--nvtx-include", "compute/", "--nvtx-include",
                         "mylib@solve/", "--no-host-measures", "--", "true"});
  EXPECT_EQ(good.status, 0) << good.err;
  EXPECT_NE(good.out.find("OCELOT_NVTX_INCLUDE=compute/;mylib@solve/\n"), std::string::npos)
      << good.out;
  EXPECT_NE(good.out.find("OCELOT_HOST_MEASURES=0\n"), std::string::npos) << good.out;
  EXPECT_NE(good.out.find("NVTX_INJECTION64_PATH="), std::string::npos) << good.out;
  EXPECT_NE(good.out.find("libcudart.so.13\n"), std::string::npos) << good.out;
  Outcome off = ocelot({"run", "--dry-run", "--no-nvtx", "--", "true"});
  EXPECT_EQ(off.out.find("NVTX_INJECTION64_PATH="), std::string::npos) << off.out;
}

TEST_F(ToolTest, OutputFilesAreCheckedBeforeTheApplicationStarts) {
  // The application would leave a mark: it must not run at all.
  const std::string mark = (dir_ / "ran").string();
  const std::vector<std::string> app = {"--", "touch", mark};
  auto run = [&](std::vector<std::string> options) {
    std::vector<std::string> args = {"run"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), app.begin(), app.end());
    return ocelot(args);
  };
  Outcome missing = run({"-o", (dir_ / "no" / "such" / "folder" / "p.json").string()});
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("does not exist"), std::string::npos) << missing.err;

  Outcome folder = run({"-o", dir_.string()});
  EXPECT_EQ(folder.status, 2);
  EXPECT_NE(folder.err.find("is a folder"), std::string::npos) << folder.err;

  // A folder nobody may write to (root may write anywhere chmod allows: then /proc/self, where
  // no file can be created, stands in).
  fs::path locked = dir_ / "locked";
  fs::create_directory(locked);
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  if (::access(locked.c_str(), W_OK) == 0)
    locked = "/proc/self";
  Outcome readOnly = run({"--summary", (locked / "summary.txt").string()});
  EXPECT_EQ(readOnly.status, 2);
  EXPECT_NE(readOnly.err.find("cannot create files in"), std::string::npos) << readOnly.err;
  EXPECT_FALSE(fs::exists(mark)) << "the application ran despite an unwritable output";

  Outcome fine = ocelot({"run", "--dry-run", "-o", (dir_ / "p.json").string(), "--", "true"});
  EXPECT_EQ(fine.status, 0) << fine.err;
}

TEST_F(ToolTest, MemcheckAndWatchdogReachTheApplication) {
  Outcome outcome =
      ocelot({"run", "--dry-run", "--memcheck", "--watchdog-ms", "250", "--", "true"});
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("OCELOT_MEMCHECK=1\n"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("OCELOT_CPU_WATCHDOG_MS=250\n"), std::string::npos) << outcome.out;
}

TEST_F(ToolTest, VersionIsPrinted) {
  Outcome outcome = ocelot({"--version"});
  EXPECT_EQ(outcome.status, 0);
  EXPECT_EQ(outcome.out.rfind("ocelot ", 0), 0u) << outcome.out;
  EXPECT_NE(outcome.out.find("PTX ISA up to 9.0"), std::string::npos) << outcome.out;
}

TEST_F(ToolTest, DashReadsStandardInput) {
  Outcome parsed = ocelot({"ptx", "parse", "-"}, kModule);
  EXPECT_EQ(parsed.status, 0) << parsed.err;
  EXPECT_EQ(parsed.out, "<stdin>: ok, 1 kernels, 0 functions, 6 instructions\n");

  std::ofstream(dir_ / "k.ptx") << kModule;
  Outcome fromFile = ocelot({"ptx", "emit", (dir_ / "k.ptx").string()});
  Outcome fromInput = ocelot({"ptx", "emit", "-"}, kModule);
  EXPECT_EQ(fromInput.status, 0) << fromInput.err;
  EXPECT_EQ(fromInput.out, fromFile.out);

  Outcome cfg = ocelot({"ptx", "cfg", "-"}, kModule);
  EXPECT_EQ(cfg.status, 0) << cfg.err;
  EXPECT_NE(cfg.out.find("function k (.entry)"), std::string::npos) << cfg.out;

  Outcome instrumented = ocelot({"ptx", "instrument", "-i", "bbcount", "-"}, kModule);
  EXPECT_EQ(instrumented.status, 0) << instrumented.err;
  EXPECT_NE(instrumented.out.find("__ocelot_instrumentation"), std::string::npos);

  Outcome broken = ocelot({"ptx", "parse", "-"}, "\tnot ptx;\n");
  EXPECT_EQ(broken.status, 1);
  EXPECT_EQ(broken.err.rfind("<stdin>:1:", 0), 0u) << broken.err;
}

TEST_F(ToolTest, HelpListsEveryInstrumentorWithItsOptions) {
  for (std::vector<std::string> args :
       {std::vector<std::string>{"run", "--help"}, {"ptx", "instrument", "--help"}}) {
    Outcome outcome = ocelot(args);
    EXPECT_EQ(outcome.status, 0);
    for (const char* expected :
         {"  bbcount\n", "  bbcount-thread\n", "  bbcount-warp\n", "  ctaclock\n",
          "bbcount:mode=per-warp|per-thread", "bbcount:budget-mb=N", "bbcount:stripes=N",
          "bbcount:registers=N", "bbcount:derive=on|off", "bbcount-thread:budget-mb=N"})
      EXPECT_NE(outcome.out.find(expected), std::string::npos) << args[0] << ": " << expected;
    EXPECT_EQ(outcome.out.find("bbcount-thread:mode="), std::string::npos);
  }
}

#if defined(OCELOT_TINY_STATIC) && defined(OCELOT_TINY_SHARED)
TEST_F(ToolTest, StaticRuntimeIsRefusedWithHowToRebuild) {
  // Refused before anything runs (--dry-run would otherwise print the command), exit 3.
  Outcome linkedStatically = ocelot({"run", "--dry-run", "--", OCELOT_TINY_STATIC});
  EXPECT_EQ(linkedStatically.status, 3) << linkedStatically.err;
  EXPECT_NE(linkedStatically.err.find("linked with NVIDIA's static CUDA runtime"),
            std::string::npos)
      << linkedStatically.err;
  EXPECT_NE(linkedStatically.err.find("nvcc -cudart shared"), std::string::npos);
  EXPECT_NE(linkedStatically.err.find("--allow-static-runtime"), std::string::npos);
  EXPECT_EQ(linkedStatically.out, "");

  // With the flag it runs (here: is printed) uninstrumented, still with the warning.
  Outcome allowed =
      ocelot({"run", "--allow-static-runtime", "--dry-run", "--", OCELOT_TINY_STATIC});
  EXPECT_EQ(allowed.status, 0) << allowed.err;
  EXPECT_NE(allowed.err.find("warning:"), std::string::npos) << allowed.err;
  EXPECT_NE(allowed.err.find("nvcc -cudart shared"), std::string::npos) << allowed.err;
  EXPECT_NE(allowed.out.find(OCELOT_TINY_STATIC), std::string::npos);

  // Found on $PATH by name, as execvp would.
  const std::string folder = fs::path(OCELOT_TINY_STATIC).parent_path().string();
  const std::string name = fs::path(OCELOT_TINY_STATIC).filename().string();
  Outcome byName =
      ocelot({"run", "--dry-run", "--", name}, "", "PATH=" + folder + ":/usr/bin:/bin");
  EXPECT_EQ(byName.status, 3) << byName.err;

  Outcome linkedShared = ocelot({"run", "--dry-run", "--", OCELOT_TINY_SHARED});
  EXPECT_EQ(linkedShared.status, 0) << linkedShared.err;
  EXPECT_EQ(linkedShared.err, "");
}

TEST_F(ToolTest, OtherCudaVersionsRuntimeIsRefused) {
  // The shared build with its DT_NEEDED entry renamed to CUDA 12's runtime (same length).
  std::string image = readFile(OCELOT_TINY_SHARED);
  const std::string ours = "libcudart.so.13", theirs = "libcudart.so.12";
  size_t renamed = 0;
  for (size_t at = image.find(ours); at != std::string::npos; at = image.find(ours, at)) {
    image.replace(at, ours.size(), theirs);
    ++renamed;
  }
  ASSERT_GT(renamed, 0u);
  const fs::path program = dir_ / "tiny_kernel_cuda12";
  std::ofstream(program, std::ios::binary) << image;
  fs::permissions(program, fs::perms::owner_all);
  Outcome outcome = ocelot({"run", "--dry-run", "--", program.string()});
  EXPECT_EQ(outcome.status, 3) << outcome.err;
  EXPECT_NE(outcome.err.find("loads libcudart.so.12"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("nvcc -cudart shared"), std::string::npos) << outcome.err;
}
// OCELOT_LOG set in the environment (not through --log) to a level Ocelot does not know: the
// application's runtime says so once instead of taking it silently.
TEST_F(ToolTest, AnUnknownLogLevelInTheEnvironmentIsReported) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "a sanitized libcudart.so.13 needs the ASan runtime preloaded into the program";
#endif
  Outcome outcome = ocelot({"run", "--device", "cpu", "--summary", "off", "--", OCELOT_TINY_SHARED},
                           "", "OCELOT_LOG=shouty");
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  const std::string warning = "ocelot[warn]: OCELOT_LOG=shouty is not a log level Ocelot knows";
  const size_t first = outcome.err.find(warning);
  ASSERT_NE(first, std::string::npos) << outcome.err;
  EXPECT_EQ(outcome.err.find(warning, first + 1), std::string::npos) << "said twice";
  Outcome known = ocelot({"run", "--device", "cpu", "--summary", "off", "--", OCELOT_TINY_SHARED},
                         "", "OCELOT_LOG=warn");
  EXPECT_EQ(known.status, 0) << known.err;
  EXPECT_EQ(known.err.find("is not a log level"), std::string::npos) << known.err;
}
#else
TEST_F(ToolTest, AnUnknownLogLevelInTheEnvironmentIsReported) {
  GTEST_SKIP() << "nvcc was not found: no program to run";
}
TEST_F(ToolTest, StaticRuntimeIsRefusedWithHowToRebuild) {
  GTEST_SKIP() << "nvcc was not found: no program to check";
}
TEST_F(ToolTest, OtherCudaVersionsRuntimeIsRefused) {
  GTEST_SKIP() << "nvcc was not found: no program to check";
}
#endif

// Programs without device code pass untouched: plain executables, scripts, interpreters (python's
// binary has no fatbinary: the CUDA code it loads comes later, through libraries).
TEST_F(ToolTest, ProgramsWithoutDeviceCodeAreNotRefused) {
  Outcome plain = ocelot({"run", "--dry-run", "--", "true"});
  EXPECT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.err, "");
  std::ofstream(dir_ / "script.sh") << "#!/bin/sh\nexit 0\n";
  fs::permissions(dir_ / "script.sh", fs::perms::owner_all);
  Outcome script = ocelot({"run", "--dry-run", "--", (dir_ / "script.sh").string()});
  EXPECT_EQ(script.status, 0) << script.err;
  EXPECT_EQ(script.err, "");
  for (const char* interpreter : {"python3", "sh"}) {
    Outcome outcome = ocelot({"run", "--dry-run", "--", interpreter, "-c", "exit 0"});
    EXPECT_EQ(outcome.status, 0) << interpreter << ": " << outcome.err;
    EXPECT_EQ(outcome.err, "") << interpreter;
  }
  // A missing program is execvp's to report (127), not a false alarm here.
  Outcome missing = ocelot({"run", "--dry-run", "--", (dir_ / "missing").string()});
  EXPECT_EQ(missing.status, 0) << missing.err;
  EXPECT_EQ(missing.err, "");
}

/// The units of a -rdc program: the kernel calls `twice` of the second unit, which calls `base` of
/// the third; each unit has a local `scale` of its own.
constexpr const char* kRdcUnits[] = {
    R"(.version 9.0
.target sm_90
.address_size 64
.extern .func (.param .b32 r) twice(.param .b32 a);
.global .align 4 .u32 scale = 2;
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.global.u32 %r1, [scale];
  {
  .param .b32 p0;
  st.param.b32 [p0], %r1;
  .param .b32 rv;
  call.uni (rv), twice, (p0);
  ld.param.b32 %r2, [rv];
  }
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r2;
  ret;
}
)",
    R"(.version 9.0
.target sm_90
.address_size 64
.extern .func (.param .b32 r) base(.param .b32 a);
.global .align 4 .u32 scale = 3;
.visible .func (.param .b32 r) twice(.param .b32 a)
{
  .reg .b32 %r<5>;
  ld.param.b32 %r1, [a];
  ld.global.u32 %r4, [scale];
  mul.lo.s32 %r1, %r1, %r4;
  {
  .param .b32 p0;
  st.param.b32 [p0], %r1;
  .param .b32 rv;
  call.uni (rv), base, (p0);
  ld.param.b32 %r2, [rv];
  }
  add.s32 %r3, %r2, %r2;
  st.param.b32 [r], %r3;
  ret;
}
)",
    R"(.version 8.5
.target sm_90
.address_size 64
.visible .func (.param .b32 r) base(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  add.s32 %r2, %r1, 1;
  st.param.b32 [r], %r2;
  ret;
}
)"};

TEST_F(ToolTest, PtxLinkAndLinkedInstrumentTakeTheUnitsOfARdcProgram) {
  std::vector<std::string> files;
  for (size_t i = 0; i < std::size(kRdcUnits); ++i) {
    files.push_back((dir_ / ("unit" + std::to_string(i) + ".ptx")).string());
    std::ofstream(files.back()) << kRdcUnits[i];
  }
  std::vector<std::string> link = {"ptx", "link", "-v"};
  link.insert(link.end(), files.begin(), files.end());
  Outcome linked = ocelot(link);
  ASSERT_EQ(linked.status, 0) << linked.err;
  EXPECT_EQ(linked.out.find(".extern"), std::string::npos) << linked.out;
  EXPECT_NE(linked.out.find(".u32 scale_unit1 = 3;"), std::string::npos) << linked.out;
  EXPECT_NE(linked.err.find("renamed: " + files[1] + ": scale -> scale_unit1"), std::string::npos)
      << linked.err;

  // Several files need --linked; with it the program is linked and instrumented as a whole: the
  // device functions of the other units carry the instrumentation parameter.
  std::vector<std::string> instrument = {"ptx", "instrument", "-i", "bbcount"};
  Outcome refused = ocelot([&] {
    auto args = instrument;
    args.insert(args.end(), files.begin(), files.end());
    return args;
  }());
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("--linked"), std::string::npos) << refused.err;
  instrument.push_back("--linked");
  instrument.insert(instrument.end(), files.begin(), files.end());
  Outcome instrumented = ocelot(instrument);
  ASSERT_EQ(instrumented.status, 0) << instrumented.err;
  for (const char* function : {"twice(", "base("}) {
    size_t at = instrumented.out.rfind(function);
    ASSERT_NE(at, std::string::npos) << function;
    size_t end = instrumented.out.find(')', instrumented.out.find(')', at) + 1);
    EXPECT_NE(instrumented.out.substr(at, end - at).find("__ocelot_instrumentation"),
              std::string::npos)
        << function << "\n"
        << instrumented.out;
  }
  ocelot::test::PtxasResult assembled = ocelot::test::runPtxas(instrumented.out, "sm_90");
  if (!assembled.ran)
    GTEST_SKIP() << "ptxas could not be started";
  EXPECT_TRUE(assembled.ok()) << assembled.output << "\n" << instrumented.out;

  // Units that cannot be linked: a clear error, nothing printed.
  Outcome duplicate = ocelot({"ptx", "link", files[2], files[2]});
  EXPECT_EQ(duplicate.status, 1);
  EXPECT_NE(duplicate.err.find("base is defined in both"), std::string::npos) << duplicate.err;
  EXPECT_EQ(duplicate.out, "");
}

} // namespace
