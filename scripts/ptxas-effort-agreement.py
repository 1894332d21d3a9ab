#!/usr/bin/env python3
"""Does ptxas at its cheapest optimization level reject exactly the PTX its default level rejects?

The corpus tests assemble instrumented modules to check that Ocelot's output is valid PTX: syntax,
types, declared registers and symbols, the target's instructions. This script takes PTX modules,
makes N seeded single-point mutations of each (the kinds of mistakes an instrumentation pass
makes: a dropped line, an undeclared register, a wrong type, a missing label or symbol, a
shrunken register declaration, a broken statement), assembles every mutant with `ptxas -c` at the
default level and at `--Ofast-compile=max`, and prints how often the verdicts agree, with the
CPU seconds of each level. A disagreement is printed with both levels' first message.

  scripts/ptxas-effort-agreement.py [--mutants N] [--seed S] ARCH:FILE.ptx...
"""
import argparse
import os
import random
import re
import resource
import subprocess
import sys
import tempfile

PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
LEVELS = {"default": [], "fast": ["--Ofast-compile=max"]}

INSTRUCTION = re.compile(r"^\s+(@!?%\w+\s+)?[a-z][\w.]*\s[^;]*;\s*$")
REGISTER = re.compile(r"%[a-z]+\d+")
TYPE = re.compile(r"\.(u|s|b|f)(8|16|32|64)\b")
REG_DECL = re.compile(r"(\.reg\s+\.\w+\s+%\w+<)(\d+)(>)")
BRANCH = re.compile(r"(\bbra(?:\.uni)?\s+)(\$?\w+)")
CALL = re.compile(r"(\bcall(?:\.uni)?\s+(?:\([^)]*\),\s*)?)(\w+)")
GLOBAL_REF = re.compile(r"(\[)([A-Za-z_]\w*)([+\]])")


