/* polyeval-init: the sandbox's PID 1 (bubblewrap --as-pid-1), parent of the
 * program; reports how the program ended, which bubblewrap cannot: it turns
 * a death by signal N into exit code 128+N, indistinguishable from
 * exit(128+N). As PID 1 it reaps orphans, and signals from inside the
 * sandbox cannot kill it; when it exits, the kernel kills what is left.
 *
 *   polyeval-init STATUS_FD SELF_FD PROGRAM [ARGS...]
 *
 * Writes "started\n" to STATUS_FD, runs PROGRAM, then writes
 * "ended <raw wait status> <CPU microseconds>\n", the CPU time being the one
 * RLIMIT_CPU is checked against (see cpu_as_limited). The program can neither
 * write to STATUS_FD (not inherited: every descriptor above stderr is closed
 * before exec) nor reach it or this process's memory through /proc or ptrace
 * (this process is not dumpable; the seccomp filter also denies ptrace).
 *
 * On x86_64 and aarch64 it is built without the C library (raw system
 * calls): it starts once per sandboxed command, and the C library's start-up
 * (CPU cache probing with cpuid, which traps in virtual machines) would
 * cost more than everything it does. Elsewhere it uses the C library's
 * syscall(). */

#if defined(__x86_64__) || defined(__aarch64__)
#define FREESTANDING 1
#else
#define FREESTANDING 0
#endif

#if FREESTANDING

typedef unsigned long size_t;
#if defined(__x86_64__)
enum { NR_write = 1, NR_close = 3, NR_clone = 56, NR_execve = 59, NR_exit_group = 231,
       NR_wait4 = 61, NR_waitid = 247, NR_clock_gettime = 228, NR_prctl = 157,
       NR_close_range = 436 };
static long sys(long n, long a, long b, long c, long d, long e) {
    long ret;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
                     : "rcx", "r11", "memory");
    return ret;
}
__asm__(".text\n.globl _start\n_start:\n"
        "  xor %rbp, %rbp\n  mov %rsp, %rdi\n  and $-16, %rsp\n  call start_c\n  hlt\n");
#else
enum { NR_write = 64, NR_close = 57, NR_clone = 220, NR_execve = 221, NR_exit_group = 94,
       NR_wait4 = 260, NR_waitid = 95, NR_clock_gettime = 113, NR_prctl = 167,
       NR_close_range = 436 };
static long sys(long n, long a, long b, long c, long d, long e) {
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    register long x4 __asm__("x4") = e;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4) : "memory");
    return x0;
}
__asm__(".text\n.globl _start\n_start:\n  mov x29, #0\n  mov x30, #0\n  mov x0, sp\n  bl start_c\n");
#endif

/* The compiler may emit calls to these. */
void *memset(void *d, int c, size_t n) {
    unsigned char *p = d;
    while (n--) *p++ = (unsigned char)c;
    return d;
}
void *memcpy(void *d, const void *s, size_t n) {
    unsigned char *p = d;
    const unsigned char *q = s;
    while (n--) *p++ = *q++;
    return d;
}

#define SIGCHLD 17
#define PR_SET_DUMPABLE 4
#define EINTR 4
#define P_ALL 0
#define WEXITED 4
#define WNOWAIT 0x01000000

#else /* C library */

#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
enum { NR_write = SYS_write, NR_close = SYS_close, NR_clone = SYS_clone, NR_execve = SYS_execve,
       NR_exit_group = SYS_exit_group, NR_wait4 = SYS_wait4, NR_waitid = SYS_waitid,
       NR_clock_gettime = SYS_clock_gettime, NR_prctl = SYS_prctl,
#ifdef SYS_close_range
       NR_close_range = SYS_close_range
#else
       NR_close_range = 436
#endif
};
static long sys(long n, long a, long b, long c, long d, long e) {
    long r = syscall(n, a, b, c, d, e);
    return r == -1 ? -errno : r;
}
#endif

/* The kernel's struct rusage (wait4 fills it), struct timespec and the
 * start of struct siginfo (waitid fills it: the child's pid at byte 16). */
struct timeval_k { long sec, usec; };
struct rusage_k { struct timeval_k utime, stime; long rest[14]; };
struct timespec_k { long sec, nsec; };
struct siginfo_k { int signo, errno_, code, pad, pid, uid; int rest[26]; };

static size_t len(const char *s) {
    size_t n = 0;
    while (s[n]) n++;
    return n;
}

static void put(int fd, const char *s) { sys(NR_write, fd, (long)s, (long)len(s), 0, 0); }

/* Decimal text of v (may be negative) into buf (>= 24 bytes). */
static char *decimal(long long v, char *buf) {
    char tmp[24];
    int n = 0, neg = v < 0;
    unsigned long long u = neg ? -(unsigned long long)v : (unsigned long long)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    char *p = buf;
    if (neg) *p++ = '-';
    while (n) *p++ = tmp[--n];
    *p = 0;
    return buf;
}

static int number(const char *s) {
    int v = 0, neg = *s == '-';
    if (neg) s++;
    while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');
    return neg ? -v : v;
}

static void die(const char *what, const char *arg, long err) {
    char num[24];
    put(2, "polyeval-init: ");
    put(2, what);
    put(2, arg);
    put(2, " (errno ");
    put(2, decimal(-err, num));
    put(2, ")\n");
}

