//! The prompts of `build ffi` (ours: `crates/build/prompts/build-ffi/*.txt`, embedded at
//! build time) and the text appended to every instruction built. Filled
//! with the placeholder renderer of `build ipc` ([`crate::ipc::prompts::render`]).

use super::units::Unit;
use crate::ipc::prompts::render;
use polyeval_client::Message;
use polyeval_core::hash::{fnv1a, FNV_OFFSET};

const GENERATE: &str = include_str!("../../prompts/build-ffi/generate.txt");
const REVISE: &str = include_str!("../../prompts/build-ffi/revise.txt");
const TASK_FORMAT: &str = include_str!("../../prompts/build-ffi/task-format.txt");
/// Reads a solution's syntax tree (run in the sandbox): its classes and
/// functions with their parameters, `assert_test` and what it holds excluded.
pub const SIGNATURES_PY: &str = include_str!("signatures.py");

/// Exported names listed in a generation prompt (template families export
/// one instance per element type: `gsl_vector` has hundreds).
const MAX_NAMES: usize = 60;

const ALL: [&str; 4] = [GENERATE, REVISE, TASK_FORMAT, SIGNATURES_PY];

/// `ffi-<16 hex digits>`: changes whenever a prompt (or the signature
/// reader) changes, so a build resumed with other prompts is refused and
/// every task says which prompts made it.
pub fn version() -> String {
    let hash = ALL
        .iter()
        .fold(FNV_OFFSET, |h, p| fnv1a(&[0], fnv1a(p.as_bytes(), h)));
    format!("ffi-{hash:016x}")
}

/// The `ffi-generate` request for a unit.
pub fn generate(unit: &Unit, gsl_version: &str) -> Vec<Message> {
    let all: Vec<&str> = unit
        .names()
        .into_iter()
        .chain(unit.instances.iter().map(String::as_str))
        .collect();
    let mut names: Vec<String> = all
        .iter()
        .take(MAX_NAMES)
        .map(|n| format!("`{n}`"))
        .collect();
    if all.len() > MAX_NAMES {
        names.push(format!("and {} more", all.len() - MAX_NAMES));
    }
    vec![Message::user(render(
        GENERATE,
        &[
            ("gsl_version", gsl_version),
            ("family", &unit.family),
            ("source_file", &unit.source_file),
            ("functions", &names.join(", ")),
            ("code", unit.code().trim_end()),
        ],
    ))]
}

/// The `ffi-revise` request for correction `round` (1-based) of `rounds`.
pub fn revise(
    instruction: &str,
    solution: &str,
    error: &str,
    output: &str,
    round: u32,
    rounds: u32,
    gsl_version: &str,
) -> Vec<Message> {
    let (round, rounds) = (round.to_string(), rounds.to_string());
    vec![Message::user(render(
        REVISE,
        &[
            ("gsl_version", gsl_version),
            ("round", &round),
            ("rounds", &rounds),
            ("instruction", instruction.trim_end()),
            ("solution", solution.trim_end()),
            ("error", error),
            (
                "output",
                if output.trim().is_empty() {
                    "(nothing)"
                } else {
                    output.trim_end()
                },
            ),
        ],
    ))]
}

/// The first words of the appended block, by which it is found again.
fn format_lead() -> &'static str {
    TASK_FORMAT.split("{{").next().unwrap_or(TASK_FORMAT)
}

/// `instruction` with the names the solution defines and the answer format
/// appended (CrossPL's "required classes … parameter lists are: […]", which
/// `doctor`'s vacuity probe reads). Idempotent: a block appended before is
/// replaced, never repeated.
pub fn with_names(
    instruction: &str,
    classes: &[String],
    functions: &[(String, Vec<String>)],
) -> String {
    let base = match instruction.find(format_lead()) {
        Some(at) => &instruction[..at],
        None => instruction,
    };
    let quoted = |s: &str| format!("'{s}'");
    let classes = format!(
        "[{}]",
        classes
            .iter()
            .map(|c| quoted(c))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let functions = format!(
        "[{}]",
        functions
            .iter()
            .map(|(name, params)| format!(
                "({}, [{}])",
                quoted(name),
                params
                    .iter()
                    .map(|p| quoted(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    format!(
        "{}\n\n{}",
        base.trim_end(),
        render(
            TASK_FORMAT,
            &[("classes", &classes), ("functions", &functions)]
        )
        .trim_end()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_appended_once_and_read_back_by_the_doctor() {
        let classes = vec!["Spline".to_string()];
        let functions = vec![
            (
                "__init__".to_string(),
                vec!["self".to_string(), "n".to_string()],
            ),
            ("exp_of".to_string(), vec!["x".to_string()]),
        ];
        let once = with_names("Compute e^x with GSL.", &classes, &functions);
        assert!(once.starts_with("Compute e^x with GSL.\n\nNames to use: the required classes are: ['Spline'], and the required functions along with their parameter lists are: [('__init__', ['self', 'n']), ('exp_of', ['x'])]."), "{once}");
        assert!(once.contains("\"Candidate_solution\""));
        assert_eq!(with_names(&once, &classes, &functions), once);
        let renamed = with_names(&once, &[], &functions[1..]);
        assert_eq!(renamed.matches("Names to use").count(), 1);
        assert!(renamed.contains("classes are: [], "), "{renamed}");
        assert_eq!(
            polyeval_bench::crosspl_ffi::doctor::required_functions(&once),
            ["__init__", "exp_of"]
        );
    }

    #[test]
    fn the_version_names_the_workflow() {
        assert!(version().starts_with("ffi-") && version().len() == 20);
    }
}
