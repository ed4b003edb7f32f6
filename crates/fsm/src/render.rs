//! Text renderings of machines and traces for people (`polyeval fsm`), in
//! the manner of ripgrep's printer crate: the CLI prints what these return.

use crate::engine::{compat_lines_read, CompileIssue, Mode, Trace};
use crate::{Catalog, Machine};
use std::fmt::Write;

/// One line per step of `def`: matched at which line or not, its pattern
/// (shortened), its successors and its description.
pub fn steps(trace: &Trace, def: &Machine) -> String {
    let mut out = String::new();
    for (i, state) in def.states.iter().enumerate() {
        let step = i + 1;
        let mark = match trace.matched.iter().find(|m| m.step == step) {
            Some(m) => format!("✓ line {:<5}", m.line),
            None => "✗           ".to_string(),
        };
        let next: Vec<String> = state
            .next
            .iter()
            .filter_map(|k| {
                def.states
                    .iter()
                    .position(|s| s.key == *k)
                    .map(|p| (p + 1).to_string())
            })
            .collect();
        let next = if next.is_empty() {
            "accept".to_string()
        } else {
            format!("→ {}", next.join(","))
        };
        let _ = writeln!(
            out,
            "  step {step:<3} {mark} {:<40} [{next}]  {}",
            shorten(state.pattern.as_deref().unwrap_or(""), 40),
            state.description
        );
    }
    out
}

/// The verdict in one sentence: where it was accepted, or where it got stuck.
pub fn verdict(trace: &Trace) -> String {
    if trace.accepted {
        return format!("ACCEPTED at line {}.", trace.accepting_line().unwrap_or(0));
    }
    let mut s = format!(
        "REJECTED: stuck at step {} of {}",
        trace.deepest_step, trace.steps_total
    );
    if let Some(u) = &trace.first_unreached {
        if u.description.starts_with("Step ") {
            s.push_str(&format!("; first step never matched: {}", u.description));
        } else {
            s.push_str(&format!(
                "; first step never matched: step {} — {}",
                u.step, u.description
            ));
        }
    }
    s.push('.');
    s
}

/// Every line of `code`: whether compat's comment rules read it, and the
/// steps it matched.
pub fn lines(code: &str, suffix: &str, trace: &Trace, mode: Mode) -> String {
    let read = compat_lines_read(code, suffix);
    let mut out = format!(
        "Lines (`-` = not read by compat's comment rules{}):\n",
        if mode == Mode::Strict {
            "; strict mode reads every line after removing comments"
        } else {
            ""
        }
    );
    for (i, line) in code.split('\n').enumerate() {
        let n = i + 1;
        let steps: Vec<String> = trace
            .matched
            .iter()
            .filter(|m| m.line == n)
            .map(|m| m.step.to_string())
            .collect();
        let flag = if read.get(i).copied().unwrap_or(false) {
            ' '
        } else {
            '-'
        };
        let steps = if steps.is_empty() {
            String::new()
        } else {
            format!("step {}", steps.join(","))
        };
        let _ = writeln!(out, "{n:>5} {flag} {steps:<9} {line}");
    }
    out
}

/// The IPC machines of `catalog` (id, class, steps, interface), then the
/// problems compiling them.
pub fn catalog(catalog: &Catalog, issues: &[CompileIssue]) -> String {
    let mut out = format!("{:>4}  {:<14} {:>5}  interface\n", "id", "class", "steps");
    for m in &catalog.ipc {
        let _ = writeln!(
            out,
            "{:>4}  {:<14} {:>5}  {}",
            m.fsm_id,
            m.classifier,
            m.states.len(),
            m.interface_name
        );
    }
    if !issues.is_empty() {
        let _ = writeln!(out, "\n{} problems:", issues.len());
        for i in issues {
            let _ = writeln!(out, "  {i}");
        }
    }
    out
}

/// One machine: its steps with keys, patterns and successors, then the
/// problems compiling it.
pub fn machine(m: &Machine, issues: &[CompileIssue]) -> String {
    let mut out = format!(
        "FSM {} — {} ({}, kind {}, file types {})\ninitial: {:?}\n",
        m.fsm_id,
        m.interface_name,
        m.classifier,
        m.kind,
        m.file_types.join(" "),
        m.initial
    );
    for (i, s) in m.states.iter().enumerate() {
        let _ = writeln!(
            out,
            "  step {} (key {}): {}\n      pattern {:?}  next {:?}",
            i + 1,
            s.key,
            s.description,
            s.pattern.as_deref().unwrap_or(""),
            s.next
        );
    }
    for issue in issues
        .iter()
        .filter(|i| i.catalog == "ipc" && i.fsm_id == m.fsm_id)
    {
        let _ = writeln!(out, "  problem: {issue}");
    }
    out
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max - 1).collect();
        t.push('…');
        t
    }
}
