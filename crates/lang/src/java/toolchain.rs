//! Java 17: javac then `java -ea` (assertions enabled). File naming: a
//! top-level public class must live in `<Name>.java`, so the default file
//! name is the public class name; the class run is the job's entry class
//! (`Job::entry_class`: harnesses name theirs, whatever other `main`s a
//! solution carries), else the one declaring `main`. (Single-file source
//! launch would save one JVM start but only runs the *first* class of the
//! file, which in harness programs is rarely `main`'s.)
//!
//! The judge's observer class (`OBSERVER`) is compiled
//! once per engine into `PolyevalJudge.class` and is on the class path of
//! every compile and run ([`JUDGE_CLASSES_INSIDE`]): judged programs call it
//! without carrying its source.

use super::{Java, OBSERVER};
use crate::toolchain::prepare::{
    build_asset_dir, detect_version_cached, first_line, host_command, short_hash,
};
use crate::toolchain::{
    inside, s, Job, Limits, Toolchain, ToolchainInfo, WarmMode, WarmRuntime, WarmSupport, WORK_DIR,
};
use crate::Language;
use std::path::{Path, PathBuf};

const JAVAC: &str = "/usr/lib/jvm/java-17-openjdk-amd64/bin/javac";
const JAVA: &str = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java";
/// Fast-start JVM flags: one GC thread family, C1 only, CDS archive, no perf file.
/// Where the javac class-data-sharing archive is mounted inside.
const CDS_DIR_INSIDE: &str = "/polyeval/java";
/// Where the judge's precompiled observer class is (both steps).
pub const JUDGE_CLASSES_INSIDE: &str = "/polyeval/java-judge";
/// Where the warm worker's runtime class is (warm workers only).
const WARM_CLASSES_INSIDE: &str = "/polyeval/java-warm";
/// The warm worker's runtime: javac in-process (samples run in JVMs of
/// their own).
const WARM_WORKER_SRC: &str = include_str!("PolyevalWarmJava.java");
/// A named module, so that native access (its prctl) is granted to it alone.
const WARM_MODULE_INFO: &str =
    "module polyeval.warm {\n    requires java.compiler;\n    requires jdk.incubator.foreign;\n}\n";
const FAST_JVM: &[&str] = &[
    "-XX:+UseSerialGC",
    "-XX:TieredStopAtLevel=1",
    "-Xshare:auto",
    "-XX:-UsePerfData",
];

fn declared_names(source: &str) -> Vec<(usize, bool, String)> {
    // (byte offset, is public, name) of class/interface/enum/record declarations.
    let code = strip_comments_and_strings(source);
    let tokens: Vec<(usize, &str)> = tokenize(&code);
    let mut out = Vec::new();
    for (i, (off, tok)) in tokens.iter().enumerate() {
        // `Foo.class` is a class literal, not a declaration.
        let literal = code[..*off].trim_end().ends_with('.');
        if matches!(*tok, "class" | "interface" | "enum" | "record") && !literal {
            if let Some((_, name)) = tokens.get(i + 1) {
                if name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_')
                {
                    // public among the modifiers just before the keyword?
                    let public = tokens[i.saturating_sub(4)..i]
                        .iter()
                        .any(|(_, t)| *t == "public");
                    out.push((*off, public, name.to_string()));
                }
            }
        }
    }
    out
}

/// The byte range of the body (`{` … `}`) of the type declared at `off`
/// in `code` (comments and literals blanked).
fn body_range(code: &str, off: usize) -> Option<(usize, usize)> {
    let open = off + code[off..].find('{')?;
    let mut depth = 0usize;
    for (i, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((open, open + i));
                }
            }
            _ => {}
        }
    }
    Some((open, code.len()))
}

