//! One program checked by one protocol machine, as `polyeval fsm check`
//! shows it: the trace in the asked mode, scored exactly as `evaluate`
//! scores a generation in it, and the other mode's trace beside it.

use super::scored_text;
use polyeval_fsm::{CompiledMachine, Mode, Trace};
use std::path::Path;

/// A program's traces in both modes.
pub struct FileCheck {
    /// The trace in the mode asked for.
    pub trace: Trace,
    pub other_mode: Mode,
    pub other: Trace,
}

impl FileCheck {
    /// Run `machine` over `code` (a file of type `suffix`) in `mode` and in the other mode.
    pub fn run(machine: &CompiledMachine, code: &str, suffix: &str, mode: Mode) -> FileCheck {
        let trace = machine.run(&scored_text(code, mode), suffix, mode);
        let other_mode = match mode {
            Mode::Compat => Mode::Strict,
            Mode::Strict => Mode::Compat,
        };
        let other = machine.run(&scored_text(code, other_mode), suffix, other_mode);
        FileCheck {
            trace,
            other_mode,
            other,
        }
    }
}

/// The file type a program is scored as: `suffix` (with or without its
/// dot), else the file's extension.
pub fn scored_suffix(file: &Path, suffix: Option<&str>) -> anyhow::Result<String> {
    Ok(match suffix {
        Some(s) if s.starts_with('.') => s.to_string(),
        Some(s) => format!(".{s}"),
        None => match file.extension().and_then(|e| e.to_str()) {
            Some(ext) => format!(".{ext}"),
            None => anyhow::bail!(
                "{} has no extension: pass --suffix (e.g. --suffix .java)",
                file.display()
            ),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{IpcMeta, TaskMeta};
    use polyeval_core::Bench;
    use polyeval_fsm::{catalog_path_in, Catalog, Engine};

    #[test]
    fn the_suffix_is_given_or_the_files_extension() {
        let file = Path::new("dir/Server.java");
        assert_eq!(scored_suffix(file, None).unwrap(), ".java");
        assert_eq!(scored_suffix(file, Some("py")).unwrap(), ".py");
        assert_eq!(scored_suffix(file, Some(".go")).unwrap(), ".go");
        let e = scored_suffix(Path::new("Makefile"), None).unwrap_err();
        assert!(e.to_string().contains("pass --suffix"), "{e}");
    }

    #[test]
    fn both_modes_score_what_evaluate_scores_in_them() {
        let data = polyeval_core::data::shared_test_data();
        let set = crate::loaders::load(Bench::CrossplIpc, &data).unwrap();
        let task = set.tasks.iter().find(|t| t.key == "java/17").unwrap();
        let TaskMeta::Ipc(IpcMeta { fsm_id, suffix, .. }) = &task.meta else {
            unreachable!()
        };
        let catalog = Catalog::load(&catalog_path_in(&data).unwrap()).unwrap();
        let engine = Engine::new(&catalog);
        let machine = engine.machine(*fsm_id).unwrap();
        let canonical = task.canonical_solution.as_deref().unwrap();
        // The protocol only inside a reasoning block: compat reads it, strict does not.
        let code = format!("<think>\n{canonical}\n</think>\nclass Answer {{}}");
        let check = FileCheck::run(machine, &code, suffix, Mode::Compat);
        assert!(check.trace.accepted);
        assert_eq!(check.other_mode, Mode::Strict);
        assert!(!check.other.accepted);
        let check = FileCheck::run(machine, canonical, suffix, Mode::Strict);
        assert!(check.trace.accepted && check.other.accepted);
        assert_eq!(check.other_mode, Mode::Compat);
    }
}
