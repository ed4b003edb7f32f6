# polyeval warm worker (zygote), run inside the sandbox as
#   python3 -B <this file> polyeval-warm-worker MODE [RUNTIME ARGV, ROLE]
# with its control socket on stdin (fd 0). Per request it runs one sample
# as the cold run would: in a forked child, in its own process group, with
# the sample's rlimits and output pipes (received with the request), killed
# at the wall-clock limit. The zygote never runs sample code itself.
#
# Nothing a sample does may reach the samples after it:
# - files: the host replaces the writable file systems (/sandbox, /tmp,
#   /dev/shm) with empty ones between samples (warm/scratch.rs); we hold
#   none of them (our cwd is /);
# - us and the runtime: neither is dumpable, so no process of the sample
#   (same uid) can trace us or reach our memory and descriptors through
#   /proc; signals it sends us wait blocked; a child keeps none of our
#   descriptors; the runtime's replies must answer our request (serve_vm);
# - what the kernel keeps per namespace or process, checked after each
#   sample (Watch.clean_up): every process of the sample is killed, its
#   System V IPC objects removed, and the worker must be as it started (no
#   process, socket or IPC object left, our and the runtime's rlimits,
#   priority, CPU affinity and pending signals unchanged, and any kernel
#   setting we may write), else it is discarded.
#
# Requests (host -> worker): one line of JSON {"len", "dir", "file", "cpu",
# "timeout"[, "argv", "run_timeout"][, "cold_argv", "shared"][, "vm"]}
# sent with two descriptors (stdout and stderr write ends; "shared": see
# shared_prefix), then `len` bytes of source. Replies (worker -> host):
# "ready\n" once, then per request one line of JSON {"status": raw wait
# status, "cpu_us", "timed_out", "discard", "rerun", "why"[,
# "compile_code", "compile_ms", "compile_output"]}: "discard", the worker
# may not serve another sample; "rerun", the sample's outcome can't be
# trusted (run it cold).
import os, sys, socket, signal, json, time, resource, types, traceback, select
import threading, atexit, builtins, io, fcntl, warnings, ctypes, importlib.machinery

# "python": samples are Python programs run in the forked child itself;
# "exec": each request names the command the child executes (node);
# "vm": one long-lived runtime (argv[3], JSON), started once, compiles
# (role "compiles", argv[4]: javac, mcs; the child then executes the
# request's command) or runs (role "runs": php, forking a child per
# sample) every sample; see serve_vm.
MODE = sys.argv[2] if len(sys.argv) > 2 else "python"

# What harness headers import (MultiOOP's Python programs all import numpy),
# and cheap modules solutions often do. Not unittest: no harness imports
# it, and it would add 5 ms to every worker's start.
for _name in () if MODE != "python" else ("numpy", "math", "collections", "typing", "re", "itertools",
              "functools", "heapq", "bisect", "random", "string", "copy",
              "decimal", "fractions", "datetime", "abc", "dataclasses", "enum",
              "statistics", "operator", "hashlib", "json", "struct",
              "array", "queue", "time"):
    try:
        __import__(_name)
    except Exception:
        pass

ctl = socket.socket(fileno=0)
libc = ctypes.CDLL(None, use_errno=True)
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
IPC_RMID = 0


def prctl(option, value):
    if libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, "prctl(%d): %s" % (option, os.strerror(err)))


# Out of the samples' reach (they run under our uid): a process that is not
# dumpable can't be traced, and its memory, descriptors and /proc files are
# closed to processes without CAP_SYS_PTRACE. A worker that can't be made
# so does not start.
prctl(PR_SET_DUMPABLE, 0)
# Orphans of a sample (daemons) become our children, not the supervisor's.
prctl(PR_SET_CHILD_SUBREAPER, 1)
# Signals a sample sends us wait, blocked (SIGKILL and SIGSTOP end or hang
# the worker: the host then re-runs the sample cold). Children start with
# the mask we had.
ALL_SIGNALS = signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP}
SAMPLE_MASK = signal.pthread_sigmask(signal.SIG_BLOCK, ALL_SIGNALS)
# The scratch file systems are replaced between samples: hold none of them.
os.chdir("/")
MAX_FD = 1 << 20


