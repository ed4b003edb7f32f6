#!/usr/bin/env python3
"""Baseline: the published CrossPL-IPC FSM procedure, written from the
description in docs (BRIEF.md, "CrossPL-IPC"), in plain Python.

Used only (1) as the throughput baseline for `scripts/bench-fsm.sh` and (2) as
an independent cross-check of polyeval's compat mode. It is not upstream's code.

Usage:
  reference_fsm.py --data DIR [--models GPT-4o,Qwen2.5-coder-7b-instruct | --models all]
                   [--results RESULTS_DIR] [--verdicts-out FILE] [--repeat N]

DIR is the benchmark data root holding crosspl/ (or crosspl/ itself).
`--models all` scores every model directory in every recorded variant
(`greedy_pass<variant>.json`), each model and variant reported apart.
Prints agreement with the recorded verdicts, per-language pass rates, and the
scoring time (generations/s, single process) on stderr/stdout.
"""
import argparse
import json
import os
import re
import sys
import time

C_LIKE = {".cpp", ".cc", ".java", ".c", ".js", ".ts", ".php", ".rs", ".kt",
          ".swift", ".scala", ".dart"}
HASH_LIKE = {".py", ".rb", ".sh", ".r"}
MARKUP = {".html", ".m", ".mm"}


def accepts(machine, code, suffix):
    states = {s["key"]: s for s in machine["states"]}
    active = list(machine["initial"])
    counter = 0
    for raw in code.split("\n"):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("/*") or line.endswith("*/"):
            counter += 1
        if line.startswith("'''") or line.endswith("'''"):
            counter += 1
        if line.startswith('"""') or line.endswith('"""'):
            counter += 1
        if line.startswith("<!--") or line.endswith("-->"):
            counter += 1
        if suffix in HASH_LIKE:
            if counter % 2 == 1 or line.startswith("#") or "'''" in line or '"""' in line:
                continue
        elif suffix in C_LIKE:
            if (line.startswith("//") or counter % 2 == 1
                    or (line.startswith("/*") and line.endswith("*/"))
                    or line.startswith("*/")):
                continue
        elif suffix in MARKUP:
            if (line.startswith("<!--") and line.endswith("-->")) or counter % 2 == 1:
                continue
        i = 0
        while i < len(active):
            state = states[active[i]]
            pattern = state["pattern"]
            if not pattern or re.search(pattern, line):
                if not state["next"]:
                    return True
                for n in state["next"]:
                    if n not in active:
                        active.append(n)
            i += 1
    return False


RESULT_DIRS = {"C++_ipc": "c++_ipc", "go_ipc": "go_ipc", "java_ipc": "java_ipc",
               "js_ipc": "js_ipc", "php_ipc": "php_ipc", "python_ipc": "python_ipc"}
LANG_NAMES = {"C++_ipc": "C++", "go_ipc": "Go", "java_ipc": "Java",
              "js_ipc": "JavaScript", "php_ipc": "PHP", "python_ipc": "Python"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--models", default="GPT-4o,Qwen2.5-coder-7b-instruct",
                    help="comma-separated model directories, or `all`")
    ap.add_argument("--results", help="recorded results directory (default: DIR/results)")
    ap.add_argument("--verdicts-out")
    ap.add_argument("--repeat", type=int, default=1,
                    help="score the whole set this many times (timing)")
    args = ap.parse_args()
    root = args.data
    if os.path.isdir(os.path.join(root, "crosspl")):
        root = os.path.join(root, "crosspl")

    t_load = time.perf_counter()
    catalog = json.load(open(os.path.join(root, "fsm", "crosspl_fsms.json")))
    machines = {m["fsm_id"]: m for m in catalog["ipc"]}
    results = args.results or os.path.join(root, "results")
    items = []  # (model + variant, lang, task_id, fsm_id, suffix, code, recorded)
    runs = []  # model + variant, in order of appearance
    for rdir, tdir in RESULT_DIRS.items():
        if args.models == "all":
            lang_dir = os.path.join(results, rdir)
            pairs = sorted(
                (model, f[len("greedy_pass"):-len(".json")])
                for model in (os.listdir(lang_dir) if os.path.isdir(lang_dir) else [])
                for f in os.listdir(os.path.join(lang_dir, model))
                if f.startswith("greedy_pass") and f.endswith(".json"))
        else:
            pairs = [(model, "") for model in args.models.split(",")]
        for model, variant in pairs:
            base = os.path.join(results, rdir, model)
            for stem, recorded in (("greedy_pass", True), ("greedy_fail", False)):
                path = os.path.join(base, stem + variant + ".json")
                if not os.path.exists(path):
                    continue
                if model + variant not in runs:
                    runs.append(model + variant)
                for rec in json.load(open(path)):
                    task_path = os.path.join(root, "PolyBench", "IPC_Bench", tdir,
                                             "IPC_%d.json" % rec["Task_id"])
                    suffix = json.load(open(task_path))["suffix"]
                    code = rec["right_result"] if recorded else rec["wrong_result"]
                    items.append((model + variant, rdir, rec["Task_id"], rec["FSMID_for_test"],
                                  suffix, code, recorded))
    t_loaded = time.perf_counter()

    t0 = time.perf_counter()
    for _ in range(args.repeat):
        verdicts = [accepts(machines[fsm], code, suffix)
                    for (_, _, _, fsm, suffix, code, _) in items]
    t1 = time.perf_counter()
    n = len(items) * args.repeat
    agree = sum(1 for it, v in zip(items, verdicts) if it[6] == v)
    print("generations %d  agreement with recorded %d/%d (%.3f%%)"
          % (len(items), agree, len(items), 100.0 * agree / len(items)))
    for model in runs:
        cells = []
        for rdir in RESULT_DIRS:
            vs = [v for it, v in zip(items, verdicts) if it[0] == model and it[1] == rdir]
            if vs:
                cells.append("%s %.2f" % (LANG_NAMES[rdir], 100.0 * sum(vs) / len(vs)))
        print("%s: %s" % (model, ", ".join(cells)))
    print("load %.3f s; scoring %d generations in %.3f s = %.0f generations/s (single process)"
          % (t_loaded - t_load, n, t1 - t0, n / (t1 - t0)))
    if args.verdicts_out:
        with open(args.verdicts_out, "w") as f:
            json.dump([{"model": it[0], "dir": it[1], "task_id": it[2], "fsm_id": it[3],
                        "recorded": it[6], "passed": v} for it, v in zip(items, verdicts)], f)


if __name__ == "__main__":
    main()
