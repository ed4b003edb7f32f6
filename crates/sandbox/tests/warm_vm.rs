//! Warm workers with a long-lived runtime (the zygote's "vm" mode): Java
//! (one JVM compiling in-process, each program run in its own JVM), C#
//! (mcs loaded once, each program run in its own mono) and PHP (one php
//! forking a child per sample). Samples that try to spoil the runtime are each
//! followed by a correct and a wrong sample in the same worker: the correct
//! one passes, the wrong one fails, and every verdict equals the cold one.
//! Outputs of ordinary programs (passing, failing, compile errors, exit
//! codes) read as a cold run's.

use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::{Engine, EngineConfig, Outcome, WarmStats};
use std::time::Duration;

fn engine(warm: bool) -> Engine {
    Engine::new(EngineConfig {
        jobs: 1,
        limits: Limits {
            timeout: Duration::from_secs(4),
            cpu_secs: 4,
            memory_mb: 512,
            ..Limits::default()
        },
        cache: false,
    })
    .expect("engine starts (bwrap installed?)")
    .with_warm_workers(warm)
}

fn dump(o: &Outcome) -> String {
    format!(
        "{:?} exit {:?} signal {:?}\n--- stdout\n{}--- stderr\n{}--- compile\n{}",
        o.status, o.exit_code, o.signal, o.stdout, o.stderr, o.compile_output
    )
}

/// Jobs of `language` from sources with `{M}` standing for the marker.
fn jobs(engine: &Engine, language: Language, sources: &[&str]) -> Vec<Job> {
    sources
        .iter()
        .map(|s| {
            let mut job = Job::new(language, s.replace("{M}", engine.marker()));
            job.require_marker = true;
            job
        })
        .collect()
}

/// Runs `sources` warm and cold (one engine each): every warm outcome's
/// status, exit code, stderr and compiler output equal the cold one's.
/// Returns the warm outcomes and the warm engine's stats.
fn assert_warm_compile_reads_like_cold(
    language: Language,
    sources: &[String],
) -> (Vec<Outcome>, WarmStats) {
    let warm = engine(true);
    let cold = engine(false);
    let sources: Vec<&str> = sources.iter().map(String::as_str).collect();
    let w = warm.run_all(&jobs(&warm, language, &sources), &|| {});
    let c = cold.run_all(&jobs(&cold, language, &sources), &|| {});
    for (w, c) in w.iter().zip(&c) {
        assert_eq!(
            (w.status, w.exit_code, &w.stderr, &w.compile_output),
            (c.status, c.exit_code, &c.stderr, &c.compile_output),
            "warm {}\ncold {}",
            dump(w),
            dump(c)
        );
    }
    (w, warm.warm_stats())
}

/// Runs `spoilers`, each followed by `correct` and `wrong`, warm and cold:
/// the correct sample passes after every spoiler, the wrong one does not,
/// and every verdict is the cold one. Returns the warm engine's stats.
fn assert_spoilers_change_nothing(
    language: Language,
    spoilers: &[(&str, &str)],
    correct: &str,
    wrong: &str,
) -> polyeval_sandbox::WarmStats {
    let warm = engine(true);
    let cold = engine(false);
    let mut sources = Vec::new();
    for (_, spoiler) in spoilers {
        sources.extend([*spoiler, correct, wrong]);
    }
    let w = warm.run_all(&jobs(&warm, language, &sources), &|| {});
    let c = cold.run_all(&jobs(&cold, language, &sources), &|| {});
    for (i, (name, _)) in spoilers.iter().enumerate() {
        let [ok, bad] = [&w[3 * i + 1], &w[3 * i + 2]];
        assert_eq!(
            ok.status,
            Status::Passed,
            "{language} after {name}: {}",
            dump(ok)
        );
        assert_ne!(
            bad.status,
            Status::Passed,
            "{language} after {name}: {}",
            dump(bad)
        );
        for k in 3 * i..3 * i + 3 {
            assert_eq!(
                w[k].status,
                c[k].status,
                "{language} {name} ({k}): warm {}\ncold {}",
                dump(&w[k]),
                dump(&c[k])
            );
        }
    }
    let stats = warm.warm_stats();
    assert!(
        stats.warm_samples > 0,
        "{language}: nothing ran warm: {stats:?}"
    );
    stats
}

