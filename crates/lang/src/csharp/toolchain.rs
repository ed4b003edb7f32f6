//! C# on mono: `mcs -d:DEBUG -d:TRACE` so `Debug.Assert` is compiled in, run
//! through a small launcher (built once per engine) that replaces the trace
//! listeners with one that fails hard: mono's default listener only prints on
//! a failed `Debug.Assert` and the program would go on and exit 0. The
//! launcher also turns an uncaught exception into exit code 1 with mono's
//! usual "Unhandled Exception:" report.
//!
//! Beside the launcher sits the judge's observer class (`OBSERVER`,
//! the C# prelude) compiled once into `polyeval_judge.dll`: every compile references
//! it and the launcher's directory is where mono finds it at run time, so
//! judged programs call `PolyevalJudge` without carrying its source. A job's
//! `entry_class` is compiled as the entry point (`-main:`), so a solution's
//! own `Main` is not a second one.

use super::{CSharp, OBSERVER};
use crate::toolchain::prepare::{
    build_asset_dir, detect_version_cached, first_line, host_command, short_hash,
};
use crate::toolchain::{
    inside, s, Job, Limits, Toolchain, ToolchainInfo, WarmMode, WarmRuntime, WarmSupport,
};
use crate::Language;
use std::path::{Path, PathBuf};

const MCS: &str = "/usr/bin/mcs";
const MONO: &str = "/usr/bin/mono";
const LAUNCHER_INSIDE: &str = "/polyeval/cs";
/// Where the warm worker's compile server is (warm workers only).
const WARM_INSIDE: &str = "/polyeval/cs-warm";
/// The warm worker's runtime: mcs in-process, one compile per request.
const WARM_WORKER_SRC: &str = include_str!("PolyevalWarmCSharp.cs");

const LAUNCHER_SRC: &str = r#"
using System;
using System.Diagnostics;
using System.Reflection;

class PolyevalFailListener : TraceListener {
    public override void Write(string message) { }
    public override void WriteLine(string message) { }
    public override void Fail(string message) { Fail(message, null); }
    public override void Fail(string message, string detail) {
        try { Console.Out.Flush(); } catch { }
        Console.Error.WriteLine("Debug.Assert failed: " + (message ?? "") + (detail != null ? " " + detail : ""));
        Console.Error.WriteLine(new StackTrace(1, true).ToString());
        Console.Error.Flush();
        Environment.Exit(1);
    }
}

static class PolyevalLauncher {
    // Trace.Listeners reads machine.config through System.Configuration on
    // first use (~45 ms of every run); with the settings marked initialized
    // the list is set up without it. Any surprise: the documented way.
    static void InstallFailListener() {
        var listener = new PolyevalFailListener();
        try {
            Type internals = typeof(Trace).Assembly.GetType("System.Diagnostics.TraceInternal", true);
            const BindingFlags flags = BindingFlags.NonPublic | BindingFlags.Static;
            internals.GetField("settingsInitialized", flags).SetValue(null, true);
            var list = (TraceListenerCollection)Activator.CreateInstance(typeof(TraceListenerCollection), true);
            list.Add(listener);
            internals.GetField("listeners", flags).SetValue(null, list);
            if (Trace.Listeners.Count == 1 && Trace.Listeners[0] == listener) return;
        } catch (Exception) { }
        Trace.Listeners.Clear();
        Trace.Listeners.Add(listener);
    }

    static int Main(string[] args) {
        InstallFailListener();
        Assembly program = Assembly.LoadFrom(args[0]);
        MethodInfo entry = program.EntryPoint;
        if (entry == null) { Console.Error.WriteLine("error: the program has no Main method"); return 1; }
        string[] rest = new string[args.Length - 1];
        Array.Copy(args, 1, rest, 0, rest.Length);
        object[] parameters = entry.GetParameters().Length == 0 ? null : new object[] { rest };
        try {
            object result = entry.Invoke(null, parameters);
            Console.Out.Flush();
            return result is int ? (int)result : 0;
        } catch (TargetInvocationException e) {
            try { Console.Out.Flush(); } catch { }
            Console.Error.WriteLine("Unhandled Exception:");
            Console.Error.WriteLine(e.InnerException != null ? e.InnerException.ToString() : e.ToString());
            return 1;
        }
    }
}
"#;

