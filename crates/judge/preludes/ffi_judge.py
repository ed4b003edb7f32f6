# polyeval's CrossPL-FFI judge, outside the candidate's process. Two modes,
# each run by polyeval in a sandbox of its own that never holds candidate code:
#
# instrument: a task's `assert_test` becomes a function that only *reports*
#   values. Each `assert COND, msg` is split into the parts of COND that need
#   the candidate's program (its "leaves": names, calls into the candidate's
#   code, attributes of its objects), which the rewritten test evaluates and
#   reports with `__polyeval_check(id, leaf, ...)`, and the rest (its
#   "skeleton": comparisons, arithmetic, constants, pure builtins and `math`),
#   which stays here, never in the program. Top-level assignments of pure
#   values used only by skeletons (`expected = [1, 2, 0]`) stay here too.
#
# evaluate: each reported check is decided by evaluating its skeleton with
#   the reported leaf values, rebuilt as plain Python values (objects of the
#   candidate's become opaque stand-ins that no operation can see through),
#   one run per forked child with limits, so no run can affect another's.
#
# The request is the JSON document in REQUEST; the answer is one JSON line on
# stdout after ANSWER_PREFIX.
import ast
import json
import os
import sys

ANSWER_PREFIX = "\x1epolyeval-ffi-judge "

# Builtins a skeleton may call: pure functions of plain values.
SAFE_BUILTINS = (
    "abs", "all", "any", "bin", "bool", "chr", "dict", "divmod", "enumerate",
    "float", "frozenset", "hex", "int", "isinstance", "len", "list", "max",
    "min", "oct", "ord", "pow", "range", "repr", "reversed", "round", "set",
    "sorted", "str", "sum", "tuple", "zip",
)
# Builtin constants and types a skeleton may name.
SAFE_NAMES = ("True", "False", "None", "complex", "bytes", "type")
# Modules a skeleton may use (attribute access and calls).
SAFE_MODULES = {"math": "math", "cmath": "cmath", "numpy": "numpy"}
# numpy functions that touch files or memory directly.
NUMPY_DENIED = {
    "load", "save", "savez", "savez_compressed", "loadtxt", "savetxt",
    "genfromtxt", "fromfile", "memmap", "ctypeslib", "DataSource", "lib",
    "frombuffer", "from_dlpack", "testing", "f2py", "distutils",
}
# Methods of plain values (str, list, tuple, dict, numbers) a skeleton may call.
PLAIN_METHODS = {
    "isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower",
    "isnumeric", "isdecimal", "isidentifier", "startswith", "endswith",
    "split", "rsplit", "splitlines", "strip", "lstrip", "rstrip", "lower",
    "upper", "title", "capitalize", "replace", "find", "rfind", "count",
    "index", "rindex", "join", "zfill", "keys", "values", "items", "get",
    "is_integer", "bit_length", "conjugate", "copy",
}


def _answer(obj):
    sys.stdout.write(ANSWER_PREFIX + json.dumps(obj) + "\n")
    sys.stdout.flush()


# ---------------------------------------------------------------- instrument


class _InProcess(Exception):
    """A leaf depends on a comprehension's variable: the comprehension runs
    in the program as a whole."""


def _stored_names(fn):
    names = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names[node.id] = names.get(node.id, 0) + 1
        elif isinstance(node, ast.arg):
            names[node.arg] = names.get(node.arg, 0) + 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not fn:
            names[node.name] = names.get(node.name, 0) + 1
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names[node.name] = names.get(node.name, 0) + 1
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound = (alias.asname or alias.name).split(".")[0]
                names[bound] = names.get(bound, 0) + 1
    return names


def _module_aliases(fn):
    """Names bound inside the function by `import m [as a]` of a safe module."""
    aliases = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in SAFE_MODULES:
                    aliases[alias.asname or alias.name] = alias.name
    return aliases


def _free_names(node):
    bound = set()
    for n in ast.walk(node):
        if isinstance(n, ast.comprehension):
            for t in ast.walk(n.target):
                if isinstance(t, ast.Name):
                    bound.add(t.id)
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - bound


