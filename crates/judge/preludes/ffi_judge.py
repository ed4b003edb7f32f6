# polyeval's CrossPL-FFI judge, outside the candidate's process. Two modes,
# each run by polyeval in a sandbox of its own that never holds candidate code:
#
# instrument: a task's `assert_test` becomes a function that only *reports*
#   values. Each `assert COND, msg` is split into the parts of COND that need
#   the candidate's program (its "leaves": names, calls into the candidate's
#   code, attributes of its objects), which the rewritten test evaluates and
#   reports with `__polyeval_check(id, leaf, ...)`, and the rest (its
#   "skeleton": comparisons, arithmetic, constants, pure builtins and `math`),
#   which stays here, never in the program. A pure value the test computes
#   (`expected = math.log1p(x)`) is inlined into the skeletons that read it
#   (the value reaching that point of the test), and its assignment leaves
#   the program when nothing else there reads it.
#
# evaluate: each reported check is decided by evaluating its skeleton with
#   the reported leaf values, rebuilt as plain Python values (objects of the
#   candidate's become opaque stand-ins that no operation can see through),
#   one run per forked child with limits, so no run can affect another's.
#
# The request is the JSON document in REQUEST; the answer is one JSON line on
# stdout after ANSWER_PREFIX.
import ast
import copy
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
    """Builds one assertion's skeleton, collecting its leaves. `defs` maps a
    name to the pure value reaching this point of the test (inlined: the
    value is computed outside, never read from the program)."""

    def __init__(self, stored, aliases, defs):
        self.stored = stored
        self.aliases = aliases
        self.defs = defs
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
            if node.id in self.defs:
                return self.build(self.defs[node.id], check, scope, conditional)
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


def _store_sites(fn):
    """Per name, how the test binds it: ("assign", value) for `name = value`,
    ("for", iterable) for a loop over a name (or a tuple of names), or
    ("other", None)."""
    sites = {}

    def add(name, kind, node):
        sites.setdefault(name, []).append((kind, node))

    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            add(node.targets[0].id, "assign", node.value)
        elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node, ast.For):
            names = [t for t in ast.walk(node.target) if isinstance(t, ast.Name)]
            plain = isinstance(node.target, ast.Name) or (
                isinstance(node.target, ast.Tuple) and all(isinstance(e, ast.Name) for e in node.target.elts)
            )
            for t in names:
                add(t.id, "for" if plain else "other", node.iter)
    stored = _stored_names(fn)
    counted = {n: len(v) for n, v in sites.items()}
    for name, n in stored.items():
        if counted.get(name, 0) != n:
            add(name, "other", None)
    return sites


def _fixed_names(fn, stored, aliases):
    """Names the test only binds to its own data (pure values, loops over
    pure values): whatever the candidate does, a correct run reports them as
    the canonical solution's run does."""
    sites = _store_sites(fn)
    fixed = {n for n, ss in sites.items() if all(kind != "other" for kind, _ in ss)}
    while True:
        keep = set()
        for name in fixed:
            ok = True
            for _, value in sites[name]:
                sk = _Skeleton(stored, aliases, {})
                check = _Check()
                try:
                    sk.build(value, check)
                except _InProcess:
                    ok = False
                    break
                if any(src not in fixed - {name} for src, _ in check.leaves):
                    ok = False
                    break
            if ok:
                keep.add(name)
        if keep == fixed:
            return fixed
        fixed = keep


