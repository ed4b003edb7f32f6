//! Running the Python reference on a suite's inputs in the sandbox: the
//! result of every test (observed with the judge's Python prelude, so values
//! come back in the judge's typed wire format) and the runtime return types
//! of every method of the reference's classes (their methods are wrapped;
//! the keyword lists need the private helpers' types).
//!
//! One program per task; each test runs under its own timer, so a slow test
//! is dropped without losing the others.

use crate::expr::python_literal;
use crate::suite::TestInput;
use polyeval_judge::protocol::{parse_records, Record};
use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::value::Value;
use std::collections::BTreeMap;
use std::time::Duration;

/// Seconds one test may take in the reference.
pub const TEST_SECONDS: f64 = 2.0;

/// What tracing one task needs.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// The reference solution (trailing checks removed).
    pub reference: &'a str,
    pub class: &'a str,
    pub method: &'a str,
    pub inputs: Vec<&'a TestInput>,
}

/// The reference's answer to one test.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Value {
        value: Value,
        ms: f64,
    },
    Raised {
        type_name: String,
        message: String,
    },
    TimedOut,
    /// No record: the program died before or during this test.
    Missing,
}

/// A traced task.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    pub outcomes: Vec<Outcome>,
    /// `Class.method` (as the class's attribute is named, e.g.
    /// `_A__private_f`) → the type descriptors its results had.
    pub returns: BTreeMap<String, Vec<String>>,
    /// Why the program as a whole failed, when it did (e.g. the reference
    /// does not import), with the tail of its stderr.
    pub failure: Option<String>,
}

const HEADER: &str = "import math\nimport re\nimport sys\nimport copy\nimport datetime\nimport itertools\n\
import collections\nimport heapq\nimport functools\nimport hashlib\nimport numpy\nimport numpy as np\n\
import string\nfrom typing import *\nfrom collections import *\n";

const TRACER: &str = r#"
import os as __pe_os, json as __pe_json, time as __pe_time, signal as __pe_signal, sys as __pe_sys, functools as __pe_functools
__pe_sys.setrecursionlimit(max(__pe_sys.getrecursionlimit() * 3, 10000))
def __pe_emit(obj):
    __pe_os.write(1, b"\n\x1epolyeval-trace " + __pe_json.dumps(obj).encode() + b"\n")
class __PeTimeout(BaseException):
    pass
def __pe_alarm(signum, frame):
    raise __PeTimeout("the test took longer than the time limit")
__pe_signal.signal(__pe_signal.SIGALRM, __pe_alarm)
__pe_returns = {}
__pe_counts = {}
def __pe_union(items, d):
    seen = set()
    for i, x in enumerate(items):
        if i >= 200:
            break
        seen.add(__pe_ty(x, d + 1))
    return "|".join(sorted(seen))
def __pe_ty(v, d=0):
    t = type(v)
    if v is None: return "n"
    if t is bool: return "b"
    if t is int: return "i" if -2**31 <= v < 2**31 else ("I" if -2**63 <= v < 2**63 else "B")
    if t is float: return "f"
    if t is str: return "s"
    if d > 8: return "o"
    if t is list: return "l(" + __pe_union(v, d) + ")"
    if t is tuple: return "t(" + ",".join(__pe_ty(x, d + 1) for x in v) + ")"
    if t is set or t is frozenset: return "S(" + __pe_union(v, d) + ")"
    if t is dict: return "d(" + __pe_union(v.keys(), d) + ":" + __pe_union(v.values(), d) + ")"
    return "o"
def __pe_wrap(key, fn):
    @__pe_functools.wraps(fn)
    def wrapper(*a, **k):
        r = fn(*a, **k)
        n = __pe_counts.get(key, 0)
        if n < 64:
            __pe_counts[key] = n + 1
            __pe_returns.setdefault(key, set()).add(__pe_ty(r))
        return r
    return wrapper
for __pe_name, __pe_cls in list(globals().items()):
    if isinstance(__pe_cls, type) and getattr(__pe_cls, "__module__", None) == "__main__" and not __pe_name.startswith("__pe") and not __pe_name.startswith("__polyeval"):
        for __pe_attr, __pe_fn in list(vars(__pe_cls).items()):
            if __pe_attr in ("__init__", "__new__") or not isinstance(__pe_fn, type(__pe_wrap)):
                continue
            setattr(__pe_cls, __pe_attr, __pe_wrap(__pe_cls.__name__ + "." + __pe_attr, __pe_fn))
def __pe_test(t, thunk):
    start = __pe_time.perf_counter()
    __pe_signal.setitimer(__pe_signal.ITIMER_REAL, __PE_LIMIT)
    try:
        __polyeval_observe(t, thunk)
    except BaseException:
        pass
    finally:
        __pe_signal.setitimer(__pe_signal.ITIMER_REAL, 0)
    __pe_emit({"t": t, "ms": (__pe_time.perf_counter() - start) * 1000.0})
"#;

