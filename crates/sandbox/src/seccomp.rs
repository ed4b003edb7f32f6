//! The seccomp filter every sandboxed process runs under (bubblewrap's
//! `--seccomp FD` installs it right before exec, after dropping privileges).
//!
//! A deny list, not an allow list: seven toolchains and their runtimes (JVM,
//! mono, node, Go) use wide, version-dependent sets of syscalls, so the filter
//! refuses only what a test program never needs and what widens the kernel's
//! attack surface or reaches outside the sandbox: debugging other processes,
//! nested user namespaces, kernel keyrings, eBPF, perf events, kernel modules,
//! mounts, kexec/reboot, swap, userfaultfd, file handles, io_uring, POSIX
//! message queues (they outlive their process in the IPC namespace, which
//! a warm worker's samples share, and can't be listed to be removed). Refused
//! calls fail with EPERM, so a program sees an ordinary error. Most of these
//! already fail for lack of capabilities; the filter keeps kernel code behind
//! them out of reach altogether. `clone3` cannot be filtered on its flags (they
//! sit behind a pointer), so nested user namespaces are also disabled by
//! bubblewrap's `--disable-userns`.
//!
//! Compiled with `seccompiler` (rust-vmm, Firecracker's compiler: pure Rust,
//! no libseccomp system library needed). Its program kills the process on a
//! foreign architecture (32-bit `int 0x80` calls); we add a refusal of x32
//! syscall numbers, which report the x86_64 architecture.

use nix::libc;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Set this environment variable (to anything) to run without the filter.
pub const DISABLE_ENV: &str = "POLYEVAL_SANDBOX_NO_SECCOMP";

/// Syscalls refused outright, by name (for `polyeval doctor` and reports).
pub const DENIED: &[(&str, i64)] = &[
    ("ptrace", libc::SYS_ptrace),
    ("process_vm_readv", libc::SYS_process_vm_readv),
    ("process_vm_writev", libc::SYS_process_vm_writev),
    ("kcmp", libc::SYS_kcmp),
    ("pidfd_getfd", libc::SYS_pidfd_getfd),
    ("setns", libc::SYS_setns),
    ("keyctl", libc::SYS_keyctl),
    ("add_key", libc::SYS_add_key),
    ("request_key", libc::SYS_request_key),
    ("bpf", libc::SYS_bpf),
    ("perf_event_open", libc::SYS_perf_event_open),
    ("userfaultfd", libc::SYS_userfaultfd),
    ("init_module", libc::SYS_init_module),
    ("finit_module", libc::SYS_finit_module),
    ("delete_module", libc::SYS_delete_module),
    ("kexec_load", libc::SYS_kexec_load),
    ("kexec_file_load", libc::SYS_kexec_file_load),
    ("reboot", libc::SYS_reboot),
    ("swapon", libc::SYS_swapon),
    ("swapoff", libc::SYS_swapoff),
    ("mount", libc::SYS_mount),
    ("umount2", libc::SYS_umount2),
    ("pivot_root", libc::SYS_pivot_root),
    ("chroot", libc::SYS_chroot),
    ("fsopen", libc::SYS_fsopen),
    ("fsconfig", libc::SYS_fsconfig),
    ("fsmount", libc::SYS_fsmount),
    ("fspick", libc::SYS_fspick),
    ("move_mount", libc::SYS_move_mount),
    ("open_tree", libc::SYS_open_tree),
    ("mount_setattr", libc::SYS_mount_setattr),
    ("open_by_handle_at", libc::SYS_open_by_handle_at),
    ("name_to_handle_at", libc::SYS_name_to_handle_at),
    ("io_uring_setup", libc::SYS_io_uring_setup),
    ("io_uring_enter", libc::SYS_io_uring_enter),
    ("io_uring_register", libc::SYS_io_uring_register),
    ("acct", libc::SYS_acct),
    ("quotactl", libc::SYS_quotactl),
    ("syslog", libc::SYS_syslog),
    ("settimeofday", libc::SYS_settimeofday),
    ("clock_settime", libc::SYS_clock_settime),
    ("clock_adjtime", libc::SYS_clock_adjtime),
    ("adjtimex", libc::SYS_adjtimex),
    ("vhangup", libc::SYS_vhangup),
    ("mq_open", libc::SYS_mq_open),
];

