//! MultiOOP evaluation in all six languages with solutions written for these
//! tests (real toolchains in the real sandbox): a correct solution passes, a
//! wrong value fails, an uncaught exception fails, an early `exit(0)` fails,
//! and a correct solution full of quotes and `$this`/`console.log` still
//! passes pass@o.

use polyeval_bench::eval::EvalItem;
use polyeval_bench::multioop::OopEvaluator;
use polyeval_bench::EvalOptions;
use polyeval_bench::{Evaluator, OopMeta, Task, TaskMeta};
use polyeval_core::{Bench, Verdict};
use polyeval_lang::{status::Status, Language};

fn task(lang: Language, test_list: &[&str], keywords: &[&str]) -> Task {
    Task {
        bench: Bench::MultiOop,
        key: format!("{}/OOP/9001", lang.key()),
        task_id: "OOP/9001".into(),
        language: lang,
        instruction: format!(
            "First, write a **QTS** class using the {} language. Then, within the QTS class, create a public function called **twice** that returns twice the integer **n**.",
            lang.display_name()
        ),
        canonical_solution: None,
        source_path: "tests/oop_languages.rs".into(),
        meta: TaskMeta::Oop(OopMeta {
            test_list: test_list.iter().map(|s| s.to_string()).collect(),
            test_function: "def candidate(n):\n    return QTS().twice(n)".into(),
            entry_point: "candidate".into(),
            keywords: vec![keywords.iter().map(|s| s.to_string()).collect()],
        }),
    }
}

/// The task for a language and its five solutions: correct (with quotes and
/// `$this`/`console.log`), wrong value, uncaught exception, early exit(0),
/// and correct but named differently (pass@o fails).
struct Case {
    task: Task,
    correct: &'static str,
    wrong: &'static str,
    throws: &'static str,
    early_exit: &'static str,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            task: task(Language::Python, &["assert candidate(2)==4", "assert candidate(5)==10"], &["class QTS", "def twice"]),
            correct: "```python\nclass QTS:\n    \"\"\"Doubles numbers; it's \"simple\".\"\"\"\n    label = 'say \"hi\"'\n    def twice(self, n):\n        print(f\"twice({n}) -> {2 * n}\")\n        return 2 * n\n```",
            wrong: "class QTS:\n    def twice(self, n):\n        return 3 * n\n",
            throws: "class QTS:\n    def twice(self, n):\n        raise ValueError('no')\n",
            early_exit: "import sys\nclass QTS:\n    def twice(self, n):\n        sys.exit(0)\n",
        },
        Case {
            task: task(
                Language::Cpp,
                &["QTS q", "assert(q.twice(2)==4)", "assert(q.twice(5)==10)"],
                &["class QTS", "public:", "int twice"],
            ),
            correct: "```cpp\n#include <string>\n#include <iostream>\nclass QTS {\npublic:\n    std::string label = \"it's \\\"quoted\\\"\";\n    int twice(int n) { std::cout << \"twice \\\"\" << n << \"\\\"\" << std::endl; std::cerr << 'x' << std::endl; return 2 * n; }\n};\n```",
            wrong: "class QTS {\npublic:\n    int twice(int n) { return 3 * n; }\n};",
            throws: "#include <stdexcept>\nclass QTS {\npublic:\n    int twice(int n) { throw std::runtime_error(\"no\"); }\n};",
            early_exit: "#include <cstdlib>\nclass QTS {\npublic:\n    int twice(int n) { exit(0); }\n};",
        },
        Case {
            task: task(
                Language::Java,
                &["QTS q = new QTS()", "assert(q.twice(2))==4", "assert(q.twice(5))==10"],
                &["public class QTS", "public int twice"],
            ),
            correct: "```java\nimport java.util.*;\npublic class QTS {\n    private final String label = \"it's \\\"quoted\\\"\";\n    public int twice(int n) {\n        System.out.println(\"twice '\" + n + \"'\");\n        return 2 * n;\n    }\n}\n```",
            wrong: "public class QTS {\n    public int twice(int n) { return 3 * n; }\n}",
            throws: "public class QTS {\n    public int twice(int n) { throw new IllegalStateException(\"no\"); }\n}",
            early_exit: "public class QTS {\n    public int twice(int n) { System.exit(0); return 0; }\n}",
        },
        Case {
            task: task(
                Language::CSharp,
                &["QTS q = new QTS()", "Debug.Assert(q.twice(2)==4)", "Debug.Assert(q.twice(5)==10)"],
                &["class QTS", "public int twice"],
            ),
            correct: "```csharp\nusing System;\npublic class QTS {\n    private string label = \"it's \\\"quoted\\\"\";\n    public int twice(int n) {\n        Console.WriteLine($\"twice '{n}' \\\"{label}\\\"\");\n        return 2 * n;\n    }\n}\n// Example usage:\nclass Demo { static void Main() { Console.WriteLine(new QTS().twice(1)); } }\n```",
            wrong: "public class QTS {\n    public int twice(int n) { return 3 * n; }\n}",
            throws: "using System;\npublic class QTS {\n    public int twice(int n) { throw new InvalidOperationException(\"no\"); }\n}",
            early_exit: "using System;\npublic class QTS {\n    public int twice(int n) { Environment.Exit(0); return 0; }\n}",
        },
        Case {
            task: task(
                Language::Php,
                &[
                    "$q = new QTS()",
                    "if ($q->twice(2) !== 4) { throw new Exception(\"Test failed!\"); }",
                    "if ($q->twice(5) !== 10) { throw new Exception(\"Test failed!\"); }",
                ],
                &["class QTS", "public function twice"],
            ),
            correct: "```php\n<?php\nclass QTS {\n    private $factor = 2;\n    private $label = \"it's \\\"quoted\\\"\";\n    public function twice($n) {\n        echo \"twice '$n'\\n\";\n        return $this->factor * $n;\n    }\n}\n?>\n```",
            wrong: "<?php\nclass QTS {\n    public function twice($n) { return 3 * $n; }\n}",
            throws: "<?php\nclass QTS {\n    public function twice($n) { throw new RuntimeException('no'); }\n}",
            early_exit: "<?php\nclass QTS {\n    public function twice($n) { exit(0); }\n}",
        },
        Case {
            task: task(
                Language::JavaScript,
                &["const assert = require('node:assert')", "const q = new QTS();", "assert.deepEqual(q.twice(2), 4);", "assert.deepEqual(q.twice(5), 10);"],
                &["class QTS", "twice"],
            ),
            correct: "```javascript\nclass QTS {\n    static label = \"it's \\\"quoted\\\"\";\n    twice(n) {\n        console.log(`twice '${n}'`);\n        return 2 * n;\n    }\n}\n```",
            wrong: "class QTS {\n    twice(n) { return 3 * n; }\n}",
            throws: "class QTS {\n    twice(n) { throw new Error('no'); }\n}",
            early_exit: "class QTS {\n    twice(n) { process.exit(0); }\n}",
        },
    ]
}