# The compiled code of the program text samples share (harness header and
# observer prelude), compiled once here: children inherit it. A sample is
# split at a top-level statement boundary into that prefix and its rest;
# the rest is compiled (padded with newlines so line numbers stay) before
# anything runs, so a syntax error anywhere still runs nothing, and the two
# code objects run in one namespace, as the whole file would.
shared = {"text": None, "code": None}
previous = [None]
NOT_A_START = (" ", "\t", "#", "\n", "\r", ")", "]", "}", "@")
CONTINUATIONS = ("else", "elif", "except", "finally", "case")


def statement_starts_at(text, i):
    if i >= len(text) or text[i] in NOT_A_START or text[i - 1] != "\n":
        return False
    word = text[i:i + 8].split(None, 1)[0].rstrip(":") if text[i:i + 8].strip() else ""
    return word not in CONTINUATIONS


def splittable(text):
    head = text[:200]
    return "__future__" not in text and "coding" not in head


def common_length(a, b):
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def shared_prefix(text, path, batch_shared):
    """(prefix code, prefix length) for `text`, or (None, 0). The prefix is
    what `text` shares with the previous sample, or, before there is one,
    the `batch_shared` characters the host says every sample of its batch
    shares."""
    if not splittable(text):
        return None, 0
    known = shared["text"]
    if known is not None and text.startswith(known) and statement_starts_at(text, len(known)):
        if shared["code"] is None:
            return None, 0
        return shared["code"], len(known)
    prev = previous[0]
    previous[0] = text
    if (prev is None or not splittable(prev)) and known is None and batch_shared > 0:
        prev, end = text, min(batch_shared, len(text))
    elif prev is None or not splittable(prev):
        return None, 0
    else:
        end = common_length(text, prev)
    for _ in range(8):
        cut = text.rfind("\n", 0, end)
        if cut <= 0:
            return None, 0
        cut += 1
        if statement_starts_at(text, cut) and statement_starts_at(prev, cut):
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    code = compile(text[:cut], path, "exec", dont_inherit=True)
            except BaseException:
                return None, 0
            # Compile-time warnings belong on every sample's stderr, as a
            # cold run prints them: such a prefix is compiled in each child.
            shared["text"], shared["code"] = text[:cut], None if caught else code
            return (None, 0) if caught else (code, cut)
        end = cut - 1
    return None, 0


