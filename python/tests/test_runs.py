"""polyeval.runs reads runs as polyeval itself does.

Against the runs polyeval 0.1.0 wrote (crates/cli/tests/fixtures/runs-0.1.0)
and what `polyeval export` printed for them; with POLYEVAL_RUNS_DIR, also
against every run in that directory and what the `polyeval` on PATH exports
for it now (the wheel's CI step points it at `polyeval demo`'s runs).

    PYTHONPATH=python python3 python/tests/test_runs.py     (the source)
    python3 python/tests/test_runs.py                       (the installed package)
"""

import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import unittest

import polyeval.runs as runs

HERE = os.path.dirname(os.path.abspath(__file__))

FIXTURES = os.path.join(HERE, "..", "..", "crates", "cli", "tests", "fixtures", "runs-0.1.0")


def expected_records(name):
    with open(os.path.join(FIXTURES, "expected", name), encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def same_fields(record, sample):
    """The sample's values of the fields the record has."""
    return {k: getattr(sample, k) for k in record}


class ReleaseFixtures(unittest.TestCase):
    def setUp(self):
        # Reading a run in a writable directory creates SQLite's lock files
        # beside it: the tests read copies, never the committed fixtures.
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.runs = os.path.join(self._tmp.name, "runs")
        shutil.copytree(FIXTURES, self.runs)

    def run_dir(self, name):
        return os.path.join(self.runs, name)

    def test_every_sample_and_verdict_as_0_1_0_exported_them(self):
        for run, export in [
            ("demo-multioop-flawed", "demo-multioop-flawed.export.jsonl"),
            ("imported-crosspl-results", "imported-crosspl-results.export.jsonl"),
            ("generated-replay", "generated-replay.export.jsonl"),
        ]:
            with self.subTest(run=run):
                loaded = runs.load(self.run_dir(run))
                expected = expected_records(export)
                self.assertEqual(len(loaded), len(expected))
                self.assertGreater(len(loaded), 0)
                for record, sample in zip(expected, loaded):
                    self.assertEqual(same_fields(record, sample), record)

    def test_the_run_says_what_it_was_made_of(self):
        run = runs.load(self.run_dir("imported-crosspl-results"))
        self.assertEqual(run.bench, "crosspl-ipc")
        self.assertEqual(run.model, "Tiny-coder")
        self.assertEqual(run.mode, "compat")
        # Imported with upstream's verdicts: the recorded pseudo-mode is listed.
        self.assertEqual(run.modes, ["compat", "recorded"])
        self.assertIsInstance(run.config["params"], dict)
        # Every sample carries its verdict of each mode, with the evidence.
        first = run[0]
        self.assertEqual(set(first.verdicts), {"compat"})
        self.assertEqual(first.verdicts["compat"].status, first.status)
        self.assertIsInstance(first.verdicts["compat"].data, dict)

    def test_pending_samples_have_no_verdict(self):
        run = runs.load(self.run_dir("generated-replay"))
        self.assertIsNone(run.mode)
        self.assertTrue(all(s.status is None and s.verdicts == {} for s in run))

    def test_an_unknown_mode_is_refused_naming_the_modes(self):
        with self.assertRaisesRegex(runs.RunError, "no `strict` verdicts .*compat"):
            runs.load(self.run_dir("imported-crosspl-results"), mode="strict")

    def test_several_modes_default_to_the_benchmarks_default(self):
        with tempfile.TemporaryDirectory() as tmp:
            run_dir = os.path.join(tmp, "run")
            shutil.copytree(self.run_dir("imported-crosspl-results"), run_dir)
            with sqlite3.connect(os.path.join(run_dir, "run.sqlite")) as db:
                db.execute(
                    "INSERT INTO verdicts(sample_id, mode, status, category, detail, pass_o, data) "
                    "SELECT sample_id, 'strict', 'failed', NULL, 'x', NULL, '{}' FROM verdicts"
                )
            self.assertEqual(runs.load(run_dir).mode, "compat")
            strict = runs.load(run_dir, mode="strict")
            self.assertTrue(all(s.status == "failed" for s in strict))
            self.assertEqual(set(strict[0].verdicts), {"compat", "strict"})

    def test_reading_changes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            run_dir = os.path.join(tmp, "run")
            shutil.copytree(self.run_dir("demo-multioop-flawed"), run_dir)
            db = os.path.join(run_dir, "run.sqlite")
            with open(db, "rb") as f:
                before = f.read()
            self.assertEqual(len(runs.load(run_dir)), 12)
            with open(db, "rb") as f:
                self.assertEqual(f.read(), before)

    def test_a_run_in_a_directory_we_may_not_write_to_is_read_without_lock_files(self):
        # Root may write anywhere, so the unwritable directory is simulated.
        with tempfile.TemporaryDirectory() as tmp:
            run_dir = os.path.join(tmp, "run")
            shutil.copytree(self.run_dir("demo-multioop-flawed"), run_dir)
            real_access = os.access
            os.access = lambda p, mode, *a, **k: False if mode == os.W_OK else real_access(p, mode)
            try:
                self.assertEqual(len(runs.load(run_dir)), 12)
            finally:
                os.access = real_access
            self.assertEqual(os.listdir(run_dir), ["run.sqlite"])

    def test_what_is_not_a_run_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaisesRegex(runs.RunError, "not a polyeval run directory"):
                runs.load(tmp)
            with open(os.path.join(tmp, "run.sqlite"), "wb") as f:
                f.write(b"not a database at all, but long enough to be read as one")
            with self.assertRaisesRegex(runs.RunError, "not a polyeval run database"):
                runs.load(tmp)

    def test_a_newer_schema_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            run_dir = os.path.join(tmp, "run")
            shutil.copytree(self.run_dir("demo-multioop-flawed"), run_dir)
            with sqlite3.connect(os.path.join(run_dir, "run.sqlite")) as db:
                db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
            with self.assertRaisesRegex(runs.RunError, "schema version 99"):
                runs.load(run_dir)

    def test_a_dataframe_has_a_row_per_sample(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas is not installed")
        run = runs.load(self.run_dir("demo-multioop-flawed"))
        frame = run.to_pandas()
        self.assertEqual(len(frame), len(run))
        self.assertEqual(list(frame["status"]), [s.status for s in run])


@unittest.skipUnless(os.environ.get("POLYEVAL_RUNS_DIR"), "POLYEVAL_RUNS_DIR is not set")
class AgainstTheInstalledPolyeval(unittest.TestCase):
    """Every run of a directory reads as `polyeval export` exports it."""

    def test_records_equal_polyeval_export(self):
        directory = os.environ["POLYEVAL_RUNS_DIR"]
        names = sorted(os.listdir(directory))
        self.assertTrue(names, f"no runs in {directory}")
        for name in names:
            with self.subTest(run=name):
                path = os.path.join(directory, name)
                exported = subprocess.run(
                    ["polyeval", "export", "--format", "jsonl", path],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                expected = [json.loads(line) for line in exported.splitlines()]
                loaded = runs.load(path)
                self.assertGreater(len(loaded), 0)
                self.assertEqual([s.export_record() for s in loaded], expected)


if __name__ == "__main__":
    unittest.main()
