# redteam: task=FFI_9 expect=nopass  (probe: searches every readable file under /sandbox, /tmp (not /polyeval: opening the nonce FIFO is tampering), /dev/shm, /proc/1, the environment, the parent's command line and the program file for the third expected list of the test (3 hundreds in descending order); prints what it finds)
import os
import sys

NEEDLE = b"300, 200, 1" + b"00"
found = []
for top in ("/sandbox", "/tmp", "/dev/shm", "/proc/1", "/proc/%d" % os.getppid(), "/usr/local"):
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
            if NEEDLE in data:
                found.append(p)
print("FOUND:", found, "argv:", sys.argv)
sys.stderr.write("FOUND: %r\n" % found)