/// Syscalls refused when their first argument (flags) asks for a new user
/// namespace.
pub const DENIED_WITH_CLONE_NEWUSER: &[(&str, i64)] =
    &[("clone", libc::SYS_clone), ("unshare", libc::SYS_unshare)];

#[cfg(target_arch = "x86_64")]
const ARCH: Option<TargetArch> = Some(TargetArch::x86_64);
#[cfg(target_arch = "aarch64")]
const ARCH: Option<TargetArch> = Some(TargetArch::aarch64);
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const ARCH: Option<TargetArch> = None;

/// The filter as bubblewrap reads it (`struct sock_filter` array), or why
/// there is none: disabled, unsupported architecture, or a kernel without
/// seccomp filtering. Computed once.
pub fn filter() -> Result<&'static [u8], &'static str> {
    static FILTER: OnceLock<Result<Vec<u8>, &'static str>> = OnceLock::new();
    FILTER
        .get_or_init(|| {
            if std::env::var_os(DISABLE_ENV).is_some() {
                return Err("disabled by POLYEVAL_SANDBOX_NO_SECCOMP");
            }
            let arch = ARCH.ok_or("no seccomp filter for this architecture")?;
            let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
            if !status.lines().any(|l| l.starts_with("Seccomp:")) {
                return Err("the kernel has no seccomp support");
            }
            compile(arch).map_err(|_| "the seccomp filter could not be compiled")
        })
        .as_deref()
        .map_err(|e| *e)
}

fn compile(arch: TargetArch) -> Result<Vec<u8>, seccompiler::BackendError> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        DENIED.iter().map(|&(_, nr)| (nr, Vec::new())).collect();
    for &(_, nr) in DENIED_WITH_CLONE_NEWUSER {
        let newuser = libc::CLONE_NEWUSER as u64;
        let condition = SeccompCondition::new(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::MaskedEq(newuser),
            newuser,
        )?;
        rules.insert(nr, vec![SeccompRule::new(vec![condition])?]);
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )?;
    let mut program: BpfProgram = filter.try_into()?;
    if cfg!(target_arch = "x86_64") {
        // After the architecture check (3 instructions, whose jump lands on
        // the first inserted one): refuse x32 syscall numbers.
        const X32_SYSCALL_BIT: u32 = 0x4000_0000;
        let x32 = [
            bpf(0x20, 0, 0, 0),                                // ld [nr]
            bpf(0x35, 0, 1, X32_SYSCALL_BIT),                  // jge X32 ? next : skip
            bpf(0x06, 0, 0, 0x0005_0000 | libc::EPERM as u32), // ret ERRNO(EPERM)
        ];
        program.splice(3..3, x32);
    }
    Ok(program
        .iter()
        .flat_map(|i| {
            let mut b = Vec::with_capacity(8);
            b.extend_from_slice(&i.code.to_ne_bytes());
            b.push(i.jt);
            b.push(i.jf);
            b.extend_from_slice(&i.k.to_ne_bytes());
            b
        })
        .collect())
}

fn bpf(code: u16, jt: u8, jf: u8, k: u32) -> seccompiler::sock_filter {
    seccompiler::sock_filter { code, jt, jf, k }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_compiles_with_the_architecture_check_first() {
        let Some(arch) = ARCH else { return };
        let bytes = compile(arch).unwrap();
        assert_eq!(bytes.len() % 8, 0);
        // ld [arch] first; ends allowing what matched no rule.
        assert_eq!(u16::from_ne_bytes([bytes[0], bytes[1]]), 0x20);
        assert_eq!(u32::from_ne_bytes(bytes[4..8].try_into().unwrap()), 4);
        let last = &bytes[bytes.len() - 8..];
        assert_eq!(u16::from_ne_bytes([last[0], last[1]]), 0x06);
    }
}