/// The tracing program of a task (`None` when an input has no Python literal).
pub fn program(req: &Request<'_>) -> Result<String, String> {
    let mut s = String::with_capacity(req.reference.len() + 4096);
    s.push_str(HEADER);
    s.push_str(&polyeval_lang::python::judging::with_prelude(req.reference));
    s.push('\n');
    s.push_str(&TRACER.replace("__PE_LIMIT", &format!("{TEST_SECONDS:?}")));
    for (t, input) in req.inputs.iter().enumerate() {
        let ctor: Vec<String> = input
            .ctor
            .iter()
            .map(python_literal)
            .collect::<Result<_, _>>()?;
        let args: Vec<String> = input
            .args
            .iter()
            .map(python_literal)
            .collect::<Result<_, _>>()?;
        s.push_str(&format!(
            "__pe_test({t}, lambda: {}({}).{}({}))\n",
            req.class,
            ctor.join(", "),
            req.method,
            args.join(", ")
        ));
    }
    s.push_str("__pe_emit({\"returns\": {k: sorted(v) for k, v in __pe_returns.items()}})\n");
    Ok(s)
}

/// The sandbox job of a tracing program.
pub fn job(source: String, tests: usize) -> Job {
    let mut limits = Limits::default();
    let secs = (10.0 + TEST_SECONDS * 1.5 * tests as f64).min(300.0);
    limits.timeout = Duration::from_secs_f64(secs);
    limits.cpu_secs = secs.ceil() as u64;
    limits.output_bytes = 32 << 20;
    Job {
        file_name: Some("main.py".into()),
        limits: Some(limits),
        ..Job::new(polyeval_lang::Language::Python, source)
    }
}

const TRACE_PREFIX: &str = "\u{1e}polyeval-trace ";

/// Read a tracing program's output (`tests` tests).
pub fn parse(stdout: &str, stderr: &str, exit_ok: bool, tests: usize) -> Trace {
    let mut outcomes = vec![Outcome::Missing; tests];
    for line in parse_records(stdout) {
        match line.record {
            Ok(Record::Observed { t, value }) if t < tests => {
                outcomes[t] = Outcome::Value { value, ms: 0.0 }
            }
            Ok(Record::Raised {
                t,
                type_name,
                message,
            }) if t < tests => {
                outcomes[t] = if type_name == "__PeTimeout" {
                    Outcome::TimedOut
                } else {
                    Outcome::Raised { type_name, message }
                }
            }
            _ => {}
        }
    }
    let mut returns = BTreeMap::new();
    let mut finished = false;
    for line in stdout.split('\n') {
        let Some(body) = line.strip_prefix(TRACE_PREFIX) else {
            continue;
        };
        let Ok(json) = serde_json::from_str::<serde_json::Value>(body) else {
            continue;
        };
        if let (Some(t), Some(ms)) = (json.get("t").and_then(|t| t.as_u64()), json.get("ms")) {
            if let Some(Outcome::Value { ms: slot, .. }) = outcomes.get_mut(t as usize) {
                *slot = ms.as_f64().unwrap_or(0.0);
            }
        }
        if let Some(map) = json.get("returns").and_then(|r| r.as_object()) {
            finished = true;
            for (k, v) in map {
                let descs = v
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|d| d.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                returns.insert(k.clone(), descs);
            }
        }
    }
    let failure = (!finished || !exit_ok).then(|| {
        let tail: Vec<&str> = stderr
            .lines()
            .rev()
            .filter(|l| !l.trim().is_empty())
            .take(3)
            .collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        if tail.is_empty() {
            "the reference program ended early".to_string()
        } else {
            tail.join(" | ")
        }
    });
    Trace {
        outcomes,
        returns,
        failure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_call_the_class_and_method_with_python_literals() {
        let inputs = [TestInput {
            ctor: vec![Value::List(vec![Value::Int(1)]), Value::Str("a'b".into())],
            args: vec![Value::Float(0.5)],
        }];
        let p = program(&Request {
            reference: "class A:\n    pass\n",
            class: "A",
            method: "f",
            inputs: inputs.iter().collect(),
        })
        .unwrap();
        assert!(p.starts_with("import math\n"));
        assert!(p.contains("__pe_test(0, lambda: A([(1)], \"a'b\").f((0.5)))\n"));
        assert!(p.contains("ITIMER_REAL, 2.0)"));
    }

    #[test]
    fn output_is_read_into_outcomes_and_types() {
        let out = "\n\u{1e}polyeval-judge {\"t\":0,\"v\":[1,2.5]}\n\n\u{1e}polyeval-trace {\"t\": 0, \"ms\": 3.5}\n\
            \n\u{1e}polyeval-judge {\"t\":1,\"raised\":{\"type\":\"ValueError\",\"message\":\"x\"}}\n\
            \n\u{1e}polyeval-judge {\"t\":2,\"raised\":{\"type\":\"__PeTimeout\",\"message\":\"\"}}\n\
            \n\u{1e}polyeval-trace {\"returns\": {\"A._A__p\": [\"i\", \"n\"]}}\n";
        let t = parse(out, "", true, 4);
        assert_eq!(
            t.outcomes[0],
            Outcome::Value {
                value: Value::List(vec![Value::Int(1), Value::Float(2.5)]),
                ms: 3.5
            }
        );
        assert!(
            matches!(&t.outcomes[1], Outcome::Raised { type_name, .. } if type_name == "ValueError")
        );
        assert_eq!(t.outcomes[2], Outcome::TimedOut);
        assert_eq!(t.outcomes[3], Outcome::Missing);
        assert_eq!(t.returns["A._A__p"], vec!["i", "n"]);
        assert!(t.failure.is_none());
        let dead = parse(
            "",
            "Traceback …\nNameError: name 'x' is not defined\n",
            false,
            1,
        );
        assert!(dead.failure.unwrap().contains("NameError"));
    }
}
