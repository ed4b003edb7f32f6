//! `polyeval setup gsl` (the library and `crates/gsl/build-gsl.sh` it runs):
//! idempotent, redone after kill -9, safe when run twice at once, with
//! progress events. A tiny GSL-shaped tarball written here (a `configure`,
//! a Makefile building two real shared libraries with the C compiler)
//! keeps these tests to seconds; the real GSL 2.8 build is checked last.

use polyeval_core::progress::{Event, Progress, Recorder};
use polyeval_gsl::setup::{setup, SetupOptions};
use std::io::BufRead;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

/// A GSL-shaped source tarball: `configure --prefix`, `make` printing one
/// `CC` line per file (two, as its `Makefile.am` says), `make install`
/// honouring DESTDIR. `make` appends a line to `builds` each time it links
/// libgsl, and first sleeps as many seconds as the file `slow` says, if it exists.
struct MiniGsl {
    _dir: tempfile::TempDir,
    tarball: PathBuf,
    builds: PathBuf,
    slow: PathBuf,
}

fn mini_gsl(version: &str) -> MiniGsl {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().join("gsl-2.8");
    std::fs::create_dir_all(top.join("sys")).unwrap();
    let builds = dir.path().join("builds");
    let slow = dir.path().join("slow");
    let write = |name: &str, text: &str| std::fs::write(top.join(name), text).unwrap();
    write(
        "configure",
        "#!/bin/sh\nprefix=/usr/local\nfor a in \"$@\"; do case $a in --prefix=*) prefix=${a#--prefix=} ;; esac; done\nsed \"s|@prefix@|$prefix|g\" Makefile.in > Makefile\n",
    );
    std::fs::set_permissions(
        top.join("configure"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    write(
        "Makefile.in",
        &format!(
            "prefix = @prefix@\n\
             all: libgsl.so libgslcblas.so\n\
             libgsl.so: gsl.c\n\
             \t@if [ -f {slow} ]; then sleep $$(cat {slow}); fi\n\
             \t@echo \"  CC       gsl.lo\"\n\
             \t@cc -shared -fPIC -o libgsl.so gsl.c\n\
             \t@echo built >> {builds}\n\
             libgslcblas.so: cblas.c\n\
             \t@echo \"  CC       cblas.lo\"\n\
             \t@cc -shared -fPIC -o libgslcblas.so cblas.c\n\
             install: all\n\
             \tmkdir -p $(DESTDIR)$(prefix)/lib $(DESTDIR)$(prefix)/include/gsl\n\
             \tcp libgsl.so $(DESTDIR)$(prefix)/lib/libgsl.so.28.0.0\n\
             \tln -s libgsl.so.28.0.0 $(DESTDIR)$(prefix)/lib/libgsl.so\n\
             \tcp libgslcblas.so $(DESTDIR)$(prefix)/lib/libgslcblas.so.0.0.0\n\
             \tln -s libgslcblas.so.0.0.0 $(DESTDIR)$(prefix)/lib/libgslcblas.so\n\
             \tcp gsl_version.h $(DESTDIR)$(prefix)/include/gsl/\n",
            slow = slow.display(),
            builds = builds.display()
        ),
    );
    write(
        "sys/Makefile.am",
        "libgslsys_la_SOURCES = gsl.c \\\n  cblas.c\n",
    );
    write(
        "gsl.c",
        &format!("const char *gsl_version = \"{version}\";\ndouble gsl_mini_add (double a, double b) {{ return a + b; }}\n"),
    );
    write("cblas.c", "float cblas_mini (void) { return 0; }\n");
    write(
        "gsl_version.h",
        &format!("#define GSL_VERSION \"{version}\"\n"),
    );
    let tarball = dir.path().join("mini-gsl.tar.gz");
    let status = Command::new("tar")
        .arg("-czf")
        .arg(&tarball)
        .arg("-C")
        .arg(dir.path())
        .arg("gsl-2.8")
        .status()
        .unwrap();
    assert!(status.success());
    MiniGsl {
        _dir: dir,
        tarball,
        builds,
        slow,
    }
}

fn builds(mini: &MiniGsl) -> usize {
    std::fs::read_to_string(&mini.builds)
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

fn options(mini: &MiniGsl, dest: &Path) -> SetupOptions {
    SetupOptions {
        source: Some(mini.tarball.clone()),
        dest: Some(dest.to_path_buf()),
        jobs: Some(2),
        force: false,
    }
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("build-gsl.sh")
}

#[test]
fn builds_once_reports_progress_then_reuses() {
    let mini = mini_gsl("2.8");
    let cache = tempfile::tempdir().unwrap();
    let dest = cache.path().join("gsl-2.8");
    let recorder = Arc::new(Recorder::default());
    let built = setup(&options(&mini, &dest), &Progress::new(recorder.clone())).unwrap();
    assert!(!built.reused);
    assert_eq!(built.version, "2.8", "read from the built library");
    assert_eq!(built.dir, dest);
    assert!(built.libgsl.starts_with(&dest) && built.libgsl.is_file());
    assert!(built.libgslcblas.is_file());
    let stamp: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dest.join("polyeval-gsl.json")).unwrap())
            .unwrap();
    assert_eq!(stamp["version"], "2.8");
    assert_eq!(stamp["source"], "mini-gsl.tar.gz");
    assert_eq!(stamp["jobs"], 2);

    let started: Vec<(String, Option<u64>)> = recorder
        .events()
        .into_iter()
        .filter_map(|e| match e {
            Event::Started { label, total, .. } => Some((label, total)),
            _ => None,
        })
        .collect();
    assert_eq!(
        started,
        [
            ("GSL 2.8: extract".to_string(), None),
            ("GSL 2.8: configure".to_string(), None),
            ("GSL 2.8: make -j2".to_string(), Some(2)),
            ("GSL 2.8: install".to_string(), None),
        ]
    );
    assert_eq!(
        recorder.items_advanced("GSL 2.8: make"),
        2,
        "one per compiled file"
    );
    assert_eq!(
        listing(cache.path()),
        ["gsl-2.8", "gsl-2.8.lock"],
        "no build directory left behind"
    );

    let again = setup(&options(&mini, &dest), &Progress::silent()).unwrap();
    assert!(again.reused);
    assert_eq!(builds(&mini), 1, "a complete build is reused, not rebuilt");
    // The script alone (as CI runs it) reuses it too.
    let out = Command::new("bash")
        .arg(script())
        .arg("--source")
        .arg(&mini.tarball)
        .arg("--dest")
        .arg(&dest)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("reusing the complete build"));

    let forced = setup(
        &SetupOptions {
            force: true,
            ..options(&mini, &dest)
        },
        &Progress::silent(),
    )
    .unwrap();
    assert!(!forced.reused);
    assert_eq!(builds(&mini), 2, "--force rebuilds");
    assert_eq!(listing(cache.path()), ["gsl-2.8", "gsl-2.8.lock"]);

    // A --force rebuild that fails leaves the working build in place.
    let older = mini_gsl("2.7.1");
    assert!(setup(
        &SetupOptions {
            force: true,
            ..options(&older, &dest)
        },
        &Progress::silent(),
    )
    .is_err());
    assert_eq!(
        setup(&options(&mini, &dest), &Progress::silent())
            .unwrap()
            .version,
        "2.8"
    );
    assert_eq!(builds(&mini), 2);
}

