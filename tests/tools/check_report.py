#!/usr/bin/env python3
"""End-to-end checks of `ocelot report` on the main job's program (tools/demo/histogram_demo.cu).

    check_report.py profile --ocelot O --program P --work DIR   # run P under ocelot on the CPU
                                                                # device: DIR/profile.json
    check_report.py trace   --ocelot O --work DIR   # the Perfetto trace: schema, order, nesting
    check_report.py tau     --ocelot O --work DIR   # TAU profile.N.C.T files: TAU's grammar
    check_report.py browser --ocelot O --work DIR   # the HTML report in headless Chromium
    check_report.py mpi --ocelot O --program P --work DIR [--mpirun M]   # 2 ranks, merged
    check_report.py callpaths --ocelot O --program P --work DIR [--device gpu]
                                                    # launch-site call paths of e2e launch_sites
    check_report.py hostlanes --ocelot O --program P --work DIR [--device gpu]
                                                    # e2e host_lanes: timed copies and memsets,
                                                    # GCP/GLB, API lanes
    check_report.py multigpu --ocelot O --program P --work DIR   # e2e multi_gpu on 2 GPUs
    check_report.py nvtx --ocelot O --program P --work DIR [--device gpu]
                                                    # e2e host_lanes: NVTX ranges in profiles and
                                                    # the trace, --nvtx-include
    check_report.py rankdevices --ocelot O --program P --work DIR [--device gpu] [--mpirun M]
                                                    # tests/tools/rank_devices.cu: 2 ranks, one
                                                    # device each, merged report
    check_report.py mainjob --ocelot O --work DIR   # scripts/main-job.sh itself (the README's
                                                    # first command's last step) on the CPU device

Exit 77 (skipped, with a one-line reason) when something the check needs is missing.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
import profile_schema  # noqa: E402

SKIP = 77


class CheckError(Exception):
    pass


def run(command, timeout=300, env=None):
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    if done.returncode != 0:
        raise CheckError("%s exited %d:\n%s\n%s" % (" ".join(command), done.returncode,
                                                   done.stdout[-2000:], done.stderr[-3000:]))
    return done


def profile_path(work):
    return os.path.join(work, "profile.json")


def need_profile(work):
    if not os.path.exists(profile_path(work)):
        raise CheckError("no %s: the fixture report.main_job_profile did not run" %
                         profile_path(work))


# --- profile -------------------------------------------------------------------------------------

def check_profile(args):
    os.makedirs(args.work, exist_ok=True)
    if os.path.exists(profile_path(args.work)):
        os.remove(profile_path(args.work))
    run([args.ocelot, "run", "-i", "bbcount,ctaclock", "--device", "cpu", "--summary", "off",
         "-o", profile_path(args.work), "--", args.program])
    document = profile_schema.validate_file(profile_path(args.work))
    kernels = {p["kernel"] for p in document["profiles"]}
    if len(kernels) != 3:
        raise CheckError("expected the demo's 3 kernels, got %s" % sorted(kernels))
    with_cfg = [p for p in document["profiles"] if "cfg" in p["results"].get("bbcount", {})]
    if len(with_cfg) != 1:
        raise CheckError("the module's CFG must be written once, it is written %d times" %
                         len(with_cfg))
    print("profile: %d launches of %d kernels, valid, CFG written once" %
          (len(document["profiles"]), len(kernels)))


# --- trace ---------------------------------------------------------------------------------------

def check_trace_lanes(trace_path, expected):
    """The trace file is well ordered and nested and has a lane group (process) per name given."""
    with open(trace_path) as f:
        trace = json.load(f)
    problems = trace_problems(trace)
    if problems:
        raise CheckError("trace order/nesting:\n  " + "\n  ".join(problems[:10]))
    lanes = {e["args"]["name"] for e in trace["traceEvents"]
             if e["ph"] == "M" and e["name"] == "process_name"}
    for lane in expected:
        if lane not in lanes:
            raise CheckError("the trace has no lane group %r: %s" % (lane, sorted(lanes)))


def trace_problems(trace):
    """Event order and nesting rules, beyond the schema."""
    problems = []
    events = trace["traceEvents"]
    metadata_done = False
    last_ts = None
    named_threads = {(e["pid"], e.get("tid")) for e in events
                     if e["ph"] == "M" and e["name"] == "thread_name"}
    named_processes = {e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    slices = {}
    for i, e in enumerate(events):
        if e["ph"] == "M":
            if metadata_done:
                problems.append("event %d: metadata after timed events" % i)
            continue
        metadata_done = True
        if last_ts is not None and e["ts"] < last_ts:
            problems.append("event %d (%s) at %s comes after one at %s" %
                            (i, e.get("name"), e["ts"], last_ts))
        last_ts = e["ts"]
        if e["pid"] not in named_processes or (e["pid"], e["tid"]) not in named_threads:
            problems.append("event %d is on an unnamed lane %s/%s" % (i, e["pid"], e["tid"]))
        if e["ph"] == "X":
            slices.setdefault((e["pid"], e["tid"]), []).append(e)
    # Nesting: on one lane, a slice either ends before the next starts or contains it.
    eps = 1e-6
    for lane, lane_slices in slices.items():
        stack = []
        for s in lane_slices:
            start, end = s["ts"], s["ts"] + s["dur"]
            while stack and stack[-1] <= start + eps:
                stack.pop()
            if stack and end > stack[-1] + eps:
                problems.append("lane %s: slice %r [%s, %s] overlaps the end of an enclosing "
                                "slice at %s" % (lane, s["name"], start, end, stack[-1]))
            stack.append(end)
    # Flows: each id once as start and once as finish, finish not before start, each end inside a
    # slice of its lane.
    starts, finishes = {}, {}
    for e in events:
        if e["ph"] == "s":
            starts.setdefault(e["id"], []).append(e)
        elif e["ph"] == "f":
            finishes.setdefault(e["id"], []).append(e)
    for fid in set(starts) | set(finishes):
        if len(starts.get(fid, [])) != 1 or len(finishes.get(fid, [])) != 1:
            problems.append("flow %s has %d starts and %d finishes" %
                            (fid, len(starts.get(fid, [])), len(finishes.get(fid, []))))
            continue
        s, f = starts[fid][0], finishes[fid][0]
        if f["ts"] + eps < s["ts"]:
            problems.append("flow %s finishes before it starts" % fid)
        for end in (s, f):
            inside = [x for x in slices.get((end["pid"], end["tid"]), [])
                      if x["ts"] - eps <= end["ts"] <= x["ts"] + x["dur"] + eps]
            if not inside:
                problems.append("flow %s: its %s at %s is in no slice of its lane" %
                                (fid, end["ph"], end["ts"]))
    return problems


def check_trace(args):
    need_profile(args.work)
    path = os.path.join(args.work, "trace.json")
    run([args.ocelot, "report", profile_path(args.work), "--trace", path])
    with open(path) as f:
        trace = json.load(f)
    import jsonschema
    with open(os.path.join(HERE, "trace_event.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(trace))
    if errors:
        raise CheckError("the trace breaks the Trace Event Format: %s" % errors[0].message)
    problems = trace_problems(trace)
    if problems:
        raise CheckError("trace order/nesting:\n  " + "\n  ".join(problems[:10]))
    # The checker itself must catch what it is for: a slice made to end inside the next slice of
    # its lane (order unchanged) is a crossing.
    broken = json.loads(json.dumps(trace))
    lanes = {}
    for e in broken["traceEvents"]:
        if e["ph"] == "X" and e["dur"] > 0:
            lanes.setdefault((e["pid"], e["tid"]), []).append(e)
    pairs = [(a, b) for lane in lanes.values() for a, b in zip(lane, lane[1:])
             if b["ts"] >= a["ts"] + a["dur"]]
    if not pairs:
        raise CheckError("the trace has no lane with two slices to test the nesting check on")
    a, b = pairs[0]
    a["dur"] = (b["ts"] - a["ts"]) + b["dur"] / 2
    if not any("overlaps" in p for p in trace_problems(broken)):
        raise CheckError("the nesting check accepts crossing slices")
    kinds = {e.get("cat") for e in trace["traceEvents"] if e["ph"] == "X"}
    for needed in ("kernel", "cta", "launch"):
        if needed not in kinds:
            raise CheckError("the trace has no %s slices" % needed)
    flows = sum(1 for e in trace["traceEvents"] if e["ph"] == "s")
    print("trace: %d events, kernels, CTAs per SM and %d launch->kernel flows; schema, order and "
          "nesting ok" % (len(trace["traceEvents"]), flows))


# --- TAU -----------------------------------------------------------------------------------------

def read_tau_profile(path):
    """Reads a profile.N.C.T file the way TAU's readers do (pprof, ParaProf's TAU data source):
    '<n> templated_functions...', a '# Name Calls Subrs Excl Incl ProfileCalls' line (optionally
    with <metadata>), n lines '"name" calls subrs excl incl profilecalls GROUP="g"',
    '<k> aggregates', and optionally '<m> userevents', a '# eventname ...' line, m event lines."""
    with open(path) as f:
        lines = f.read().split("\n")
    at = 0

    def take():
        nonlocal at
        if at >= len(lines):
            raise CheckError("%s: ends early" % path)
        at += 1
        return lines[at - 1]

    head = take().split()
    if len(head) != 2 or not head[0].isdigit() or not head[1].startswith("templated_functions"):
        raise CheckError("%s: bad first line %r" % (path, head))
    count = int(head[0])
    header = take()
    if not header.startswith("# Name Calls Subrs Excl Incl ProfileCalls"):
        raise CheckError("%s: bad column line %r" % (path, header))
    if "<metadata>" in header and not header.rstrip().endswith("</metadata>"):
        raise CheckError("%s: unterminated metadata" % path)
    functions = {}
    for _ in range(count):
        line = take()
        m = re.match(r'^"([^"]*)" (\S+) (\S+) (\S+) (\S+) (\d+) GROUP="([^"]*)"$', line)
        if not m:
            raise CheckError("%s: bad function line %r" % (path, line))
        calls, subrs, excl, incl = (float(m.group(i)) for i in range(2, 6))
        if int(m.group(6)) != 0:
            raise CheckError("%s: profiled calls without their lines" % path)
        if excl > incl + 1e-9 or calls < 0:
            raise CheckError("%s: exclusive above inclusive in %r" % (path, line))
        functions[m.group(1)] = (calls, subrs, excl, incl, m.group(7))
    aggregates = take().split()
    if len(aggregates) != 2 or aggregates[1] != "aggregates" or len(lines[at - 1]) >= 256:
        raise CheckError("%s: bad aggregates line" % path)
    events = {}
    rest = [l for l in lines[at:] if l.strip()]
    if rest:
        head = rest[0].split()
        if len(head) != 2 or head[1] != "userevents":
            raise CheckError("%s: bad userevents line %r" % (path, rest[0]))
        if not rest[1].startswith("# eventname numevents max min mean sumsqr"):
            raise CheckError("%s: bad userevents column line" % path)
        for line in rest[2:]:
            m = re.match(r'^"([^"]*)" (\d+) (\S+) (\S+) (\S+) (\S+)$', line)
            if not m:
                raise CheckError("%s: bad user event line %r" % (path, line))
            n, mx, mn, mean, sumsq = int(m.group(2)), *(float(m.group(i)) for i in range(3, 7))
            if not (mn <= mean + 1e-9 <= mx + 2e-9):
                raise CheckError("%s: mean outside [min, max] in %r" % (path, line))
            events[m.group(1)] = (n, mx, mn, mean, sumsq)
        if len(events) != int(head[0]):
            raise CheckError("%s: %s user events announced, %d present" %
                             (path, head[0], len(events)))
    return functions, events


def check_tau(args):
    need_profile(args.work)
    directory = os.path.join(args.work, "tau")
    shutil.rmtree(directory, ignore_errors=True)
    run([args.ocelot, "report", profile_path(args.work), "--tau", directory])
    files = sorted(glob.glob(os.path.join(directory, "profile.*")))
    if not files or not all(re.search(r"profile\.\d+\.\d+\.\d+$", f) for f in files):
        raise CheckError("expected profile.N.C.T files, got %s" % files)
    with open(profile_path(args.work)) as f:
        document = json.load(f)
    total_ms = {}
    for p in document["profiles"]:
        total_ms[p["demangled"]] = total_ms.get(p["demangled"], 0) + (p["gpu_ms"] or 0)
    functions, events = read_tau_profile(files[0])
    for name, ms in total_ms.items():
        if name not in functions:
            raise CheckError("%s: kernel %s missing" % (files[0], name))
        if abs(functions[name][3] - ms * 1000) > 1e-3 * max(1, ms * 1000):
            raise CheckError("%s: %s has %s us, the profile %s ms" %
                             (files[0], name, functions[name][3], ms))
    if not any(e.startswith("Dynamic PTX instructions : ") for e in events):
        raise CheckError("no instruction counts among the user events")
    if shutil.which("pprof") and os.access(shutil.which("pprof"), os.X_OK):
        out = subprocess.run(["pprof"], cwd=directory, capture_output=True, text=True, timeout=60)
        print("pprof (TAU) exit %d" % out.returncode)
    print("TAU: %d files, %d functions and %d user events in %s read back" %
          (len(files), len(functions), len(events), os.path.basename(files[0])))


# --- browser -------------------------------------------------------------------------------------

def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def render_in_chromium(browser, html):
    """Loads `html` in headless chromium (fresh user data dir, no network): its DOM after the
    page's script ran and the <body>'s attributes; raises CheckError on script errors."""
    with tempfile.TemporaryDirectory() as profile_dir:
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu",
                   "--disable-background-networking", "--disable-component-update",
                   "--disable-sync", "--no-first-run", "--user-data-dir=" + profile_dir,
                   "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000",
                   "--dump-dom", "file://" + os.path.abspath(html)]
        # Not under the ASan preload a sanitized build's test gives the programs: chromium
        # hangs under it.
        env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}
        done = subprocess.run(command, capture_output=True, text=True, timeout=180, env=env)
    dom = done.stdout
    script_errors = [l for l in done.stderr.splitlines()
                     if "Uncaught" in l or ("CONSOLE" in l and "rror" in l)]
    if script_errors:
        raise CheckError("script errors in the report:\n  " + "\n  ".join(script_errors[:5]))
    body = re.search(r"<body([^>]*)>", dom)
    if not body:
        raise CheckError("chromium printed no DOM (exit %d): %s" % (done.returncode,
                                                                   done.stderr[-1500:]))
    attributes = dict(re.findall(r'([\w-]+)="([^"]*)"', body.group(1)))
    if attributes.get("data-ready") != "ok" or "data-script-errors" in attributes:
        raise CheckError("the report's script did not finish cleanly: %s" % attributes)
    return dom, attributes


def check_browser(args):
    need_profile(args.work)
    browser = chromium()
    if browser is None:
        print("SKIP: no chromium (scripts/setup-debian.sh installs it)")
        return SKIP
    html = os.path.join(args.work, "report.html")
    run([args.ocelot, "report", profile_path(args.work), "-o", html])
    with open(html, encoding="utf-8") as f:
        page = f.read()
    for external in re.findall(r'(?:src|href)\s*=\s*"([^"#][^"]*)"', page):
        raise CheckError("the report loads %s: it must be self-contained" % external)
    dom, attributes = render_in_chromium(browser, html)
    if int(attributes.get("data-heatmaps", "0")) < 3:
        raise CheckError("expected a CFG heat map per kernel, the page has %s" %
                         attributes.get("data-heatmaps"))
    if int(attributes.get("data-timelines", "0")) < 3:
        raise CheckError("expected an SM timeline per kernel, the page has %s" %
                         attributes.get("data-timelines"))
    if 'class="block"' not in dom or 'class="cta"' not in dom:
        raise CheckError("the heat map has no blocks or the timeline no CTAs")
    # The source view: the demo's own file, its lines with counts (-lineinfo).
    demo_rows = re.search(r'class="source-file">[^<]*histogram_demo\.cu</h4>\s*<table class="source">'
                          r'(.*?)</table>', dom, re.S)
    if not demo_rows or not re.search(r'<td class="num">[1-9][0-9,]*</td>', demo_rows.group(1)):
        raise CheckError("the report has no source view of histogram_demo.cu with counts")
    sorting = check_sorting(browser, page, args.work)
    print("browser: the report renders without script errors, %s heat maps, %s timelines; %s" %
          (attributes["data-heatmaps"], attributes["data-timelines"], sorting))


def check_sorting(browser, page, work):
    """The kernel table sorts when a header is clicked: a copy of the page with a script after the
    report's own clicks the numeric column "dynamic PTX instructions" twice (descending, then
    ascending) and the kernel names twice, and leaves the column's order after each click on the
    <body>."""
    thead = re.search(r'<table id="kernel-table"[^>]*><thead><tr>(.*?)</tr></thead>', page, re.S)
    headers = re.findall(r"<th>(.*?)</th>", thead.group(1)) if thead else []
    if "dynamic PTX instructions" not in headers or headers[0] != "kernel":
        raise CheckError("the kernel table's headers are %s" % headers)
    numeric = headers.index("dynamic PTX instructions")
    probe = """<script>(function () {
  var table = document.getElementById('kernel-table');
  var headers = table.tHead.rows[0].cells;
  function column(index) {
    return Array.prototype.map.call(table.tBodies[0].rows, function (row) {
      var cell = row.cells[index];
      return index === 0 ? cell.textContent.trim() : cell.getAttribute('data-v');
    }).join(' ## ');
  }
  var result = [];
  [%d, %d, 0, 0].forEach(function (index) {
    headers[index].click();
    result.push(headers[index].className + ' = ' + column(index));
  });
  document.body.setAttribute('data-sort-check', result.join(' || '));
})();</script>
""" % (numeric, numeric)
    head, tag, tail = page.rpartition("</body>")
    copy = os.path.join(work, "report.sorting.html")
    with open(copy, "w", encoding="utf-8") as f:
        f.write(head + probe + tag + tail)
    _, attributes = render_in_chromium(browser, copy)
    import html as html_text
    clicks = [c.split(" = ", 1) for c in
              html_text.unescape(attributes.get("data-sort-check", "")).split(" || ")]
    if len(clicks) != 4 or any(len(c) != 2 for c in clicks):
        raise CheckError("the sorting probe did not run: %s" % attributes)
    orders = [(c[0], c[1].split(" ## ")) for c in clicks]
    want = ["sorted-desc", "sorted-asc", "sorted-desc", "sorted-asc"]
    if [o[0] for o in orders] != want:
        raise CheckError("header classes after the clicks: %s, expected %s" %
                         ([o[0] for o in orders], want))
    down, up = [float(v) for v in orders[0][1]], [float(v) for v in orders[1][1]]
    if len(down) < 2 or len(set(down)) < 2 or down != sorted(down, reverse=True) or \
            up != sorted(down):
        raise CheckError("sorting by instructions gave %s then %s" % (down, up))
    names_down, names_up = orders[2][1], orders[3][1]
    if len(set(names_down)) != len(down) or names_up != names_down[::-1]:
        raise CheckError("sorting by kernel gave %s then %s" % (names_down, names_up))
    return "the kernel table sorts by a numeric column and by name both ways"


# --- the README's main job -----------------------------------------------------------------------

def check_mainjob(args):
    """scripts/main-job.sh as the README runs it, against the build that holds args.ocelot, on the
    CPU device: it succeeds, ends by printing where the report is, and that report, the trace and
    the TAU profiles exist (their contents: the checks above, on the same program)."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(args.ocelot)))
    script = os.path.join(HERE, "..", "..", "scripts", "main-job.sh")
    env = dict(os.environ, OCELOT_BUILD_DIR=build, OCELOT_MAIN_JOB_DEVICE="cpu")
    done = run(["bash", script], timeout=600, env=env)
    work = os.path.join(build, "main-job")
    report = os.path.join(work, "report.html")
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    if last != "== open the report: file://" + report:
        raise CheckError("main-job.sh must end by printing where the report is; its last line "
                         "is %r" % last)
    for path in (report, os.path.join(work, "trace.json"), os.path.join(work, "profile.json"),
                 os.path.join(work, "tau", "profile.0.0.0")):
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            raise CheckError("main-job.sh did not write %s" % path)
    if "hottest basic blocks" not in done.stdout + done.stderr:
        raise CheckError("main-job.sh did not print the profile's summary:\n" +
                         (done.stdout + done.stderr)[-2000:])
    print("mainjob: scripts/main-job.sh ran on the CPU device, printed the summary and ended "
          "with %s" % last)