def start_program():
    """In a child that will run a program: what a cold run's program starts
    with (our signal mask, default dispositions of what we ignore)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, SAMPLE_MASK)
    if MODE != "python":
        # Python ignores these itself; other programs start with defaults.
        for sig in (signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(sig, signal.SIG_DFL)


def run_sample(req, path, out_fd, err_fd, prefix):
    # In the child: become the sample's own process, with nothing of ours
    # (the control socket, the runtime's pipes) but what it is given.
    os.setpgid(0, 0)
    start_program()
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    os.closerange(3, MAX_FD)
    cpu = int(req["cpu"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    workdir = os.path.dirname(path)
    os.chdir(workdir)
    if "argv" in req:
        argv = req["argv"]
        try:
            os.execv(argv[0], argv)
        except OSError as e:
            os.write(2, ("polyeval warm worker: cannot run %s: %s\n" % (argv[0], e)).encode())
        os._exit(127)
    # Dumpable, as a program a cold run starts is (we are not).
    prctl(PR_SET_DUMPABLE, 1)
    # Random generators start from a fresh seed, as in a fresh interpreter:
    # `random` reseeds itself in a forked child (its at-fork hook), numpy's
    # global generator was reseeded by the zygote after the previous sample.
    sys.argv = [path]
    sys.orig_argv = req.get("cold_argv", sys.orig_argv)
    sys.path[0] = workdir
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = builtins
    main.__cached__ = None
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    sys.modules["__main__"] = main
    code = 0
    try:
        prefix_code, cut = prefix
        if prefix_code is not None:
            text = req["text"]
            rest = "\n" * text.count("\n", 0, cut) + text[cut:]
            parts = [prefix_code, rest]
        else:
            with open(path, "rb") as f:
                parts = [f.read()]
        try:
            parts = [p if not isinstance(p, (str, bytes)) else
                     compile(p, path, "exec", dont_inherit=True) for p in parts]
        except SyntaxError as e:
            traceback.print_exception(type(e), e, None)
            raise SystemExit(1)
        for compiled in parts:
            exec(compiled, main.__dict__)
    except SystemExit as e:
        code = exit_code(e)
    except BaseException as e:
        # The traceback starts in the program, as a cold run's does.
        tb = e.__traceback__.tb_next if e.__traceback__ else None
        e.__traceback__ = tb
        try:
            sys.excepthook(type(e), e, tb)
        except BaseException:
            pass
        code = 1
    # What interpreter shutdown does: wait for non-daemon threads, run
    # atexit handlers, flush the standard streams.
    try:
        threading._shutdown()
    except BaseException:
        pass
    try:
        atexit._run_exitfuncs()
    except BaseException:
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            if code == 0:
                code = 120
    os._exit(code & 0xFF)


def reseed_numpy():
    """Give numpy's global generator a fresh seed from the OS, as importing
    numpy does, for the next child to inherit. Done here, after a child has
    ended, it costs half what it does in the child, where every page it
    touches is a copy-on-write fault."""
    np = sys.modules.get("numpy")
    if np is not None:
        try:
            np.random.seed()
        except Exception:
            pass


def exit_code(e):
    c = e.code
    if c is None:
        return 0
    if isinstance(c, int):
        return c
    try:
        print(c, file=sys.stderr)
    except BaseException:
        pass
    return 1


def read_request():
    buf = b""
    fds = []
    while b"\n" not in buf:
        data, got, _, _ = socket.recv_fds(ctl, 65536, 2)
        if not data:
            return None
        buf += data
        fds += got
    line, rest = buf.split(b"\n", 1)
    req = json.loads(line)
    need = int(req["len"])
    chunks = [rest]
    have = len(rest)
    while have < need:
        data = ctl.recv(min(1 << 20, need - have))
        if not data:
            return None
        chunks.append(data)
        have += len(data)
    return req, b"".join(chunks), fds


def run_child(req, path, out_fd, err_fd, prefix):
    """Run one sample in a forked child (closing our copies of its output
    pipes) and wait for it, killing it at its wall-clock limit:
    (wait status, rusage, timed out)."""
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            ctl.close()
            run_sample(req, path, out_fd, err_fd, prefix)
        finally:
            os._exit(127)
    os.close(out_fd)
    os.close(err_fd)
    deadline = started + float(req.get("run_timeout", req["timeout"]))
    timed_out = False
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        pidfd = None
    while True:
        wpid, status, usage = os.wait4(pid, os.WNOHANG)
        if wpid == pid:
            break
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
            _, status, usage = os.wait4(pid, 0)
            break
        if pidfd is not None:
            select.select([pidfd], [], [], min(left, 1.0))
        else:
            time.sleep(0.001)
    if pidfd is not None:
        os.close(pidfd)
    return status, usage, timed_out


def receive_sample():
    """The next request with its source saved where the cold run has it:
    (request, source, path, stdout fd, stderr fd), or None at the end."""
    got = read_request()
    if got is None:
        return None
    req, source, fds = got
    if len(fds) != 2:
        return None
    workdir = req["dir"]
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, req["file"])
    with open(path, "wb") as f:
        f.write(source)
    return req, source, path, fds[0], fds[1]


def serve():
    watch = Watch(None)
    ctl.sendall(b"ready\n")
    while True:
        got = receive_sample()
        if got is None:
            return
        req, source, path, out_fd, err_fd = got
        try:
            req["text"] = source.decode("utf-8")
            prefix = (shared_prefix(req["text"], path, int(req.get("shared", 0)))
                      if MODE == "python" else (None, 0))
        except (UnicodeDecodeError, RecursionError, MemoryError):
            prefix = (None, 0)
        status, usage, timed_out = run_child(req, path, out_fd, err_fd, prefix)
        reply = {"status": status, "timed_out": timed_out,
                 "cpu_us": int((usage.ru_utime + usage.ru_stime) * 1e6)}
        reply.update(watch.clean_up())
        ctl.sendall(json.dumps(reply).encode() + b"\n")
        if MODE == "python":
            reseed_numpy()


def live(pid):
    """Whether process `pid` has a thread that is not a zombie (a process
    whose first thread ended shows as one while its others run)."""
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return False
    for task in tasks:
        try:
            with open("/proc/%d/task/%s/stat" % (pid, task), "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state not in (b"Z", b"X"):
            return True
    return False


def kill_everything_but(keep):
    """Kill every process of the sandbox but PID 1, us and `keep` (the
    runtime, or None), and wait until they are gone; False if some would
    not go."""
    me = os.getpid()
    if keep is None:
        # All at once: none forks between two kills.
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass

    def others():
        return [int(n) for n in os.listdir("/proc")
                if n.isdigit() and int(n) not in (1, me, keep) and live(int(n))]

    deadline = time.monotonic() + 2
    while True:
        left = others()
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        # Reap our own (orphans we adopted); the runtime reaps its children.
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        if not left:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)


def ipc_objects():
    """The System V IPC objects of the worker's IPC namespace: {(kind, id)}."""
    found = set()
    for kind in ("shm", "sem", "msg"):
        try:
            with open("/proc/sysvipc/" + kind) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 1:
                found.add((kind, int(fields[1])))
    return found


