//! The translation report: `translation-report.json` (machine-readable) and
//! `translation-report.md` (per language: tasks translated, tests kept and
//! dropped with reasons, every excluded task with its reason, the skeleton
//! checks, and where the time went).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The `format` tag of `translation-report.json`.
pub const FORMAT: &str = "polyeval-translation-report/1";
/// The report files in the output directory.
pub const JSON_FILE: &str = "translation-report.json";
pub const MARKDOWN_FILE: &str = "translation-report.md";

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct TranslationReport {
    pub format: String,
    /// The MultiOOP directory translated.
    pub source: String,
    pub languages: Vec<String>,
    /// Python tasks considered.
    pub tasks: usize,
    /// Of those, tasks whose reference was traced.
    pub traced: usize,
    pub timing: Timing,
    pub per_language: Vec<LanguageReport>,
    /// Every excluded task: `language` is `None` when it is excluded in every language.
    pub excluded: Vec<TaskExclusion>,
    /// Every dropped test (`language` `None`: dropped in every language).
    pub drops: Vec<TestDrop>,
    pub notes: Vec<TaskNote>,
    /// Per task: the traced type of every constructor argument, argument
    /// and result, and whether the typed suites insist on a representation
    /// of it (see [`Representation`]).
    #[serde(default)]
    pub signatures: Vec<TaskSignature>,
}

