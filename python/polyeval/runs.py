"""Read a polyeval run directory from Python.

A run directory holds one SQLite database, ``run.sqlite`` (with its
write-ahead log ``run.sqlite-wal`` until the next checkpoint: the directory is
the run, not the file alone). :func:`load` reads it without writing to it and
returns one plain record per sample, with the same fields, in the same order,
as ``polyeval export --format jsonl`` prints, plus every verdict mode's
verdict and the sample's token usage and latency::

    import polyeval.runs
    run = polyeval.runs.load("runs/gpt-4o-multioop")
    passed = sum(s.status == "passed" for s in run)
    frame = run.to_pandas()          # needs pandas

Only the standard library is needed; pandas is optional.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import urllib.parse
from typing import Any, Dict, List, Optional

__all__ = ["Run", "RunError", "Sample", "Verdict", "load", "SCHEMA_VERSION"]

#: The run-database schema this reader understands (``meta.schema_version``).
SCHEMA_VERSION = 1

#: Language keys of task keys (``cpp/OOP/3``) and the names the papers print.
#: Kept equal to polyeval's own list by a test (crates/cli/tests/python_package.rs).
LANGUAGES = {
    "python": "Python",
    "cpp": "C++",
    "java": "Java",
    "csharp": "C#",
    "php": "PHP",
    "javascript": "JavaScript",
    "go": "Go",
    "typescript": "TypeScript",
}

#: Each benchmark's verdict modes, its default first (what ``evaluate`` uses
#: without ``--mode``). Kept equal to polyeval's own by the same test.
BENCHMARK_MODES = {
    "crosspl-ipc": ("compat", "strict"),
    "crosspl-ffi": ("sound", "inprocess"),
    "multioop": ("sound", "inprocess"),
    "oop": ("sound", "inprocess"),
    "crosspl-ipc-exec": ("executed",),
}

#: The pseudo-mode under which upstream's recorded verdicts are reported.
RECORDED_MODE = "recorded"

#: The longest failure output kept (its last characters), as ``export`` does.
FAILURE_OUTPUT_CHARS = 2000


class RunError(Exception):
    """The directory is not a run this reader can read."""


@dataclasses.dataclass(frozen=True)
class Verdict:
    """One verdict of a sample in one mode."""

    mode: str
    #: ``passed``, ``failed``, ``compile_error``, ``runtime_error``, ``timeout``,
    #: ``memory_exceeded``, ``output_exceeded``, ``killed_by_signal``,
    #: ``tampering`` or ``error``.
    status: str
    #: The benchmark's failure class (``AssertionError``, ``stuck_at_step`` …).
    category: Optional[str]
    #: One line saying why.
    detail: str
    #: pass@o (MultiOOP/OOP): passed and every required keyword present.
    pass_o: Optional[bool]
    #: The judge's evidence (FSM trace, standard error's tail, exit code …).
    data: Dict[str, Any]


@dataclasses.dataclass(frozen=True)
class Sample:
    """One sample (a completion of one task) and its verdict."""

    sample_id: str
    task_key: str
    task_id: str
    language: str
    sample_index: int
    #: The mode of the verdict below (``None`` when the sample has none).
    mode: Optional[str]
    status: Optional[str]
    category: Optional[str]
    detail: Optional[str]
    pass_o: Optional[bool]
    #: Upstream's recorded verdict, for imported generations that had one.
    recorded_passed: Optional[bool]
    completion: str
    #: For a sample that did not pass: the end of what the compiler or the
    #: program said on standard error.
    failure_output: Optional[str]
    #: Every mode's verdict of this sample, by mode.
    verdicts: Dict[str, Verdict]
    #: Token usage the model server reported, when the sample was generated.
    usage: Optional[Dict[str, Any]]
    latency_ms: Optional[int]

    def export_record(self) -> Dict[str, Any]:
        """The fields ``polyeval export`` prints, in its order."""
        return {f: getattr(self, f) for f in EXPORT_FIELDS}


#: The fields of ``polyeval export``'s records, in order.
EXPORT_FIELDS = (
    "sample_id",
    "task_key",
    "task_id",
    "language",
    "sample_index",
    "mode",
    "status",
    "category",
    "detail",
    "pass_o",
    "recorded_passed",
    "completion",
    "failure_output",
)


class Run(list):
    """The samples of a run (a list of :class:`Sample`), ordered by task key
    and sample index, with what the run was made of."""

    def __init__(
        self,
        samples: List[Sample],
        *,
        path: str,
        bench: str,
        model: str,
        mode: Optional[str],
        modes: List[str],
        config: Dict[str, Any],
    ):
        super().__init__(samples)
        self.path = path
        #: ``crosspl-ipc``, ``crosspl-ffi``, ``multioop`` or ``oop``.
        self.bench = bench
        self.model = model
        #: The mode whose verdicts fill each sample's ``status`` …
        self.mode = mode
        #: Every mode with verdicts (``recorded`` included when present).
        self.modes = modes
        #: The run's configuration: data directory, task fingerprint, parameters.
        self.config = config

    def to_pandas(self):
        """One row per sample (the ``export`` fields, plus ``latency_ms``) as a
        pandas DataFrame. Needs pandas (``pip install 'polyeval[pandas]'``)."""
        try:
            import pandas
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError(
                "Run.to_pandas needs pandas: pip install 'polyeval[pandas]'"
            ) from e
        columns = list(EXPORT_FIELDS) + ["latency_ms"]
        rows = [[getattr(s, c) for c in columns] for s in self]
        return pandas.DataFrame(rows, columns=columns)

    def __repr__(self) -> str:
        return (
            f"<polyeval run {self.path!r}: {self.bench}, model {self.model!r}, "
            f"{len(self)} samples, mode {self.mode!r}>"
        )


def load(path: "str | os.PathLike[str]", mode: Optional[str] = None) -> Run:
    """Read the run in directory ``path``.

    ``mode`` chooses which verdicts fill each sample's ``status``, ``category``
    … fields, as ``polyeval export --mode`` does; by default the run's only
    mode, else the benchmark's default mode. Every mode's verdicts are in each
    sample's ``verdicts`` whatever the choice. The database is never written
    (SQLite creates its lock files beside it where it may), and a run being
    evaluated can be read at the same time.
    """
    path = os.fspath(path)
    db = os.path.join(path, "run.sqlite")
    if not os.path.isfile(db):
        raise RunError(f"{path}: not a polyeval run directory (no run.sqlite)")
    with _connect_read_only(db) as conn:
        version = _meta(conn, db, "schema_version")
        if version is None or not version.isdigit():
            raise RunError(f"{db}: not a polyeval run database (no schema version)")
        if int(version) != SCHEMA_VERSION:
            raise RunError(
                f"{db}: schema version {version}, this reader reads version "
                f"{SCHEMA_VERSION}; install the polyeval that matches the run"
            )
        row = conn.execute(
            "SELECT bench, model, data_dir, task_fingerprint, params, created_at, updated_at "
            "FROM run_config WHERE id = 1"
        ).fetchone()
        if row is None:
            raise RunError(f"{db}: the run has no configuration")
        bench, model, data_dir, fingerprint, params, created_at, updated_at = row
        config = {
            "bench": bench,
            "model": model,
            "data_dir": data_dir,
            "task_fingerprint": fingerprint,
            "params": json.loads(params),
            "created_at": created_at,
            "updated_at": updated_at,
        }
        verdicts: Dict[str, Dict[str, Verdict]] = {}
        for sample_id, m, status, category, detail, pass_o, data in conn.execute(
            "SELECT sample_id, mode, status, category, detail, pass_o, data FROM verdicts"
        ):
            verdicts.setdefault(sample_id, {})[m] = Verdict(
                mode=m,
                status=status,
                category=category,
                detail=detail,
                pass_o=_bool(pass_o),
                data=json.loads(data),
            )
        ours = sorted(
            r[0] for r in conn.execute("SELECT DISTINCT mode FROM verdicts")
        )
        has_recorded = (
            conn.execute(
                "SELECT 1 FROM samples WHERE recorded_passed IS NOT NULL LIMIT 1"
            ).fetchone()
            is not None
        )
        chosen = _choose_mode(path, bench, ours, mode)
        samples = [
            _sample(row, chosen, verdicts.get(row[0], {}))
            for row in conn.execute(
                "SELECT id, task_key, sample_index, completion, recorded_passed, usage, latency_ms "
                "FROM samples ORDER BY task_key, sample_index"
            )
        ]
    return Run(
        samples,
        path=path,
        bench=bench,
        model=model,
        mode=chosen,
        modes=ours + ([RECORDED_MODE] if has_recorded else []),
        config=config,
    )


def _connect_read_only(db: str) -> sqlite3.Connection:
    # `mode=ro` still reads the write-ahead log, so what a running evaluation
    # committed is seen. A run in a directory we may not write to (another
    # user's, a read-only mount) cannot get the log's shared-memory index:
    # when it has no log to read it is opened as immutable instead.
    directory = os.path.dirname(os.path.abspath(db))
    wal = db + "-wal"
    wal_empty = not os.path.exists(wal) or os.path.getsize(wal) == 0
    query = "mode=ro"
    if not os.access(directory, os.W_OK) and wal_empty:
        query = "mode=ro&immutable=1"
    uri = "file:" + urllib.parse.quote(os.path.abspath(db)) + "?" + query
    conn = sqlite3.connect(uri, uri=True)
    # A row written with invalid UTF-8 must not make the run unreadable
    # (polyeval reads such text the same way).
    conn.text_factory = lambda b: b.decode("utf-8", "replace")
    return conn


def _meta(conn: sqlite3.Connection, db: str, key: str) -> Optional[str]:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.DatabaseError as e:
        raise RunError(f"{db}: not a polyeval run database ({e})") from e
    return row[0] if row else None


def _choose_mode(
    path: str, bench: str, ours: List[str], requested: Optional[str]
) -> Optional[str]:
    """The verdict mode ``polyeval report`` and ``export`` would show."""
    listed = ", ".join(ours) or "none"
    if requested is not None:
        if requested not in ours:
            raise RunError(
                f"run {path} has no `{requested}` verdicts (modes with verdicts: {listed})"
            )
        return requested
    if not ours:
        return None
    if len(ours) == 1:
        return ours[0]
    modes = BENCHMARK_MODES.get(bench, ())
    if modes and all(m in modes for m in ours) and modes[0] in ours:
        return modes[0]
    raise RunError(
        f"run {path} has verdicts in several modes ({listed}); choose one with mode="
    )


def _sample(row, mode: Optional[str], verdicts: Dict[str, Verdict]) -> Sample:
    sample_id, task_key, sample_index, completion, recorded, usage, latency_ms = row
    # Task keys are `<language key>/<task id>`; ids may hold '/' (`OOP/3`).
    language_key, sep, task_id = task_key.partition("/")
    if not sep:
        language_key, task_id = "", task_key
    verdict = verdicts.get(mode) if mode is not None else None
    return Sample(
        sample_id=sample_id,
        task_key=task_key,
        task_id=task_id,
        language=LANGUAGES.get(language_key.lower(), language_key),
        sample_index=sample_index,
        mode=mode if verdict else None,
        status=verdict.status if verdict else None,
        category=verdict.category if verdict else None,
        detail=verdict.detail if verdict else None,
        pass_o=verdict.pass_o if verdict else None,
        recorded_passed=_bool(recorded),
        completion=completion,
        failure_output=_failure_output(verdict) if verdict else None,
        verdicts=verdicts,
        usage=json.loads(usage) if usage else None,
        latency_ms=latency_ms,
    )


def _failure_output(verdict: Verdict) -> Optional[str]:
    """What the toolchain said about a sample that did not pass: the
    compiler's output for a compile error, else the program's standard error."""
    if verdict.status == "passed":
        return None

    def field(key: str) -> Optional[str]:
        text = verdict.data.get(key)
        return text if isinstance(text, str) and text.strip() else None

    if verdict.status == "compile_error":
        text = field("compile_tail") or field("stderr_tail")
    else:
        text = field("stderr_tail") or field("compile_tail")
    return text[-FAILURE_OUTPUT_CHARS:] if text is not None else None


def _bool(value) -> Optional[bool]:
    return None if value is None else bool(value)
