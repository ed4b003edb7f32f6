//! Adversarial programs: each must be contained and reported correctly, with
//! the host unharmed and no process left behind.

mod common;
use common::*;
use polyeval_lang::{status::Status, Language};
use std::io::Write;
use std::time::{Duration, Instant};

fn unique(tag: &str) -> String {
    let n: u64 = rand::random();
    format!("{tag}_{n:016x}")
}

/// Wait briefly for processes mentioning `token` to vanish; fail if any stay.
fn assert_no_process_left(token: &str) {
    let until = Instant::now() + Duration::from_secs(3);
    loop {
        let left = processes_mentioning(token);
        if left.is_empty() {
            return;
        }
        assert!(Instant::now() < until, "processes left behind: {left:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn fork_bomb_is_contained() {
    let name = unique("forkbomb");
    let mut job = job(
        Language::Python,
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
    );
    job.file_name = Some(format!("{name}.py"));
    job.limits = Some(polyeval_lang::toolchain::Limits {
        max_processes: 64,
        ..limits(3)
    });
    let start = Instant::now();
    let o = run_job(job);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "took {:?}",
        start.elapsed()
    );
    assert!(
        matches!(
            o.status,
            Status::Timeout | Status::RuntimeError | Status::Failed
        ),
        "{}",
        describe(&o)
    );
    assert_no_process_left(&name);
}

#[test]
fn infinite_loop_times_out() {
    let mut job = job(Language::Python, "while True:\n    pass\n");
    job.limits = Some(limits(1));
    let o = run_job(job);
    assert_eq!(o.status, Status::Timeout, "{}", describe(&o));
    assert!(o.run_ms < 3000, "{}", describe(&o));
}

#[test]
fn cpu_limit_stops_a_busy_program_before_the_wall_clock() {
    let mut job = job(
        Language::Cpp,
        "int main() { volatile unsigned long x = 0; for (;;) x++; }\n",
    );
    job.limits = Some(polyeval_lang::toolchain::Limits {
        cpu_secs: 1,
        ..limits(20)
    });
    let o = run_job(job);
    assert_eq!(o.status, Status::Timeout, "{}", describe(&o));
    // Stopped by the kernel at the CPU limit (the wall clock's timeout
    // reports no signal), however slowly a loaded machine got it there.
    assert_eq!(o.signal, Some(nix::libc::SIGXCPU), "{}", describe(&o));
    assert!(o.run_ms < 20_000, "{}", describe(&o));
}

/// The CPU limit's signal sent by the program itself, after some CPU time but
/// well short of the limit, is not a timeout.
#[test]
fn a_sigxcpu_sent_before_the_cpu_limit_is_not_a_timeout() {
    let mut job = job(
        Language::Python,
        "import os, signal, time\nwhile time.process_time() < 0.4:\n    pass\nos.kill(os.getpid(), signal.SIGXCPU)\n",
    );
    job.limits = Some(polyeval_lang::toolchain::Limits {
        cpu_secs: 1,
        ..limits(20)
    });
    let o = run_job(job);
    assert_eq!(o.status, Status::KilledBySignal, "{}", describe(&o));
    assert_eq!(o.signal, Some(nix::libc::SIGXCPU), "{}", describe(&o));
}

#[test]
fn memory_hogs_are_memory_exceeded() {
    let cases = [
        (Language::Python, "chunks = []\nwhile True:\n    chunks.append(bytearray(50 * 1024 * 1024))\n"),
        (Language::Cpp, "#include <vector>\n#include <cstdio>\nint main() { std::vector<std::vector<char>> v; for (;;) v.emplace_back(50u << 20, 'x'); }\n"),
        (Language::Java, "import java.util.*;\npublic class Main { public static void main(String[] a) { List<long[]> l = new ArrayList<>(); for (;;) l.add(new long[1 << 22]); } }\n"),
        (Language::JavaScript, "const a = [];\nfor (;;) a.push(new Array(1 << 20).fill(1.5));\n"),
    ];
    for (language, src) in cases {
        let mut job = job(language, src);
        job.limits = Some(polyeval_lang::toolchain::Limits {
            memory_mb: 512,
            ..limits(20)
        });
        let o = run_job(job);
        assert_eq!(
            o.status,
            Status::MemoryExceeded,
            "{language}: {}",
            describe(&o)
        );
    }
}

#[test]
fn daemonised_grandchild_does_not_outlive_the_run() {
    let name = unique("daemon");
    let src = "import os, time, sys\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(60)\n        sys.exit(0)\n    os._exit(0)\nprint('{M}')\n";
    let mut job = job(Language::Python, src);
    job.file_name = Some(format!("{name}.py"));
    let start = Instant::now();
    let o = run_job(job);
    assert_eq!(o.status, Status::Passed, "{}", describe(&o));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "waited for the grandchild: {:?}",
        start.elapsed()
    );
    assert_no_process_left(&name);
}

