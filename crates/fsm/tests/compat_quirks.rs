//! Each quirk of the published (compat) procedure, on small machines written here.

use polyeval_fsm::{Catalog, Engine, Mode, StepMatch};

/// A state: its pattern and successor keys (keys are positions).
type StateSpec<'a> = (&'a str, &'a [usize]);
/// A machine: initial keys and states.
type MachineSpec<'a> = (&'a [usize], &'a [StateSpec<'a>]);

/// A catalog with one IPC machine per entry.
fn engine(machines: &[MachineSpec]) -> Engine {
    let ipc: Vec<serde_json::Value> = machines
        .iter()
        .enumerate()
        .map(|(id, (initial, states))| {
            let states: Vec<serde_json::Value> = states
                .iter()
                .enumerate()
                .map(|(k, (pattern, next))| {
                    serde_json::json!({"key": k, "upstream_state_id": k, "pattern": pattern,
                        "description": format!("Step {}: {pattern}", k + 1), "next": next})
                })
                .collect();
            serde_json::json!({"fsm_id": id, "initial": initial, "states": states})
        })
        .collect();
    let catalog = Catalog::parse(&serde_json::json!({"ipc": ipc, "ffi": []}).to_string()).unwrap();
    let engine = Engine::new(&catalog);
    assert!(engine.issues().is_empty(), "{:?}", engine.issues());
    engine
}

/// Linear machine A -> B (accepting).
fn a_then_b() -> Engine {
    engine(&[(&[0], &[("A", &[1]), ("B", &[])])])
}

fn accepts(e: &Engine, code: &str, suffix: &str) -> bool {
    e.check(0, code, suffix, Mode::Compat).unwrap().accepted
}

#[test]
fn single_line_block_comment_leaves_the_counter_odd() {
    let e = a_then_b();
    // `/* note */` adds one (start `/*` OR end `*/` is one test), so every later line is skipped.
    assert!(!accepts(&e, "A\n/* note */\nB", ".java"));
    // Without the comment line the same code passes.
    assert!(accepts(&e, "A\nB", ".java"));
    // A second comment line makes the counter even again.
    assert!(accepts(&e, "A\n/* one */\n/* two */\nB", ".java"));
}

#[test]
fn one_line_can_add_several_to_the_counter() {
    let e = a_then_b();
    // `/* B '''`: +1 for `/*`, +1 for the trailing `'''` → even → the line is not skipped.
    let t = e.check(0, "A\n/* B '''\nB", ".java", Mode::Compat).unwrap();
    assert!(t.accepted);
    assert_eq!(t.accepting_line(), Some(2));
    // `/* B` alone: +1 → odd → this and the next line are skipped.
    assert!(!accepts(&e, "A\n/* B\nB", ".java"));
    // `"""` and `<!--` count too: `/* B """` is even.
    assert!(accepts(&e, "A\n/* B \"\"\"", ".java"));
    assert!(accepts(&e, "A\n/* B -->", ".php"));
    assert!(
        !accepts(&e, "A\n<!-- /* B", ".php"),
        "starts with `<!--` only: +1, odd"
    );
}

#[test]
fn lines_starting_with_close_comment_are_skipped() {
    let e = a_then_b();
    let t = e.check(0, "A\n*/ B\nB", ".java", Mode::Compat).unwrap();
    assert!(t.accepted);
    assert_eq!(
        t.accepting_line(),
        Some(3),
        "the `*/ B` line must not match"
    );
    // `//` lines are skipped in C-like files.
    assert!(!accepts(&e, "A\n// B", ".cpp"));
    // A multi-line block comment: inside lines are skipped (odd counter).
    assert!(!accepts(&e, "A\n/*\nB\n*/", ".js"));
}

#[test]
fn go_never_skips_anything() {
    let e = a_then_b();
    assert!(accepts(&e, "A\n// B", ".go"));
    assert!(accepts(&e, "A\n/*\nB\n*/", ".go"));
    assert!(!accepts(&e, "A\n// B", ".java"));
}

#[test]
fn python_skips_hash_lines_and_any_line_with_triple_quotes() {
    let e = a_then_b();
    assert!(!accepts(&e, "A\n# B", ".py"));
    // A line containing `'''` is skipped even if it is code, and the trailing
    // `'''` makes the counter odd, so the following line is skipped too.
    assert!(!accepts(&e, "A\nx = '''B'''\nB", ".py"));
    // In strict mode the non-docstring string is code and matches.
    let t = e
        .check(0, "A\nx = '''B'''\nB", ".py", Mode::Strict)
        .unwrap();
    assert!(t.accepted);
    assert_eq!(t.accepting_line(), Some(2));
    // A docstring opening on its own line: lines inside are skipped until it closes.
    assert!(!accepts(&e, "A\n\"\"\"\nB\n\"\"\"", ".py"));
    assert!(accepts(&e, "A\n\"\"\"\nnote\n\"\"\"\nB", ".py"));
    // `//` means nothing in Python files.
    assert!(accepts(&e, "A\n// B", ".py"));
}

#[test]
fn markup_suffixes_skip_html_comments_only() {
    let e = a_then_b();
    assert!(!accepts(&e, "A\n<!-- B -->", ".html"));
    assert!(accepts(&e, "A\n// B", ".html"));
}