/* execvp: a name without '/' is looked up in PATH (default /usr/bin:/bin). */
static long run(char **argv, char **envp) {
    const char *name = argv[0];
    for (const char *c = name; *c; c++)
        if (*c == '/') return sys(NR_execve, (long)name, (long)argv, (long)envp, 0, 0);
    const char *path = "/usr/bin:/bin";
    for (char **e = envp; *e; e++)
        if ((*e)[0] == 'P' && (*e)[1] == 'A' && (*e)[2] == 'T' && (*e)[3] == 'H' && (*e)[4] == '=')
            path = *e + 5;
    long err = -2;
    char full[4096];
    while (*path) {
        size_t n = 0;
        while (path[n] && path[n] != ':') n++;
        size_t nl = len(name);
        if (n + 1 + nl < sizeof full) {
            for (size_t i = 0; i < n; i++) full[i] = path[i];
            full[n] = '/';
            for (size_t i = 0; i <= nl; i++) full[n + 1 + i] = name[i];
            err = sys(NR_execve, (long)full, (long)argv, (long)envp, 0, 0);
        }
        path += n;
        if (*path == ':') path++;
    }
    return err;
}

/* The CPU time of process `pid` (ended, not yet reaped) as RLIMIT_CPU counts
 * it, in microseconds, or -1: its CPUCLOCK_PROF clock, the tick-sampled user
 * and system time the kernel compares with the limit before it sends SIGXCPU
 * or SIGKILL. wait4's rusage is not that: it is rescaled to the scheduler's
 * exact runtime, which on a loaded machine is often 5-15 % below the
 * tick count, so a program the kernel stopped at its 1 s limit could show
 * 0.85 s. */
static long long cpu_as_limited(long pid) {
    struct timespec_k t;
    int prof_clock = (int)(~(unsigned)pid << 3); /* MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_PROF) */
    if (sys(NR_clock_gettime, prof_clock, (long)&t, 0, 0, 0) < 0) return -1;
    return (long long)t.sec * 1000000 + t.nsec / 1000;
}

static int init_main(int argc, char **argv, char **envp) {
    if (argc < 4) {
        put(2, "polyeval-init: usage: polyeval-init STATUS_FD SELF_FD PROGRAM [ARGS...]\n");
        return 127;
    }
    int status_fd = number(argv[1]);
    int self_fd = number(argv[2]);
    if (self_fd > 2) sys(NR_close, self_fd, 0, 0, 0, 0);
    sys(NR_prctl, PR_SET_DUMPABLE, 0, 0, 0, 0);
    put(status_fd, "started\n");
    long pid = sys(NR_clone, SIGCHLD, 0, 0, 0, 0);
    if (pid < 0) {
        die("cannot fork", "", pid);
        return 127;
    }
    if (pid == 0) {
        if (sys(NR_close_range, 3, ~0U, 0, 0, 0) < 0)
            for (int fd = 3; fd < 1024; fd++) sys(NR_close, fd, 0, 0, 0, 0);
        long err = run(argv + 3, envp);
        die("cannot run ", argv[3], err);
        sys(NR_exit_group, 127, 0, 0, 0, 0);
    }
    /* Reap orphans until the program itself ends; the program is seen
     * ended (WNOWAIT) before it is reaped, to read its CPU clock. */
    int status = 0;
    struct rusage_k usage;
    long long cpu_us = -1;
    for (;;) {
        struct siginfo_k info;
        info.pid = 0;
        long seen = sys(NR_waitid, P_ALL, 0, (long)&info, WEXITED | WNOWAIT, 0);
        if (seen < 0 && seen != -EINTR) {
            die("wait failed", "", seen);
            return 127;
        }
        if (seen < 0 || info.pid <= 0) continue;
        if (info.pid == pid) cpu_us = cpu_as_limited(pid);
        long ended = sys(NR_wait4, info.pid, (long)&status, 0, (long)&usage, 0);
        if (ended == pid) break;
        if (ended < 0 && ended != -EINTR) {
            die("wait failed", "", ended);
            return 127;
        }
    }
    if (cpu_us < 0)
        cpu_us = (long long)(usage.utime.sec + usage.stime.sec) * 1000000 + usage.utime.usec +
                 usage.stime.usec;
    char num[24];
    put(status_fd, "ended ");
    put(status_fd, decimal(status, num));
    put(status_fd, " ");
    put(status_fd, decimal(cpu_us, num));
    put(status_fd, "\n");
    int signal = status & 0x7f;
    if (signal == 0) return (status >> 8) & 0xff;
    return signal != 0x7f ? 128 + signal : 255;
}

#if FREESTANDING
/* Entry from _start with the initial stack: argc, argv..., 0, envp..., 0. */
__attribute__((used)) void start_c(long *sp) {
    int argc = (int)sp[0];
    char **argv = (char **)(sp + 1);
    char **envp = argv + argc + 1;
    sys(NR_exit_group, init_main(argc, argv, envp), 0, 0, 0, 0);
    for (;;) {
    }
}
#else
int main(int argc, char **argv, char **envp) { return init_main(argc, argv, envp); }
#endif