fn evaluate(eval: &dyn Evaluator, items: &[(&Task, &str)]) -> Vec<Verdict> {
    let items: Vec<EvalItem<'_>> = items
        .iter()
        .map(|(task, code)| EvalItem { task, code })
        .collect();
    eval.evaluate_batch(&items, &|| {})
}

#[test]
fn six_languages_pass_fail_exception_early_exit_and_pass_o() {
    let eval = polyeval_bench::multioop::evaluator(
        Bench::MultiOop,
        &EvalOptions {
            ..EvalOptions::default()
        },
    )
    .expect("evaluator");
    let cases = cases();
    let mut items: Vec<(&Task, &str)> = Vec::new();
    for c in &cases {
        items.extend([
            (&c.task, c.correct),
            (&c.task, c.wrong),
            (&c.task, c.throws),
            (&c.task, c.early_exit),
        ]);
    }
    let verdicts = evaluate(eval.as_ref(), &items);
    for (c, v) in cases.iter().zip(verdicts.chunks(4)) {
        let lang = c.task.language;
        assert_eq!(
            v[0].status,
            Status::Passed,
            "{lang}: correct solution must pass: {v:#?}",
            v = v[0]
        );
        assert_eq!(
            v[0].pass_o,
            Some(true),
            "{lang}: correct solution with quotes must pass pass@o: {:#?}",
            v[0]
        );
        assert_eq!(v[0].category, None);
        for (what, verdict) in [
            ("wrong value", &v[1]),
            ("uncaught exception", &v[2]),
            ("early exit(0)", &v[3]),
        ] {
            assert!(!verdict.passed(), "{lang}: {what} must fail: {verdict:#?}");
            assert_eq!(verdict.pass_o, Some(false), "{lang}: {what}");
            assert!(
                verdict.category.is_some(),
                "{lang}: {what} needs a category"
            );
        }
        assert_eq!(
            v[1].category.as_deref(),
            Some("AssertionError"),
            "{lang}: wrong value: {:#?}",
            v[1]
        );
        assert_ne!(
            v[2].category.as_deref(),
            Some("AssertionError"),
            "{lang}: exception is not an assertion: {:#?}",
            v[2]
        );
        assert_eq!(
            v[3].category.as_deref(),
            Some("early_exit"),
            "{lang}: early exit: {:#?}",
            v[3]
        );
    }
}

