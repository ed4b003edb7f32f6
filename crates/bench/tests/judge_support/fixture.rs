//! The fixture task of the adversarial suite: `Acc.add(a, b)` and
//! `Acc.greet(name)`, with upstream-form test lines per language, and
//! correct solutions (some with a `main` of their own).

use polyeval_core::{Bench, Language, Task, TaskMeta};

fn lines(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The fixture task: `Acc.add(a, b)` and `Acc.greet(name)`, in upstream's
/// test-line form per language. *Mixed*: observed checks plus one compound
/// line (run in-process, so the nonce is in play); `fallback_only`: only
/// compound lines, all in-process.
pub fn task(lang: Language, fallback_only: bool) -> Task {
    let (mixed, compound): (Vec<&str>, Vec<&str>) = match lang {
        Language::Python => (
            vec![
                "assert candidate(1, 2)==3",
                "assert candidate(-5, 5)==0",
                "assert candidate(\"bo\")==\"hi bo\"",
            ],
            vec![
                "assert candidate(1, 1) == 2 and candidate(2, 2) == 4",
                "assert candidate(3, 3) == 6 and candidate(\"x\") == \"hi x\"",
            ],
        ),
        Language::Cpp => (
            vec![
                "int input0 = 1",
                "assert(Acc().add(input0, 2)==3)",
                "assert(Acc().add(-5, 5)==0)",
                "assert(Acc().greet(\"bo\")==\"hi bo\")",
            ],
            vec![
                "assert(Acc().add(1, 1) == 2 && Acc().add(2, 2) == 4)",
                "assert(Acc().add(3, 3) == 6 && Acc().greet(\"x\") == \"hi x\")",
            ],
        ),
        Language::Java => (
            vec![
                "int input0 = 1",
                "assert(new Acc().add(input0, 2))==3",
                "assert(new Acc().add(-5, 5))==0",
                "assert new Acc().greet(\"bo\").equals(\"hi bo\")",
            ],
            vec![
                "assert(new Acc().add(1, 1) == 2 && new Acc().add(2, 2) == 4)",
                "assert(new Acc().add(3, 3) == 6 && new Acc().greet(\"x\").equals(\"hi x\"))",
            ],
        ),
        Language::CSharp => (
            vec![
                "Acc acc = new Acc()",
                "Debug.Assert(acc.add(1, 2)==3)",
                "Debug.Assert(acc.add(-5, 5)==0)",
                "Debug.Assert(acc.greet(\"bo\")==\"hi bo\")",
            ],
            vec![
                "Debug.Assert(acc.add(1, 1) == 2 && acc.add(2, 2) == 4)",
                "Debug.Assert(acc.add(3, 3) == 6 && acc.greet(\"x\") == \"hi x\")",
            ],
        ),
        Language::Php => (
            vec![
                "$acc = new Acc()",
                "if ($acc->add(1, 2) !== 3) { throw new Exception(\"Test failed!\"); }",
                "if ($acc->add(-5, 5) !== 0) { throw new Exception(\"Test failed!\"); }",
                "if ($acc->greet(\"bo\") !== \"hi bo\") { throw new Exception(\"Test failed!\"); }",
            ],
            vec![
                "if ($acc->add(1, 1) !== 2 || $acc->add(2, 2) !== 4) { throw new Exception(\"Test failed!\"); }",
                "if ($acc->add(3, 3) !== 6 || $acc->greet(\"x\") !== \"hi x\") { throw new Exception(\"Test failed!\"); }",
            ],
        ),
        Language::JavaScript => (
            vec![
                "const assert = require('node:assert')",
                "const acc0 = new Acc();",
                "assert.deepEqual(acc0.add(1, 2), 3);",
                "assert.deepEqual(acc0.add(-5, 5), 0);",
                "assert.deepEqual(acc0.greet(\"bo\"), \"hi bo\");",
            ],
            vec![
                "assert.ok(acc0.add(1, 1) === 2 && acc0.add(2, 2) === 4);",
                "assert.ok(acc0.add(3, 3) === 6 && acc0.greet(\"x\") === \"hi x\");",
            ],
        ),
        Language::Go => unreachable!(),
    };
    let test_list = if fallback_only {
        // Setup lines (declarations) stay; every check is in-process.
        let mut v: Vec<&str> = mixed
            .iter()
            .copied()
            .filter(|l| {
                !(l.starts_with("assert") || l.starts_with("Debug.Assert") || l.starts_with("if ("))
            })
            .collect();
        v.extend(compound);
        v
    } else {
        let mut v = mixed;
        v.push(compound[0]);
        v
    };
    let id = if fallback_only {
        "OOP/9902"
    } else {
        "OOP/9901"
    };
    Task {
        bench: Bench::MultiOop,
        key: format!("{}/{id}", lang.key()),
        task_id: id.into(),
        language: lang,
        instruction: "Write a class **Acc** with the public functions **add** and **greet**.".into(),
        canonical_solution: None,
        source_path: "tests/judge_support/fixture.rs".into(),
        meta: TaskMeta::Oop {
            test_list: lines(&test_list),
            test_function:
                "def candidate(a, b=None):\n    return Acc().greet(a) if b is None else Acc().add(a, b)"
                    .into(),
            entry_point: "candidate".into(),
            keywords: vec![vec!["Acc".into()]],
        },
    }
}

pub fn correct(lang: Language) -> &'static str {
    match lang {
        Language::Python => "class Acc:\n    def add(self, a, b):\n        return a + b\n\n    def greet(self, name):\n        return \"hi \" + name\n",
        Language::Cpp => "#include <string>\nclass Acc {\npublic:\n    int add(int a, int b) { return a + b; }\n    std::string greet(const std::string& n) { return \"hi \" + n; }\n};\n",
        Language::Java => "public class Acc {\n    public int add(int a, int b) { return a + b; }\n    public String greet(String n) { return \"hi \" + n; }\n}\n",
        Language::CSharp => "using System;\npublic class Acc {\n    public int add(int a, int b) { return a + b; }\n    public string greet(string n) { return \"hi \" + n; }\n}\n",
        Language::Php => "<?php\nclass Acc {\n    public function add($a, $b) { return $a + $b; }\n    public function greet($n) { return \"hi \" . $n; }\n}\n?>",
        Language::JavaScript => "class Acc {\n  add(a, b) { return a + b; }\n  greet(n) { return 'hi ' + n; }\n}\n",
        Language::Go => unreachable!(),
    }
}

