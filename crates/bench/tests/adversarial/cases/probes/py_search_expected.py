# redteam: task=py_acc expect=nopass  (probe: searches every readable file under /sandbox, /polyeval, /tmp, /dev/shm, /proc/1, the environment and the parent's command line for the expected value "hi bo"; prints what it finds)
import os

NEEDLE = b"hi b" + b"o"
found = []
for k, v in os.environ.items():
    if NEEDLE in (k + "=" + v).encode():
        found.append("env " + k)
for top in ("/sandbox", "/polyeval", "/tmp", "/dev/shm", "/proc/1", "/proc/%d" % os.getppid(), "/usr/local"):
    for root, dirs, files in os.walk(top):
        if root.startswith("/proc/") and root.count("/") > 3:
            dirs[:] = []
        for f in files:
            p = os.path.join(root, f)
            if p.startswith("/proc/") and f in ("mem", "pagemap", "kcore", "clear_refs"):
                continue
            try:
                with open(p, "rb") as fh:
                    data = fh.read(1 << 22)
            except Exception:
                continue
            if NEEDLE in data and p != os.path.abspath(__file__):
                found.append(p)
print("FOUND:", found)


class Acc:
    def add(self, a, b):
        return 0

    def greet(self, name):
        return ""
