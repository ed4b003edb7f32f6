//! C++17 with g++. Trick: a precompiled header of the headers the MultiOOP
//! harness uses, force-included (`-include`) so every compile skips parsing
//! them. Disable with POLYEVAL_NO_PCH=1 (used by the benchmark).
//!
//! The judge's observer prelude (`OBSERVER`) is provided
//! precompiled: every compile can `#include <polyeval_judge.hpp>`
//! ([`JUDGE_INCLUDE`]), which declares the prelude's non-template half and
//! defines its templates, and links `libpolyeval_judge.a`, which holds the
//! non-template half compiled once (an archive: programs that do not use it
//! link nothing of it). A program whose first line is that include is
//! compiled with a second precompiled header holding the prelude after the
//! harness headers, so judging adds almost nothing to the compile time.
//!
//! What a small program's compile still spends is mostly template
//! instantiation, not its own code; two sets of `extern template`
//! declarations move it into the archive, compiled once with the same flags:
//! `observe<T>` for the commonly observed types ([`PRE_INSTANTIATED`]), and
//! libstdc++ templates that `<string>` and `<cmath>` make every translation
//! unit instantiate (`cpp_std_extern.hpp`, at the end of both precompiled
//! headers).

use super::{Cpp, OBSERVER};
use crate::toolchain::prepare::{
    build_asset_dir, detect_version_cached, first_line, host_command, short_hash,
};
use crate::toolchain::{
    inside, s, Job, Limits, Toolchain, ToolchainInfo, WarmRuntime, WarmSupport,
};
use crate::Language;
use std::path::{Path, PathBuf};

const GXX: &str = "/usr/bin/g++";
/// Flags shared by the PCH and every compile (a PCH is only used when they match).
const FLAGS: &[&str] = &["-std=c++17", "-O1", "-pipe"];
/// The gold linker (binutils), used when present.
const GOLD: &str = "/usr/bin/ld.gold";
/// Headers compiled into the precompiled header: every header the MultiOOP
/// C++ harness adds (a test in `polyeval-bench` checks this), plus ones
/// solutions commonly include.
pub const PCH_HEADERS: &[&str] = &[
    "cstdlib",
    "algorithm",
    "cmath",
    "cstdio",
    "vector",
    "string",
    "climits",
    "cstring",
    "iostream",
    "cassert",
    "unordered_map",
    "map",
    "set",
    "sstream",
    "stdexcept",
    "memory",
    "functional",
    "utility",
    "numeric",
    "iomanip",
    "queue",
    "stack",
    "unordered_set",
    "stdlib.h",
    "math.h",
    "stdio.h",
    "string.h",
];
const PCH_DIR_INSIDE: &str = "/polyeval/cpp";
/// The judge prelude's header and archive (compile step).
const JUDGE_DIR_INSIDE: &str = "/polyeval/cpp-judge";
/// The precompiled header of judged programs (compile step).
const JUDGE_PCH_DIR_INSIDE: &str = "/polyeval/cpp-judge-pch";
/// The first line of a judged program: the observer prelude, before anything
/// the candidate writes (no macro of the candidate's can reach it).
pub const JUDGE_INCLUDE: &str = "#include <polyeval_judge.hpp>";

/// Types a judged program most often observes (`observe<T>` deduces `T`
/// from `const T&`): their `observe<T>` is instantiated once into
/// `libpolyeval_judge.a` and declared `extern template` in
/// `polyeval_judge.hpp`, so a program does not instantiate and compile it
/// again (about a third of the compile time of a small judged program).
/// Any other type is instantiated by the program itself, as before.
pub const PRE_INSTANTIATED: &[&str] = &[
    "bool",
    "char",
    "signed char",
    "unsigned char",
    "short",
    "unsigned short",
    "int",
    "unsigned int",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
    "float",
    "double",
    "long double",
    "std::string",
    "std::string_view",
    "const char*",
    "char*",
    "std::vector<int>",
    "std::vector<long>",
    "std::vector<long long>",
    "std::vector<unsigned int>",
    "std::vector<unsigned long>",
    "std::vector<float>",
    "std::vector<double>",
    "std::vector<bool>",
    "std::vector<char>",
    "std::vector<std::string>",
    "std::vector<std::vector<int>>",
    "std::vector<std::vector<long long>>",
    "std::vector<std::vector<double>>",
    "std::vector<std::vector<char>>",
    "std::vector<std::vector<std::string>>",
    "std::pair<int, int>",
    "std::vector<std::pair<int, int>>",
];

