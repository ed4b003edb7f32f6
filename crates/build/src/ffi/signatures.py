# polyeval build ffi: the classes and functions a solution defines, with
# their parameters, read from its syntax tree (the program is not run).
# assert_test and everything defined inside it are left out.
import ast
import json
import sys

tree = ast.parse(SOURCE)
inside_test = set()
for node in ast.walk(tree):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "assert_test":
        inside_test.update(id(n) for n in ast.walk(node))
classes, functions = [], []
for node in ast.walk(tree):
    if id(node) in inside_test:
        continue
    if isinstance(node, ast.ClassDef):
        if node.name not in classes:
            classes.append(node.name)
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = node.args
        params = [p.arg for p in a.posonlyargs + a.args]
        if a.vararg:
            params.append("*" + a.vararg.arg)
        params += [p.arg for p in a.kwonlyargs]
        if a.kwarg:
            params.append("**" + a.kwarg.arg)
        if [node.name, params] not in functions:
            functions.append([node.name, params])
json.dump({"classes": classes, "functions": functions}, sys.stdout)