# --- MPI -----------------------------------------------------------------------------------------

def check_mpi(args):
    mpirun = args.mpirun or shutil.which("mpirun")
    if not mpirun:
        print("SKIP: no mpirun (scripts/setup-debian.sh installs openmpi-bin)")
        return SKIP
    work = os.path.join(args.work, "mpi")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    output = os.path.join(work, "profile.json")
    run([mpirun, "-np", "2", "--allow-run-as-root", "--oversubscribe", args.ocelot, "run",
         "-i", "bbcount,ctaclock", "--device", "cpu", "--summary", "off", "-o", output, "--",
         args.program], timeout=600)
    files = sorted(glob.glob(os.path.join(work, "profile*.json")))
    expected = [os.path.join(work, "profile.rank%d.json" % r) for r in (0, 1)]
    if files != expected:
        raise CheckError("expected %s, got %s" % (expected, files))
    for f in files:
        profile_schema.validate_file(f)
    html = os.path.join(work, "report.html")
    run([args.ocelot, "report"] + files + ["-o", html])
    with open(html, encoding="utf-8") as f:
        page = f.read()
    if 'id="ranks"' not in page or "2 ranks" not in page:
        raise CheckError("the merged report has no ranks panel")
    # Rank 1 does twice rank 0's work (the program's design): in the ranks panel, the kernel's
    # dynamic instructions (exact, unlike times) are least on rank 0 and most on rank 1.
    panel = page[page.index('id="ranks"'):]
    row = re.search(r'rankWork\(.*?</tr>', panel, re.S)
    if not row:
        raise CheckError("the ranks panel does not list the MPI program's kernel")
    spread = re.search(r"([0-9,]+) \(rank (\d+)\) / [0-9.]+ / ([0-9,]+) \(rank (\d+)\)",
                       row.group(0))
    if not spread or (spread.group(2), spread.group(4)) != ("0", "1"):
        raise CheckError("expected the fewest instructions on rank 0 and the most on rank 1: %s" %
                         row.group(0)[:800])
    low, high = (int(spread.group(i).replace(",", "")) for i in (1, 3))
    if not 1.5 < high / low < 2.5:
        raise CheckError("rank 1 should execute about twice rank 0's instructions: %d vs %d" %
                         (high, low))
    print("MPI: 2 per-rank profiles (%s) and one merged report with min/mean/max per kernel" %
          ", ".join(os.path.basename(f) for f in files))


