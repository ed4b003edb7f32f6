# polyeval warm Python worker (zygote), run inside the sandbox as
#   python3 -B -c <this file> polyeval-warm-worker
# with its control socket on stdin (fd 0). It imports the modules harnesses
# use once, then for each request forks a child that runs one sample as
# `python3 -B <file>` would, in its own process group, a wiped work directory,
# rlimits and output pipes (received with the request), and kills it at the
# wall-clock limit. The zygote never runs sample code itself; after every
# sample it kills every other process in the sandbox and wipes the writable
# directories, so nothing of one sample reaches the next.
#
# Requests (host -> worker): one line of JSON {"len", "dir", "file", "cpu",
# "timeout"[, "argv"][, "shared"]} sent with two descriptors (stdout and
# stderr write ends; "shared": see shared_prefix), then
# `len` bytes of source. Replies (worker -> host): "ready\n" once, then per
# request one line of JSON {"status": raw wait status, "cpu_us", "timed_out"}.
import os, sys, socket, signal, json, time, resource, shutil, types, traceback, select
import threading, atexit, builtins, io, fcntl, warnings

# "python": samples are Python programs run in the forked child itself;
# "exec": each request names the command the child executes (PHP, node);
# "vm": one long-lived runtime (argv[3], JSON), started once, compiles or
# runs every sample (PolyevalWarmJava.java, PolyevalWarmCSharp.cs,
# warm_php.php); see serve_vm.
MODE = sys.argv[2] if len(sys.argv) > 2 else "python"

# What harness headers import (MultiOOP's Python programs all import numpy),
# and cheap modules solutions often do. Not unittest: no harness imports
# it, and it would add 5 ms to every worker's start.
for _name in () if MODE != "python" else ("numpy", "math", "collections", "typing", "re", "itertools",
              "functools", "heapq", "bisect", "random", "string", "copy",
              "decimal", "fractions", "datetime", "abc", "dataclasses", "enum",
              "statistics", "operator", "ctypes", "hashlib", "json", "struct",
              "array", "queue", "time"):
    try:
        __import__(_name)
    except Exception:
        pass

WRITABLE = ("/sandbox", "/tmp", "/dev/shm")
ctl = socket.socket(fileno=0)
# Orphans of a sample (daemons) become our children, not the supervisor's.
try:
    import ctypes as _ct
    _ct.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
except Exception:
    pass


def wipe():
    for top in WRITABLE:
        try:
            names = os.listdir(top)
        except OSError:
            continue
        for n in names:
            p = os.path.join(top, n)
            try:
                if os.path.isdir(p) and not os.path.islink(p):
                    shutil.rmtree(p, ignore_errors=True)
                else:
                    os.unlink(p)
            except OSError:
                pass


def kill_everything_else():
    # Every process of the sandbox but the supervisor (PID 1) and us.
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass
    while True:
        try:
            pid, _ = os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:
            continue


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


def run_sample(req, path, out_fd, err_fd, prefix):
    # In the child: become the sample's own process.
    os.setpgid(0, 0)
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    for fd in (null, out_fd, err_fd):
        if fd > 2:
            os.close(fd)
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
    # Random generators start from a fresh seed, as in a fresh interpreter:
    # `random` reseeds itself in a forked child (its at-fork hook), numpy's
    # global generator was reseeded by the zygote after the previous sample.
    sys.argv = [path]
    sys.path[0] = workdir
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = builtins
    main.__cached__ = None
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
        kill_everything_else()
        wipe()
        cpu_us = int((usage.ru_utime + usage.ru_stime) * 1e6)
        reply = {"status": status, "cpu_us": cpu_us, "timed_out": timed_out}
        ctl.sendall(json.dumps(reply).encode() + b"\n")
        if MODE == "python":
            reseed_numpy()