#[test]
fn writing_outside_the_work_dir_leaves_the_host_unchanged() {
    let mut victim = tempfile::NamedTempFile::new().unwrap();
    victim.write_all(b"original").unwrap();
    victim.flush().unwrap();
    let victim_path = victim.path().display().to_string();
    let checkout = format!("{}/Cargo.toml", env!("CARGO_MANIFEST_DIR"));
    let before_checkout = std::fs::read(&checkout).unwrap();
    let src = format!(
        "results = []\nfor p in [{victim_path:?}, {checkout:?}, '/usr/polyeval_owned', '/etc/polyeval_owned', '/root/polyeval_owned']:\n    try:\n        with open(p, 'w') as f:\n            f.write('owned')\n        results.append('wrote ' + p)\n    except OSError as e:\n        results.append('blocked')\nwith open('/sandbox/ok.txt', 'w') as f:\n    f.write('fine')\nprint(results)\nprint('{{M}}')\n"
    );
    let o = run(Language::Python, &src);
    assert_eq!(o.status, Status::Passed, "{}", describe(&o));
    assert_eq!(std::fs::read(victim.path()).unwrap(), b"original");
    assert_eq!(std::fs::read(&checkout).unwrap(), before_checkout);
    for p in [
        "/usr/polyeval_owned",
        "/etc/polyeval_owned",
        "/root/polyeval_owned",
    ] {
        assert!(
            !std::path::Path::new(p).exists(),
            "{p} was created on the host"
        );
    }
    // Writes that "succeeded" landed in the sandbox's own tmpfs root, never the host.
    assert!(
        !o.stdout.contains("wrote /usr") && !o.stdout.contains("wrote /etc"),
        "{}",
        describe(&o)
    );
}

#[test]
fn host_data_is_not_visible() {
    let store = tempfile::tempdir().unwrap();
    std::fs::write(store.path().join("run.sqlite"), b"secret").unwrap();
    let paths = [
        env!("CARGO_MANIFEST_DIR").to_string(),
        "/work".to_string(),
        "/root".to_string(),
        "/home".to_string(),
        store.path().join("run.sqlite").display().to_string(),
    ];
    let list = paths
        .iter()
        .map(|p| format!("{p:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    let src = format!(
        "import os\nfor p in [{list}]:\n    try:\n        print(p, 'VISIBLE', os.listdir(p) if os.path.isdir(p) else open(p).read())\n    except OSError:\n        print(p, 'hidden')\nprint('{{M}}')\n"
    );
    let o = run(Language::Python, &src);
    assert_eq!(o.status, Status::Passed, "{}", describe(&o));
    for p in &paths {
        assert!(
            o.stdout.contains(&format!("{p} hidden")),
            "{p} visible: {}",
            describe(&o)
        );
    }
}

#[test]
fn no_network_to_host_loopback_or_outside() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let src = format!(
        "import socket\nfor addr in [('127.0.0.1', {port}), ('1.1.1.1', 53), ('8.8.8.8', 443)]:\n    s = socket.socket()\n    s.settimeout(2)\n    try:\n        s.connect(addr)\n        print(addr, 'CONNECTED')\n    except OSError as e:\n        print(addr, 'failed', e)\nprint('{{M}}')\n"
    );
    let o = run(Language::Python, &src);
    assert_eq!(o.status, Status::Passed, "{}", describe(&o));
    assert!(!o.stdout.contains("CONNECTED"), "{}", describe(&o));
    assert_eq!(o.stdout.matches("failed").count(), 3, "{}", describe(&o));
    assert!(
        listener.accept().is_err(),
        "the host listener got a connection"
    );
}