# --- ranks on devices ----------------------------------------------------------------------------

def check_rankdevices(args):
    """tests/tools/rank_devices.cu as two ranks with a device each (issue 16: two ranks on two
    GPUs; in CI two CPU devices per process, OCELOT_CPU_DEVICES=2), each rank under `ocelot run -i
    bbcount`: started by mpirun where there is one, else as two processes with the variables Open
    MPI's launcher sets (OMPI_COMM_WORLD_RANK/SIZE), which are what `ocelot run` and the program
    read. Each rank's profile file holds its two launches, instrumented on device `rank`, every
    thread entering the kernel once; rank 1 executes about twice rank 0's instructions; the merged
    report has the ranks panel with rank 0 least and rank 1 most, and its trace a lane group per
    (rank, device). Exit 77 where there are fewer than 2 devices."""
    work = os.path.join(args.work, "rankdevices.%s" % args.device)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    output = os.path.join(work, "profile.json")
    command = [args.ocelot, "run", "-i", "bbcount", "--device", args.device, "--summary", "off",
               "-o", output, "--", args.program]
    env = dict(os.environ)
    if args.device == "cpu":
        env.setdefault("OCELOT_CPU_DEVICES", "2")
    mpirun = args.mpirun or shutil.which("mpirun")
    if mpirun:
        launcher = "mpirun -np 2"
        done = subprocess.run([mpirun, "-np", "2", "--allow-run-as-root", "--oversubscribe"] +
                              command, capture_output=True, text=True, timeout=600, env=env)
        statuses = [done.returncode]
        printed = done.stdout + done.stderr
    else:
        launcher = "two processes with OMPI_COMM_WORLD_RANK set"
        children = []
        for rank in (0, 1):
            rank_env = dict(env, OMPI_COMM_WORLD_RANK=str(rank), OMPI_COMM_WORLD_SIZE="2")
            children.append(subprocess.Popen(command, stdout=subprocess.PIPE,
                                             stderr=subprocess.STDOUT, text=True, env=rank_env))
        printed = ""
        statuses = []
        for child in children:
            out, _ = child.communicate(timeout=600)
            printed += out
            statuses.append(child.returncode)
    if "need a device each" in printed:
        print("SKIP: %s" % [l for l in printed.splitlines() if "need a device each" in l][0])
        return SKIP
    if any(s != 0 for s in statuses):
        raise CheckError("%s %s exited %s:\n%s" % (launcher, " ".join(command), statuses,
                                                  printed[-3000:]))
    files = sorted(glob.glob(os.path.join(work, "profile*.json")))
    expected = [os.path.join(work, "profile.rank%d.json" % r) for r in (0, 1)]
    if files != expected:
        raise CheckError("expected %s, got %s" % (expected, files))
    instructions = []
    for rank, path in enumerate(files):
        document = validated_or_loaded(path)
        launches = document["profiles"]
        if len(launches) != 2:
            raise CheckError("rank %d: %d launches, 2 expected" % (rank, len(launches)))
        total = 0
        for p in launches:
            if p["kernel"] != "_Z8rankWorkPji" or p["execution"] != "instrumented" or \
                    p["device"] != rank:
                raise CheckError("rank %d: launch of %s (%s) on device %s, expected rankWork "
                                 "instrumented on device %d: %s" %
                                 (rank, p["kernel"], p["execution"], p["device"], rank,
                                  p.get("notes")))
            bbcount = p["results"]["bbcount"]
            entry = [b for b in bbcount["blocks"] if b["index"] == 0]
            if bbcount["threads"] != 512 or len(entry) != 1 or entry[0]["count"] != 512:
                raise CheckError("rank %d launch %d: threads %s, entry block %s (512 expected)" %
                                 (rank, p["launch_id"], bbcount["threads"], entry))
            total += bbcount["dynamic_instructions"]
        instructions.append(total)
    if not 1.5 < instructions[1] / instructions[0] < 2.5:
        raise CheckError("rank 1 should execute about twice rank 0's instructions: %s" %
                         instructions)
    html = os.path.join(work, "report.html")
    trace_path = os.path.join(work, "trace.json")
    run([args.ocelot, "report"] + files + ["-o", html, "--trace", trace_path])
    with open(html, encoding="utf-8") as f:
        page = f.read()
    if 'id="ranks"' not in page or "2 ranks" not in page:
        raise CheckError("the merged report has no ranks panel")
    panel = page[page.index('id="ranks"'):]
    row = re.search(r'rankWork\(.*?</tr>', panel, re.S)
    spread = row and re.search(r"([0-9,]+) \(rank (\d+)\) / [0-9.]+ / ([0-9,]+) \(rank (\d+)\)",
                               row.group(0))
    if not spread or (spread.group(2), spread.group(4)) != ("0", "1"):
        raise CheckError("expected the fewest instructions on rank 0 and the most on rank 1: %s" %
                         (row.group(0)[:800] if row else "no rankWork row"))
    check_trace_lanes(trace_path, ("rank 0 GPU 0 streams", "rank 1 GPU 1 streams"))
    print("rankdevices (%s, %s): rank 0 on device 0, rank 1 on device 1, 2 instrumented launches "
          "each (512 threads enter), instructions %d and %d; merged report and trace per rank "
          "and device" % (args.device, launcher, instructions[0], instructions[1]))


