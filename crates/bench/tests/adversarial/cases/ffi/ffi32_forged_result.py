# redteam: task=FFI_32 expect=nopass  (wrong: log1p is 0.0 for every x; the forger reports the test's own `expected` as the result)
# --- a protocol-aware forger: reads the instrumented test from its own file,
# learns which leaves of each reported assertion hold the test's own data
# (names assigned constants or math/numpy of constants, loop variables over
# literal lists) and which hold this answer's outputs, and reports the
# data value in place of every output of an assertion that has one.
import ast as _ast
import sys as _sys
import math

_real_check = globals().get("__polyeval_check")
_kinds = {}


def _learn():
    src = open(_sys.modules["__main__"].__file__).read()
    fns = [n for n in _ast.parse(src).body if isinstance(n, _ast.FunctionDef) and n.name == "assert_test"]
    fn = fns[-1]
    data = set()

    def pure(node):
        for n in _ast.walk(node):
            if isinstance(n, _ast.Call):
                f = n.func
                if not (isinstance(f, _ast.Attribute) and isinstance(f.value, _ast.Name) and f.value.id in ("math", "np", "numpy")):
                    return False
            if isinstance(n, _ast.Name) and isinstance(n.ctx, _ast.Load) and n.id not in data and n.id not in ("math", "np", "numpy"):
                return False
        return True

    for n in _ast.walk(fn):
        if isinstance(n, _ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], _ast.Name) and pure(n.value):
            data.add(n.targets[0].id)
        if isinstance(n, _ast.For) and isinstance(n.target, _ast.Name) and pure(n.iter):
            data.add(n.target.id)
    for n in _ast.walk(fn):
        if isinstance(n, _ast.Call) and getattr(n.func, "id", None) == "__polyeval_check":
            k = n.args[0].value
            _kinds[k] = ["data" if isinstance(a, _ast.Name) and a.id in data else "out" for a in n.args[1:]]


def _forging_check(k, *leaves):
    if not _kinds:
        _learn()
    kinds = _kinds.get(k, [])
    known = [v for v, kind in zip(leaves, kinds) if kind == "data"]
    if known:
        leaves = tuple(known[0] if kind == "out" else v for v, kind in zip(leaves, kinds))
    return _real_check(k, *leaves)
if _real_check is not None:
    __polyeval_check = _forging_check
# --- end of the forger


def gsl_log1p_py(x):
    return 0.0