def kill_everything_but(keep):
    """Kill every process of the sandbox but PID 1, us and `keep` (the
    runtime), and wait until they are gone; False if some would not go."""
    me = os.getpid()

    def others():
        found = []
        for name in os.listdir("/proc"):
            if name.isdigit() and int(name) not in (1, me, keep):
                try:
                    with open("/proc/%s/stat" % name, "rb") as f:
                        state = f.read().rsplit(b")", 1)[1].split()[0]
                except (OSError, IndexError):
                    continue
                if state != b"Z":
                    found.append(int(name))
        return found

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
    """One runtime process serves every sample. Its stdout and stderr are
    pipes we relay to the sample's own (a sample's output is everything the
    runtime wrote between our request and its reply); requests go to its
    fd 3, replies come from its fd 4, its own diagnostics go to fd 5 (our
    stderr, the host's worker log). A runtime that dies, or doesn't answer
    within the request's time, ends us: the host re-runs the sample cold."""
    argv = json.loads(sys.argv[3])
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    null = os.open("/dev/null", os.O_RDONLY)
    os.makedirs("/sandbox", exist_ok=True)
    pid = os.fork()
    if pid == 0:
        try:
            ctl.close()
            os.chdir("/sandbox")
            # Out of the way first: a target may be another's source.
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 100)
                    for fd in (null, out_w, err_w, req_r, rep_w, 2)]
            for dst, fd in enumerate(high):
                os.dup2(fd, dst)
            os.closerange(6, 1 << 16)
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    for fd in (null, out_w, err_w, req_r, rep_w):
        os.close(fd)
    os.set_blocking(out_r, False)
    os.set_blocking(err_r, False)

    def relay(fd, dest):
        """Copy what is in `fd` to `dest`; False at EOF."""
        while True:
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                return True
            if not data:
                return False
            if dest is not None:
                view = memoryview(data)
                while view:
                    try:
                        view = view[os.write(dest, view):]
                    except BrokenPipeError:
                        dest = None
                        break

    def read_reply(deadline, out_fd, err_fd):
        """The runtime's reply line, relaying output meanwhile; None if it
        died or the deadline passed."""
        line = b""
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([rep_r, out_r, err_r], [], [], left)
            if out_r in ready:
                relay(out_r, out_fd)
            if err_r in ready:
                relay(err_r, err_fd)
            if rep_r in ready:
                data = os.read(rep_r, 1)
                if not data:
                    return None
                line += data
        return line

    # Start-up: the runtime warms itself up; anything it prints is dropped.
    if read_reply(time.monotonic() + 60, None, None) != b"ready\n":
        return
    ctl.sendall(b"ready\n")
    while True:
        got = receive_sample()
        if got is None:
            return
        req, _, path, out_fd, err_fd = got
        os.write(req_w, req["vm"].encode() + b"\n")
        head = read_reply(time.monotonic() + float(req["timeout"]), out_fd, err_fd)
        if head is None:
            return
        relay(out_r, out_fd)
        relay(err_r, err_fd)
        fields = head.decode().split()
        if len(fields) != 5:
            return
        compiled, code, flags, compile_ms, n = fields
        text = read_exactly(rep_r, int(n))
        if text is None:
            return
        status, timed_out, discard, rerun = (int(code) & 0xFF) << 8, False, False, False
        for flag in flags.split(","):
            if flag == "discard":
                discard = True
            elif flag == "rerun":
                rerun = True
            elif flag == "timeout":
                timed_out = True
            elif flag.startswith("signal="):
                status = int(flag[7:]) & 0x7F
        if int(compiled) == 0 and "argv" in req:
            # The runtime only compiled: run the cold run's command.
            status, _, timed_out = run_child(req, path, out_fd, err_fd, (None, 0))
        else:
            os.close(out_fd)
            os.close(err_fd)
        if not kill_everything_but(pid):
            discard = True
        wipe()
        reply = {"status": status, "timed_out": timed_out,
                 "compile_code": int(compiled), "compile_ms": int(compile_ms),
                 "compile_output": text.decode("utf-8", "replace"), "discard": discard,
                 "rerun": rerun}
        ctl.sendall(json.dumps(reply).encode() + b"\n")


if MODE == "vm":
    serve_vm()
else:
    serve()