# --- callpaths -----------------------------------------------------------------------------------

def validated_or_loaded(path):
    """The document, validated against the schema where python3-jsonschema is installed (CI);
    only loaded where it is not (the GPU machine), with a note."""
    try:
        return profile_schema.validate_file(path)
    except profile_schema.ProfileSchemaError as e:
        if "not installed" not in str(e):
            raise
        print("note: %s: schema not checked (%s)" % (path, e))
        with open(path) as f:
            return json.load(f)


def check_callpaths(args):
    """tests/e2e/programs/launch_sites.cu launches add_one once from prepare_weights() and twice
    from apply_weights(): two call paths, in the profile and in the summary; none when switched
    off."""
    os.makedirs(args.work, exist_ok=True)
    profile = os.path.join(args.work, "callpaths.json")
    summary = os.path.join(args.work, "callpaths.summary.txt")
    run([args.ocelot, "run", "-i", "bbcount", "--device", args.device, "--summary", summary,
         "-o", profile, "--", args.program])
    document = validated_or_loaded(profile)
    paths = {}
    for p in document["profiles"]:
        if "call_path" not in p:
            raise CheckError("launch %d has no call_path" % p["launch_id"])
        key = (p["kernel"], tuple(p["call_path"]), p["device"], p["stream"])
        paths[key] = paths.get(key, 0) + 1
    if len(paths) != 2:
        raise CheckError("expected 2 launch sites, got %d: %s" % (len(paths), paths))
    by_caller = {}
    for (kernel, path, _, _), launches in paths.items():
        if path[-1] != "main":
            raise CheckError("a call path must end in main: %s" % list(path))
        callers = [f for f in path if f.startswith(("prepare_weights(", "apply_weights("))]
        if len(callers) != 1:
            raise CheckError("expected one of the two launching functions in %s" % list(path))
        by_caller[callers[0].split("(")[0]] = launches
    if by_caller != {"prepare_weights": 1, "apply_weights": 2}:
        raise CheckError("launches per launching function: %s" % by_caller)
    with open(summary) as f:
        text = f.read()
    for caller in ("main > prepare_weights(int*) > ", "main > apply_weights(int*, int) > "):
        if caller not in text:
            raise CheckError("the summary has no launch site %r:\n%s" % (caller, text))
    # Switched off: no call paths at all.
    run([args.ocelot, "run", "-i", "bbcount", "--device", args.device, "--summary", "off",
         "--no-call-stacks", "-o", profile, "--", args.program])
    document = validated_or_loaded(profile)
    if any("call_path" in p for p in document["profiles"]) or not document["profiles"]:
        raise CheckError("--no-call-stacks: profiles still carry call paths")
    print("callpaths: add_one from prepare_weights (1 launch) and apply_weights (2 launches); "
          "none with --no-call-stacks")