/// Correct solutions that carry a demo `main` of their own (LLMs often add one).
pub fn correct_with_main(lang: Language) -> Option<&'static str> {
    Some(match lang {
        Language::Cpp => "#include <string>\n#include <iostream>\nclass Acc {\npublic:\n    int add(int a, int b) { return a + b; }\n    std::string greet(const std::string& n) { return \"hi \" + n; }\n};\n\nint main() {\n    std::cout << Acc().add(2, 3) << std::endl;\n    return 0;\n}\n",
        Language::CSharp => "using System;\npublic class Acc {\n    public int add(int a, int b) { return a + b; }\n    public string greet(string n) { return \"hi \" + n; }\n    public static void Main(string[] args) { Console.WriteLine(new Acc().add(2, 3)); }\n}\n",
        Language::Php => "<?php\nclass Acc {\n    public function add($a, $b) { return $a + $b; }\n    public function greet($n) { return \"hi \" . $n; }\n}\n\nfunction main() {\n    echo (new Acc())->add(2, 3), \"\\n\";\n}\nmain();\n?>",
        Language::Python => "class Acc:\n    def add(self, a, b):\n        return a + b\n\n    def greet(self, name):\n        return \"hi \" + name\n\nif __name__ == \"__main__\":\n    print(Acc().add(2, 3))\n",
        Language::Java => "public class Acc {\n    public int add(int a, int b) { return a + b; }\n    public String greet(String n) { return \"hi \" + n; }\n    public static void main(String[] args) {\n        System.out.println(new Acc().add(2, 3));\n    }\n}\n",
        Language::JavaScript => "class Acc {\n  add(a, b) { return a + b; }\n  greet(n) { return 'hi ' + n; }\n}\nif (require.main === module) {\n  console.log(new Acc().add(2, 3));\n}\nmodule.exports = { Acc };\n",
        Language::Go => return None,
    })
}
