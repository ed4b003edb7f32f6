//! The project's few-shot examples must be correct programs: each language's
//! two answers, run in the sandbox with checks of their own.

use polyeval_bench::multioop::prompts::few_shot_examples;
use polyeval_lang::Language;
use std::process::Command;

fn code(answer: &str) -> String {
    // The answers are single fenced blocks.
    let body = answer
        .split_once('\n')
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    body.trim_end().trim_end_matches("```").to_string()
}

#[test]
fn every_few_shot_answer_runs_and_is_right() {
    let cases: [(Language, &str, &str); 6] = [
        (Language::Python, "main.py", "\nassert VWL().count_vowels('hEllo') == 2\nr = RCT(2, 3)\nassert r.area() == 6 and r.perimeter() == 10 and SHP().area() == 0\nprint('few-shot ok')\n"),
        (Language::Cpp, "main.cpp", "\n#include <cstdio>\n#include <cstdlib>\nint main() { RCT r(2, 3); SHP* s = &r; if (VWL().count_vowels(\"hEllo\") != 2 || s->area() != 6 || r.perimeter() != 10) return 1; std::puts(\"few-shot ok\"); return 0; }\n"),
        (Language::Java, "Main.java", "\npublic class Main { public static void main(String[] a) { RCT r = new RCT(2, 3); SHP s = r; if (new VWL().count_vowels(\"hEllo\") != 2 || s.area() != 6 || r.perimeter() != 10) throw new RuntimeException(\"wrong\"); System.out.println(\"few-shot ok\"); } }\n"),
        (Language::CSharp, "main.cs", "\nclass Program { static void Main() { var r = new RCT(2, 3); SHP s = r; if (new VWL().count_vowels(\"hEllo\") != 2 || s.area() != 6 || r.perimeter() != 10) throw new System.Exception(\"wrong\"); System.Console.WriteLine(\"few-shot ok\"); } }\n"),
        (Language::Php, "main.php", "\n$r = new RCT(2, 3);\nif ((new VWL())->count_vowels('hEllo') !== 2 || $r->area() !== 6 || $r->perimeter() !== 10) { throw new Exception('wrong'); }\necho \"few-shot ok\\n\";\n"),
        (Language::JavaScript, "main.js", "\nconst r = new RCT(2, 3);\nif (new VWL().count_vowels('hEllo') !== 2 || r.area() !== 6 || r.perimeter() !== 10) throw new Error('wrong');\nconsole.log('few-shot ok');\n"),
    ];
    let tmp = tempfile::tempdir().unwrap();
    for (lang, file, checks) in cases {
        let ex = few_shot_examples(lang);
        assert_eq!(ex.len(), 2, "{lang}");
        let mut program = String::new();
        for e in &ex {
            let mut c = code(&e.answer);
            if lang == Language::Php && !program.is_empty() {
                c = c.replacen("<?php", "", 1);
            }
            if lang == Language::Java {
                c = c.replace("public class", "class");
            }
            program.push_str(&c);
            program.push('\n');
        }
        program.push_str(checks);
        let path = tmp.path().join(lang.key()).join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &program).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_polyeval"))
            .args(["exec", "--json", "--lang", lang.key()])
            .arg(&path)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{lang}: {e}\n{}", String::from_utf8_lossy(&out.stderr)));
        assert_eq!(v["status"], "passed", "{lang}: {v}\n{program}");
        assert!(
            v["stdout"].as_str().unwrap().contains("few-shot ok"),
            "{lang}: {v}"
        );
    }
}