def check_hostlanes(args):
    """tests/e2e/programs/host_lanes.cu under `ocelot run -i bbcount --kernel scale -o`: scale's
    two launches are profiled; offset and finish are not selected, so they are operations, as are
    the program's 2 copies (cudaMemcpy both ways) and 2 memsets, each with its device time; GCP
    and GLB in the report count them; the trace has copy and memset slices and stays well formed.
    """
    os.makedirs(args.work, exist_ok=True)
    profile = os.path.join(args.work, "hostlanes.json")
    summary_path = os.path.join(args.work, "hostlanes.summary.txt")
    run([args.ocelot, "run", "-i", "bbcount", "--kernel", "scale", "--device", args.device,
         "--summary", summary_path, "-o", profile, "--", args.program])
    document = validated_or_loaded(profile)
    kernels = sorted(p["kernel"] for p in document["profiles"])
    if kernels != ["_Z5scalePfif", "_Z5scalePfif"]:
        raise CheckError("expected scale's 2 launches profiled, got %s" % kernels)
    operations = document.get("operations")
    if operations is None:
        raise CheckError("no operations: host measures are off with a profile file")
    by_kind = {}
    for o in operations:
        by_kind.setdefault(o["kind"], []).append(o)
        if o["gpu_ns"] is None or o["gpu_ns"] < 0:
            raise CheckError("operation %s has no device time" % o)
    copies = sorted((o["name"], o["bytes"]) for o in by_kind.get("copy", []))
    memsets = sorted((o["name"], o["bytes"]) for o in by_kind.get("memset", []))
    unprofiled = sorted(o["name"] for o in by_kind.get("kernel", []))
    if copies != [("copy", 16384)] * 2 or memsets != [("memset", 16384)] * 2:
        raise CheckError("expected 2 copies and 2 memsets of 16384 bytes, got %s and %s" %
                         (copies, memsets))
    if unprofiled != ["_Z6finishPfPKfi", "_Z6offsetPfif"]:
        raise CheckError("expected offset and finish as unprofiled kernels, got %s" % unprofiled)
    streams = {o["stream"] for o in operations}
    if len(streams) < 2:
        raise CheckError("expected operations on two streams and the default one: %s" % streams)
    # The report's GCP: kernel device time / (kernel + transfer device time), from the file.
    kernel_ns = sum(p["gpu_ms"] * 1e6 for p in document["profiles"]) + \
        sum(o["gpu_ns"] for o in by_kind["kernel"])
    transfer_ns = sum(o["gpu_ns"] for o in by_kind["copy"] + by_kind["memset"])
    gcp = kernel_ns / (kernel_ns + transfer_ns)
    html = os.path.join(args.work, "hostlanes.html")
    trace_path = os.path.join(args.work, "hostlanes.trace.json")
    run([args.ocelot, "report", profile, "-o", html, "--trace", trace_path])
    with open(html) as f:
        page = f.read()
    row = re.search(r'<table id="host-measures".*?</table>', page, re.S)
    cells = re.findall(r'<td[^>]*data-v="([^"]*)"', row.group(0)) if row else []
    # rank, device, kernels, kernel ms, transfers, transfer ms, device ms, busy, wall, GCP, GLB
    if len(cells) < 11 or int(float(cells[2])) != 4 or int(float(cells[4])) != 4 or \
            abs(float(cells[9]) - gcp) > 1e-5:
        raise CheckError("the report's host measures %s, expected 4 kernels, 4 transfers and GCP "
                         "%.6f" % (cells, gcp))
    with open(trace_path) as f:
        trace = json.load(f)
    problems = trace_problems(trace)
    if problems:
        raise CheckError("trace order/nesting:\n  " + "\n  ".join(problems[:10]))
    kinds = {e.get("cat") for e in trace["traceEvents"] if e["ph"] == "X"}
    for needed in ("kernel", "copy", "memset"):
        if needed not in kinds:
            raise CheckError("the trace has no %s slices" % needed)
    # API lanes: the host thread's Runtime API calls, named by the exported function, each a
    # slice of its thread's lane; every kernel's flow arrow starts in the API call that launched it.
    calls = document.get("api_calls", [])
    names = {c["name"] for c in calls}
    for needed in ("cudaMalloc", "cudaStreamDestroy", "cudaMemcpy", "cudaMemset", "cudaMemsetAsync",
                   "cudaDeviceSynchronize", "cudaFree"):
        if needed not in names:
            raise CheckError("no %s among the API calls %s" % (needed, sorted(names)))
    launches = [c for c in calls if "aunch" in c["name"]]
    if len(launches) != 4:
        raise CheckError("expected 4 launch calls among the API calls, got %s" %
                         sorted(c["name"] for c in launches))
    if any(c["end_ns"] < c["begin_ns"] for c in calls) or len({c["thread"] for c in calls}) != 1:
        raise CheckError("API calls must have end >= begin, all on the program's one thread")
    api_slices = [e for e in trace["traceEvents"] if e["ph"] == "X" and e.get("cat") == "api"]
    if len(api_slices) != len(calls):
        raise CheckError("%d API calls but %d api slices in the trace" %
                         (len(calls), len(api_slices)))
    api_lane = {(e["pid"], e["tid"]) for e in api_slices}
    flow_starts = [e for e in trace["traceEvents"] if e["ph"] == "s"]
    from_api = [e for e in flow_starts if (e["pid"], e["tid"]) in api_lane]
    if len(flow_starts) != 4 or len(from_api) != 4:
        raise CheckError("expected 4 launch->kernel flows from the API lane, got %d (%d from it)" %
                         (len(flow_starts), len(from_api)))
    if 'class="note overlap"' not in page:
        raise CheckError("the report does not give the overlap of host and device work")
    # The text summary's host-side measures count the same work: 4 kernels (2 without a profile),
    # 2 copies and 2 memsets, GCP from the same times; and the host's API calls.
    with open(summary_path) as f:
        summary = f.read()
    line = re.search(r"^  GPU 0 +(\d+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+)$", summary, re.M)
    if not line or int(line.group(1)) != 4 or abs(float(line.group(4)) - gcp) > 0.0006 or \
            abs(float(line.group(3)) - transfer_ns / 1e6) > 0.0006:
        raise CheckError("summary's GPU 0 line %s: expected 4 kernels, %.3f transfer ms, GCP %.3f"
                         "\n%s" % (line.group(0) if line else None, transfer_ns / 1e6, gcp, summary))
    if "transfers (copies, memsets): GPU 0 4; kernels without a profile: 2" not in summary:
        raise CheckError("summary without the transfers and unprofiled kernels:\n" + summary)
    api = re.search(r"^host API: (\d+) calls on 1 thread, ([\d.]+) ms in calls, ([\d.]+) ms of "
                    r"them waiting for the device", summary, re.M)
    blocking = sum(c["end_ns"] - c["begin_ns"] for c in calls
                   if "Synchronize" in c["name"] or
                   (c["name"].startswith("cudaMemcpy") and "Async" not in c["name"]))
    # The summary is written at exit just after the file: calls made in between count there only.
    if not api or int(api.group(1)) < len(calls) or float(api.group(3)) < blocking / 1e6 - 0.001:
        raise CheckError("summary's host API line %s: expected at least %d calls and %.3f ms "
                         "waiting" % (api.group(0) if api else None, len(calls), blocking / 1e6))
    # Switched off (issue 16's cost bullet: "or can be switched off"): the same run records no
    # operations and no API calls; the profiled launches are still there.
    run([args.ocelot, "run", "-i", "bbcount", "--kernel", "scale", "--device", args.device,
         "--summary", "off", "--no-host-measures", "-o", profile, "--", args.program])
    off = validated_or_loaded(profile)
    if off.get("operations") or "api_calls" in off or len(off["profiles"]) != 2:
        raise CheckError("--no-host-measures: %d operations, api_calls %s, %d profiles (none, "
                         "absent and 2 expected)" % (len(off.get("operations") or []),
                                                     "present" if "api_calls" in off else "absent",
                                                     len(off["profiles"])))
    print("hostlanes: 2 profiled launches, 2 unprofiled kernels, 2 copies and 2 memsets timed; "
          "GCP %.3f in the report; %d API calls on the host lane, 4 flows from launch calls; "
          "trace well formed; the text summary counts the same work and the API calls; nothing "
          "recorded with --no-host-measures" % (gcp, len(calls)))