/// What a typed suite requires of a value's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Representation {
    /// One reasonable type per language (a boolean, a string): pass@o
    /// keywords may name it.
    Fixed,
    /// The candidate's choice (any integer type the values fit, float or
    /// double, array, list or vector …): calls convert to the declared
    /// type, results are compared by value, keywords never name it. No
    /// MultiOOP question names a target-language type.
    Open,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskSignature {
    pub task_id: String,
    pub positions: Vec<PositionType>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PositionType {
    /// `constructor argument 1 (`nums`)`, `argument 2`, `result`.
    pub position: String,
    pub ty: String,
    pub representation: Representation,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Timing {
    pub total_s: f64,
    pub load_s: f64,
    /// Running the Python references under the tracer.
    pub trace_s: f64,
    pub trace_programs: usize,
    pub trace_cached: usize,
    /// Typing, emitting and checking every line splits to an observation.
    pub emit_s: f64,
    /// Running the tests against the typed skeletons.
    pub skeleton_s: f64,
    pub skeleton_programs: usize,
    pub skeleton_cached: usize,
    pub write_s: f64,
    pub workers: usize,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct LanguageReport {
    pub language: String,
    pub tasks_translated: usize,
    pub tests_kept: usize,
    /// Tests of translated tasks left out, by reason.
    pub tests_dropped: BTreeMap<String, usize>,
    /// Excluded tasks by reason (including those excluded in every language).
    pub excluded: BTreeMap<String, usize>,
    /// Emitted check lines and how many the judge splits to observations.
    pub check_lines: usize,
    pub observed_checks: usize,
    pub skeleton: SkeletonStats,
}

/// The soundness check: tests run against a typed skeleton must compile and
/// run (types sound) and fail (tests not vacuous).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SkeletonStats {
    pub checked: usize,
    /// Compiled and ran.
    pub compiled: usize,
    /// Compiled, ran and failed a check: sound and not vacuous.
    pub failed_as_expected: usize,
    /// Passed against the skeleton.
    pub vacuous: usize,
    pub compile_errors: usize,
    /// Anything else (a crash, a timeout, …).
    pub other: usize,
    /// The skeleton lacked a keyword of the derived list (an emitter bug).
    pub keywords_unsatisfied: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskExclusion {
    pub task_id: String,
    pub language: Option<String>,
    pub reason: String,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestDrop {
    pub task_id: String,
    pub language: Option<String>,
    pub test: String,
    pub reason: String,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskNote {
    pub task_id: String,
    pub note: String,
}

impl TranslationReport {
    /// The language's entry.
    pub fn language(&self, key: &str) -> Option<&LanguageReport> {
        self.per_language.iter().find(|l| l.language == key)
    }

    /// Excluded tasks of a language (those excluded everywhere included).
    pub fn excluded_in<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a TaskExclusion> {
        self.excluded
            .iter()
            .filter(move |e| e.language.as_deref().is_none_or(|l| l == key))
    }

    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# MultiOOP translation report\n");
        let _ = writeln!(
            s,
            "Translated from `{}`: {} Python tasks, {} references traced. Targets: {}.\n",
            self.source,
            self.tasks,
            self.traced,
            self.languages.join(", ")
        );
        let t = &self.timing;
        let _ = writeln!(
            s,
            "Time: {:.1} s in all on {} workers — load {:.1} s, tracing {:.1} s ({} programs, {} cached), emitting {:.1} s, skeleton checks {:.1} s ({} programs, {} cached), writing {:.1} s.\n",
            t.total_s,
            t.workers,
            t.load_s,
            t.trace_s,
            t.trace_programs,
            t.trace_cached,
            t.emit_s,
            t.skeleton_s,
            t.skeleton_programs,
            t.skeleton_cached,
            t.write_s
        );
        let _ = writeln!(s, "## Summary\n");
        let _ = writeln!(
            s,
            "| language | tasks translated | tasks excluded | tests kept | tests dropped | check lines observed | skeleton compiles | skeleton fails as expected |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
        for l in &self.per_language {
            let excluded: usize = l.excluded.values().sum();
            let dropped: usize = l.tests_dropped.values().sum();
            let k = &l.skeleton;
            let _ = writeln!(
                s,
                "| {} | {} | {excluded} | {} | {dropped} | {}/{} | {}/{} | {}/{} |",
                l.language,
                l.tasks_translated,
                l.tests_kept,
                l.observed_checks,
                l.check_lines,
                k.compiled,
                k.checked,
                k.failed_as_expected,
                k.checked
            );
        }
        let common: Vec<&TaskExclusion> = self
            .excluded
            .iter()
            .filter(|e| e.language.is_none())
            .collect();
        if !common.is_empty() {
            let _ = writeln!(s, "\n## Tasks excluded in every language\n");
            table(&mut s, &common);
        }
        for l in &self.per_language {
            let _ = writeln!(s, "\n## {}\n", l.language);
            let k = &l.skeleton;
            let _ = writeln!(
                s,
                "{} tasks translated, {} tests kept. Skeleton check: {} checked, {} compiled and ran, {} failed as they should, {} vacuous, {} compile errors, {} other, {} missing keywords.\n",
                l.tasks_translated,
                l.tests_kept,
                k.checked,
                k.compiled,
                k.failed_as_expected,
                k.vacuous,
                k.compile_errors,
                k.other,
                k.keywords_unsatisfied
            );
            if !l.tests_dropped.is_empty() {
                let parts: Vec<String> = l
                    .tests_dropped
                    .iter()
                    .map(|(r, n)| format!("{r} {n}"))
                    .collect();
                let _ = writeln!(s, "Tests dropped by reason: {}.\n", parts.join(", "));
            }
            let own: Vec<&TaskExclusion> = self
                .excluded
                .iter()
                .filter(|e| e.language.as_deref() == Some(l.language.as_str()))
                .collect();
            if own.is_empty() {
                let _ = writeln!(s, "No task excluded for this language alone.");
            } else {
                let _ = writeln!(s, "Excluded for this language:\n");
                table(&mut s, &own);
            }
        }
        if !self.drops.is_empty() {
            let _ = writeln!(s, "\n## Dropped tests\n");
            let _ = writeln!(s, "| task | language | test | reason | detail |");
            let _ = writeln!(s, "|---|---|---|---|---|");
            for d in &self.drops {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} |",
                    d.task_id,
                    d.language.as_deref().unwrap_or("all"),
                    d.test,
                    d.reason,
                    cell(&d.detail)
                );
            }
        }
        if !self.signatures.is_empty() {
            let _ = writeln!(s, "\n## Types per task\n");
            let _ = writeln!(
                s,
                "Fixed: one reasonable type per language (booleans, strings); keywords may name it. Open: the candidate's choice (integer width, float or double, array, list or vector); calls convert to the declared type, results compare by value, keywords never name it. No question names a target-language type.\n"
            );
            let _ = writeln!(s, "| task | fixed | open |");
            let _ = writeln!(s, "|---|---|---|");
            for t in &self.signatures {
                let list = |r: Representation| {
                    let v: Vec<String> = t
                        .positions
                        .iter()
                        .filter(|p| p.representation == r)
                        .map(|p| format!("{}: {}", p.position, p.ty))
                        .collect();
                    if v.is_empty() {
                        "—".to_string()
                    } else {
                        cell(&v.join("; "))
                    }
                };
                let _ = writeln!(
                    s,
                    "| {} | {} | {} |",
                    t.task_id,
                    list(Representation::Fixed),
                    list(Representation::Open)
                );
            }
        }
        if !self.notes.is_empty() {
            let _ = writeln!(s, "\n## Notes\n");
            for n in &self.notes {
                let _ = writeln!(s, "- {}: {}", n.task_id, n.note);
            }
        }
        s
    }
}

fn table(s: &mut String, rows: &[&TaskExclusion]) {
    let _ = writeln!(s, "| task | reason | detail |");
    let _ = writeln!(s, "|---|---|---|");
    for e in rows {
        let _ = writeln!(s, "| {} | {} | {} |", e.task_id, e.reason, cell(&e.detail));
    }
}

/// Text fit for a Markdown table cell (one line, no pipes, not too long).
fn cell(text: &str) -> String {
    let one: String = text.replace('\n', " ⏎ ").replace('|', "\\|");
    if one.chars().count() > 200 {
        one.chars().take(200).collect::<String>() + "…"
    } else {
        one
    }
}