#[test]
fn successors_are_visited_on_the_same_line() {
    let e = engine(&[(&[0], &[("A", &[1]), ("B", &[2]), ("C", &[])])]);
    let t = e.check(0, "x = C(B(A))", ".java", Mode::Compat).unwrap();
    assert!(t.accepted);
    assert_eq!(
        t.matched,
        vec![
            StepMatch { step: 1, line: 1 },
            StepMatch { step: 2, line: 1 },
            StepMatch { step: 3, line: 1 }
        ]
    );
}

#[test]
fn states_never_leave_the_active_list() {
    // A -> {B, C}; B -> {D}; C accepts. Under "transition" semantics C would be
    // gone after B matched; here it stays active and accepts on line 3.
    let e = engine(&[(&[0], &[("A", &[1, 2]), ("B", &[3]), ("C", &[]), ("D", &[])])]);
    let t = e.check(0, "A\nB\nC", ".java", Mode::Compat).unwrap();
    assert!(t.accepted);
    assert_eq!(t.accepting_line(), Some(3));
}

#[test]
fn empty_pattern_matches_anything_including_on_the_same_line() {
    let e = engine(&[(&[0], &[("A", &[1]), ("", &[2]), ("F", &[])])]);
    let t = e.check(0, "A\nx\nF", ".java", Mode::Compat).unwrap();
    assert!(t.accepted);
    assert_eq!(
        t.matched[1],
        StepMatch { step: 2, line: 1 },
        "the empty step matches on A's own line"
    );
    // An empty accepting state accepts as soon as it is appended.
    let e = engine(&[(&[0], &[("A", &[1]), ("", &[])])]);
    assert!(accepts(&e, "  A  ", ".go"));
    assert!(!accepts(&e, "B", ".go"));
}

#[test]
fn accepts_at_once_when_a_matched_state_has_no_successors() {
    // The first state accepts immediately even though another branch is unfinished.
    let e = engine(&[(&[0], &[("A", &[1, 2]), ("B", &[]), ("C", &[3]), ("D", &[])])]);
    let t = e.check(0, "A\nB\nC\nD", ".java", Mode::Compat).unwrap();
    assert!(t.accepted);
    assert_eq!(t.accepting_line(), Some(2));
    assert_eq!(t.first_unreached, None);
}

#[test]
fn rejection_trace_names_the_deepest_and_first_unreached_steps() {
    let e = engine(&[(&[0], &[("import", &[1]), ("connect", &[2]), ("close", &[])])]);
    let t = e
        .check(0, "\n\nimport x\n\nconnect()\n", ".java", Mode::Compat)
        .unwrap();
    assert!(!t.accepted);
    assert_eq!(t.steps_total, 3);
    assert_eq!(
        t.matched,
        vec![
            StepMatch { step: 1, line: 3 },
            StepMatch { step: 2, line: 5 }
        ]
    );
    assert_eq!(t.deepest_step, 2);
    let u = t.first_unreached.unwrap();
    assert_eq!(u.step, 3);
    assert_eq!(u.description, "Step 3: close");
    let none = e.check(0, "nothing", ".java", Mode::Compat).unwrap();
    assert_eq!(none.deepest_step, 0);
    assert_eq!(none.first_unreached.unwrap().step, 1);
}

#[test]
fn lines_are_stripped_like_python_str_strip() {
    let e = engine(&[(&[0], &[("^A$", &[])])]);
    assert!(accepts(&e, "  \t A \r\n", ".go"));
    // U+001F is whitespace for Python's str.strip but not for Rust's trim.
    assert!(accepts(&e, "\u{1f}A\u{1c}", ".go"));
}

#[test]
fn strict_mode_ignores_commented_out_code_but_keeps_strings() {
    let e = engine(&[(
        &[0],
        &[
            ("require\\(['\\\"](ws)['\\\"]\\)", &[1]),
            ("close\\(\\)", &[]),
        ],
    )]);
    // Compat: `ws.close()` after `//` on a code line still counts.
    let code = "const WebSocket = require('ws');\nfoo(); // ws.close()";
    assert!(e.check(0, code, ".js", Mode::Compat).unwrap().accepted);
    assert!(!e.check(0, code, ".js", Mode::Strict).unwrap().accepted);
    // The pattern inside a string literal still matches in strict mode.
    assert!(
        e.check(
            0,
            "const WebSocket = require(\"ws\");\nws.close()",
            ".js",
            Mode::Strict
        )
        .unwrap()
        .accepted
    );
    // Strict mode does not skip a `/* */` line's trailing code nor later lines.
    assert!(
        e.check(0, "require('ws')\n/* x */ ws.close()", ".js", Mode::Strict)
            .unwrap()
            .accepted
    );
    assert!(
        !e.check(0, "require('ws')\n/* x */ ws.close()", ".js", Mode::Compat)
            .unwrap()
            .accepted
    );
}

#[test]
fn broken_and_unknown_machines_are_errors_not_panics() {
    let catalog = Catalog::parse(
        r#"{"ipc":[{"fsm_id":0,"initial":[0],"states":[{"key":0,"pattern":"(unclosed","description":"d","next":[7]}]}]}"#,
    )
    .unwrap();
    let e = Engine::new(&catalog);
    assert_eq!(
        e.issues().len(),
        2,
        "bad pattern and missing successor: {:?}",
        e.issues()
    );
    assert_eq!(e.issues()[0].state_key, Some(0));
    assert!(e.check(0, "x", ".java", Mode::Compat).is_err());
    assert!(e.check(5, "x", ".java", Mode::Compat).is_err());
}