/// Explicit instantiation declarations of libstdc++ templates that every
/// program instantiates for nothing, in the precompiled headers (see the file).
const STD_EXTERN: &str = include_str!("cpp_std_extern.hpp");
const STD_EXTERN_HEADER: &str = "polyeval_std_extern.h";

/// `observe<T>` for every pre-instantiated `T`, as `extern template`
/// declarations (`keyword` = "extern ") or definitions (`keyword` = "").
fn observe_instantiations(keyword: &str) -> String {
    let lines: String = PRE_INSTANTIATED
        .iter()
        .map(|t| format!("{keyword}template void observe<{t}>(int, {t} const&);\n"))
        .collect();
    format!("namespace polyeval_judge {{\n{lines}}}  // namespace polyeval_judge\n")
}

/// `polyeval_judge.hpp`: the prelude in its linked form.
fn judge_header() -> String {
    format!(
        "// polyeval judge observer, linked form: templates here, the rest in libpolyeval_judge.a.\n\
         #ifndef POLYEVAL_JUDGE_HPP\n#define POLYEVAL_JUDGE_HPP\n#define POLYEVAL_JUDGE_LINKED 1\n{}\n{}#endif\n",
        OBSERVER,
        observe_instantiations("extern ")
    )
}

/// Build the judge prelude's header and archive into `dir`: the prelude's
/// non-template half, the pre-instantiated `observe<T>` and the libstdc++
/// instantiations [`STD_EXTERN`] declares, one archive member each (a
/// program links only the members it uses).
fn build_judge(dir: &std::path::Path) -> anyhow::Result<()> {
    std::fs::write(dir.join("polyeval_judge.hpp"), judge_header())?;
    std::fs::write(dir.join(STD_EXTERN_HEADER), STD_EXTERN)?;
    let sources = [
        ("polyeval_judge_def.cpp", OBSERVER.to_string()),
        (
            "polyeval_judge_inst.cpp",
            format!(
                "#include \"polyeval_judge.hpp\"\n{}",
                observe_instantiations("")
            ),
        ),
        (
            "polyeval_std_inst.cpp",
            format!("#define POLYEVAL_STD_INSTANTIATE\n#include \"{STD_EXTERN_HEADER}\"\n"),
        ),
    ];
    for (name, text) in &sources {
        std::fs::write(dir.join(name), text)?;
    }
    let mut argv = vec![GXX];
    argv.extend_from_slice(FLAGS);
    // Empty: out-of-line definitions of the non-template half (the other
    // two sources include the linked header, which has none).
    argv.extend_from_slice(&["-DPOLYEVAL_JUDGE_DEF=", "-c"]);
    argv.extend(sources.iter().map(|(name, _)| *name));
    host_command(&argv, dir, &[])?;
    let objects: Vec<String> = sources
        .iter()
        .map(|(name, _)| name.replace(".cpp", ".o"))
        .collect();
    let mut ar = vec!["ar", "rcs", "libpolyeval_judge.a"];
    ar.extend(objects.iter().map(String::as_str));
    host_command(&ar, dir, &[])?;
    for (name, _) in &sources {
        std::fs::remove_file(dir.join(name))?;
    }
    for object in &objects {
        std::fs::remove_file(dir.join(object))?;
    }
    Ok(())
}

/// Compile `header` (text) into a precompiled header `name` in `dir`.
fn build_pch(
    dir: &std::path::Path,
    name: &str,
    header: &str,
    extra: &[&str],
) -> anyhow::Result<()> {
    std::fs::write(dir.join(name), header)?;
    let gch = format!("{name}.gch");
    let mut argv = vec![GXX];
    argv.extend_from_slice(FLAGS);
    argv.extend_from_slice(extra);
    argv.extend_from_slice(&["-x", "c++-header", name, "-o", &gch]);
    host_command(&argv, dir, &[])
}

