#!/usr/bin/env bash
# Per-sample C++ compile cost of judged MultiOOP programs, in one run:
# "baseline" (precompiled judge prelude without explicit instantiations, as
# before) against "current" (observe<T> for common types and libstdc++'s
# needless instantiations declared extern, defined once in the archive;
# see crates/lang/src/cpp/toolchain.rs). Both are built here from the
# repository's sources with the toolchain's flags; N distinct programs
# (shaped like the benchmark's: harness headers, a class, observed calls of
# several types, one not pre-instantiated) are compiled and linked on the
# host, alternating variants, and each binary is run: the outputs must be
# identical. Prints the mean CPU time (user+sys of g++ and its children)
# and wall time per compile. Trusted, generated programs only: no sandbox.
# Usage: scripts/bench-cpp-compile.sh [N programs, default 40]
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "${1:-40}" <<'PY'
import os, re, resource, subprocess, sys, tempfile, time

n = int(sys.argv[1])
root = os.getcwd()
cpp_rs = open("crates/lang/src/cpp/toolchain.rs").read()
judging_rs = open("crates/lang/src/cpp/judging.rs").read()
prelude = open("crates/lang/src/cpp/observer.hpp").read()
std_extern = open("crates/lang/src/cpp/cpp_std_extern.hpp").read()
flags = re.search(r"const FLAGS: &\[&str\] = &\[(.*?)\];", cpp_rs).group(1)
flags = re.findall(r'"([^"]*)"', flags)
headers = re.findall(r'"([^"]*)"', re.search(r"PCH_HEADERS: &\[&str\] = &\[(.*?)\];", cpp_rs, re.S).group(1))
types = re.findall(r'"([^"]*)"', re.search(r"PRE_INSTANTIATED: &\[&str\] = &\[(.*?)\];", cpp_rs, re.S).group(1))
gxx = ["g++"] + flags

# The judged statements as the judge writes them (C++'s `Judging`): the
# Rust format strings of the observe and finish statements.
def rust_format(fn):
    m = re.search(r"fn " + fn + r"\(.*?\"(.*?)\"", judging_rs, re.S)
    if not m:
        sys.exit(f"no {fn} in crates/lang/src/cpp/judging.rs")
    return m.group(1)

def statement(fmt, **values):
    for name, value in values.items():
        fmt = fmt.replace("{" + name + "}", value)
    return fmt.replace("{{", "{").replace("}}", "}")

OBSERVE = rust_format("observe_statement")
FINISH = statement(rust_format("finish_statement"))

def sh(argv, cwd):
    subprocess.run(argv, cwd=cwd, check=True)

def insts(kw):
    return "namespace polyeval_judge {\n" + "".join(
        f"{kw}template void observe<{t}>(int, {t} const&);\n" for t in types) + "}\n"

def build(d, current):
    os.makedirs(d)
    head = ("#ifndef POLYEVAL_JUDGE_HPP\n#define POLYEVAL_JUDGE_HPP\n#define POLYEVAL_JUDGE_LINKED 1\n"
            + prelude + "\n" + (insts("extern ") if current else "") + "#endif\n")
    open(f"{d}/polyeval_judge.hpp", "w").write(head)
    open(f"{d}/polyeval_judge_def.cpp", "w").write(prelude)
    srcs = ["polyeval_judge_def.cpp"]
    pch = "".join(f"#include <{h}>\n" for h in headers)
    if current:
        open(f"{d}/polyeval_std_extern.h", "w").write(std_extern)
        open(f"{d}/polyeval_judge_inst.cpp", "w").write('#include "polyeval_judge.hpp"\n' + insts(""))
        open(f"{d}/polyeval_std_inst.cpp", "w").write(
            '#define POLYEVAL_STD_INSTANTIATE\n#include "polyeval_std_extern.h"\n')
        srcs += ["polyeval_judge_inst.cpp", "polyeval_std_inst.cpp"]
        pch += "#include <polyeval_std_extern.h>\n"
    sh(gxx + ["-DPOLYEVAL_JUDGE_DEF=", "-c"] + srcs, d)
    sh(["ar", "rcs", "libpolyeval_judge.a"] + [s.replace(".cpp", ".o") for s in srcs], d)
    open(f"{d}/polyeval_judge_pch.h", "w").write(pch + "#include <polyeval_judge.hpp>\n")
    sh(gxx + [f"-I{d}", "-x", "c++-header", "polyeval_judge_pch.h", "-o", "polyeval_judge_pch.h.gch"], d)

# What the benchmark's judged programs observe: mostly int, some strings,
# doubles, bools and vectors; every eighth a map (not pre-instantiated).
OBSERVED = [
    ("int", "int", "2 * n"),
    ("std::string", "std::string", "std::to_string(n)"),
    ("double", "double", "n / 4.0"),
    ("bool", "bool", "n % 2 == 0"),
    ("int", "int", "n + 1"),
    ("std::vector<int>", "std::vector<int>", "std::vector<int>{n, n}"),
    ("long long", "long long", "1LL * n * n"),
    ("std::map<std::string, int>", "std::map<std::string, int>", "std::map<std::string, int>{{\"k\", n}}"),
]

def program(k):
    ret, _, expr = OBSERVED[k % len(OBSERVED)]
    observe = statement(OBSERVE, t="0", lhs=f"q.twice({k})")
    extra = "#include <map>\n" if "map" in ret else ""
    return f"""#include <polyeval_judge.hpp>
#include <stdlib.h>
#include <algorithm>
#include <math.h>
#include <stdio.h>
#include <vector>
#include <string>
#include <climits>
#include <cstring>
#include <iostream>
#include <cassert>
#include <unordered_map>
{extra}#define main polyeval_candidate_main
// sample {k}
class QTS {{
public:
    {ret} twice(int n) {{ return {expr}; }}
}};
#undef main

int main() {{
    QTS q;
    {observe}
    {FINISH}
    return 0;
}}
"""

with tempfile.TemporaryDirectory(prefix="bench-cpp-") as tmp:
    variants = {"baseline": f"{tmp}/baseline", "current": f"{tmp}/current"}
    for name, d in variants.items():
        build(d, name == "current")
    cpu = {v: 0.0 for v in variants}
    wall = {v: 0.0 for v in variants}
    outputs = {}
    for k in range(n):
        src = f"{tmp}/p{k}.cpp"
        open(src, "w").write(program(k))
        # Alternate which variant goes first, so drift in load affects both.
        order = list(variants) if k % 2 == 0 else list(reversed(variants))
        for v in order:
            d = variants[v]
            exe = f"{tmp}/p{k}-{v}"
            argv = gxx + ["-fuse-ld=gold", "-include", f"{d}/polyeval_judge_pch.h", f"-I{d}",
                          src, "-o", exe, f"{d}/libpolyeval_judge.a"]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.monotonic()
            subprocess.run(argv, check=True)
            wall[v] += time.monotonic() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[v] += (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            out = subprocess.run([exe], capture_output=True, check=True).stdout
            outputs.setdefault(k, set()).add(out)
    differ = [k for k, o in outputs.items() if len(o) != 1]
    if differ:
        sys.exit(f"outputs differ between variants for programs {differ}")
    base = cpu["baseline"] / n
    for v in variants:
        print(f"{v:9} {1000 * cpu[v] / n:6.1f} ms CPU  {1000 * wall[v] / n:6.1f} ms wall per compile+link"
              f"  ({base / (cpu[v] / n):.2f}x)")
    print(f"{n} programs, outputs identical; load average {os.getloadavg()[0]:.2f}")
PY