const JAVA_CORRECT: &str = "import java.util.*;\npublic class Main {\n  public static void main(String[] a) {\n    assert String.format(\"%.1f\", 1.5).equals(\"1.5\") : \"format\";\n    assert System.lineSeparator().equals(\"\\n\") : \"separator\";\n    System.out.println(\"{M}\");\n  }\n}\n";
const JAVA_WRONG: &str = "public class Main {\n  public static void main(String[] a) {\n    assert 2 * 2 == 5 : \"arith\";\n    System.out.println(\"{M}\");\n  }\n}\n";

/// `body` as the main method of a Java program.
fn java(body: &str) -> String {
    format!("import java.util.*;\nimport java.io.*;\npublic class Main {{\n  public static void main(String[] a) throws Exception {{\n{body}\n  }}\n}}\n")
}

#[test]
fn java_samples_cannot_spoil_the_jvm_for_later_ones() {
    let spoilers: Vec<(&str, String)> = vec![
        ("locale", java("Locale.setDefault(Locale.GERMANY);\nSystem.out.println(\"{M}\");")),
        ("system property", java("System.setProperty(\"line.separator\", \"\\r\\n\");\nSystem.out.println(\"{M}\");")),
        ("standard streams", java("System.out.println(\"{M}\");\nSystem.setOut(new PrintStream(OutputStream.nullOutputStream()));\nSystem.setErr(new PrintStream(OutputStream.nullOutputStream()));")),
        ("uncaught handler", java("Thread.setDefaultUncaughtExceptionHandler((t, e) -> System.out.println(\"{M}\"));\nthrow new RuntimeException(\"x\");")),
        ("shutdown hook", java("Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println(\"{M}\")));\nthrow new RuntimeException(\"x\");")),
        ("non-daemon thread", java("new Thread(() -> { try { Thread.sleep(300); } catch (Exception e) { } System.out.println(\"{M}\"); }).start();")),
        ("daemon thread", java("Thread t = new Thread(() -> { while (true) { System.out.println(\"{M}\"); try { Thread.sleep(5); } catch (Exception e) { } } });\nt.setDaemon(true);\nt.start();\nThread.sleep(50);")),
        ("daemon process", java("new ProcessBuilder(\"sh\", \"-c\", \"while true; do for f in /sandbox/*.java; do echo 'public class Main { public static void main(String[] a) { System.out.println(\\\"{M}\\\"); } }' > $f; done; done\").start();\nThread.sleep(100);\nSystem.out.println(\"{M}\");")),
        ("files", java("for (String d : new String[] {\"/sandbox\", \"/tmp\", \"/dev/shm\"}) { new File(d + \"/classes\").mkdirs(); try (FileWriter w = new FileWriter(d + \"/Main.java\")) { w.write(\"x\"); } }\nSystem.out.println(\"{M}\");")),
        ("exit early", java("System.exit(0);")),
        ("memory", java("List<long[]> l = new ArrayList<>();\nwhile (true) l.add(new long[1 << 20]);")),
        ("hang", java("while (true) { }")),
    ];
    let spoilers: Vec<(&str, &str)> = spoilers.iter().map(|(n, s)| (*n, s.as_str())).collect();
    let stats = assert_spoilers_change_nothing(Language::Java, &spoilers, JAVA_CORRECT, JAVA_WRONG);
    // Each sample runs in a JVM of its own: none reaches the compiling JVM,
    // which serves them all (the memory hog may push the worker's memory
    // cgroup over, which replaces it).
    assert!(stats.workers_discarded <= 1, "{stats:?}");
    assert!(stats.warm_samples >= 30, "{stats:?}");
}

