#!/usr/bin/env python3
"""Baseline: the CrossPL miner's per-file procedure (Algorithm 1, "FSM-based
interoperability analysis"), written from the description in docs
(BRIEF.md, "Mining repositories with the FSMs"), in plain Python.

Used only (1) as the baseline of `scripts/bench-mine.sh` and (2) as an
independent cross-check of `polyeval mine --mode compat`. It is not
upstream's code. The line procedure is the one of `reference_fsm.py` (same
comment counter and per-suffix skipping, whose suffix tables it imports),
done the way the authors' miner does it: the file is opened again for every
machine that applies to it, read as text with universal newlines and
undecodable bytes dropped, and the descriptions of the states tested are
collected (once per distinct pattern) for the `Status_description` column.

Usage:
  reference_mine.py --catalog FILE --out hits.csv REPO_DIR...
  reference_mine.py --catalog FILE --out hits.csv --repos-dir DIR

Each REPO_DIR is a checkout named `<Name>_<GithubId>`. Writes the authors'
six columns, with `File_path` = `<repo dir name>/<path in repo>`, and prints
files, lines and timing on stderr.
"""
import argparse
import csv
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_fsm import C_LIKE, HASH_LIKE, MARKUP  # noqa: E402

LANGUAGES = {"c": ".c", "c++": ".cpp .cc", "c#": ".cs", "java": ".java",
             "javascript": ".js", "typescript": ".ts", "python": ".py",
             "html": ".html", "php": ".php", "go": ".go", "ruby": ".rb",
             "objective-c": ".m .mm", "css": ".css", "assembly": ".as",
             "kotlin": ".kt", "swift": ".swift", "rust": ".rs", "perl": ".pl",
             "r": ".r", "scala": ".scala", "dart": ".dart",
             "shell": ".sh .zsh .bsh"}
FFI = "Foreign Function Interface(FFI)"
IPC = "Inter-Process Communication (IPC)"


def skipped(line, ext, counter):
    if ext in HASH_LIKE:
        return counter % 2 == 1 or line.startswith("#") or "'''" in line or '"""' in line
    if ext in C_LIKE:
        return (line.startswith("//") or counter % 2 == 1
                or (line.startswith("/*") and line.endswith("*/")) or line.startswith("*/"))
    if ext in MARKUP:
        return (line.startswith("<!--") and line.endswith("-->")) or counter % 2 == 1
    if ext == ".as":
        return line.startswith(";") or line.startswith("#")
    return False


def match_file(machine, path, ext):
    """(accepted, descriptions of the states tested, lines read)."""
    states = {s["key"]: s for s in machine["states"]}
    active = list(machine["initial"])
    tested_patterns = []
    descriptions = []
    counter = 0
    lines = 0
    with open(path, "r", encoding="utf-8", errors="ignore") as f:
        for line in f:
            lines += 1
            line = line.strip()
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
            if skipped(line, ext, counter):
                continue
            for key in active:  # grows while it is walked: same-line successors
                state = states[key]
                pattern = state["pattern"] or ""
                if pattern not in tested_patterns:
                    tested_patterns.append(pattern)
                    descriptions.append(state["description"])
                if pattern and re.search(pattern, line) is None:
                    continue
                if not state["next"]:
                    return True, descriptions, lines
                for n in state["next"]:
                    if n not in active:
                        active.append(n)
    return False, descriptions, lines


def extension(name):
    return os.path.splitext(name)[1].lower()


def mine_repo(catalog, repo, writer, stats):
    name = os.path.basename(os.path.normpath(repo))
    files = []
    for top, _dirs, names in os.walk(repo):
        for n in names:
            files.append(os.path.join(top, n))
    present = {extension(f) for f in files}
    langs = [lang for lang, exts in LANGUAGES.items() if present & set(exts.split())]
    if len(langs) <= 1:
        return
    lang_exts = {e for lang in langs for e in LANGUAGES[lang].split()}
    for path in files:
        if not os.path.exists(path):
            continue
        stats["files"] += 1
        ext = extension(path)
        rel = name + "/" + os.path.relpath(path, repo).replace(os.sep, "/")
        passes = [(FFI, catalog["ffi"])]
        if ext in lang_exts:
            passes.append((IPC, catalog["ipc"]))
        for kind, machines in passes:
            for index, m in enumerate(machines):
                if "*" not in m["file_types"] and ext not in m["file_types"]:
                    continue
                accepted, descriptions, lines = match_file(m, path, ext)
                stats["lines"] += lines
                if accepted:
                    writer.writerow([rel, kind, index, m["classifier"], m["interface_name"],
                                     str(descriptions)])
                    stats["hits"] += 1
                    break


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--catalog", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--repos-dir")
    ap.add_argument("repos", nargs="*")
    args = ap.parse_args()
    catalog = json.load(open(args.catalog))
    repos = list(args.repos)
    if args.repos_dir:
        repos += sorted(os.path.join(args.repos_dir, d) for d in os.listdir(args.repos_dir)
                        if os.path.isdir(os.path.join(args.repos_dir, d)))
    stats = {"files": 0, "lines": 0, "hits": 0}
    t0 = time.perf_counter()
    with open(args.out, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["File_path", "Classfier", "Classfier_ID", "Interface_class",
                         "Interface_name", "Status_description"])
        for repo in repos:
            mine_repo(catalog, repo, writer, stats)
    elapsed = time.perf_counter() - t0
    print("reference miner: %d repositories, %d files, %d lines read (once per machine), "
          "%d hits in %.3f s" % (len(repos), stats["files"], stats["lines"], stats["hits"],
                                 elapsed), file=sys.stderr)


if __name__ == "__main__":
    main()