#[test]
fn gigabyte_of_output_is_cut_off_fast() {
    let src = "import sys\nchunk = b'x' * (1 << 20)\nfor _ in range(1024):\n    sys.stdout.buffer.write(chunk)\n";
    let mut job = job(Language::Python, src);
    job.limits = Some(limits(30));
    let start = Instant::now();
    let o = run_job(job);
    assert_eq!(o.status, Status::OutputExceeded, "{}", describe(&o));
    assert!(o.stdout_truncated);
    assert_eq!(
        o.stdout.len(),
        polyeval_lang::toolchain::Limits::default().output_bytes
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn cpp_crashes_are_killed_by_signal() {
    let recursion = "int f(int n) { volatile char buf[1024]; buf[0] = (char)n; return f(n + 1) + buf[0]; }\nint main() { return f(0); }\n";
    let null = "int main() { volatile int *p = nullptr; *p = 1; return 0; }\n";
    for src in [recursion, null] {
        let o = run(Language::Cpp, src);
        assert_eq!(o.status, Status::KilledBySignal, "{}", describe(&o));
        assert_eq!(o.signal, Some(nix::libc::SIGSEGV), "{}", describe(&o));
        assert_eq!(o.signal_name().as_deref(), Some("SIGSEGV"));
    }
}

#[test]
fn big_files_hit_the_file_size_limit() {
    // C++ gets SIGXFSZ ...
    let src = "#include <cstdio>\n#include <vector>\nint main() { std::vector<char> mb(1 << 20, 'x'); FILE *f = fopen(\"/sandbox/big\", \"wb\"); for (int i = 0; i < 200; i++) fwrite(mb.data(), 1, mb.size(), f); fclose(f); }\n";
    let mut job = job(Language::Cpp, src);
    job.limits = Some(polyeval_lang::toolchain::Limits {
        file_size_mb: 8,
        ..limits(20)
    });
    let o = run_job(job);
    assert_eq!(o.status, Status::OutputExceeded, "{}", describe(&o));
    assert_eq!(o.signal, Some(nix::libc::SIGXFSZ));
    // ... Python ignores SIGXFSZ and sees EFBIG instead.
    let src = "with open('/sandbox/big', 'wb') as f:\n    for _ in range(200):\n        f.write(b'x' * (1 << 20))\nprint('{M}')\n";
    let mut job = common::job(Language::Python, src);
    job.limits = Some(polyeval_lang::toolchain::Limits {
        file_size_mb: 8,
        ..limits(20)
    });
    let o = run_job(job);
    assert_eq!(o.status, Status::RuntimeError, "{}", describe(&o));
    assert!(o.stderr.contains("File too large"), "{}", describe(&o));
}

/// A bind whose target lies under a read-only system dir and doesn't exist
/// there (the CrossPL-FFI layout) works, and the rest of that dir stays visible.
#[test]
fn ro_bind_under_read_only_system_dir() {
    let gsl = polyeval_gsl::find(None).expect("GSL installed (apt-get install libgsl-dev)");
    let src = "import ctypes, os\ncblas = ctypes.CDLL('/usr/local/gsl/lib/libgslcblas.so', mode=ctypes.RTLD_GLOBAL)\nlib = ctypes.CDLL('/usr/local/gsl/lib/libgsl.so')\nlib.gsl_sf_bessel_J0.restype = ctypes.c_double\nlib.gsl_sf_bessel_J0.argtypes = [ctypes.c_double]\nprint(round(lib.gsl_sf_bessel_J0(5.0), 6))\nprint(sorted(os.listdir('/usr/local/gsl/lib')))\nprint(os.path.isdir('/usr/local/bin') == EXPECT_BIN)\nprint('{M}')\n"
        .replace("EXPECT_BIN", if std::path::Path::new("/usr/local/bin").is_dir() { "True" } else { "False" });
    let mut job = job(Language::Python, &src);
    job.ro_binds = vec![
        (gsl.libgsl.clone(), "/usr/local/gsl/lib/libgsl.so".into()),
        (
            gsl.libgslcblas.clone(),
            "/usr/local/gsl/lib/libgslcblas.so".into(),
        ),
    ];
    let o = run_job(job);
    assert_eq!(o.status, Status::Passed, "{}", describe(&o));
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines[0], "-0.177597", "{}", describe(&o));
    assert_eq!(lines[1], "['libgsl.so', 'libgslcblas.so']");
    assert_eq!(lines[2], "True", "/usr/local lost its other entries");
}

/// The sandbox runs as an unprivileged uid with a minimal environment.
#[test]
fn minimal_environment_and_identity() {
    let o = run(
        Language::Python,
        "import os\nprint(os.getcwd())\nprint(sorted(os.environ))\nprint(os.getuid() != 0)\nprint('{M}')\n",
    );
    assert_eq!(o.status, Status::Passed, "{}", describe(&o));
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines[0], "/sandbox");
    assert!(
        !lines[1].contains("CARGO"),
        "host environment leaked: {}",
        lines[1]
    );
    assert_eq!(lines[2], "True", "sandboxed program runs as root");
}

