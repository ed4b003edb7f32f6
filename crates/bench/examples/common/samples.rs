//! Synthetic MultiOOP samples for the throughput and overhead examples: a
//! task and a correct solution per language, distinct per `k` (so no cache
//! serves one with another's run).
#![allow(dead_code)]

use polyeval_bench::{OopMeta, Task, TaskMeta};
use polyeval_core::Bench;
use polyeval_lang::Language;

/// A task and a correct solution per language; `k` makes every sample distinct.
pub fn sample(lang: Language, k: usize) -> (Task, String) {
    let (tests, code): (Vec<String>, String) = match lang {
        Language::Python => (
            vec![format!("assert candidate({k})=={}", 2 * k)],
            format!("class QTS:\n    # sample {k}\n    def twice(self, n):\n        return 2 * n\n"),
        ),
        Language::Cpp => (
            vec!["QTS q".into(), format!("assert(q.twice({k})=={})", 2 * k)],
            format!("// sample {k}\nclass QTS {{\npublic:\n    int twice(int n) {{ return 2 * n; }}\n}};\n"),
        ),
        Language::Java => (
            vec!["QTS q = new QTS()".into(), format!("assert(q.twice({k}))=={}", 2 * k)],
            format!("// sample {k}\npublic class QTS {{\n    public int twice(int n) {{ return 2 * n; }}\n}}\n"),
        ),
        Language::CSharp => (
            vec!["QTS q = new QTS()".into(), format!("Debug.Assert(q.twice({k})=={})", 2 * k)],
            format!("// sample {k}\npublic class QTS {{\n    public int twice(int n) {{ return 2 * n; }}\n}}\n"),
        ),
        Language::Php => (
            vec!["$q = new QTS()".into(), format!("if ($q->twice({k}) !== {}) {{ throw new Exception(\"Test failed!\"); }}", 2 * k)],
            format!("<?php\n// sample {k}\nclass QTS {{\n    public function twice($n) {{ return 2 * $n; }}\n}}\n"),
        ),
        Language::JavaScript | Language::Go => (
            vec!["const assert = require('node:assert')".into(), "const q = new QTS();".into(), format!("assert.deepEqual(q.twice({k}), {});", 2 * k)],
            format!("// sample {k}\nclass QTS {{\n    twice(n) {{ return 2 * n; }}\n}}\n"),
        ),
        Language::TypeScript => (
            vec!["const assert = require('node:assert')".into(), "const q = new QTS();".into(), format!("assert.deepStrictEqual(q.twice({k}), {});", 2 * k)],
            format!("// sample {k}\nclass QTS {{\n    twice(n: number): number {{ return 2 * n; }}\n}}\n"),
        ),
    };
    let task = Task {
        bench: Bench::MultiOop,
        key: format!("{}/OOP/{k}", lang.key()),
        task_id: format!("OOP/{k}"),
        language: lang,
        instruction: "write a **QTS** class with **twice**".into(),
        canonical_solution: None,
        source_path: "examples/oop_throughput.rs".into(),
        meta: TaskMeta::Oop(OopMeta {
            test_list: tests,
            test_function: "def candidate(n):\n    return QTS().twice(n)".into(),
            entry_point: "candidate".into(),
            keywords: vec![vec!["class QTS".into()]],
        }),
    };
    (task, code)
}

/// [`sample`] with a second, compound test line (kept in-process by the
/// judge, so its program also proves its end with the nonce: the judge's
/// most expensive case).
pub fn sample_with_compound_line(lang: Language, k: usize) -> (Task, String) {
    let (mut task, code) = sample(lang, k);
    let extra = match lang {
        Language::Python => format!("assert candidate({k})=={} and candidate(0)==0", 2 * k),
        Language::Cpp => format!("assert(q.twice({k})=={} && q.twice(0)==0)", 2 * k),
        Language::Java => format!("assert(q.twice({k}) == {} && q.twice(0) == 0)", 2 * k),
        Language::CSharp => format!("Debug.Assert(q.twice({k})=={} && q.twice(0)==0)", 2 * k),
        Language::Php => format!(
            "if ($q->twice({k}) !== {} || $q->twice(0) !== 0) {{ throw new Exception(\"Test failed!\"); }}",
            2 * k
        ),
        Language::JavaScript | Language::Go | Language::TypeScript => {
            format!("assert.ok(q.twice({k}) === {} && q.twice(0) === 0);", 2 * k)
        }
    };
    if let TaskMeta::Oop(OopMeta { test_list, .. }) = &mut task.meta {
        test_list.push(extra);
    }
    (task, code)
}