#[test]
fn a_build_killed_mid_make_is_detected_and_redone() {
    let mini = mini_gsl("2.8");
    let cache = tempfile::tempdir().unwrap();
    let dest = cache.path().join("gsl-2.8");
    std::fs::write(&mini.slow, "60").unwrap();
    let mut child = Command::new("bash")
        .arg(script())
        .arg("--source")
        .arg(&mini.tarball)
        .arg("--dest")
        .arg(&dest)
        .stdout(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    for line in stdout.lines() {
        if line.unwrap().starts_with("build-gsl: make") {
            break;
        }
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    // kill -9 the whole build (the script, make and the compiler).
    nix::sys::signal::killpg(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    child.wait().unwrap();
    assert!(!dest.exists(), "a killed build never appears complete");
    let leftovers: Vec<String> = listing(cache.path())
        .into_iter()
        .filter(|n| n.starts_with(".gsl-2.8.build."))
        .collect();
    assert_eq!(leftovers.len(), 1, "{:?}", listing(cache.path()));

    std::fs::remove_file(&mini.slow).unwrap();
    let recorder = Arc::new(Recorder::default());
    let built = setup(&options(&mini, &dest), &Progress::new(recorder.clone())).unwrap();
    assert!(!built.reused);
    assert_eq!(builds(&mini), 1);
    assert_eq!(listing(cache.path()), ["gsl-2.8", "gsl-2.8.lock"]);
}

#[test]
fn an_incomplete_build_directory_is_replaced() {
    let mini = mini_gsl("2.8");
    let cache = tempfile::tempdir().unwrap();
    let dest = cache.path().join("gsl-2.8");
    // Libraries but no stamp: e.g. copied by hand, or left by an older tool.
    std::fs::create_dir_all(dest.join("lib")).unwrap();
    std::fs::write(dest.join("lib/libgsl.so"), "not a library").unwrap();
    std::fs::write(dest.join("lib/libgslcblas.so"), "not a library").unwrap();
    let recorder = Arc::new(Recorder::default());
    let built = setup(&options(&mini, &dest), &Progress::new(recorder.clone())).unwrap();
    assert!(!built.reused);
    assert_eq!(built.version, "2.8");
    assert!(recorder.events().iter().any(
        |e| matches!(e, Event::Note { text, .. } if text.contains("removing the incomplete build"))
    ));
}

#[test]
fn two_setups_at_once_build_once() {
    let mini = mini_gsl("2.8");
    let cache = tempfile::tempdir().unwrap();
    let dest = cache.path().join("gsl-2.8");
    std::fs::write(&mini.slow, "2").unwrap();
    let results: Vec<_> = std::thread::scope(|s| {
        let a = s.spawn(|| setup(&options(&mini, &dest), &Progress::silent()));
        let b = s.spawn(|| setup(&options(&mini, &dest), &Progress::silent()));
        vec![a.join().unwrap(), b.join().unwrap()]
    });
    let results: Vec<_> = results.into_iter().map(Result::unwrap).collect();
    assert_eq!(
        builds(&mini),
        1,
        "the second setup waited and reused the first's build"
    );
    assert_eq!(
        results.iter().filter(|r| r.reused).count(),
        1,
        "exactly one of them built"
    );
    assert!(results.iter().all(|r| r.version == "2.8"));
    assert_eq!(listing(cache.path()), ["gsl-2.8", "gsl-2.8.lock"]);
}

#[test]
fn wrong_or_missing_sources_are_clear_errors() {
    let cache = tempfile::tempdir().unwrap();
    let dest = cache.path().join("gsl-2.8");
    let missing = cache.path().join("nowhere/gsl-2.8.tar.gz");
    let e = setup(
        &SetupOptions {
            source: Some(missing.clone()),
            dest: Some(dest.clone()),
            ..SetupOptions::default()
        },
        &Progress::silent(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains(&missing.display().to_string()) && e.contains("--source"),
        "{e}"
    );

    let older = mini_gsl("2.7.1");
    let e = format!(
        "{:#}",
        setup(&options(&older, &dest), &Progress::silent()).unwrap_err()
    );
    assert!(e.contains("is GSL '2.7.1', not 2.8"), "{e}");
    assert!(!dest.exists());
    assert!(
        cache.path().join("gsl-2.8-build.log").is_file(),
        "the failed build's log is kept"
    );
    assert!(!listing(cache.path())
        .iter()
        .any(|n| n.starts_with(".gsl-2.8.build.")));

    // A later good build clears the failed one's log.
    let good = mini_gsl("2.8");
    setup(&options(&good, &dest), &Progress::silent()).unwrap();
    assert_eq!(listing(cache.path()), ["gsl-2.8", "gsl-2.8.lock"]);
}

/// The real thing: GSL 2.8 built from the shared tarball into polyeval's
/// cache (by `polyeval setup gsl` or, in CI, `scripts/install-deps.sh`,
/// which runs the same script) is complete, verified and reused.
#[test]
fn the_cached_gsl_2_8_build_is_reused() {
    let tarball = polyeval_core::data::shared_test_data().join("gsl/gsl_2.8+dfsg.orig.tar.gz");
    assert!(
        polyeval_gsl::cached_build().is_some(),
        "GSL 2.8 is not built in polyeval's cache ({}): run `polyeval setup gsl --source {}` \
         (scripts/install-deps.sh does it for CI)",
        polyeval_gsl::cached_build_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|| "disabled".into()),
        tarball.display()
    );
    let build = setup(
        &SetupOptions {
            source: Some(tarball),
            ..SetupOptions::default()
        },
        &Progress::silent(),
    )
    .unwrap();
    assert!(build.reused && build.seconds < 10.0, "{build:?}");
    assert_eq!(build.version, "2.8");
    assert!(build.exported_symbols > 5000, "{build:?}");
    let gsl = polyeval_gsl::GslInstall::discover(None).unwrap();
    assert_eq!(gsl.origin, polyeval_gsl::GslOrigin::Cache);
    assert_eq!(gsl.libgsl, build.libgsl, "evaluation uses the cached build");
    assert!(gsl.exports("gsl_integration_lebedev_alloc"));
}