/// The same containment holds when polyeval runs as an ordinary user: when
/// the tests run as root, this re-runs `inner_ordinary_user` from this test
/// binary as uid 65534.
#[test]
fn works_as_an_ordinary_user() {
    if !nix::unistd::geteuid().is_root() {
        // Already unprivileged: the inner test runs directly in this process.
        return inner_checks();
    }
    let exe = std::env::current_exe().unwrap();
    let cache = tempfile::tempdir().unwrap();
    std::os::unix::fs::chown(cache.path(), Some(65534), Some(65534)).unwrap();
    let out = std::process::Command::new("setpriv")
        .args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
        .arg(&exe)
        .args([
            "--exact",
            "inner_ordinary_user",
            "--include-ignored",
            "--test-threads",
            "1",
        ])
        .env("POLYEVAL_TEST_INNER", "1")
        .env("POLYEVAL_SANDBOX_CACHE", cache.path().join("c"))
        .env("TMPDIR", "/tmp")
        .output()
        .expect("setpriv (util-linux) runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success() && text.contains("1 passed"), "{text}");
}

#[test]
#[ignore = "run by works_as_an_ordinary_user under an unprivileged uid"]
fn inner_ordinary_user() {
    assert!(
        std::env::var_os("POLYEVAL_TEST_INNER").is_some(),
        "run through works_as_an_ordinary_user"
    );
    inner_checks();
}

fn inner_checks() {
    assert!(!nix::unistd::geteuid().is_root());
    let o = run(
        Language::Python,
        "import os\nprint(os.getuid())\nprint('{M}')\n",
    );
    assert_eq!(o.status, Status::Passed, "{}", describe(&o));
    let name = unique("userbomb");
    let mut job = job(
        Language::Python,
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
    );
    job.file_name = Some(format!("{name}.py"));
    job.limits = Some(polyeval_lang::toolchain::Limits {
        max_processes: 64,
        ..limits(2)
    });
    let o = run_job(job);
    assert!(
        matches!(
            o.status,
            Status::Timeout | Status::RuntimeError | Status::Failed
        ),
        "{}",
        describe(&o)
    );
    assert_no_process_left(&name);
    let mut job = common::job(Language::Python, "while True:\n    pass\n");
    job.limits = Some(limits(1));
    assert_eq!(run_job(job).status, Status::Timeout);
}

/// Job cgroups of this test process still present under the mechanism's
/// parent dirs (they must all be removed after each run).
fn leftover_job_cgroups(pid: u32) -> Vec<std::path::PathBuf> {
    use polyeval_sandbox::MemoryMechanism;
    let parents: Vec<std::path::PathBuf> = match engine().memory_mechanism() {
        MemoryMechanism::CgroupV1 {
            parent,
            pids_parent,
        } => std::iter::once(parent.clone())
            .chain(pids_parent.clone())
            .collect(),
        MemoryMechanism::CgroupV2 { parent, .. } => vec![parent.clone()],
        MemoryMechanism::Rlimit { .. } => Vec::new(),
    };
    let prefix = format!("polyeval-{pid}-");
    parents
        .iter()
        .flat_map(|p| std::fs::read_dir(p).unwrap().flatten())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect()
}

/// As root on this kind of machine a cgroup must be in use: otherwise the
/// resident-memory tests below would silently test nothing.
fn assert_cgroup_in_use() {
    let mechanism = engine().memory_mechanism();
    if nix::unistd::geteuid().is_root() && std::env::var_os("POLYEVAL_SANDBOX_NO_CGROUP").is_none()
    {
        assert!(
            mechanism.uses_cgroup(),
            "running as root but no memory cgroup: {mechanism}"
        );
    }
}

/// Programs that really touch memory are stopped at the limit (resident
/// memory with the cgroup), far below the host's memory, and nothing of the
/// job's cgroup is left afterwards.
#[test]
fn touching_memory_hogs_stop_at_the_limit() {
    assert_cgroup_in_use();
    let cases = [
        (Language::Python, "chunks = []\nwhile True:\n    chunks.append(bytearray(64 * 1024 * 1024))\n"),
        (Language::Cpp, "#include <cstdlib>\n#include <cstring>\n#include <new>\nint main() { for (;;) { char* p = (char*)std::malloc(64u << 20); if (!p) throw std::bad_alloc(); std::memset(p, 1, 64u << 20); } }\n"),
    ];
    for (language, src) in cases {
        let mut job = job(language, src);
        job.limits = Some(polyeval_lang::toolchain::Limits {
            memory_mb: 256,
            ..limits(20)
        });
        let start = Instant::now();
        let o = run_job(job);
        assert_eq!(
            o.status,
            Status::MemoryExceeded,
            "{language}: {}",
            describe(&o)
        );
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "{language}: slow"
        );
    }
}