impl Toolchain for CSharp {
    fn binaries(&self) -> &'static [&'static str] {
        &[MCS, MONO]
    }
    fn install_hint(&self) -> &'static str {
        "apt-get install -y mono-mcs mono-runtime"
    }
    fn system_config(&self) -> &'static [&'static str] {
        &["/etc/mono"]
    }
    fn hello_world(&self, marker: &str) -> String {
        format!("class P {{ static void Main() {{ System.Console.WriteLine(\"{marker}\"); }} }}\n")
    }
    fn default_file_name(&self, _source: &str) -> String {
        s("Program.cs")
    }
    fn version_command(&self) -> Vec<String> {
        vec![s(MONO), s("--version")]
    }
    fn parse_version(&self, output: &str) -> String {
        first_line(output)
    }
    fn prepare(&self, cache_dir: &Path) -> anyhow::Result<ToolchainInfo> {
        let mut info =
            ToolchainInfo::new(Language::CSharp, detect_version_cached(self, cache_dir)?);
        let dir: PathBuf = cache_dir.join(format!(
            "cs-launcher-{}",
            short_hash(&[&info.version, LAUNCHER_SRC, OBSERVER])
        ));
        build_asset_dir(&dir, |tmp| {
            std::fs::write(tmp.join("launcher.cs"), LAUNCHER_SRC)?;
            host_command(&[MCS, "-out:launcher.exe", "launcher.cs"], tmp, &[])?;
            std::fs::write(tmp.join("judge.cs"), OBSERVER)?;
            host_command(
                &[
                    MCS,
                    "-target:library",
                    "-r:System.Numerics",
                    "-out:polyeval_judge.dll",
                    "judge.cs",
                ],
                tmp,
                &[],
            )?;
            std::fs::remove_file(tmp.join("launcher.cs"))?;
            std::fs::remove_file(tmp.join("judge.cs"))?;
            Ok(())
        })?;
        info.add_support_dir(dir, LAUNCHER_INSIDE, "assert-launcher");
        let warm: PathBuf = cache_dir.join(format!(
            "cs-warm-{}",
            short_hash(&[&info.version, WARM_WORKER_SRC])
        ));
        build_asset_dir(&warm, |tmp| {
            std::fs::write(tmp.join("warm.cs"), WARM_WORKER_SRC)?;
            host_command(&[MCS, "-out:PolyevalWarmCSharp.exe", "warm.cs"], tmp, &[])?;
            std::fs::remove_file(tmp.join("warm.cs"))?;
            Ok(())
        })?;
        info.warm_binds.push((warm, PathBuf::from(WARM_INSIDE)));
        Ok(info)
    }
    /// mcs in the worker's runtime; the entry class is part of each
    /// request's compile arguments.
    fn warm_support(&self) -> Option<WarmSupport> {
        Some(WarmSupport {
            mode: WarmMode::Runtime,
            entry_class: true,
        })
    }
    /// mcs loaded once in a mono process; each sample still runs in its own
    /// `mono` process (the cold run's command), so none shares a runtime.
    fn warm_runtime(&self, _: &ToolchainInfo, _: &Limits) -> Option<WarmRuntime> {
        Some(WarmRuntime {
            argv: vec![
                s(MONO),
                // No attach agent: no sample may load code into it.
                s("--attach=disable"),
                format!("{WARM_INSIDE}/PolyevalWarmCSharp.exe"),
                s("/tmp/polyeval-warm-up"),
            ],
            runs_samples: false,
        })
    }
    /// The compile step's mcs arguments.
    fn warm_request(&self, file: &str, job: &Job, info: &ToolchainInfo, limits: &Limits) -> String {
        let argv = self
            .compile_command(file, job, info, limits)
            .unwrap_or_default();
        argv[1..].join("\t")
    }
    fn compile_command(
        &self,
        file: &str,
        job: &Job,
        _: &ToolchainInfo,
        _: &Limits,
    ) -> Option<Vec<String>> {
        let mut argv = vec![
            s(MCS),
            s("-d:DEBUG"),
            s("-d:TRACE"),
            s("-r:System.Numerics"),
            format!("-r:{LAUNCHER_INSIDE}/polyeval_judge.dll"),
        ];
        if let Some(entry) = &job.entry_class {
            argv.push(format!("-main:{entry}"));
        }
        argv.extend([format!("-out:{}", inside("prog.exe")), inside(file)]);
        Some(argv)
    }
    fn run_command(&self, _: &str, _: &Job, _: &ToolchainInfo, _: &Limits) -> Vec<String> {
        vec![
            s(MONO),
            format!("{LAUNCHER_INSIDE}/launcher.exe"),
            inside("prog.exe"),
        ]
    }
    fn env(&self, limits: &Limits) -> Vec<(String, String)> {
        vec![(
            s("MONO_GC_PARAMS"),
            format!("max-heap-size={}m", (limits.memory_mb / 2).max(64)),
        )]
    }
    fn cold_stderr(&self, stderr: String) -> String {
        stderr
    }
    fn syntax_check_command(&self, _: &str) -> Option<Vec<String>> {
        None
    }
    fn is_compile_error(&self, _: &str) -> bool {
        false
    }
    fn is_assertion_failure(&self, stderr: &str) -> bool {
        stderr.contains("Debug.Assert failed:")
    }
    fn is_runtime_error(&self, stderr: &str) -> bool {
        stderr.contains("Unhandled Exception")
    }
    fn is_memory_exhaustion(&self, stderr: &str) -> bool {
        stderr.contains("OutOfMemoryException") || stderr.contains("Out of memory")
    }
}