#[test]
fn pass_o_needs_the_keywords_and_missing_names_are_classified() {
    let eval = OopEvaluator::new(
        Bench::MultiOop,
        &EvalOptions {
            ..EvalOptions::default()
        },
    )
    .expect("evaluator");
    let t = task(
        Language::Python,
        &["assert candidate(2)==4"],
        &["class QTS", "def twice"],
    );
    // Passes the tests through an alias but lacks the literal `def twice`: pass but not pass@o.
    let aliased =
        "class QTS:\n    def double(self, n):\n        return 2 * n\n    twice = double\n";
    // Misnamed class: fails, and the name is absent from the code.
    let misnamed = "class Solution:\n    def twice(self, n):\n        return 2 * n\n";
    let v = evaluate(&eval, &[(&t, aliased), (&t, misnamed)]);
    assert!(v[0].passed(), "{:#?}", v[0]);
    assert_eq!(v[0].pass_o, Some(false));
    assert_eq!(
        v[0].data["missing_keywords"],
        serde_json::json!(["def twice"])
    );
    assert!(!v[1].passed());
    assert_eq!(
        v[1].category.as_deref(),
        Some("missing_class_or_method"),
        "{:#?}",
        v[1]
    );
}

#[test]
fn javascript_strict_equality_is_an_option() {
    let t = task(
        Language::JavaScript,
        &[
            "const assert = require('node:assert')",
            "const q = new QTS();",
            "assert.deepEqual(q.twice(2), 4);",
        ],
        &["class QTS", "twice"],
    );
    let stringly = "class QTS {\n    twice(n) { return String(2 * n); }\n}";
    let loose = OopEvaluator::new(
        Bench::MultiOop,
        &EvalOptions {
            ..EvalOptions::default()
        },
    )
    .expect("evaluator");
    let strict = OopEvaluator::new(
        Bench::MultiOop,
        &EvalOptions {
            js_strict_equality: true,
            ..EvalOptions::default()
        },
    )
    .expect("evaluator");
    assert!(
        evaluate(&loose, &[(&t, stringly)])[0].passed(),
        "upstream's loose deepEqual accepts \"4\" == 4"
    );
    let v = evaluate(&strict, &[(&t, stringly)]);
    assert!(
        !v[0].passed(),
        "strict equality rejects \"4\" for 4: {:#?}",
        v[0]
    );
    assert_eq!(v[0].data["js_strict"], serde_json::json!(true));
}

#[test]
fn csharp_failed_debug_assert_and_crash_fail() {
    let t = task(
        Language::CSharp,
        &["QTS q = new QTS()", "Debug.Assert(q.twice(2)==5)"],
        &["class QTS"],
    );
    let ok = "public class QTS { public int twice(int n) { return 2 * n; } }";
    let eval = OopEvaluator::new(
        Bench::MultiOop,
        &EvalOptions {
            ..EvalOptions::default()
        },
    )
    .expect("evaluator");
    let v = evaluate(&eval, &[(&t, ok)]);
    assert!(
        !v[0].passed(),
        "a failed Debug.Assert must fail under mono: {:#?}",
        v[0]
    );
    assert_eq!(v[0].category.as_deref(), Some("AssertionError"));
}

#[test]
fn identical_samples_run_once() {
    let t = task(
        Language::Python,
        &["assert candidate(2)==4"],
        &["class QTS", "def twice"],
    );
    let code = "class QTS:\n    def twice(self, n):\n        return 2 * n\n";
    let eval = OopEvaluator::new(
        Bench::MultiOop,
        &EvalOptions {
            jobs: Some(1),
            ..EvalOptions::default()
        },
    )
    .expect("evaluator");
    let v = evaluate(&eval, &[(&t, code), (&t, code), (&t, code)]);
    assert!(v.iter().all(|v| v.passed()));
    let cached = v
        .iter()
        .filter(|v| v.data["cached"] == serde_json::json!(true))
        .count();
    assert_eq!(
        cached, 2,
        "two of three identical programs come from the engine cache"
    );
}