/// Reserving 16 GiB (malloc in C++, mmap in Python) without touching it
/// (like CrossPL-FFI task 38's GSL spline) passes with a 512 MiB limit when resident memory is what counts.
#[test]
fn untouched_reservations_pass_with_a_cgroup() {
    assert_cgroup_in_use();
    // Without a cgroup RLIMIT_DATA counts the reservation: the program must
    // fail instead.
    let cgroup = engine().memory_mechanism().uses_cgroup();
    let cases = [
        (Language::Cpp, "#include <cstdio>\n#include <cstdlib>\nint main() {\n  char* p = (char*)std::malloc(16ul << 30);\n  if (!p) return 2;\n  p[0] = 1; p[(16ul << 30) - 1] = 2;\n  std::puts(\"{M}\");\n}\n"),
        (Language::Python, "import mmap\nm = mmap.mmap(-1, 16 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)\nm[0] = 1\nm[len(m) - 1] = 2\nprint('{M}')\n"),
    ];
    for (language, src) in cases {
        let mut job = job(language, src);
        job.limits = Some(polyeval_lang::toolchain::Limits {
            memory_mb: 512,
            ..limits(20)
        });
        let o = run_job(job);
        if cgroup {
            assert_eq!(o.status, Status::Passed, "{language}: {}", describe(&o));
        } else {
            assert_ne!(o.status, Status::Passed, "{language}: {}", describe(&o));
            assert!(!o.marker_seen, "{language}: {}", describe(&o));
        }
    }
}