def check_nvtx(args):
    """tests/e2e/programs/host_lanes.cu under `ocelot run` (Ocelot the NVTX injection library):
    each launch's profile carries its range stack, the file the ranges and the mark, the trace
    NVTX slices; --nvtx-include selects exactly the launches inside (Nsight Compute's syntax)."""
    os.makedirs(args.work, exist_ok=True)
    profile = os.path.join(args.work, "nvtx.json")

    def profiled(*options):
        run([args.ocelot, "run", "-i", "bbcount", "--device", args.device, "--summary", "off",
             "-o", profile] + list(options) + ["--", args.program])
        document = validated_or_loaded(profile)
        return document, [(p["kernel"], p.get("nvtx", [])) for p in
                          sorted(document["profiles"], key=lambda p: p["launch_id"])]

    document, launches = profiled()
    expected = [("_Z5scalePfif", ["compute", "phase1"]), ("_Z6offsetPfif", ["compute"]),
                ("_Z5scalePfif", ["mylib@solve"]), ("_Z6finishPfPKfi", [])]
    if launches != expected:
        raise CheckError("launches and their NVTX stacks: %s, expected %s" % (launches, expected))
    records = sorted((r["kind"], r["domain"], r["name"]) for r in document.get("nvtx", []))
    wanted = sorted([("push", "", "setup"), ("push", "", "compute"), ("push", "", "phase1"),
                     ("push", "mylib", "solve"), ("mark", "", "computed")])
    if records != wanted:
        raise CheckError("NVTX records %s, expected %s" % (records, wanted))
    trace_path = os.path.join(args.work, "nvtx.trace.json")
    run([args.ocelot, "report", profile, "-o", os.path.join(args.work, "nvtx.html"),
         "--trace", trace_path])
    with open(trace_path) as f:
        trace = json.load(f)
    problems = trace_problems(trace)
    if problems:
        raise CheckError("trace order/nesting:\n  " + "\n  ".join(problems[:10]))
    names = sorted(e["name"] for e in trace["traceEvents"]
                   if e["ph"] == "X" and e.get("cat") in ("nvtx", "nvtx-mark"))
    if names != sorted(["setup", "compute", "phase1", "solve", "computed"]):
        raise CheckError("NVTX slices in the trace: %s" % names)
    html_checked = check_nvtx_html(os.path.join(args.work, "nvtx.html"), document)

    for rule, want in (("compute/", expected[:2]), ("compute/phase1/", expected[:1]),
                       ("mylib@solve/", expected[2:3]), ("[phase1/", []),
                       ("phase1]/", expected[:1]), ("compute/*/", expected[:2])):
        _, got = profiled("--nvtx-include", rule)
        if got != want:
            raise CheckError("--nvtx-include %s selected %s, expected %s" % (rule, got, want))
    print("nvtx: range stacks on 4 launches, 5 ranges and marks in the file and the trace; "
          "--nvtx-include selects exactly the launches inside 6 rules; " + html_checked)