def _substitute(node, defs, scope=frozenset()):
    """A copy of `node` with the names of `defs` replaced by their values
    (names bound by its comprehensions left alone)."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in defs and node.id not in scope:
        return copy.deepcopy(defs[node.id])
    if isinstance(node, (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
        inner = set(scope)
        new = copy.copy(node)
        gens = []
        for k, g in enumerate(node.generators):
            it = _substitute(g.iter, defs, frozenset(inner) if k else scope)
            for t in ast.walk(g.target):
                if isinstance(t, ast.Name):
                    inner.add(t.id)
            ifs = [_substitute(c, defs, frozenset(inner)) for c in g.ifs]
            gens.append(ast.comprehension(target=g.target, iter=it, ifs=ifs, is_async=g.is_async))
        new.generators = gens
        inner = frozenset(inner)
        if isinstance(node, ast.DictComp):
            new.key = _substitute(node.key, defs, inner)
            new.value = _substitute(node.value, defs, inner)
        else:
            new.elt = _substitute(node.elt, defs, inner)
        return new
    new = copy.copy(node)
    for field, value in ast.iter_fields(node):
        if isinstance(value, ast.AST):
            setattr(new, field, _substitute(value, defs, scope))
        elif isinstance(value, list):
            setattr(new, field, [_substitute(v, defs, scope) if isinstance(v, ast.AST) else v for v in value])
    return new


def _bound_in(stmts):
    """Names a list of statements binds, anywhere inside."""
    names = set()
    for st in stmts:
        names |= set(_stored_names(ast.FunctionDef(name="_", args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[st], decorator_list=[])))
    return names


def _invalidate(defs, names):
    """Forget the values of `names` and of everything computed from them."""
    changed = True
    gone = set(names)
    while changed:
        changed = False
        for n in list(defs):
            if n in gone or (_free_names(defs[n]) & gone):
                del defs[n]
                gone.add(n)
                changed = True


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
    fixed = _fixed_names(fn, stored, aliases)
    # Pure values only assertions read are computed outside and their
    # assignments leave the program; find them by a fixpoint (dropping one
    # can leave another read nowhere else).
    drop = set()
    while True:
        result = _Rewrite(stored, aliases, fixed, drop).run(fn)
        more = result.pure_assigned - result.names_in_program - drop
        if not more:
            break
        drop |= more
    return {
        "program": result.program,
        "checks": result.checks,
        "modules": sorted([list(m) for m in result.modules]),
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


def _call(name, args):
    return ast.Expr(value=ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=args, keywords=[]))


class _Rewrite:
    """The instrumented test: each assertion reports its leaves, each
    `except` handler and the end report events, pure values that only
    assertions read are dropped (inlined into the skeletons)."""

    def __init__(self, stored, aliases, fixed, drop):
        self.stored = stored
        self.aliases = aliases
        self.fixed = fixed
        self.drop = drop
        self.checks = []
        self.modules = set()
        self.pure_assigned = set()
        # Inside the body of a `try` one of whose handlers catches
        # AssertionError, an assertion that fails is swallowed: it decides
        # nothing, so it stays as it is (only the way the test goes on
        # depends on it, and the canonical solution's run shows that way).
        self.swallowing = 0
        self.depth = 0

    def run(self, fn):
        fn = ast.parse(ast.unparse(fn)).body[0]
        self.depth = 1
        fn.body = self.block(fn.body, {})
        if not (fn.body and isinstance(fn.body[-1], ast.Return)):
            fn.body.append(self.event("returned", "end of assert_test", fn))
        ast.fix_missing_locations(fn)
        self.program = ast.unparse(fn) + "\n"
        self.names_in_program = {
            n.id for n in ast.walk(ast.parse(self.program)) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        }
        return self

    def event(self, kind, what, node):
        k = len(self.checks)
        self.checks.append(
            {"id": k, "line": getattr(node, "lineno", 0), "source": what, "skeleton": "True", "leaves": [], "fixed": [], "kind": kind}
        )
        call = _call("__polyeval_check", [ast.Constant(k)])
        return ast.copy_location(call, node) if hasattr(node, "lineno") else call

    def block(self, stmts, defs):
        out = []
        for st in stmts:
            new = self.stmt(st, defs)
            out.extend(new)
        return out or [ast.Pass()]

    def pure_value(self, value, defs):
        """The value with the reaching definitions substituted, when it is
        pure (constants, safe functions, the test's own data); else None."""
        sk = _Skeleton(self.stored, self.aliases, defs)
        check = _Check()
        try:
            sk.build(value, check)
        except _InProcess:
            return None
        if any(src not in self.fixed for src, _ in check.leaves):
            return None
        return _substitute(value, defs)

    def stmt(self, st, defs):
        if isinstance(st, ast.Assert):
            if self.swallowing:
                return [st]
            return [self.check(st, defs)]
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            name = st.targets[0].id
            value = self.pure_value(st.value, defs)
            _invalidate(defs, {name})
            if value is not None:
                defs[name] = value
                self.pure_assigned.add(name)
                if name in self.drop:
                    return []
            return [st]
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.depth += 1
            st.body = self.block(st.body, {})
            self.depth -= 1
            _invalidate(defs, {st.name})
            return [st]
        if isinstance(st, ast.Return):
            if self.depth > 1:
                return [st]
            # The test reached its end: an event, after the returned value.
            keep = ast.Assign(targets=[ast.Name(id="__polyeval_returned", ctx=ast.Store())], value=st.value or ast.Constant(None))
            back = ast.Return(value=ast.Name(id="__polyeval_returned", ctx=ast.Load()))
            return [ast.copy_location(keep, st), self.event("returned", "return", st), ast.copy_location(back, st)]
        if isinstance(st, (ast.For, ast.AsyncFor, ast.While)):
            inside = _bound_in([st])
            _invalidate(defs, inside)
            st.body = self.block(st.body, dict(defs))
            st.orelse = self.block(st.orelse, dict(defs)) if st.orelse else []
            return [st]
        if isinstance(st, ast.If):
            inside = _bound_in([st])
            st.body = self.block(st.body, dict(defs))
            st.orelse = self.block(st.orelse, dict(defs)) if st.orelse else []
            _invalidate(defs, inside)
            return [st]
        if isinstance(st, (ast.With, ast.AsyncWith)):
            inside = _bound_in([st])
            st.body = self.block(st.body, dict(defs))
            _invalidate(defs, inside)
            return [st]
        if isinstance(st, ast.Try) or type(st).__name__ == "TryStar":
            inside = _bound_in([st])
            catches = any(_catches_assertion(h) for h in st.handlers)
            self.swallowing += catches
            st.body = self.block(st.body, dict(defs))
            self.swallowing -= catches
            for h in st.handlers:
                # Which handler ran is what the test checks there (that the
                # call raised): an event of the run, in order.
                h_defs = dict(defs)
                _invalidate(h_defs, inside)
                body = self.block(h.body, h_defs)
                what = "except " + (ast.unparse(h.type) if h.type is not None else "")
                h.body = [self.event("caught", what.strip(), h)] + body
            st.orelse = self.block(st.orelse, dict(defs)) if st.orelse else []
            f_defs = dict(defs)
            _invalidate(f_defs, inside)
            st.finalbody = self.block(st.finalbody, f_defs) if st.finalbody else []
            _invalidate(defs, inside)
            return [st]
        _invalidate(defs, _bound_in([st]))
        return [st]

    def check(self, node, defs):
        sk = _Skeleton(self.stored, self.aliases, defs)
        check = _Check()
        try:
            skeleton = sk.build(node.test, check)
        except _InProcess:
            check = _Check()
            skeleton = sk.leaf(node.test, check, frozenset(), False)
        self.modules.update(sk.modules_used)
        k = len(self.checks)
        self.checks.append(
            {
                "id": k,
                "line": node.lineno,
                "source": ast.unparse(node.test),
                "skeleton": ast.unparse(skeleton),
                "leaves": [src for src, _ in check.leaves],
                "fixed": [src in self.fixed for src, _ in check.leaves],
                "kind": "assert",
            }
        )
        args = [ast.Constant(k)]
        for src, conditional in check.leaves:
            expr = ast.parse(src, mode="eval").body
            if conditional:
                expr = ast.Call(
                    func=ast.Name(id="__polyeval_lazy", ctx=ast.Load()),
                    args=[ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=expr)],
                    keywords=[],
                )
            args.append(expr)
        return ast.copy_location(_call("__polyeval_check", args), node)


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
                    if pair[0] == "__exception__":
                        return _exception(str(v["object"]), pair[1])
                    fields[pair[0]] = _value(pair[1])
            return Opaque(str(v["object"]), fields)
        if "char" in v:
            return chr(v["char"])
    return Opaque("truncated", {})


def _exception(name, parts):
    """A reported exception rebuilt as one: an instance of its builtin
    exception class (or of a stand-in class of its name derived from it), with
    its arguments, whose `str` is the message the program's `str` gave."""
    import builtins

    try:
        mro, args, message = parts
        args = _value(args)
        args = tuple(args) if isinstance(args, (list, tuple)) else ()
    except (TypeError, ValueError):
        return Opaque(name, {})
    base = Exception
    for n in mro if isinstance(mro, list) else []:
        c = getattr(builtins, str(n), None)
        if isinstance(c, type) and issubclass(c, BaseException):
            base = c
            break
    cls = base if name == base.__name__ else type(name, (base,), {})
    try:
        e = cls(*args)
    except Exception:  # noqa: BLE001 - a constructor with other arguments
        e = cls.__new__(cls)
        e.args = args
    try:
        plain = str(e)
    except Exception:  # noqa: BLE001
        plain = None
    if plain != message:
        cls = type(name, (base,), {"__str__": lambda self, m=str(message): m})
        e = cls.__new__(cls)
        e.args = args
    return e


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