/// Every job cgroup is removed after its run, whatever the program did (OOM
/// kill, fork bomb, daemonised grandchild, timeout). Checked in a child test
/// process that runs its jobs one at a time, so no concurrent job of another
/// test can own a cgroup at the moment of the check.
#[test]
fn job_cgroups_are_removed_after_each_run() {
    assert_cgroup_in_use();
    let exe = std::env::current_exe().unwrap();
    let mut child = std::process::Command::new(exe)
        .args([
            "--exact",
            "inner_cgroup_cleanup",
            "--include-ignored",
            "--test-threads",
            "1",
        ])
        .env("POLYEVAL_TEST_INNER", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let child_pid = child.id();
    let mut text = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut text).unwrap();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut text).unwrap();
    let status = child.wait().unwrap();
    assert!(status.success() && text.contains("1 passed"), "{text}");
    assert_eq!(
        leftover_job_cgroups(child_pid),
        Vec::<std::path::PathBuf>::new()
    );
}

#[test]
#[ignore = "run by job_cgroups_are_removed_after_each_run in its own process"]
fn inner_cgroup_cleanup() {
    assert!(
        std::env::var_os("POLYEVAL_TEST_INNER").is_some(),
        "run through job_cgroups_are_removed_after_each_run"
    );
    let me = std::process::id();
    let hog = "chunks = []\nwhile True:\n    chunks.append(bytearray(64 * 1024 * 1024))\n";
    let bomb =
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n";
    let daemon = "import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(60)\n    os._exit(0)\nprint('{M}')\n";
    // (program, expected status; None: any, e.g. a fork bomb may end as a
    // timeout, a runtime error or a failure).
    let cases = [
        (hog, Some(Status::MemoryExceeded)),
        (bomb, None),
        (daemon, Some(Status::Passed)),
        ("while True:\n    pass\n", Some(Status::Timeout)),
    ];
    for (src, expected) in cases {
        let mut job = job(Language::Python, src);
        job.limits = Some(polyeval_lang::toolchain::Limits {
            memory_mb: 256,
            max_processes: 64,
            ..limits(2)
        });
        let o = run_job(job);
        if let Some(expected) = expected {
            assert_eq!(o.status, expected, "{}", describe(&o));
        }
        assert_eq!(
            leftover_job_cgroups(me),
            Vec::<std::path::PathBuf>::new(),
            "after a {} run",
            o.status
        );
    }
}

/// Without cgroups (POLYEVAL_SANDBOX_NO_CGROUP, or an ordinary user without
/// delegation) RLIMIT_DATA still stops the same memory hogs; checked in a
/// child test process because the mechanism is chosen once per process.
#[test]
fn rlimit_fallback_still_stops_memory_hogs() {
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new(exe)
        .args([
            "--exact",
            "memory_hogs_are_memory_exceeded",
            "touching_memory_hogs_stop_at_the_limit",
            "untouched_reservations_pass_with_a_cgroup",
            "inner_rlimit_mechanism",
            "--include-ignored",
        ])
        .env("POLYEVAL_SANDBOX_NO_CGROUP", "1")
        .env("POLYEVAL_TEST_INNER", "1")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success() && text.contains("4 passed"), "{text}");
}

#[test]
#[ignore = "run by rlimit_fallback_still_stops_memory_hogs in its own process"]
fn inner_rlimit_mechanism() {
    let mechanism = engine().memory_mechanism();
    assert!(!mechanism.uses_cgroup(), "{mechanism}");
    // The 16 GiB reservation is refused under a 512 MiB RLIMIT_DATA.
    let src = "#include <cstdio>\n#include <cstdlib>\nint main() { return std::malloc(16ul << 30) ? 0 : 7; }\n";
    let mut job = job(Language::Cpp, src);
    job.require_marker = false;
    job.limits = Some(polyeval_lang::toolchain::Limits {
        memory_mb: 512,
        ..limits(20)
    });
    let o = run_job(job);
    assert_eq!(o.exit_code, Some(7), "{}", describe(&o));
}
