/* polyeval-init: the sandbox's PID 1 (bubblewrap --as-pid-1), parent of the
 * program; reports how the program ended, which bubblewrap cannot: it turns
 * a death by signal N into exit code 128+N, indistinguishable from
 * exit(128+N). As PID 1 it reaps orphans, and signals from inside the
 * sandbox cannot kill it; when it exits, the kernel kills what is left.
 *
 *   polyeval-init STATUS_FD SELF_FD PROGRAM [ARGS...]
 *
 * Writes "started\n" to STATUS_FD, runs PROGRAM, then writes
 * "ended <raw wait status> <CPU microseconds>\n". The program can neither
 * write to STATUS_FD (not inherited: every descriptor above stderr is closed
 * before exec) nor reach it or this process's memory through /proc or ptrace
 * (this process is not dumpable; the seccomp filter also denies ptrace). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void close_from(int lowest) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, lowest, ~0U, 0) == 0)
        return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    for (int fd = lowest; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
        close(fd);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "polyeval-init: usage: polyeval-init STATUS_FD SELF_FD PROGRAM [ARGS...]\n");
        return 127;
    }
    int status_fd = atoi(argv[1]);
    int self_fd = atoi(argv[2]);
    if (self_fd > 2)
        close(self_fd);
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    dprintf(status_fd, "started\n");
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "polyeval-init: fork: %s\n", strerror(errno));
        return 127;
    }
    if (pid == 0) {
        close_from(3);
        execvp(argv[3], argv + 3);
        fprintf(stderr, "polyeval-init: cannot run %s: %s\n", argv[3], strerror(errno));
        _exit(127);
    }
    /* Signals the program may send us (ignored anyway by a PID 1 without
     * handlers; kept for a supervisor run without --as-pid-1). */
    signal(SIGTERM, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGUSR1, SIG_IGN);
    signal(SIGUSR2, SIG_IGN);
    signal(SIGALRM, SIG_IGN);
    /* Reap orphans until the program itself ends. */
    int status;
    struct rusage usage;
    for (;;) {
        pid_t ended = wait4(-1, &status, 0, &usage);
        if (ended == pid)
            break;
        if (ended < 0 && errno != EINTR) {
            fprintf(stderr, "polyeval-init: wait: %s\n", strerror(errno));
            return 127;
        }
    }
    long long cpu_us = (long long)usage.ru_utime.tv_sec * 1000000 + usage.ru_utime.tv_usec +
                       (long long)usage.ru_stime.tv_sec * 1000000 + usage.ru_stime.tv_usec;
    dprintf(status_fd, "ended %d %lld\n", status, cpu_us);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 255;
}