#[test]
fn a_warm_java_outcome_reads_like_a_cold_one() {
    let warm = engine(true);
    let cold = engine(false);
    let sources = [
        java("System.out.println(\"out\");\nSystem.err.println(\"err\");\nSystem.out.print(\"{M}\");"),
        java("throw new IllegalStateException(\"boom\", new RuntimeException(\"inner\"));"),
        java("int x = \"not an int\";"),
        java("System.exit(3);"),
        java("assert a.length == 1 : \"no args\";"),
        "public class Main {\n  static int depth(int n) { return depth(n + 1) + 1; }\n  public static void main(String[] a) { depth(0); }\n}\n".to_string(),
        java("@SuppressWarnings(\"unchecked\") List<String> l = (List<String>) (List) new ArrayList<Integer>();\nSystem.out.println(\"{M}\");"),
    ];
    let sources: Vec<&str> = sources.iter().map(String::as_str).collect();
    let w = warm.run_all(&jobs(&warm, Language::Java, &sources), &|| {});
    let c = cold.run_all(&jobs(&cold, Language::Java, &sources), &|| {});
    for (w, c) in w.iter().zip(&c) {
        let cold_stdout = c.stdout.replace(cold.marker(), warm.marker());
        assert_eq!(
            (
                w.status,
                w.exit_code,
                &w.stdout,
                &w.stderr,
                &w.compile_output
            ),
            (
                c.status,
                c.exit_code,
                &cold_stdout,
                &c.stderr,
                &c.compile_output
            ),
            "warm {}\ncold {}",
            dump(w),
            dump(c)
        );
    }
    assert_eq!(w[2].status, Status::CompileError);
    assert_eq!(w[1].status, Status::RuntimeError);
    // Each program runs in a JVM of its own, exits and overflows included.
    assert_eq!(
        warm.warm_stats().warm_samples,
        sources.len() as u64,
        "{:?}",
        warm.warm_stats()
    );
}

/// `body` as the Main of a C# program.
fn csharp(body: &str) -> String {
    format!("using System;\nusing System.IO;\nusing System.Diagnostics;\npublic class Program {{\n  public static void Main() {{\n{body}\n  }}\n}}\n")
}

#[test]
fn csharp_samples_cannot_spoil_the_compiler_or_later_runs() {
    let correct = csharp("Debug.Assert(2 * 2 == 4);\nConsole.WriteLine(\"{M}\");");
    let wrong = csharp("Debug.Assert(2 * 2 == 5);\nConsole.WriteLine(\"{M}\");");
    let spoilers = [
        ("compile error", csharp("int x = \"s\"; undefined();")),
        ("warnings", csharp("int unused = 1;\nConsole.WriteLine(\"{M}\");")),
        ("a #define", format!("#define EVIL\n{}", csharp("Console.WriteLine(\"{M}\");"))),
        // Rewrites the next sample's source (not the running program, which
        // mono may still be reading).
        ("daemon process", csharp("Process.Start(\"sh\", \"-c 'while true; do echo class Broken { > /sandbox/Program.cs; done'\");\nSystem.Threading.Thread.Sleep(100);\nConsole.WriteLine(\"{M}\");")),
        ("files", csharp("foreach (var d in new[] {\"/sandbox\", \"/tmp\", \"/dev/shm\"}) File.WriteAllText(d + \"/Program.cs\", \"x\");\nConsole.WriteLine(\"{M}\");")),
        ("exit early", csharp("Environment.Exit(0);")),
        ("hang", csharp("while (true) { }")),
    ];
    let spoilers: Vec<(&str, &str)> = spoilers.iter().map(|(n, s)| (*n, s.as_str())).collect();
    let stats = assert_spoilers_change_nothing(Language::CSharp, &spoilers, &correct, &wrong);
    assert_eq!(stats.workers_started, 1, "{stats:?}");
}

#[test]
fn a_warm_csharp_compile_reads_like_a_cold_one() {
    let sources = [
        csharp("int x = \"s\"; undefined();"),
        csharp("int unused = 1;\nConsole.WriteLine(\"{M}\");"),
        csharp("Console.Error.WriteLine(\"err\");\nEnvironment.Exit(3);"),
        csharp("throw new InvalidOperationException(\"boom\");"),
    ];
    let (w, stats) = assert_warm_compile_reads_like_cold(Language::CSharp, &sources);
    assert_eq!(w[0].status, Status::CompileError);
    assert_eq!(stats.warm_samples, 4);
}

