<?php
// polyeval warm PHP worker, run as `php <the cold run's -d flags> <this>`
// by the warm zygote (zygote.py, mode "vm", role "runs") inside the
// sandbox. Per request it forks (pcntl) a child that becomes the sample's
// process, as `php main.php` would be: its own process group, RLIMIT_CPU,
// the work dir as cwd, $argv and $_SERVER naming the sample, dumpable, and
// the sample included at the global scope (this script declares no
// function, class or constant, and the child unsets its variables first).
// The parent waits, kills the child's group at the wall-clock limit, and
// answers; the zygote relays the output (the child's fd 1 and 2) and
// removes anything left behind.
//
// This process is not dumpable (FFI prctl), so a sample can neither trace
// it nor reach its memory or descriptors through /proc; the child closes
// the request, reply and diagnostics descriptors (3, 4, 5) before the
// sample runs.
//
// Protocol: requests on fd 3, one line each: "<token>\t<source path>\t<cpu
// seconds>\t<timeout ms>"; replies on fd 4: "ready\n" once, then per
// request "<token> 0 <exit code> <flags> 0 0\n", flags "-", "timeout" or
// "signal=<n>".
$polyevalLibc = FFI::cdef('int prctl(int option, unsigned long a, unsigned long b, unsigned long c, unsigned long d); int close(int fd);', 'libc.so.6');
if ($polyevalLibc->prctl(4, 0, 0, 0, 0) !== 0) {
    exit(2);
}
$polyevalRequests = fopen('php://fd/3', 'r');
$polyevalReplies = fopen('php://fd/4', 'a');
pcntl_sigprocmask(SIG_BLOCK, [SIGCHLD]);
fwrite($polyevalReplies, "ready\n");
fflush($polyevalReplies);
while (($polyevalLine = fgets($polyevalRequests)) !== false) {
    $polyevalRequest = explode("\t", rtrim($polyevalLine, "\n"));
    if (count($polyevalRequest) !== 4) {
        exit(2);
    }
    $polyevalToken = array_shift($polyevalRequest);
    $polyevalPid = pcntl_fork();
    if ($polyevalPid === 0) {
        fclose($polyevalRequests);
        fclose($polyevalReplies);
        foreach ([3, 4, 5] as $polyevalFd) {
            $polyevalLibc->close($polyevalFd);
        }
        if ($polyevalLibc->prctl(4, 1, 0, 0, 0) !== 0) {
            exit(127);
        }
        pcntl_sigprocmask(SIG_UNBLOCK, [SIGCHLD]);
        posix_setpgid(0, 0);
        $polyevalCpu = max(1, (int) $polyevalRequest[1]);
        posix_setrlimit(POSIX_RLIMIT_CPU, $polyevalCpu, $polyevalCpu + 1);
        chdir(dirname($polyevalRequest[0]));
        $argv = [$polyevalRequest[0]];
        $argc = 1;
        $_SERVER['argv'] = $argv;
        $_SERVER['argc'] = 1;
        $_SERVER['PHP_SELF'] = $_SERVER['SCRIPT_NAME'] = $_SERVER['SCRIPT_FILENAME'] = $_SERVER['PATH_TRANSLATED'] = $polyevalRequest[0];
        $_SERVER['REQUEST_TIME_FLOAT'] = microtime(true);
        $_SERVER['REQUEST_TIME'] = time();
        $polyevalSample = $polyevalRequest[0];
        foreach (array_keys($GLOBALS) as $polyevalName) {
            if (strncmp($polyevalName, 'polyeval', 8) === 0 && $polyevalName !== 'polyevalSample') {
                unset($GLOBALS[$polyevalName]);
            }
        }
        unset($polyevalName);
        // Evaluated before the sample runs: no variable of ours is left.
        include (function () {
            $path = $GLOBALS['polyevalSample'];
            unset($GLOBALS['polyevalSample']);
            return $path;
        })();
        exit(0);
    }
    if ($polyevalPid < 0) {
        exit(3);
    }
    $polyevalDeadline = microtime(true) + ((int) $polyevalRequest[2]) / 1000;
    $polyevalFlags = '-';
    while (true) {
        $polyevalDone = pcntl_waitpid($polyevalPid, $polyevalStatus, WNOHANG);
        if ($polyevalDone === $polyevalPid) {
            break;
        }
        $polyevalLeft = $polyevalDeadline - microtime(true);
        if ($polyevalLeft <= 0) {
            posix_kill(-$polyevalPid, SIGKILL);
            posix_kill($polyevalPid, SIGKILL);
            pcntl_waitpid($polyevalPid, $polyevalStatus);
            $polyevalFlags = 'timeout';
            break;
        }
        $polyevalLeft = min($polyevalLeft, 1.0);
        pcntl_sigtimedwait([SIGCHLD], $polyevalInfo, (int) $polyevalLeft, (int) (fmod($polyevalLeft, 1.0) * 1e9));
    }
    $polyevalCode = 0;
    if ($polyevalFlags === '-' && pcntl_wifsignaled($polyevalStatus)) {
        $polyevalFlags = 'signal=' . pcntl_wtermsig($polyevalStatus);
    } elseif ($polyevalFlags === '-') {
        $polyevalCode = pcntl_wexitstatus($polyevalStatus);
    }
    fwrite($polyevalReplies, "$polyevalToken 0 $polyevalCode $polyevalFlags 0 0\n");
    fflush($polyevalReplies);
}
