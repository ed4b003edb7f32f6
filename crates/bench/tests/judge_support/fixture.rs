//! The fixture task of the adversarial suite: `Acc.add(a, b)` and
//! `Acc.greet(name)`, with upstream-form test lines per language, and
//! correct solutions (some with a `main` of their own).

use polyeval_bench::{OopMeta, Task, TaskMeta};
use polyeval_core::Bench;
use polyeval_lang::Language;

fn lines(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The shape of a fixture task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Every test line is an observed check: a correct solution passes.
    Judgeable,
    /// The checks plus lines no observation can judge (a compound condition,
    /// upstream's Python `True` in a typed language): nothing passes.
    NotJudgeable,
}

/// The fixture task: `Acc.add(a, b)` and `Acc.greet(name)`, in upstream's
/// test-line form per language (Go: `polyeval translate`'s form).
pub fn task(lang: Language, shape: Shape) -> Task {
    let (checks, unjudgeable): (Vec<&str>, Vec<&str>) = match lang {
        Language::Python => (
            vec![
                "assert candidate(1, 2)==3",
                "assert candidate(-5, 5)==0",
                "assert candidate(\"bo\")==\"hi bo\"",
            ],
            vec!["assert candidate(1, 1) == 2 and candidate(2, 2) == 4"],
        ),
        Language::Cpp => (
            vec![
                "int input0 = 1",
                "assert(Acc().add(input0, 2)==3)",
                "assert(Acc().add(-5, 5)==0)",
                "assert(Acc().greet(\"bo\")==\"hi bo\")",
            ],
            vec![
                "assert(Acc().add(0, 1)==True)",
                "assert(Acc().add(1, 1) == 2 && Acc().add(2, 2) == 4)",
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
                "assert(new Acc().add(0, 1))==True",
                "assert(new Acc().add(1, 1) == 2 && new Acc().add(2, 2) == 4)",
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
                "Debug.Assert(acc.add(0, 1)==True)",
                "Debug.Assert(acc.add(1, 1) == 2 && acc.add(2, 2) == 4)",
            ],
        ),
        Language::Php => (
            vec![
                "$acc = new Acc()",
                "if ($acc->add(1, 2) !== 3) { throw new Exception(\"Test failed!\"); }",
                "if ($acc->add(-5, 5) !== 0) { throw new Exception(\"Test failed!\"); }",
                "if ($acc->greet(\"bo\") !== \"hi bo\") { throw new Exception(\"Test failed!\"); }",
            ],
            vec!["if ($acc->add(1, 1) !== 2 || $acc->add(2, 2) !== 4) { throw new Exception(\"Test failed!\"); }"],
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
                "assert.deepEqual(acc0.add(0, 1), True);",
                "assert.ok(acc0.add(1, 1) === 2 && acc0.add(2, 2) === 4);",
            ],
        ),
        Language::TypeScript => (
            vec![
                "const assert = require('node:assert')",
                "const acc0 = new Acc();",
                "assert.deepStrictEqual(acc0.add(1, 2), 3);",
                "assert.deepStrictEqual(acc0.add(-5, 5), 0);",
                "assert.deepStrictEqual(acc0.greet(\"bo\"), \"hi bo\");",
            ],
            vec![
                "assert.deepStrictEqual(acc0.add(0, 1), True);",
                "assert.ok(acc0.add(1, 1) === 2 && acc0.add(2, 2) === 4);",
            ],
        ),
        Language::Go => (
            vec![
                "acc := &Acc{}",
                "polyevalAssertEqual(acc.Add(1, 2), 3)",
                "polyevalAssertEqual(acc.Add(-5, 5), 0)",
                "polyevalAssertEqual(acc.Greet(\"bo\"), \"hi bo\")",
            ],
            vec!["polyevalAssertEqual(acc.Add(0, 1), acc.Add(1, 0))"],
        ),
    };
    let mut test_list = checks;
    if shape == Shape::NotJudgeable {
        test_list.extend(unjudgeable);
    }
    let id = match shape {
        Shape::Judgeable => "OOP/9901",
        Shape::NotJudgeable => "OOP/9902",
    };
    Task {
        bench: Bench::MultiOop,
        key: format!("{}/{id}", lang.key()),
        task_id: id.into(),
        language: lang,
        instruction: "Write a class **Acc** with the public functions **add** and **greet**.".into(),
        canonical_solution: None,
        source_path: "tests/judge_support/fixture.rs".into(),
        meta: TaskMeta::Oop(OopMeta {
            test_list: lines(&test_list),
            test_function:
                "def candidate(a, b=None):\n    return Acc().greet(a) if b is None else Acc().add(a, b)"
                    .into(),
            entry_point: "candidate".into(),
            keywords: vec![vec!["Acc".into()]],
        }),
    }
}

