//! # polyeval-fsm — CrossPL protocol state machines
//!
//! CrossPL-IPC scores a generation statically: the task names a machine
//! (`FSMID_for_test`) from a catalog of 156 finite-state machines, and the
//! generation passes when that machine accepts the code, read line by line.
//!
//! ## Catalog schema (`fsm/crosspl_fsms.json`)
//!
//! ```text
//! {
//!   "ipc": [ Machine, … ],   // 156 machines; position i has fsm_id i
//!   "ffi": [ Machine, … ]    // 3 machines (ctypes …)
//! }
//! Machine = {
//!   "fsm_id": 0,                      // = a task's FSMID_for_test
//!   "classifier": "Java*",            // upstream analyser class
//!   "kind": "IMI" | "FFI",
//!   "file_types": [".java"],          // suffixes the machine was written for
//!   "interface_name": "java.net ServerSocket",
//!   "initial": [0],                   // keys of the states the run starts with
//!   "states": [ State, … ]            // in step order: step i+1 = states[i]
//! }
//! State = {
//!   "key": 0,                         // referenced by "initial" and "next"
//!   "upstream_state_id": 0,
//!   "pattern": "new ServerSocket",    // Python `re`, searched in one stripped line;
//!                                     // empty (or null) matches anything
//!   "description": "Step 2: …",       // shown in failure analysis
//!   "next": [2]                       // successors; [] = accepting
//! }
//! ```
//!
//! ## Matching (compat mode: the published procedure)
//!
//! Split on `\n`, strip each line (Python `str.strip`), skip empty lines.
//! A counter is incremented once for each of these tests a line passes:
//! starts with `/*` or ends with `*/`; starts or ends with `'''`; starts or
//! ends with `"""`; starts with `<!--` or ends with `-->`. Then, by suffix
//! ([`SkipRule`]): `.py .rb .sh .r` skip if the counter is odd, the line
//! starts with `#` or contains `'''`/`"""`; C-like suffixes skip `//` lines,
//! odd-counter lines, lines that start with `/*` and end with `*/`, and lines
//! starting with `*/`; `.html .m .mm` skip `<!-- … -->` lines and odd-counter
//! lines; `.as` skips lines starting with `;` or `#`; every other suffix,
//! including `.go`, skips nothing.
//!
//! The run keeps an active list, initially `initial`. For each remaining line
//! it walks the list in order, including states appended during this walk;
//! a state whose pattern is found in the line accepts at once if it has no
//! successors, else appends its successors not yet listed. States never
//! leave. At the end of the text: reject.
//!
//! ## Strict mode
//!
//! Comments are removed by a per-language lexer ([`strip`]) that knows string
//! literals; Python docstrings are removed, other strings stay. Then the same
//! walk runs with no line-skipping heuristics.
//!
//! ## Traces
//!
//! Every run yields a [`Trace`]: the steps matched with their lines, the
//! deepest step, and the first step never matched with its description.
//!
//! ```
//! use polyeval_fsm::{Catalog, Engine, Mode};
//! let catalog = Catalog::parse(r#"{"ipc":[{"fsm_id":0,"initial":[0],"states":[
//!   {"key":0,"pattern":"import socket","description":"Step 1: import","next":[1]},
//!   {"key":1,"pattern":"close\\(\\)","description":"Step 2: close","next":[]}]}]}"#).unwrap();
//! let engine = Engine::new(&catalog);
//! let trace = engine.check(0, "import socket\n# s.close()\ns.close()", ".py", Mode::Compat).unwrap();
//! assert!(trace.accepted);
//! assert_eq!(trace.accepting_line(), Some(3));
//! ```

pub mod catalog;
pub mod engine;
pub mod pyre;
pub mod recorded;
pub mod render;
pub mod scan;
pub mod strip;

pub use catalog::{catalog_path_for_task_file, catalog_path_in, Catalog, Machine, StateDef};
pub use engine::{
    compat_lines_read, compile_patterns, prepare, py_strip, CompileIssue, CompiledMachine, Engine,
    FsmError, Mode, PatternTable, SkipRule, StepMatch, Trace, Unreached,
};