def mutate(lines, rng):
    """One mutation of the module's lines: (kind, new lines), or None when the kind has no site."""
    kind = rng.choice(["drop-line", "undeclared-register", "wrong-type", "missing-label",
                       "undefined-symbol", "shrink-register-decl", "drop-semicolon",
                       "swap-operands"])
    sites = []
    if kind in ("drop-line", "drop-semicolon", "swap-operands"):
        sites = [i for i, l in enumerate(lines) if INSTRUCTION.match(l)]
    elif kind == "undeclared-register":
        sites = [i for i, l in enumerate(lines) if INSTRUCTION.match(l) and REGISTER.search(l)]
    elif kind == "wrong-type":
        sites = [i for i, l in enumerate(lines) if INSTRUCTION.match(l) and TYPE.search(l)]
    elif kind == "missing-label":
        sites = [i for i, l in enumerate(lines) if BRANCH.search(l)]
    elif kind == "undefined-symbol":
        sites = [i for i, l in enumerate(lines)
                 if CALL.search(l) or (INSTRUCTION.match(l) and GLOBAL_REF.search(l))]
    elif kind == "shrink-register-decl":
        sites = [i for i, l in enumerate(lines) if REG_DECL.search(l)]
    if not sites:
        return None
    i = rng.choice(sites)
    line = lines[i]
    out = list(lines)
    if kind == "drop-line":
        del out[i]
    elif kind == "drop-semicolon":
        out[i] = line.rstrip().rstrip(";")
    elif kind == "swap-operands":
        head, _, operands = line.partition(" ") if not line.lstrip().startswith("@") else (
            line, "", "")
        parts = [p.strip() for p in operands.rstrip().rstrip(";").split(",")]
        if len(parts) < 2:
            return None
        a, b = rng.sample(range(len(parts)), 2)
        parts[a], parts[b] = parts[b], parts[a]
        out[i] = head + " " + ", ".join(parts) + ";"
    elif kind == "undeclared-register":
        regs = REGISTER.findall(line)
        reg = rng.choice(regs)
        out[i] = line.replace(reg, re.sub(r"\d+$", "987654", reg), 1)
    elif kind == "wrong-type":
        matches = list(TYPE.finditer(line))
        m = rng.choice(matches)
        new = rng.choice([t for t in (".u8", ".s16", ".b32", ".f32", ".f64", ".u64", ".pred")
                          if t != m.group(0)])
        out[i] = line[:m.start()] + new + line[m.end():]
    elif kind == "missing-label":
        out[i] = BRANCH.sub(lambda m: m.group(1) + m.group(2) + "_missing", line, count=1)
    elif kind == "undefined-symbol":
        if CALL.search(line):
            out[i] = CALL.sub(lambda m: m.group(1) + m.group(2) + "_missing", line, count=1)
        else:
            out[i] = GLOBAL_REF.sub(lambda m: m.group(1) + m.group(2) + "_missing" + m.group(3),
                                    line, count=1)
    elif kind == "shrink-register-decl":
        m = REG_DECL.search(line)
        count = int(m.group(2))
        if count < 2:
            return None
        out[i] = line[:m.start()] + m.group(1) + str(count // 2) + m.group(3) + line[m.end():]
    return kind, out


def assemble(path, arch, level):
    """(accepted, first message line, CPU seconds of ptxas)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run([PTXAS, "-c", f"-arch={arch}", *LEVELS[level], path, "-o", os.devnull],
                         capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    message = (run.stderr or run.stdout).strip().splitlines()
    return run.returncode == 0, message[0] if message else "", cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=50, help="mutants per module")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("modules", nargs="+", help="ARCH:FILE.ptx, e.g. sm_90:sorting.ptx")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    totals = {"agree": 0, "disagree": 0, "rejected": 0}
    cpu = {level: 0.0 for level in LEVELS}
    by_kind = {}
    with tempfile.TemporaryDirectory() as work:
        for spec in args.modules:
            arch, _, path = spec.partition(":")
            lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
            # The module itself must assemble at both levels.
            for level in LEVELS:
                ok, message, seconds = assemble(path, arch, level)
                if not ok:
                    print(f"{path}: the unmutated module fails at {level}: {message}")
                    return 2
            made = 0
            while made < args.mutants:
                mutant = mutate(lines, rng)
                if mutant is None:
                    continue
                kind, out = mutant
                made += 1
                mutant_path = os.path.join(work, "mutant.ptx")
                with open(mutant_path, "w", encoding="utf-8") as f:
                    f.write("\n".join(out))
                verdicts = {}
                for level in LEVELS:
                    ok, message, seconds = assemble(mutant_path, arch, level)
                    verdicts[level] = (ok, message)
                    cpu[level] += seconds
                stats = by_kind.setdefault(kind, [0, 0, 0])
                stats[0] += 1
                if not verdicts["default"][0]:
                    totals["rejected"] += 1
                    stats[1] += 1
                if verdicts["default"][0] == verdicts["fast"][0]:
                    totals["agree"] += 1
                else:
                    totals["disagree"] += 1
                    stats[2] += 1
                    print(f"DISAGREE {os.path.basename(path)} {kind}: default "
                          f"{'accepts' if verdicts['default'][0] else 'rejects'} "
                          f"({verdicts['default'][1]}), fast "
                          f"{'accepts' if verdicts['fast'][0] else 'rejects'} "
                          f"({verdicts['fast'][1]})")
    print("kind                   mutants  rejected(default)  disagreements")
    for kind, (n, rejected, disagree) in sorted(by_kind.items()):
        print(f"{kind:22} {n:7} {rejected:18} {disagree:14}")
    n = totals["agree"] + totals["disagree"]
    print(f"{n} mutants: {totals['rejected']} rejected at the default level, "
          f"{totals['disagree']} verdicts differ; ptxas CPU-s default {cpu['default']:.1f}, "
          f"fast {cpu['fast']:.1f}")
    return 1 if totals["disagree"] else 0


if __name__ == "__main__":
    sys.exit(main())