class _Check:
    def __init__(self):
        self.leaves = []  # (source, conditional)
        self.index = {}


class _Skeleton:
    """Builds one assertion's skeleton, collecting its leaves."""

    def __init__(self, stored, aliases, hoisted):
        self.stored = stored
        self.aliases = aliases
        self.hoisted = hoisted
        self.modules_used = set()

    def module_of(self, name):
        if name in self.aliases:
            return self.aliases[name]
        if name in SAFE_MODULES and name not in self.stored:
            return SAFE_MODULES[name]
        if name == "np" and "np" not in self.stored:
            return "numpy"
        return None

    def leaf(self, node, check, scope, conditional):
        if scope and _free_names(node) & scope:
            raise _InProcess()
        source = ast.unparse(node)
        # A name or an attribute of a name is read once; calls are kept one
        # per occurrence (each call happens in the program, as it did).
        pure = isinstance(node, ast.Name) or (
            isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        )
        if pure and source in check.index:
            i = check.index[source]
            if not conditional:
                check.leaves[i] = (source, False)
        else:
            i = len(check.leaves)
            check.leaves.append((source, conditional))
            if pure:
                check.index[source] = i
        return ast.Call(func=ast.Name(id="__leaf", ctx=ast.Load()), args=[ast.Constant(i)], keywords=[])

    def build(self, node, check, scope=frozenset(), conditional=False):
        b = lambda n, c=conditional, s=None: self.build(n, check, scope if s is None else s, c)
        if isinstance(node, ast.Constant):
            return node
        if isinstance(node, ast.Name):
            if node.id in scope:
                return node
            if node.id in self.hoisted:
                return node
            if node.id in SAFE_BUILTINS and node.id not in self.stored:
                return node
            if node.id in SAFE_NAMES and node.id not in self.stored:
                return node
            if self.module_of(node.id):
                # A module used as a value (not through an attribute): in the program.
                return self.leaf(node, check, scope, conditional)
            return self.leaf(node, check, scope, conditional)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id not in scope:
                module = self.module_of(node.value.id)
                if module and not node.attr.startswith("_") and not (module == "numpy" and node.attr in NUMPY_DENIED):
                    self.modules_used.add((node.value.id, module))
                    return node
            return self.leaf(node, check, scope, conditional)
        if isinstance(node, ast.Call):
            func = node.func
            pure_call = False
            if isinstance(func, ast.Name) and func.id in SAFE_BUILTINS and func.id not in self.stored and func.id not in scope:
                pure_call = True
                new_func = func
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id not in scope and self.module_of(func.value.id):
                new_func = self.build(func, check, scope, conditional)
                pure_call = not (isinstance(new_func, ast.Call) and getattr(new_func.func, "id", None) == "__leaf")
            elif isinstance(func, ast.Attribute) and func.attr in PLAIN_METHODS:
                pure_call = True
                new_func = ast.Attribute(value=b(func.value), attr=func.attr, ctx=ast.Load())
            if pure_call and all(not isinstance(a, ast.Starred) for a in node.args) and all(k.arg is not None for k in node.keywords):
                return ast.Call(
                    func=new_func,
                    args=[b(a) for a in node.args],
                    keywords=[ast.keyword(arg=k.arg, value=b(k.value)) for k in node.keywords],
                )
            return self.leaf(node, check, scope, conditional)
        if isinstance(node, ast.BinOp):
            return ast.BinOp(left=b(node.left), op=node.op, right=b(node.right))
        if isinstance(node, ast.UnaryOp):
            return ast.UnaryOp(op=node.op, operand=b(node.operand))
        if isinstance(node, ast.BoolOp):
            return ast.BoolOp(op=node.op, values=[b(v, conditional if i == 0 else True) for i, v in enumerate(node.values)])
        if isinstance(node, ast.Compare):
            # Later operands of a chain are evaluated only while it holds.
            return ast.Compare(
                left=b(node.left),
                ops=node.ops,
                comparators=[b(c, conditional if i == 0 else True) for i, c in enumerate(node.comparators)],
            )
        if isinstance(node, ast.IfExp):
            return ast.IfExp(test=b(node.test), body=b(node.body, True), orelse=b(node.orelse, True))
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                return self.leaf(node, check, scope, conditional)
            elts = [b(e) for e in node.elts]
            if isinstance(node, ast.Set):
                return ast.Set(elts=elts)
            return type(node)(elts=elts, ctx=ast.Load())
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                return self.leaf(node, check, scope, conditional)
            return ast.Dict(keys=[b(k) for k in node.keys], values=[b(v) for v in node.values])
        if isinstance(node, ast.Subscript):
            return ast.Subscript(value=b(node.value), slice=b(node.slice), ctx=ast.Load())
        if isinstance(node, ast.Slice):
            return ast.Slice(
                lower=b(node.lower) if node.lower else None,
                upper=b(node.upper) if node.upper else None,
                step=b(node.step) if node.step else None,
            )
        if isinstance(node, ast.JoinedStr):
            return ast.JoinedStr(values=[b(v) for v in node.values])
        if isinstance(node, ast.FormattedValue):
            return ast.FormattedValue(
                value=b(node.value),
                conversion=node.conversion,
                format_spec=b(node.format_spec) if node.format_spec else None,
            )
        if isinstance(node, (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
            try:
                return self.comprehension(node, check, scope, conditional)
            except _InProcess:
                if scope and _free_names(node) & scope:
                    raise
                return self.leaf(node, check, scope, conditional)
        return self.leaf(node, check, scope, conditional)

    def comprehension(self, node, check, scope, conditional):
        generators = []
        inner = set(scope)
        for k, g in enumerate(node.generators):
            if g.is_async:
                raise _InProcess()
            # The first iterable is evaluated where the comprehension is;
            # the others (and everything after) only while it iterates.
            it = self.build(g.iter, check, frozenset(inner), conditional if k == 0 else True)
            for t in ast.walk(g.target):
                if isinstance(t, ast.Name):
                    inner.add(t.id)
            ifs = [self.build(c, check, frozenset(inner), True) for c in g.ifs]
            generators.append(ast.comprehension(target=g.target, iter=it, ifs=ifs, is_async=0))
        inner = frozenset(inner)
        if isinstance(node, ast.DictComp):
            return ast.DictComp(
                key=self.build(node.key, check, inner, True),
                value=self.build(node.value, check, inner, True),
                generators=generators,
            )
        return type(node)(elt=self.build(node.elt, check, inner, True), generators=generators)


def _hoistable(fn, stored, aliases):
    """Top-level `name = <pure value>` statements of the function (candidates)."""
    out = {}
    for i, st in enumerate(fn.body):
        if (
            isinstance(st, ast.Assign)
            and len(st.targets) == 1
            and isinstance(st.targets[0], ast.Name)
            and stored.get(st.targets[0].id) == 1
        ):
            out[st.targets[0].id] = (i, st.value)
    return out


def _fixed_names(fn, stored, aliases):
    """Names the test only ever assigns pure values (its own data, such as
    the inputs it passes to the candidate): whatever the candidate does, a
    correct run reports them as the canonical solution's run does."""
    values = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
    fixed = {n for n, vs in values.items() if stored.get(n) == len(vs)}
    while True:
        keep = set()
        for name in fixed:
            sk = _Skeleton(stored, aliases, fixed - {name})
            check = _Check()
            try:
                for v in values[name]:
                    sk.build(v, check)
            except _InProcess:
                continue
            if not check.leaves:
                keep.add(name)
        if keep == fixed:
            return fixed
        fixed = keep


def _instrument_one(source):
    tree = ast.parse(source)
    fn = next(
        (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "assert_test"),
        None,
    )
    if fn is None:
        raise ValueError("no top-level `def assert_test` in the task's test code")
    stored = _stored_names(fn)
    aliases = _module_aliases(fn)
    candidates = _hoistable(fn, stored, aliases)
    hoisted = set(candidates)
    while True:
        # Values must be pure given the names hoisted so far.
        pure = set()
        for name in hoisted:
            sk = _Skeleton(stored, aliases, hoisted - {name})
            check = _Check()
            try:
                sk.build(candidates[name][1], check)
            except _InProcess:
                continue
            if not check.leaves:
                pure.add(name)
        # Every use of a hoisted name must be in a skeleton.
        result = _rewrite(fn, stored, aliases, pure, set())
        used_elsewhere = result["names_in_program"] & pure
        keep = pure - used_elsewhere
        if keep == hoisted:
            break
        hoisted = keep
    result = _rewrite(fn, stored, aliases, hoisted, _fixed_names(fn, stored, aliases))
    hoist_list = []
    for name in sorted(hoisted, key=lambda n: candidates[n][0]):
        sk = _Skeleton(stored, aliases, set(hoisted))
        value = sk.build(candidates[name][1], _Check())
        hoist_list.append([name, ast.unparse(value)])
        result["modules"].update(sk.modules_used)
    return {
        "program": result["program"],
        "checks": result["checks"],
        "hoisted": hoist_list,
        "modules": sorted([list(m) for m in result["modules"]]),
    }


def _catches_assertion(handler):
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    for n in names:
        name = n.attr if isinstance(n, ast.Attribute) else getattr(n, "id", None)
        if name in ("AssertionError", "Exception", "BaseException"):
            return True
    return False


def _rewrite(fn, stored, aliases, hoisted, fixed):
    checks = []
    modules = set()
    hoisted_nodes = set()
    for st in fn.body:
        if (
            isinstance(st, ast.Assign)
            and len(st.targets) == 1
            and isinstance(st.targets[0], ast.Name)
            and st.targets[0].id in hoisted
        ):
            hoisted_nodes.add(id(st))

    class Rewriter(ast.NodeTransformer):
        # Inside the body of a `try` one of whose handlers catches
        # AssertionError, an assertion that fails is swallowed: it decides
        # nothing, so it stays as it is (only the way the test goes on
        # depends on it, and the canonical solution's run shows that way).
        swallowing = 0

        depth = 0

        def visit_Try(self, node):
            catches = any(_catches_assertion(h) for h in node.handlers)
            self.swallowing += catches
            node.body = self.visit_body(node.body)
            self.swallowing -= catches
            for h in node.handlers:
                self.visit(h)
                # Which handler ran is what the test checks there (that the
                # call raised): an event of the run, in order.
                what = "except " + (ast.unparse(h.type) if h.type is not None else "")
                h.body.insert(0, event("caught", what.strip(), h))
            node.orelse = self.visit_body(node.orelse)
            node.finalbody = self.visit_body(node.finalbody)
            return node

        visit_TryStar = visit_Try

        def visit_body(self, stmts):
            out = []
            for st in stmts:
                new = self.visit(st)
                out.extend(new if isinstance(new, list) else [new])
            return out

        def visit_FunctionDef(self, node):
            self.depth += 1
            node.body = self.visit_body(node.body)
            self.depth -= 1
            return node

        def visit_Return(self, node):
            if self.depth > 1:
                return node
            # The test reached its end: an event, after the returned value.
            keep = ast.Assign(targets=[ast.Name(id="__polyeval_returned", ctx=ast.Store())], value=node.value or ast.Constant(None))
            back = ast.Return(value=ast.Name(id="__polyeval_returned", ctx=ast.Load()))
            return [ast.copy_location(keep, node), event("returned", "return", node), ast.copy_location(back, node)]

        def visit_Assign(self, node):
            if id(node) in hoisted_nodes:
                return ast.Pass()
            return self.generic_visit(node)

        def visit_Assert(self, node):
            if self.swallowing:
                return node
            sk = _Skeleton(stored, aliases, hoisted)
            check = _Check()
            try:
                skeleton = sk.build(node.test, check)
            except _InProcess:
                skeleton = sk.leaf(node.test, check, frozenset(), False)
            modules.update(sk.modules_used)
            k = len(checks)
            checks.append(
                {
                    "id": k,
                    "line": node.lineno,
                    "source": ast.unparse(node.test),
                    "skeleton": ast.unparse(skeleton),
                    "leaves": [s for s, _ in check.leaves],
                    "fixed": [s in fixed for s, _ in check.leaves],
                    "kind": "assert",
                }
            )
            args = [ast.Constant(k)]
            for source, conditional in check.leaves:
                expr = ast.parse(source, mode="eval").body
                if conditional:
                    expr = ast.Call(
                        func=ast.Name(id="__polyeval_lazy", ctx=ast.Load()),
                        args=[ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=expr)],
                        keywords=[],
                    )
                args.append(expr)
            call = ast.Expr(value=ast.Call(func=ast.Name(id="__polyeval_check", ctx=ast.Load()), args=args, keywords=[]))
            return ast.copy_location(call, node)

    def event(kind, what, node):
        k = len(checks)
        checks.append(
            {"id": k, "line": getattr(node, "lineno", 0), "source": what, "skeleton": "True", "leaves": [], "kind": kind}
        )
        call = ast.Expr(value=ast.Call(func=ast.Name(id="__polyeval_check", ctx=ast.Load()), args=[ast.Constant(k)], keywords=[]))
        return ast.copy_location(call, node) if hasattr(node, "lineno") else call

    new_fn = Rewriter().visit(ast.parse(ast.unparse(fn)).body[0])
    if not (new_fn.body and isinstance(new_fn.body[-1], ast.Return)):
        new_fn.body.append(event("returned", "end of assert_test", new_fn))
    ast.fix_missing_locations(new_fn)
    program = ast.unparse(new_fn)
    # Names the rewritten program still reads (a hoisted one must not be among them).
    names = {n.id for n in ast.walk(ast.parse(program)) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return {"program": program + "\n", "checks": checks, "modules": modules, "names_in_program": names}


def instrument(request):
    out = []
    for source in request["sources"]:
        try:
            out.append(_instrument_one(source))
        except SyntaxError as e:
            out.append({"error": "the test code does not parse: %s (line %s)" % (e.msg, e.lineno)})
        except Exception as e:  # noqa: BLE001 - reported per task
            out.append({"error": "%s: %s" % (type(e).__name__, e)})
    _answer({"tasks": out})


# ------------------------------------------------------------------ evaluate


class NotEvaluable(Exception):
    """An operation needed a value of the candidate's program that is only
    known as an opaque object."""


class CandidateRaised(Exception):
    def __init__(self, kind, message):
        Exception.__init__(self, kind)
        self.kind = kind
        self.message = message


def _refuse(*_args, **_kwargs):
    raise NotEvaluable()


class Opaque:
    """An object of the candidate's program: its type name and fields, and
    nothing else (equality, truth, length, order, hashing … are unknown)."""

    __slots__ = ("type_name", "fields")

    def __init__(self, type_name, fields):
        object.__setattr__(self, "type_name", type_name)
        object.__setattr__(self, "fields", fields)

    def __eq__(self, other):
        if other is self:
            return True
        raise NotEvaluable()

    def __ne__(self, other):
        if other is self:
            return False
        raise NotEvaluable()

    def __getattr__(self, name):
        raise NotEvaluable()


for _name in (
    "__bool__", "__len__", "__iter__", "__hash__", "__lt__", "__le__", "__gt__",
    "__ge__", "__contains__", "__getitem__", "__add__", "__radd__", "__sub__",
    "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
    "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__",
    "__rpow__", "__neg__", "__pos__", "__abs__", "__float__", "__int__",
    "__index__", "__round__", "__str__", "__repr__", "__format__", "__call__",
    "__and__", "__or__", "__xor__", "__invert__", "__matmul__", "__setattr__",
):
    setattr(Opaque, _name, _refuse)


def _value(v):
    """A reported value (the judge's wire format) as a plain Python value."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, list):
        return [_value(x) for x in v]
    if isinstance(v, dict) and len(v) >= 1:
        if "int" in v:
            return int(v["int"])
        if "float" in v:
            return float(v["float"])
        if "tuple" in v:
            return tuple(_value(x) for x in v["tuple"])
        if "set" in v:
            items = [_value(x) for x in v["set"]]
            try:
                return set(items)
            except (TypeError, NotEvaluable):
                return Opaque("set", {})
        if "map" in v:
            try:
                return {_value(k): _value(x) for k, x in v["map"]}
            except (TypeError, NotEvaluable):
                return Opaque("dict", {})
        if "object" in v:
            fields = {}
            for pair in v.get("fields") or []:
                if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str):
                    fields[pair[0]] = _value(pair[1])
            return Opaque(str(v["object"]), fields)
        if "char" in v:
            return chr(v["char"])
    return Opaque("truncated", {})


def _namespace(modules):
    import builtins

    names = {n: getattr(builtins, n) for n in SAFE_BUILTINS + SAFE_NAMES if hasattr(builtins, n)}
    ns = {"__builtins__": names}
    for alias, module in modules:
        try:
            ns[alias] = __import__(module)
        except ImportError:
            pass
    return ns


def _outcome(skeleton, leaves, ns):
    def leaf(i):
        v = leaves[i]
        if isinstance(v, CandidateRaised):
            raise v
        return v

    scope = dict(ns)
    scope["__leaf"] = leaf
    try:
        held = eval(skeleton, scope)  # noqa: S307 - a skeleton holds no candidate code
        if isinstance(held, Opaque):
            raise NotEvaluable()
        return "T" if held else "F"
    except NotEvaluable:
        return {"not_evaluable": "needs a value of the candidate's program that is an object"}
    except CandidateRaised as e:
        return {"raised": {"type": e.kind, "message": e.message}}
    except RecursionError:
        return {"error": {"type": "RecursionError", "message": "maximum recursion depth exceeded"}}
    except Exception as e:  # noqa: BLE001 - the assertion itself raised
        return {"error": {"type": type(e).__name__, "message": str(e)[:300]}}


def _leaves(raw):
    out = []
    for v in raw:
        if isinstance(v, dict) and "raised" in v and isinstance(v["raised"], dict):
            out.append(CandidateRaised(str(v["raised"].get("type", "?")), str(v["raised"].get("message", ""))))
        else:
            out.append(_value(v))
    return out


def _evaluate_run(task, records):
    ns = _namespace([tuple(m) for m in task.get("modules", [])])
    for name, expr in task.get("hoisted", []):
        try:
            ns[name] = eval(expr, dict(ns))  # noqa: S307 - task constants
        except Exception:  # noqa: BLE001 - checks using it fail to evaluate
            pass
    checks = task["checks"]
    out = []
    for check_id, raw in records:
        if not (isinstance(check_id, int) and 0 <= check_id < len(checks)):
            out.append({"error": {"type": "protocol", "message": "unknown check"}})
            continue
        out.append(_outcome(checks[check_id]["skeleton"], _leaves(raw), ns))
    return out


def evaluate(request):
    import resource
    import signal

    tasks = request["tasks"]
    seconds = float(request.get("seconds_per_run", 10.0))
    memory = int(request.get("memory_bytes_per_run", 1 << 30))
    results = []
    for run in request["runs"]:
        # One child per run: whatever a run's values make the evaluation do
        # (a huge power, a deep structure), no other run's verdict changes.
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(r)
                resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
                signal.setitimer(signal.ITIMER_REAL, seconds)
                data = json.dumps(_evaluate_run(tasks[run["task"]], run["records"])).encode()
                with os.fdopen(w, "wb") as f:
                    f.write(data)
            finally:
                os._exit(0)
        os.close(w)
        with os.fdopen(r, "rb") as f:
            data = f.read()
        os.waitpid(pid, 0)
        try:
            results.append(json.loads(data))
        except ValueError:
            results.append({"failed": "the evaluation of this run's values exceeded its time or memory"})
    _answer({"runs": results})


def main(request_text):
    request = json.loads(request_text)
    sys.setrecursionlimit(10000)
    if request["mode"] == "instrument":
        instrument(request)
    else:
        evaluate(request)