impl Toolchain for Cpp {
    fn binaries(&self) -> &'static [&'static str] {
        &[GXX]
    }
    fn install_hint(&self) -> &'static str {
        "apt-get install -y g++"
    }
    fn system_config(&self) -> &'static [&'static str] {
        &[]
    }
    fn hello_world(&self, marker: &str) -> String {
        format!("#include <iostream>\nint main() {{ std::cout << \"{marker}\" << std::endl; }}\n")
    }
    fn default_file_name(&self, _source: &str) -> String {
        s("main.cpp")
    }
    fn version_command(&self) -> Vec<String> {
        vec![s(GXX), s("--version")]
    }
    fn parse_version(&self, output: &str) -> String {
        first_line(output)
    }
    fn prepare(&self, cache_dir: &Path) -> anyhow::Result<ToolchainInfo> {
        let mut info = ToolchainInfo::new(Language::Cpp, detect_version_cached(self, cache_dir)?);
        // Everything the judge dir holds is built from these texts.
        let judge_text = judge_header();
        let judge: PathBuf = cache_dir.join(format!(
            "cpp-judge-{}",
            short_hash(&[&info.version, &FLAGS.join(" "), &judge_text, STD_EXTERN])
        ));
        build_asset_dir(&judge, build_judge)?;
        info.compile_binds
            .push((judge.clone(), PathBuf::from(JUDGE_DIR_INSIDE)));
        info.features.push(s("judge-prelude"));
        // gold links a MultiOOP program in ~17 ms where ld.bfd takes ~40
        // (measured on the dev machine; part of binutils, so always there on
        // Debian, but checked; POLYEVAL_NO_GOLD=1 keeps ld.bfd, for comparison).
        if Path::new(GOLD).is_file() && std::env::var_os("POLYEVAL_NO_GOLD").is_none() {
            info.features.push(s("gold"));
        }
        if std::env::var_os("POLYEVAL_NO_PCH").is_some() {
            return Ok(info);
        }
        // Both precompiled headers end with the libstdc++ instantiation
        // declarations (their definitions are in the judge archive, which
        // every program links).
        let headers: String = PCH_HEADERS
            .iter()
            .map(|h| format!("#include <{h}>\n"))
            .chain([format!("#include <{STD_EXTERN_HEADER}>\n")])
            .collect();
        let include = format!("-I{}", judge.display());
        let dir: PathBuf = cache_dir.join(format!(
            "cpp-pch-{}",
            short_hash(&[
                &info.version,
                &FLAGS.join(" "),
                &PCH_HEADERS.join(","),
                STD_EXTERN
            ])
        ));
        let built = build_asset_dir(&dir, |tmp| {
            build_pch(tmp, "polyeval_pch.h", &headers, &[&include])
        });
        info.add_optional_compile_dir(built, dir, PCH_DIR_INSIDE, "pch", "C++ precompiled header");
        let judge_pch: PathBuf = cache_dir.join(format!(
            "cpp-judge-pch-{}",
            short_hash(&[
                &info.version,
                &FLAGS.join(" "),
                &PCH_HEADERS.join(","),
                &judge_text,
                STD_EXTERN
            ])
        ));
        let built = build_asset_dir(&judge_pch, |tmp| {
            build_pch(
                tmp,
                "polyeval_judge_pch.h",
                &format!("{headers}{JUDGE_INCLUDE}\n"),
                &[&include],
            )
        });
        info.add_optional_compile_dir(
            built,
            judge_pch,
            JUDGE_PCH_DIR_INSIDE,
            "judge-pch",
            "C++ precompiled header with the judge prelude",
        );
        Ok(info)
    }
    fn compile_command(
        &self,
        file: &str,
        job: &Job,
        info: &ToolchainInfo,
        _: &Limits,
    ) -> Option<Vec<String>> {
        let mut argv = vec![s(GXX)];
        argv.extend(FLAGS.iter().map(|f| s(f)));
        if info.has_feature("gold") {
            argv.push(s("-fuse-ld=gold"));
        }
        let judged = job.source.starts_with(JUDGE_INCLUDE);
        if judged && info.has_feature("judge-pch") {
            argv.push(s("-include"));
            argv.push(format!("{JUDGE_PCH_DIR_INSIDE}/polyeval_judge_pch.h"));
        } else if info.has_feature("pch") {
            argv.push(s("-include"));
            argv.push(format!("{PCH_DIR_INSIDE}/polyeval_pch.h"));
        }
        argv.extend([
            format!("-I{JUDGE_DIR_INSIDE}"),
            inside(file),
            s("-o"),
            inside("prog"),
            // After the sources: the archive's members are pulled only for
            // symbols still undefined (a program without the judge links none).
            format!("{JUDGE_DIR_INSIDE}/libpolyeval_judge.a"),
        ]);
        Some(argv)
    }
    fn run_command(&self, _: &str, _: &Job, _: &ToolchainInfo, _: &Limits) -> Vec<String> {
        vec![inside("prog")]
    }
    fn env(&self, _: &Limits) -> Vec<(String, String)> {
        Vec::new()
    }
    fn warm_support(&self) -> Option<WarmSupport> {
        None
    }
    fn warm_runtime(&self, _: &ToolchainInfo, _: &Limits) -> Option<WarmRuntime> {
        None
    }
    fn warm_request(&self, _: &str, _: &Job, _: &ToolchainInfo, _: &Limits) -> String {
        String::new()
    }
    fn cold_stderr(&self, stderr: String) -> String {
        stderr
    }
    fn is_compile_error(&self, _: &str) -> bool {
        false
    }
    fn syntax_check_command(&self, file: &str) -> Option<Vec<String>> {
        Some(vec![
            s(GXX),
            s("-std=c++17"),
            s("-fsyntax-only"),
            s("-w"),
            inside(file),
        ])
    }
    fn is_assertion_failure(&self, stderr: &str) -> bool {
        stderr.contains("Assertion `") && stderr.contains("failed")
    }
    fn is_runtime_error(&self, stderr: &str) -> bool {
        stderr.contains("terminate called after throwing")
    }
    fn is_memory_exhaustion(&self, stderr: &str) -> bool {
        stderr.contains("std::bad_alloc")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn stdout(argv: &[&str], cwd: &Path) -> String {
        let out = Command::new(argv[0])
            .args(&argv[1..])
            .current_dir(cwd)
            .output()
            .expect("run");
        assert!(
            out.status.success(),
            "{argv:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Our own program, compiled on the host like the assets: the judge
    /// archive defines every `observe<T>` and libstdc++ template the headers
    /// declare extern (a mismatch would fail to link), a program instantiates
    /// neither itself but still instantiates a type not on the list, and the
    /// values come out as the judge expects.
    #[test]
    fn extern_instantiations_are_defined_once_in_the_archive() {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path();
        build_judge(d).expect("judge archive");
        let archive = stdout(&["nm", "-C", "--defined-only", "libpolyeval_judge.a"], d);
        let observed: std::collections::BTreeSet<&str> = archive
            .lines()
            .filter_map(|l| l.split_once(" W void polyeval_judge::observe<"))
            .map(|(_, rest)| rest)
            .collect();
        assert_eq!(observed.len(), PRE_INSTANTIATED.len(), "{observed:#?}");

        let program = format!(
            "#include <{STD_EXTERN_HEADER}>\n{JUDGE_INCLUDE}\n#include <cmath>\n#include <map>\n\
             int main() {{\n\
             polyeval_judge::observe(0, 7);\n\
             polyeval_judge::observe(1, std::vector<std::string>{{\"a\", \"b\"}});\n\
             polyeval_judge::observe(2, std::map<std::string, int>{{{{\"k\", 1}}}});\n\
             polyeval_judge::observe(3, std::stoi(\"42\") + std::stoll(\"-2\"));\n\
             polyeval_judge::observe(4, std::to_string(1.5));\n\
             polyeval_judge::observe(5, std::stod(\"2.5\"));\n\
             polyeval_judge::observe(6, std::cyl_bessel_jf(0.0f, 0.0f));\n\
             polyeval_judge::finish();\n}}\n"
        );
        std::fs::write(d.join("p.cpp"), program).expect("write");
        let mut argv = vec![GXX];
        argv.extend_from_slice(FLAGS);
        argv.extend_from_slice(&["-I.", "-c", "p.cpp", "-o", "p.o"]);
        stdout(&argv, d);
        let undefined = stdout(&["nm", "-C", "--undefined-only", "p.o"], d);
        let defined = stdout(&["nm", "-C", "--defined-only", "p.o"], d);
        for name in [
            "polyeval_judge::observe<int>(",
            "polyeval_judge::observe<std::vector<std::__cxx11::basic_string<",
            "__gnu_cxx::__stoa<long, int, char, int>(",
            "__gnu_cxx::__to_xstring<std::__cxx11::basic_string<",
            "std::__detail::__cyl_bessel_j<float>(",
        ] {
            assert!(
                undefined.contains(name),
                "{name} not external:\n{undefined}"
            );
            assert!(!defined.contains(name), "{name} instantiated:\n{defined}");
        }
        assert!(defined.contains("polyeval_judge::observe<std::map<"));

        let mut argv = vec![GXX];
        argv.extend_from_slice(FLAGS);
        argv.extend_from_slice(&["p.o", "-o", "p", "libpolyeval_judge.a"]);
        stdout(&argv, d);
        let records: Vec<String> = stdout(&["./p"], d)
            .lines()
            .filter_map(|l| l.strip_prefix("\x1epolyeval-judge "))
            .map(String::from)
            .collect();
        assert_eq!(
            records,
            [
                r#"{"t":0,"v":7}"#,
                r#"{"t":1,"v":["a","b"]}"#,
                r#"{"t":2,"v":{"map":[["k",1]]}}"#,
                r#"{"t":3,"v":40}"#,
                r#"{"t":4,"v":"1.500000"}"#,
                r#"{"t":5,"v":2.5}"#,
                r#"{"t":6,"v":1.0}"#,
                r#"{"end":null}"#,
            ]
        );
    }
}