def remove_ipc_object(kind, ident):
    if kind == "shm":
        libc.shmctl(ident, IPC_RMID, None)
    elif kind == "sem":
        libc.semctl(ident, 0, IPC_RMID)
    else:
        libc.msgctl(ident, IPC_RMID, None)


def sockets():
    """How many sockets the worker's network namespace holds, of every kind,
    and how many TCP connections are closing (TIME_WAIT), which outlive
    their process. (Not the TCP tables: reading them walks the host's.)"""
    try:
        with open("/proc/net/sockstat") as f:
            rows = f.read().splitlines()
    except OSError:
        return None
    # "sockets: used 3" and "TCP: inuse 0 orphan 0 tw 0 alloc 1 mem 0":
    # orphan, alloc and mem count the host's.
    found = []
    for row in rows:
        name, _, counts = row.partition(":")
        fields = counts.split()
        found += [(name, k, v) for k, v in zip(fields[::2], fields[1::2]) if k in ("used", "tw")]
    return found


def writable_sysctls():
    """The kernel settings under /proc/sys we may write (the sandbox makes
    those of its namespaces read-only; any other is watched)."""
    found = []
    for root, _, files in os.walk("/proc/sys"):
        found += [os.path.join(root, name) for name in files
                  if os.access(os.path.join(root, name), os.W_OK)]
    return found


def sysctl_values(paths):
    values = []
    for path in paths:
        try:
            with open(path) as f:
                values.append(f.read())
        except OSError as e:
            values.append(e.errno)
    return values


RLIMITS = sorted(getattr(resource, n) for n in dir(resource)
                 if n.startswith("RLIMIT_") and n != "RLIMIT_OFILE")


def settings(runtime):
    """What a process of the sample (our uid) can change in us or the
    runtime without reaching our memory: rlimits (prlimit), priority
    (setpriority), CPU affinity and scheduling policy. Our children
    inherit them."""
    ours = ([resource.getrlimit(r) for r in RLIMITS], os.getpriority(os.PRIO_PROCESS, 0),
            sorted(os.sched_getaffinity(0)), os.sched_getscheduler(0))
    if runtime is None:
        return ours
    try:
        with open("/proc/%d/limits" % runtime) as f:
            limits = f.read()
        with open("/proc/%d/stat" % runtime, "rb") as f:
            stat = f.read().rsplit(b")", 1)[1].split()
        with open("/proc/%d/status" % runtime) as f:
            status = [line.split() for line in f]
    except OSError:
        return None
    cpus = [row for row in status if row and row[0] == "Cpus_allowed:"]
    # Signals queued to it and left pending (a flood would take what the
    # uid may queue); the SIGCHLDs of its children come and go.
    pending = [int(row[1], 16) & ~(1 << (signal.SIGCHLD - 1)) for row in status
               if row and row[0] in ("SigPnd:", "ShdPnd:")]
    # Fields 18, 19, 40, 41 of stat: priority, nice, RT priority, policy.
    return ours, limits, stat[15:17], stat[37:39], cpus, pending


