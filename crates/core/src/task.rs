//! One task model for every benchmark.

use polyeval_lang::Language;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

macro_rules! benches {
    ($($variant:ident => $key:literal $(| $alias:literal)*,)*) => {
        /// A benchmark, by key. What each one is (loader, evaluator, prompts,
        /// doctor, defaults) is its registry entry in `polyeval-bench`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum Bench {
            $(#[serde(rename = $key)] $variant,)*
        }

        impl Bench {
            pub const ALL: [Bench; [$($key),*].len()] = [$(Bench::$variant,)*];

            pub fn key(self) -> &'static str {
                match self {
                    $(Bench::$variant => $key,)*
                }
            }

            /// The benchmark named by a key or one of its short aliases, case-insensitively.
            pub fn parse(s: &str) -> Option<Bench> {
                match s.to_ascii_lowercase().as_str() {
                    $($key $(| $alias)* => Some(Bench::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

// One line per benchmark: variant => key | aliases.
benches! {
    CrossplIpc => "crosspl-ipc" | "ipc",
    CrossplFfi => "crosspl-ffi" | "ffi",
    MultiOop => "multioop",
    Oop => "oop",
    CrossplIpcExec => "crosspl-ipc-exec" | "ipc-exec",
}

impl fmt::Display for Bench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl FromStr for Bench {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Bench::parse(s).ok_or_else(|| {
            let keys: Vec<&str> = Bench::ALL.iter().map(|b| b.key()).collect();
            format!(
                "unknown benchmark `{s}` (expected one of: {})",
                keys.join(", ")
            )
        })
    }
}

/// A benchmark task. `key` is unique within a task set; `task_id` is the id
/// as upstream spells it (CrossPL `Task_id` number, `OOP/<n>`), which repeats
/// across languages. `M` is the benchmark's own metadata: the benchmarks
/// define it (`polyeval_bench::TaskMeta`), so this crate knows none of their
/// fields.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Task<M> {
    pub bench: Bench,
    /// Unique within the task set: `<language key>/<task_id>` (e.g. `java/17`, `cpp/OOP/3`, `python/1` for FFI).
    pub key: String,
    pub task_id: String,
    pub language: Language,
    /// The prompt text (CrossPL `Instruction`, MultiOOP `question`).
    pub instruction: String,
    pub canonical_solution: Option<String>,
    /// The file the task came from, for error messages.
    pub source_path: String,
    pub meta: M,
}

/// A loaded set of tasks of one benchmark, with a fingerprint of the data it was made from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaskSet<M> {
    pub bench: Bench,
    pub data_dir: String,
    /// Hex SHA-256 over the canonical serialisation of all tasks.
    pub fingerprint: String,
    /// Whether `instruction` and `canonical_solution` are filled in (see
    /// `loading::LoadOptions::skip_texts`).
    #[serde(default = "texts_default")]
    pub texts: bool,
    pub tasks: Vec<Task<M>>,
}

fn texts_default() -> bool {
    true
}

impl<M> TaskSet<M> {
    pub fn get(&self, key: &str) -> Option<&Task<M>> {
        self.tasks.iter().find(|t| t.key == key)
    }
}