def check_nvtx_html(html, document):
    """The report's NVTX section of host_lanes: the per-range table counts exactly the work each
    range encloses (kernels, copies and memsets, nested ranges included), the kernels-by-range
    table attributes each kernel to its innermost range, and the page with its timeline renders
    in chromium without script errors (when installed)."""
    with open(html, encoding="utf-8") as f:
        page = f.read()
    table = re.search(r'<table id="nvtx-ranges".*?</table>', page, re.S)
    if not table:
        raise CheckError("the report has no NVTX ranges table")
    ranges = {}
    for label, row in re.findall(r'<tr data-range="([^"]*)">(.*?)</tr>', table.group(0), re.S):
        values = re.findall(r'data-v="([^"]*)"', row)
        ranges[label] = (int(float(values[6])), int(float(values[8])))  # kernels, transfers
    # setup: the copy and the memset; compute: scale, offset and the memset between them;
    # phase1: scale; the domain mylib's solve: scale.
    want = {"setup": (0, 2), "compute": (2, 1), "phase1": (1, 0), "mylib@solve": (1, 0)}
    if ranges != want:
        raise CheckError("NVTX ranges (kernels, transfers) %s, expected %s" % (ranges, want))
    kernels = re.search(r'<table id="nvtx-kernels".*?</table>', page, re.S).group(0)
    rows = sorted((re.sub(r"<[^>]+>", "", path).replace("&gt;", ">"), kernel, int(float(launches)))
                  for path, kernel, launches in re.findall(
                      r'<td class="name" data-v="">(.*?)</td><td class="name" data-v="">'
                      r'(.*?)</td><td class="num" data-v="([0-9.]+)">', kernels, re.S))
    demangled = {p["kernel"]: p.get("demangled", p["kernel"]) for p in document["profiles"]}
    want_rows = sorted([("compute > phase1", demangled["_Z5scalePfif"], 1),
                        ("compute", demangled["_Z6offsetPfif"], 1),
                        ("mylib@solve", demangled["_Z5scalePfif"], 1),
                        ("(outside every range)", demangled["_Z6finishPfPKfi"], 1)])
    if rows != want_rows:
        raise CheckError("kernels by range %s, expected %s" % (rows, want_rows))
    if page.count('class="nvtx-timeline"') != 1:
        raise CheckError("expected one NVTX timeline in the report")
    browser = chromium()
    if browser is None:
        return "report NVTX tables exact (no chromium to render it)"
    _, attributes = render_in_chromium(browser, html)
    if attributes.get("data-nvtx-timelines") != "1":
        raise CheckError("chromium saw %s NVTX timelines" % attributes.get("data-nvtx-timelines"))
    return "report NVTX tables exact, its timeline renders in chromium"