class Watch:
    """The worker as it started (what samples could change that outlives
    them), and the check that it still is after each sample."""

    def __init__(self, runtime):
        self.runtime = runtime
        self.ipc = ipc_objects()
        self.sockets = sockets()
        self.settings = settings(runtime)
        self.sysctls = writable_sysctls()
        self.sysctl_values = sysctl_values(self.sysctls)

    def clean_up(self):
        """Kill what is left of the sample and remove its IPC objects; then
        the worker must be as it started. Fields of the reply to the host:
        a process that would not die taints the sample's outcome (re-run
        it cold); anything else left discards the worker."""
        wrong, rerun = [], False
        if not kill_everything_but(self.runtime):
            wrong.append("a process of the sample would not die")
            rerun = True
        # Signals sent to us wait blocked: take them (queued ones count
        # against what the uid may queue).
        for _ in range(1 << 20):
            if signal.sigtimedwait(ALL_SIGNALS, 0) is None:
                break
        else:
            wrong.append("signals keep coming")
        for kind, ident in ipc_objects() - self.ipc:
            remove_ipc_object(kind, ident)
        if ipc_objects() != self.ipc:
            wrong.append("System V IPC objects changed")
        if sockets() != self.sockets:
            wrong.append("sockets left in the network namespace")
        if self.settings is None or settings(self.runtime) != self.settings:
            wrong.append("rlimits, priority or CPU affinity of the worker changed")
        if sysctl_values(self.sysctls) != self.sysctl_values:
            wrong.append("kernel settings of the worker's namespaces changed")
        return {"discard": bool(wrong), "rerun": rerun, "why": "; ".join(wrong)}


def read_exactly(fd, n):
    chunks = []
    while n > 0:
        data = os.read(fd, min(n, 1 << 20))
        if not data:
            return None
        chunks.append(data)
        n -= len(data)
    return b"".join(chunks)