#[test]
fn php_samples_cannot_spoil_the_forking_runtime() {
    let correct = "<?php\n// correct\nif (sprintf('%.1f', 1.5) !== '1.5') { throw new Exception('format'); }\nif (isset($polyevalSample) || isset($x)) { throw new Exception('leftover'); }\necho \"{M}\\n\";\n";
    let wrong = "<?php\n// wrong\nif (1 + 1 !== 3) { throw new Exception(\"Test failed!\"); }\necho \"{M}\\n\";\n";
    let spoilers = [
        ("globals and ini", "<?php\n$x = 1;\n$GLOBALS['polyevalSample'] = 2;\nini_set('precision', '3');\nsetlocale(LC_ALL, 'de_DE');\necho \"{M}\\n\";\n"),
        ("shutdown function", "<?php\nregister_shutdown_function(function () { echo \"{M}\\n\"; });\nthrow new Exception('x');\n"),
        ("daemon process", "<?php\nexec('sh -c \"while true; do printf \\'<?php echo \\\"{M}\\\\\\\\n\\\";\\' > /sandbox/main.php; done\" > /dev/null 2>&1 &');\nusleep(100000);\necho \"{M}\\n\";\n"),
        ("files", "<?php\nforeach (['/sandbox', '/tmp', '/dev/shm'] as $d) { file_put_contents(\"$d/main.php\", '<?php echo 1;'); }\necho \"{M}\\n\";\n"),
        ("exit early", "<?php\nexit(0);\n"),
        ("memory", "<?php\n$a = [];\nwhile (true) { $a[] = str_repeat('x', 1 << 20); }\n"),
        ("hang", "<?php\nwhile (true) { }\n"),
    ];
    let stats = assert_spoilers_change_nothing(Language::Php, &spoilers, correct, wrong);
    assert_eq!(stats.workers_discarded, 0, "{stats:?}");
}

#[test]
fn a_warm_php_outcome_reads_like_a_cold_one() {
    let warm = engine(true);
    let cold = engine(false);
    let sources = [
        "<?php\necho \"out\\n\";\nfwrite(STDERR, \"err\\n\");\necho \"{M}\\n\";\n",
        "<?php\nvar_dump($argc, $argv, __FILE__, $_SERVER['SCRIPT_NAME'], getcwd(), array_keys(get_defined_vars()));\necho \"{M}\\n\";\n",
        "<?php\n$count = 0;\nfunction inc() { global $count; $count++; }\ninc(); inc();\nif ($count !== 2) { throw new Exception('global'); }\necho \"{M}\\n\";\n",
        "<?php\nfunction f() {\n",
        "<?php\nexit(3);\n",
        "<?php\nassert(1 === 2);\n",
        "<?php\necho $undefined;\necho \"{M}\\n\";\n",
        "<?php\nfunction f($n) { if ($n === 0) { throw new Exception('Test failed!'); } f($n - 1); }\nf(2);\n",
        "<?php\nset_exception_handler(function ($e) { echo 'handled ', $e->getMessage(), \"\\n\"; });\nthrow new Exception('late');\n",
    ];
    let w = warm.run_all(&jobs(&warm, Language::Php, &sources), &|| {});
    let c = cold.run_all(&jobs(&cold, Language::Php, &sources), &|| {});
    for (w, c) in w.iter().zip(&c) {
        let cold_stdout = c.stdout.replace(cold.marker(), warm.marker());
        assert_eq!(
            (w.status, w.exit_code, &w.stdout),
            (c.status, c.exit_code, &cold_stdout),
            "warm {}\ncold {}",
            dump(w),
            dump(c)
        );
        assert_eq!(w.stderr, c.stderr, "warm {}\ncold {}", dump(w), dump(c));
    }
    assert_eq!(w[3].status, Status::CompileError, "{}", dump(&w[3]));
    assert_eq!(warm.warm_stats().warm_samples, sources.len() as u64);
}