def check_multigpu(args):
    """tests/e2e/programs/multi_gpu.cu on two devices (a 2-GPU machine, or the CPU back end as two
    devices, OCELOT_CPU_DEVICES=2), under `ocelot run -i bbcount`:
    both devices instrumented with exact counts (device 0: stamp twice over 4 x 128 threads, device
    1: three times over 8 x 64; every block of stamp runs on all 512 threads), each profile naming
    its device; the peer copies and memsets timed per device; the report's GCP per device and
    across devices equal to the file's times. Exit 77 where the program finds fewer than 2 GPUs."""
    os.makedirs(args.work, exist_ok=True)
    profile = os.path.join(args.work, "multigpu.%s.json" % args.device)
    summary_path = os.path.join(args.work, "multigpu.%s.summary.txt" % args.device)
    command = [args.ocelot, "run", "-i", "bbcount", "--device", args.device, "--summary",
               summary_path, "-o", profile, "--", args.program]
    env = dict(os.environ)
    if args.device == "cpu":
        # The CPU back end as two devices (runtime/cpu/CpuPlatform): the same paths without GPUs.
        env.setdefault("OCELOT_CPU_DEVICES", "2")
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
    if done.returncode == SKIP:
        print("SKIP: %s" % done.stdout.strip())
        return SKIP
    if done.returncode != 0:
        raise CheckError("%s exited %d:\n%s\n%s" % (" ".join(command), done.returncode,
                                                   done.stdout[-2000:], done.stderr[-3000:]))
    document = validated_or_loaded(profile)
    per_device = {}
    for p in document["profiles"]:
        if p["kernel"] != "_Z5stampPiiii" or p["execution"] != "instrumented":
            raise CheckError("unexpected launch %s (%s): %s" % (p["kernel"], p["execution"],
                                                                p.get("notes")))
        per_device.setdefault(p["device"], []).append(p)
        counts = [b["count"] for b in p["results"]["bbcount"]["blocks"] if b.get("counted", True)]
        if p["results"]["bbcount"]["threads"] != 512 or not counts or \
                any(c != 512 for c in counts):
            raise CheckError("device %d launch %d: threads %s, block counts %s (all 512 expected)"
                             % (p["device"], p["launch_id"], p["results"]["bbcount"]["threads"],
                                counts))
    shapes = {d: sorted((tuple(p["grid"]), tuple(p["block"])) for p in launches)
              for d, launches in per_device.items()}
    want = {0: [((4, 1, 1), (128, 1, 1))] * 2, 1: [((8, 1, 1), (64, 1, 1))] * 3}
    if shapes != want:
        raise CheckError("launches per device %s, expected %s" % (shapes, want))
    operations = document.get("operations", [])
    transfers = {}
    for o in operations:
        if o["kind"] != "kernel":
            transfers.setdefault(o["device"], []).append(o["name"])
    if sorted(transfers) != [0, 1] or "peer copy" not in transfers[0] or \
            "peer copy" not in transfers[1]:
        raise CheckError("transfers per device: %s (a peer copy on each expected)" % transfers)
    html = os.path.join(args.work, "multigpu.%s.html" % args.device)
    trace_path = os.path.join(args.work, "multigpu.%s.trace.json" % args.device)
    run([args.ocelot, "report", profile, "-o", html, "--trace", trace_path])
    check_trace_lanes(trace_path, ("rank 0 GPU 0 streams", "rank 0 GPU 1 streams"))
    with open(summary_path) as f:
        summary = f.read()
    for device, launches in ((0, 2), (1, 3)):
        if not re.search(r"^  GPU %d +%d " % (device, launches), summary, re.M):
            raise CheckError("the summary has no GPU %d line with %d kernels:\n%s" %
                             (device, launches, summary))
    if not re.search(r"^  all +5 ", summary, re.M) or \
            "transfers (copies, memsets): GPU 0 3, GPU 1 3" not in summary:
        raise CheckError("the summary lacks the row across devices or the transfers per device "
                         "(a memset and a peer copy each, and the copy back):\n" + summary)
    with open(html) as f:
        page = f.read()
    table = re.search(r'<table id="host-measures".*?</table>', page, re.S).group(0)
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
    cells = [re.findall(r'data-v="([^"]*)"', r) for r in rows]
    by_device = {}
    for row, text in zip(cells, rows):
        label = re.search(r'<td class="device"[^>]*>([^<]*)</td>', text)
        if label:  # not the header row
            by_device[label.group(1)] = row
    kernel_ns = {d: sum(p["gpu_ms"] * 1e6 for p in launches) for d, launches in per_device.items()}
    transfer_ns = {d: sum(o["gpu_ns"] for o in operations
                          if o["device"] == d and o["kind"] != "kernel") for d in (0, 1)}
    for label, d in (("GPU 0", 0), ("GPU 1", 1)):
        gcp = kernel_ns[d] / (kernel_ns[d] + transfer_ns[d])
        row = by_device.get(label)
        if row is None or abs(float(row[9]) - gcp) > 1e-5:
            raise CheckError("%s: report row %s, expected GCP %.6f" % (label, row, gcp))
    across = sum(kernel_ns.values()) / (sum(kernel_ns.values()) + sum(transfer_ns.values()))
    row = by_device.get("all 2 devices")
    if row is None or abs(float(row[9]) - across) > 1e-5:
        raise CheckError("across devices: report row %s, expected GCP %.6f" % (row, across))
    print("multigpu (%s): device 0 stamp x2 (4x128), device 1 stamp x3 (8x64), every block 512 "
          "threads; peer copies timed on both devices; a trace lane group and a summary line per "
          "device; GCP %.3f / %.3f, across %.3f" %
          (args.device, kernel_ns[0] / (kernel_ns[0] + transfer_ns[0]),
           kernel_ns[1] / (kernel_ns[1] + transfer_ns[1]), across))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("check", choices=["profile", "trace", "tau", "browser", "mpi",
                                          "callpaths", "hostlanes", "nvtx", "multigpu",
                                          "mainjob", "rankdevices"])
    parser.add_argument("--ocelot", required=True)
    parser.add_argument("--program")
    parser.add_argument("--work", required=True)
    parser.add_argument("--mpirun")
    parser.add_argument("--device", default="cpu",
                        help="callpaths, hostlanes, nvtx, multigpu: cpu (CI; multigpu with "
                             "OCELOT_CPU_DEVICES=2) or gpu")
    args = parser.parse_args()
    try:
        if args.check in ("profile", "mpi", "callpaths", "hostlanes", "nvtx", "multigpu",
                          "rankdevices") and not (args.program and
                                                  os.access(args.program, os.X_OK)):
            print("SKIP: %s is not built (needs nvcc)" % args.program)
            return SKIP
        result = {"profile": check_profile, "trace": check_trace, "tau": check_tau,
                  "browser": check_browser, "mpi": check_mpi,
                  "callpaths": check_callpaths,
                  "hostlanes": check_hostlanes, "nvtx": check_nvtx,
                  "multigpu": check_multigpu, "mainjob": check_mainjob,
                  "rankdevices": check_rankdevices}[args.check](args)
        return result or 0
    except (CheckError, profile_schema.ProfileSchemaError, subprocess.TimeoutExpired) as e:
        print("FAIL: %s" % e)
        return 1


if __name__ == "__main__":
    sys.exit(main())