def serve_vm():
    """One runtime process serves every sample, in role "compiles" (javac,
    mcs in-process: the program then runs in a child of ours, with the
    cold run's command) or "runs" (php: it forks a child per sample).
    Requests go to its fd 3, each with a fresh token; replies come from its
    fd 4 and must carry that token; its own diagnostics go to fd 5 (our
    stderr, the host's worker log), and so do a compiler's stdout and
    stderr. A runner's are pipes we relay to the sample's own (a sample's
    output is everything written there between our request and the reply).
    After each sample's clean-up nothing more may wait on the reply channel
    (a reply forged or left behind by a sample). A runtime out of step,
    dead, or not answering within the request's time ends us: the host
    re-runs the sample cold and starts a new worker."""
    argv = json.loads(sys.argv[3])
    runs_samples = sys.argv[4] == "runs"
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    null = os.open("/dev/null", os.O_RDONLY)
    if runs_samples:
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        outputs = [out_r, err_r]
    else:
        out_w = err_w = 2
        outputs = []
    pid = os.fork()
    if pid == 0:
        try:
            ctl.close()
            start_program()
            # Out of the way first: a target may be another's source.
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 100)
                    for fd in (null, out_w, err_w, req_r, rep_w, 2)]
            for dst, fd in enumerate(high):
                os.dup2(fd, dst)
            os.closerange(6, MAX_FD)
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    for fd in (null, req_r, rep_w):
        os.close(fd)
    for fd in outputs:
        os.set_blocking(fd, False)
    # The runner's children share its stdout and stderr: we keep the write
    # ends to undo what a sample sets on them (O_NONBLOCK, O_APPEND ...),
    # which the next sample would otherwise find.
    shared = [(fd, fcntl.fcntl(fd, fcntl.F_GETFL)) for fd in (out_w, err_w)] if runs_samples else []

    def restore_shared():
        for fd, flags in shared:
            fcntl.fcntl(fd, fcntl.F_SETFL, flags)
            fcntl.fcntl(fd, fcntl.F_SETOWN, 0)
        return all(fcntl.fcntl(fd, fcntl.F_GETFL) == flags for fd, flags in shared)

    def relay(fd, dest):
        """Copy what is in `fd` to `dest` (None: drop it)."""
        while True:
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                return
            if not data:
                return
            if dest is not None:
                view = memoryview(data)
                while view:
                    try:
                        view = view[os.write(dest, view):]
                    except BrokenPipeError:
                        dest = None
                        break

    def read_line(deadline, dests):
        """The runtime's next reply line, relaying output to `dests`
        meanwhile; None if it died or the deadline passed."""
        line = b""
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([rep_r] + outputs, [], [], left)
            for fd, dest in zip(outputs, dests):
                if fd in ready:
                    relay(fd, dest)
            if rep_r in ready:
                data = os.read(rep_r, 1)
                if not data:
                    return None
                line += data
        return line

    def ask(payload, deadline, dests):
        """Send one request; its reply as (compiled, code, flags,
        compile ms, text), or None: no reply in time, or not one to this
        request."""
        token = os.urandom(12).hex()
        os.write(req_w, ("%s\t%s\n" % (token, payload)).encode())
        head = read_line(deadline, dests)
        fields = head.decode("ascii", "replace").split() if head is not None else []
        if len(fields) != 6 or fields[0] != token or not fields[5].isdigit():
            return None
        text = read_exactly(rep_r, int(fields[5]))
        if text is None:
            return None
        return fields[1], fields[2], fields[3], fields[4], text

    # Start-up: the runtime warms itself up; anything it prints is dropped.
    if read_line(time.monotonic() + 60, [None, None]) != b"ready\n":
        return
    watch = Watch(pid)
    ctl.sendall(b"ready\n")
    while True:
        got = receive_sample()
        if got is None:
            return
        req, _, path, out_fd, err_fd = got
        deadline = time.monotonic() + float(req["timeout"])
        answer = ask(req["vm"], deadline, [out_fd, err_fd])
        if answer is None:
            return
        compiled, code, flags, compile_ms, text = answer
        status, timed_out, unsound = (int(code) & 0xFF) << 8, False, False
        for flag in flags.split(","):
            if flag == "timeout":
                timed_out = True
            elif flag.startswith("signal="):
                status = int(flag[7:]) & 0x7F
            elif flag == "unsound":
                unsound = True
        if int(compiled) == 0 and not runs_samples:
            status, _, timed_out = run_child(req, path, out_fd, err_fd, (None, 0))
        reply = {"status": status, "timed_out": timed_out,
                 "compile_code": int(compiled), "compile_ms": int(compile_ms),
                 "compile_output": text.decode("utf-8", "replace")}
        reply.update(watch.clean_up())
        if unsound:
            reply.update(discard=True, rerun=True, why="the runtime can't vouch for itself")
        if not restore_shared():
            reply.update(discard=True, why=reply["why"] + "; the output pipes' flags stuck")
        if runs_samples or int(compiled) != 0:
            # What the sample's last processes wrote before they died.
            for fd, dest in zip(outputs, [out_fd, err_fd]):
                relay(fd, dest)
            os.close(out_fd)
            os.close(err_fd)
        # Only the runtime can write there now, and it has answered: anything
        # more was forged or left by the sample (a later reply would not
        # answer the next request either).
        if select.select([rep_r], [], [], 0)[0]:
            return
        ctl.sendall(json.dumps(reply).encode() + b"\n")


if MODE == "vm":
    serve_vm()
else:
    serve()