/// A runtime that cannot start (a JVM allowed 4 threads) sends its
/// language's samples cold and leaves the other languages warm.
#[test]
fn a_runtime_that_cannot_start_turns_off_only_its_language() {
    let warm = engine(true);
    let mut java = jobs(&warm, Language::Java, &[JAVA_CORRECT]).remove(0);
    java.limits = Some(Limits {
        max_processes: 4,
        ..Limits::default()
    });
    let python = jobs(&warm, Language::Python, &["print('{M}')\n"]).remove(0);
    let out = warm.run_all(&[java, python.clone()], &|| {});
    assert_ne!(out[0].status, Status::Passed, "{}", dump(&out[0]));
    let out = warm.run_all(&[python], &|| {});
    assert_eq!(out[0].status, Status::Passed, "{}", dump(&out[0]));
    let stats = warm.warm_stats();
    assert_eq!(stats.warm_samples, 2, "{stats:?}");
    // What `polyeval doctor` reports.
    let failures = warm.warm_failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert_eq!(failures[0].0, Language::Java);
    assert!(failures[0].1.contains("did not start"), "{failures:?}");
    for l in [
        Language::Python,
        Language::Java,
        Language::CSharp,
        Language::Php,
        Language::JavaScript,
    ] {
        assert!(polyeval_sandbox::has_warm_worker(l), "{l}");
    }
    assert!(!polyeval_sandbox::has_warm_worker(Language::Cpp));
}

/// A TypeScript program of `body` (type-checked by `tsc --strict`).
fn typescript(body: &str) -> String {
    format!("import * as fs from 'fs';\nimport * as child from 'child_process';\nfunction twice(n: number): number {{ return 2 * n; }}\n{body}\n")
}

#[test]
fn typescript_samples_cannot_spoil_the_compiler_or_later_runs() {
    let correct = typescript("if (twice(2) !== 4) throw new Error('arith');\nconsole.log('{M}');");
    let wrong = typescript("if (twice(2) !== 5) throw new Error('arith');\nconsole.log('{M}');");
    let plant = "for (const d of ['/sandbox', '/tmp', '/dev/shm']) {\n  fs.mkdirSync(d + '/node_modules/@types/node', { recursive: true });\n  fs.writeFileSync(d + '/node_modules/@types/node/index.d.ts', 'declare function twice(n: string): string;');\n  fs.writeFileSync(d + '/lib.d.ts', 'declare var console: number;');\n  fs.writeFileSync(d + '/tsconfig.json', '{\"compilerOptions\": {\"strict\": false}}');\n  fs.mkdirSync(d + '/out', { recursive: true });\n  fs.writeFileSync(d + '/out/main.js', 'console.log(\"spoiled\")');\n}\nconsole.log('{M}');";
    let spoilers = [
        ("type error", typescript("const x: number = 'one';\nconsole.log('{M}');")),
        ("syntax error", typescript("class {\nconsole.log('{M}');")),
        ("planted declarations and outputs", typescript(plant)),
        // Rewrites the next sample's source (not the running program).
        ("daemon process", typescript("child.spawn('sh', ['-c', 'while true; do echo \"throw 1\" > /sandbox/main.ts; done'], { detached: true, stdio: 'ignore' }).unref();\nconsole.log('{M}');")),
        ("exit early", typescript("process.exit(0);")),
        ("hang", typescript("while (true) { }")),
    ];
    let spoilers: Vec<(&str, &str)> = spoilers.iter().map(|(n, s)| (*n, s.as_str())).collect();
    let stats = assert_spoilers_change_nothing(Language::TypeScript, &spoilers, &correct, &wrong);
    assert_eq!(stats.workers_started, 1, "{stats:?}");
}

#[test]
fn a_warm_typescript_compile_reads_like_a_cold_one() {
    let sources = [
        typescript("const x: number = 'one';\nlet y: string = twice(1);"),
        typescript("class A {\n  f(: number) {}\n}"),
        typescript("console.error('err');\nprocess.exit(3);"),
        typescript("throw new RangeError('boom ' + twice(2));"),
        typescript("console.log('{M}');"),
    ];
    let (w, stats) = assert_warm_compile_reads_like_cold(Language::TypeScript, &sources);
    assert_eq!(w[0].status, Status::CompileError);
    assert!(
        w[0].compile_output.contains("error TS2322"),
        "{}",
        dump(&w[0])
    );
    assert_eq!(w[1].status, Status::CompileError);
    assert_eq!(w[3].status, Status::RuntimeError);
    assert!(
        w[3].stderr.contains("/sandbox/main.ts:4"),
        "a source-mapped stack: {}",
        dump(&w[3])
    );
    assert_eq!(w[4].status, Status::Passed);
    assert_eq!(stats.warm_samples, 5);
}