/// A Python task whose method returns a list: `Dbl().run(xs)` doubles each.
pub fn list_task() -> Task {
    Task {
        bench: Bench::MultiOop,
        key: "python/OOP/9903".into(),
        task_id: "OOP/9903".into(),
        language: Language::Python,
        instruction: "Write a class **Dbl** with a public function **run** that doubles each number of a list.".into(),
        canonical_solution: None,
        source_path: "tests/judge_support/fixture.rs".into(),
        meta: TaskMeta::Oop(OopMeta {
            test_list: lines(&[
                "assert candidate([1, 2])==[2, 4]",
                "assert candidate([])==[]",
                "assert candidate([0.5])==[1.0]",
            ]),
            test_function: "def candidate(xs):\n    return Dbl().run(xs)".into(),
            entry_point: "candidate".into(),
            keywords: vec![vec!["Dbl".into()]],
        }),
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
        Language::Go => "package main\n\ntype Acc struct{}\n\nfunc (a *Acc) Add(x, y int) int { return x + y }\n\nfunc (a *Acc) Greet(n string) string { return \"hi \" + n }\n",
        Language::TypeScript => "class Acc {\n  add(a: number, b: number): number { return a + b; }\n  greet(n: string): string { return 'hi ' + n; }\n}\n",
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
        Language::Go => "package main\n\nimport \"fmt\"\n\ntype Acc struct{}\n\nfunc (a *Acc) Add(x, y int) int { return x + y }\n\nfunc (a *Acc) Greet(n string) string { return \"hi \" + n }\n\nfunc main() {\n\tfmt.Println((&Acc{}).Add(2, 3))\n}\n",
        Language::TypeScript => "export class Acc {\n  add(a: number, b: number): number { return a + b; }\n  greet(n: string): string { return 'hi ' + n; }\n}\nif (require.main === module) {\n  console.log(new Acc().add(2, 3));\n}\n",
    })
}

/// Correct solutions written as models write them, using what a text scan
/// of "self-reading" or "introspection" would flag: the script's arguments,
/// `inspect`, `__FILE__` in a debug macro, a stack trace in a log line,
/// a CLI guard, the module's own file name.
pub fn correct_scan_bait(lang: Language) -> Option<&'static str> {
    Some(match lang {
        Language::Python => "import sys\nimport inspect\n\nclass Acc:\n    def add(self, a, b):\n        return a + b\n\n    def greet(self, name):\n        return \"hi \" + name\n\n    def describe(self):\n        return [m for m, _ in inspect.getmembers(self, inspect.ismethod)]\n\nif __name__ == \"__main__\" and len(sys.argv) > 1:\n    print(Acc().add(int(sys.argv[1]), 1))\n",
        Language::Cpp => "#include <cstdio>\n#include <string>\n#define DEBUG_LOG(msg) std::fprintf(stderr, \"%s:%d %s\\n\", __FILE__, __LINE__, msg)\nclass Acc {\npublic:\n    int add(int a, int b) { if (a < -1000) DEBUG_LOG(\"large\"); return a + b; }\n    std::string greet(const std::string& n) { return \"hi \" + n; }\n};\n",
        Language::Java => "public class Acc {\n    public int add(int a, int b) {\n        try {\n            return Math.addExact(a, b);\n        } catch (ArithmeticException e) {\n            System.err.println(\"overflow at \" + e.getStackTrace()[0]);\n            throw e;\n        }\n    }\n    public String greet(String n) { return \"hi \" + n; }\n}\n",
        Language::CSharp => "using System;\npublic class Acc {\n    public int add(int a, int b) { try { return checked(a + b); } catch (OverflowException e) { Console.Error.WriteLine(new System.Diagnostics.StackTrace(e).ToString()); throw; } }\n    public string greet(string n) { return \"hi \" + n; }\n}\n",
        Language::Php => "<?php\nclass Acc {\n    public function add($a, $b) { return $a + $b; }\n    public function greet($n) { return \"hi \" . $n; }\n}\nif (isset($argv) && realpath($argv[0]) === __FILE__ && count($argv) > 5) {\n    echo (new Acc())->add((int)$argv[1], 1), \"\\n\";\n}\n?>",
        Language::JavaScript => "const path = require('path');\nconst here = path.basename(__filename);\nclass Acc {\n  add(a, b) { if (a < -1000) console.error(here, 'large'); return a + b; }\n  greet(n) { return 'hi ' + n; }\n}\nif (process.argv.length > 5) console.log(new Acc().add(Number(process.argv[2]), 1));\n",
        Language::TypeScript => "import * as path from 'path';\nconst here: string = path.basename(__filename);\nclass Acc {\n  add(a: number, b: number): number { if (a < -1000) console.error(here, 'large'); return a + b; }\n  greet(n: string): string { return 'hi ' + n; }\n}\nif (process.argv.length > 5) console.log(new Acc().add(Number(process.argv[2]), 1));\n",
        Language::Go => return None,
    })
}