fn tokenize(code: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in code.char_indices() {
        let word = c.is_alphanumeric() || c == '_' || c == '$';
        match (word, start) {
            (true, None) => start = Some(i),
            (false, Some(st)) => {
                out.push((st, &code[st..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(st) = start {
        out.push((st, &code[st..]));
    }
    out
}

/// Comments and string/char literal contents blanked (offsets kept): Java's lexer.
fn strip_comments_and_strings(src: &str) -> String {
    crate::lex::mask(Language::Java, src).text
}

/// The public top-level class name (file name must match it).
pub fn public_class(source: &str) -> Option<String> {
    declared_names(source)
        .into_iter()
        .find(|(_, public, _)| *public)
        .map(|(_, _, n)| n)
}

/// The class declaring the first `static void main(`: the innermost type
/// whose body holds it (not a nested type declared before it), by its
/// binary name (`Outer$Inner` for a nested one).
pub fn main_class(source: &str) -> Option<String> {
    let code = strip_comments_and_strings(source);
    let main = find_main(&code)?;
    let mut enclosing: Vec<(usize, String)> = declared_names(source)
        .into_iter()
        .filter_map(|(off, _, name)| {
            let (open, close) = body_range(&code, off)?;
            (open < main && main < close).then_some((open, name))
        })
        .collect();
    enclosing.sort_by_key(|(open, _)| *open);
    let names: Vec<String> = enclosing.into_iter().map(|(_, n)| n).collect();
    (!names.is_empty()).then(|| names.join("$"))
}

fn find_main(code: &str) -> Option<usize> {
    let tokens = tokenize(code);
    tokens.windows(3).find_map(|w| {
        let after = &code[w[2].0 + w[2].1.len()..];
        (w[0].1 == "static"
            && w[1].1 == "void"
            && w[2].1 == "main"
            && after.trim_start().starts_with('('))
        .then_some(w[0].0)
    })
}

/// The class whose `main` runs: the job's, else the one declaring `main`.
fn entry_class(file: &str, job: &Job) -> String {
    job.entry_class
        .clone()
        .or_else(|| main_class(&job.source))
        .unwrap_or_else(|| file.trim_end_matches(".java").to_string())
}

fn jvm_flags_without_share() -> impl Iterator<Item = &'static &'static str> {
    FAST_JVM.iter().filter(|f| !f.starts_with("-Xshare"))
}

impl Toolchain for Java {
    fn binaries(&self) -> &'static [&'static str] {
        &[JAVAC, JAVA]
    }
    fn install_hint(&self) -> &'static str {
        "apt-get install -y openjdk-17-jdk-headless"
    }
    fn system_config(&self) -> &'static [&'static str] {
        &["/etc/java-17-openjdk"]
    }
    fn hello_world(&self, marker: &str) -> String {
        format!("public class Main {{ public static void main(String[] a) {{ System.out.println(\"{marker}\"); }} }}\n")
    }
    fn default_file_name(&self, source: &str) -> String {
        format!("{}.java", public_class(source).unwrap_or_else(|| s("Main")))
    }
    fn version_command(&self) -> Vec<String> {
        vec![s(JAVAC), s("-version")]
    }
    fn parse_version(&self, output: &str) -> String {
        first_line(output)
    }
    /// Trick: a dynamic class-data-sharing archive of javac's own classes
    /// (made once by compiling a sample program) cuts javac's start-up.
    /// Disable with POLYEVAL_NO_JAVAC_CDS=1 (used by the benchmark).
    fn prepare(&self, cache_dir: &Path) -> anyhow::Result<ToolchainInfo> {
        let mut info = ToolchainInfo::new(Language::Java, detect_version_cached(self, cache_dir)?);
        let judge: PathBuf = cache_dir.join(format!(
            "java-judge-{}",
            short_hash(&[&info.version, OBSERVER])
        ));
        build_asset_dir(&judge, |tmp| {
            std::fs::write(tmp.join("PolyevalJudge.java"), OBSERVER)?;
            host_command(
                &[
                    JAVAC,
                    "-encoding",
                    "UTF-8",
                    "-nowarn",
                    "-d",
                    ".",
                    "PolyevalJudge.java",
                ],
                tmp,
                &[],
            )?;
            std::fs::remove_file(tmp.join("PolyevalJudge.java"))?;
            Ok(())
        })?;
        info.add_support_dir(judge, JUDGE_CLASSES_INSIDE, "judge-prelude");
        let warm: PathBuf = cache_dir.join(format!(
            "java-warm-{}",
            short_hash(&[&info.version, WARM_MODULE_INFO, WARM_WORKER_SRC])
        ));
        build_asset_dir(&warm, |tmp| {
            std::fs::write(tmp.join("module-info.java"), WARM_MODULE_INFO)?;
            std::fs::write(tmp.join("PolyevalWarmJava.java"), WARM_WORKER_SRC)?;
            host_command(
                &[
                    JAVAC,
                    "-nowarn",
                    "-d",
                    ".",
                    "module-info.java",
                    "PolyevalWarmJava.java",
                ],
                tmp,
                &[],
            )?;
            std::fs::remove_file(tmp.join("module-info.java"))?;
            std::fs::remove_file(tmp.join("PolyevalWarmJava.java"))?;
            Ok(())
        })?;
        info.warm_binds
            .push((warm, PathBuf::from(WARM_CLASSES_INSIDE)));
        if std::env::var_os("POLYEVAL_NO_JAVAC_CDS").is_some() {
            return Ok(info);
        }
        let dir: PathBuf = cache_dir.join(format!(
            "java-cds-{}",
            short_hash(&[&info.version, &FAST_JVM.join(" ")])
        ));
        let built = build_asset_dir(&dir, |tmp| {
            std::fs::write(
                tmp.join("Sample.java"),
                "import java.util.*;\npublic class Sample {\n  interface Shape { double area(); }\n  record Sq(double s) implements Shape { public double area() { return s * s; } }\n  public static void main(String[] a) {\n    List<Shape> l = new ArrayList<>(List.of(new Sq(2)));\n    Map<String, Integer> m = new HashMap<>();\n    m.put(\"x\", 1);\n    assert l.get(0).area() == 4.0 : \"area\";\n    System.out.println(String.format(\"%d %s\", m.get(\"x\"), Arrays.toString(new int[]{1})));\n  }\n}\n",
            )?;
            let mut argv: Vec<String> = vec![s(JAVAC)];
            argv.extend(jvm_flags_without_share().map(|f| format!("-J{f}")));
            argv.extend([
                s("-J-XX:ArchiveClassesAtExit=javac.jsa"),
                s("-d"),
                s("out"),
                s("Sample.java"),
            ]);
            let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
            host_command(&argv, tmp, &[])?;
            std::fs::remove_dir_all(tmp.join("out"))?;
            std::fs::remove_file(tmp.join("Sample.java"))?;
            if !tmp.join("javac.jsa").is_file() {
                anyhow::bail!("javac did not write a CDS archive");
            }
            Ok(())
        });
        info.add_optional_compile_dir(
            built,
            dir,
            CDS_DIR_INSIDE,
            "javac-cds",
            "javac class-data-sharing archive",
        );
        Ok(info)
    }
    fn compile_command(
        &self,
        file: &str,
        _: &Job,
        info: &ToolchainInfo,
        _: &Limits,
    ) -> Option<Vec<String>> {
        let mut argv = vec![s(JAVAC)];
        if info.has_feature("javac-cds") {
            argv.extend(jvm_flags_without_share().map(|f| format!("-J{f}")));
            argv.push(format!(
                "-J-XX:SharedArchiveFile={CDS_DIR_INSIDE}/javac.jsa"
            ));
        } else {
            argv.extend(FAST_JVM.iter().map(|f| format!("-J{f}")));
        }
        argv.extend([
            s("-J-Xmx1g"),
            s("-encoding"),
            s("UTF-8"),
            s("-nowarn"),
            // The work dir (javac's default class path) and the judge's class.
            s("-cp"),
            format!(".:{JUDGE_CLASSES_INSIDE}"),
            s("-d"),
            inside("classes"),
            inside(file),
        ]);
        Some(argv)
    }
    fn run_command(
        &self,
        file: &str,
        job: &Job,
        _: &ToolchainInfo,
        limits: &Limits,
    ) -> Vec<String> {
        let main = entry_class(file, job);
        let mut argv = vec![s(JAVA), s("-ea")];
        argv.extend(FAST_JVM.iter().map(|f| s(f)));
        argv.extend([
            format!("-Xmx{}m", (limits.memory_mb / 2).max(64)),
            s("-XX:MaxMetaspaceSize=128m"),
            s("-XX:ReservedCodeCacheSize=64m"),
            s("-cp"),
            format!("{}:{JUDGE_CLASSES_INSIDE}", inside("classes")),
            main,
        ]);
        argv
    }
    fn env(&self, _: &Limits) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The JVM's compiler in the worker's runtime; the entry class is part
    /// of each request's run command.
    fn warm_support(&self) -> Option<WarmSupport> {
        Some(WarmSupport {
            mode: WarmMode::Runtime,
            entry_class: true,
        })
    }
    /// One JVM with the run step's heap (it shares the worker's memory
    /// limit with the sample's own JVM) and javac's class-data archive,
    /// compiling every sample, warmed up on a program of its own. C1 only,
    /// as cold: measured, C2's compiler threads cost more than they gain
    /// over a batch of samples. Out of the samples' reach: no attach
    /// listener, no signal handlers of its own (a signal ends it), native
    /// access for its prctl.
    fn warm_runtime(&self, info: &ToolchainInfo, limits: &Limits) -> Option<WarmRuntime> {
        let mut argv = vec![s(JAVA)];
        argv.extend(jvm_flags_without_share().map(|f| s(f)));
        if info.has_feature("javac-cds") {
            argv.push(format!("-XX:SharedArchiveFile={CDS_DIR_INSIDE}/javac.jsa"));
        }
        argv.extend([
            format!("-Xmx{}m", (limits.memory_mb / 2).max(64)),
            s("-XX:+DisableAttachMechanism"),
            s("-Xrs"),
            s("--add-modules"),
            s("jdk.compiler,jdk.incubator.foreign"),
            s("--enable-native-access=polyeval.warm"),
            s("-p"),
            s(WARM_CLASSES_INSIDE),
            s("-m"),
            s("polyeval.warm/polyeval.warm.PolyevalWarmJava"),
            s("/tmp/polyeval-warm-up"),
        ]);
        Some(WarmRuntime {
            argv,
            runs_samples: false,
        })
    }
    /// What `compile_command` does: source, javac's class path (the work
    /// dir, named absolutely: the worker's own is elsewhere), classes dir.
    fn warm_request(&self, file: &str, _: &Job, _: &ToolchainInfo, _: &Limits) -> String {
        [
            inside(file),
            format!("{}:{JUDGE_CLASSES_INSIDE}", WORK_DIR),
            inside("classes"),
        ]
        .join("\t")
    }
    /// javac stopped after parsing (hidden `should-stop` options): syntax
    /// errors are reported, unresolved imports and types are not.
    fn syntax_check_command(&self, file: &str) -> Option<Vec<String>> {
        let mut argv = vec![s(JAVAC)];
        argv.extend(FAST_JVM.iter().map(|f| format!("-J{f}")));
        argv.extend([
            s("-J-Xmx512m"),
            s("-XDshould-stop.ifError=PARSE"),
            s("-XDshould-stop.ifNoError=PARSE"),
            s("-encoding"),
            s("UTF-8"),
            s("-nowarn"),
            s("-d"),
            inside("classes"),
            inside(file),
        ]);
        Some(argv)
    }
    fn cold_stderr(&self, stderr: String) -> String {
        stderr
    }
    fn is_compile_error(&self, _: &str) -> bool {
        false
    }
    fn is_assertion_failure(&self, stderr: &str) -> bool {
        stderr.contains("java.lang.AssertionError")
    }
    fn is_runtime_error(&self, stderr: &str) -> bool {
        stderr.contains("Exception in thread") || stderr.contains("Error: ")
    }
    fn is_memory_exhaustion(&self, stderr: &str) -> bool {
        stderr.contains("java.lang.OutOfMemoryError")
            || stderr.contains("Could not reserve enough space")
            || stderr.contains("Native memory allocation")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_public_and_main_classes() {
        let src = "import java.util.*;\n// public class Fake {}\nclass Helper { String s = \"class Nope\"; }\npublic class Problem {\n  public static void main(String[] a) {}\n}\n";
        assert_eq!(public_class(src).as_deref(), Some("Problem"));
        assert_eq!(main_class(src).as_deref(), Some("Problem"));
        let src2 =
            "class A {}\nclass Main { public static void main(String[] args) { } }\nclass B {}";
        assert_eq!(public_class(src2), None);
        assert_eq!(main_class(src2).as_deref(), Some("Main"));
        assert_eq!(Java.default_file_name(src2), "Main.java");
    }

    /// The class whose body holds `main`, not a nested type declared
    /// before it, nor a class literal.
    #[test]
    fn main_class_is_the_one_enclosing_main() {
        let src = "public class Acc {\n  static class Node { int v; }\n  enum Kind { A, B }\n  Object k = Node.class;\n  public static void main(String[] a) {}\n}\nclass After {}\n";
        assert_eq!(main_class(src).as_deref(), Some("Acc"));
        let nested = "class Outer {\n  static class Inner {\n    public static void main(String[] a) {}\n  }\n}\n";
        assert_eq!(main_class(nested).as_deref(), Some("Outer$Inner"));
        assert_eq!(main_class("class A { void run() {} }"), None);
    }
}
