//! MultiOOP's Python reference solutions, `python_reference/OOP_<n>_cleaned.py`
//! (the 431-task OOP set shares them: its ids are the same). Each file is the
//! solution followed by a separator comment (`#--------------:`) and a few
//! `print(...)` self-checks; the solution is what comes before them. Used by
//! the `reference` model and by the doctor's reference runs.

use std::path::{Path, PathBuf};

/// Where the reference files are for tasks loaded from `data` (the benchmark
/// root or its parent): the first directory that exists of
/// `<data>/python_reference`, `<data>/multioop/python_reference` and, with
/// `sibling`, `<data>/../multioop/python_reference` (the OOP set beside MultiOOP).
pub fn default_dir(data: &Path, sibling: bool) -> Option<PathBuf> {
    let mut candidates = vec![
        data.join("python_reference"),
        data.join("multioop/python_reference"),
    ];
    if sibling {
        candidates.push(data.join("../multioop/python_reference"));
    }
    candidates.into_iter().find(|d| d.is_dir())
}

/// The file holding a task's reference solution.
pub fn reference_file(dir: &Path, task_id: &str) -> PathBuf {
    let n = task_id.rsplit('/').next().unwrap_or(task_id);
    dir.join(format!("OOP_{n}_cleaned.py"))
}

/// The reference solution for a task without its trailing checks, if the
/// directory has one.
pub fn load_reference(dir: &Path, task_id: &str) -> Option<String> {
    let text = std::fs::read_to_string(reference_file(dir, task_id)).ok()?;
    Some(strip_reference_checks(&text))
}

/// The solution part of a reference file: everything before the separator
/// line (one starting with `#-----`), without trailing blank lines and
/// `print(` self-checks (files without a separator end with those directly).
pub fn strip_reference_checks(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    if let Some(cut) = lines
        .iter()
        .position(|l| l.trim_start().starts_with("#-----"))
    {
        lines.truncate(cut);
    }
    while lines
        .last()
        .is_some_and(|l| l.trim().is_empty() || l.starts_with("print("))
    {
        lines.pop();
    }
    lines.join("\n")
}

/// [`strip_reference_checks`] as a source file: ending with a newline (the
/// `reference` model's answer).
pub fn strip_trailing_checks(text: &str) -> String {
    let mut out = strip_reference_checks(text);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_checks_are_stripped() {
        assert_eq!(
            strip_reference_checks("class A:\n    pass\n\n#--------------:\nprint(A())\n"),
            "class A:\n    pass"
        );
        assert_eq!(
            strip_reference_checks("class A:\n    pass\nprint(A() == 1)\nprint(2)\n"),
            "class A:\n    pass"
        );
    }

    #[test]
    fn reference_checks_are_cut() {
        let src = "class A:\n    pass\n\n#--------------:\nprint(A() is not None)\n";
        assert_eq!(strip_trailing_checks(src), "class A:\n    pass\n");
        assert_eq!(strip_trailing_checks("x = 1\nprint(x == 1)\n"), "x = 1\n");
    }
}
