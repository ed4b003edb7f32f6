"""polyeval: measure how well LLMs write code across programming languages.

This package carries the ``polyeval`` command (a Rust binary, installed into
the environment's ``bin/``) and :mod:`polyeval.runs`, which reads run
directories into plain Python records::

    import polyeval.runs
    run = polyeval.runs.load("polyeval-demo/runs/multioop-reference")

``python -m polyeval ARGS`` runs the command as ``polyeval ARGS`` does.
"""

from __future__ import annotations

import os
import sysconfig

__all__ = ["find_polyeval_bin"]


def find_polyeval_bin() -> str:
    """The path of the ``polyeval`` executable installed with this package."""
    name = "polyeval" + (sysconfig.get_config_var("EXE") or "")
    # Where pip put the package's scripts: the environment's own, the user
    # scheme's (`pip install --user`), then the prefix of a `--target`
    # install (`<target>/bin` beside `<target>/polyeval`).
    candidates = [sysconfig.get_path("scripts")]
    if hasattr(sysconfig, "get_preferred_scheme"):  # Python 3.10+
        user_scheme = sysconfig.get_preferred_scheme("user")
    else:
        user_scheme = "posix_user" if os.name == "posix" else "nt_user"
    candidates.append(sysconfig.get_path("scripts", scheme=user_scheme))
    candidates.append(
        os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bin")
    )
    for directory in candidates:
        path = os.path.join(directory, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise FileNotFoundError(
        f"the polyeval executable is not beside this package (looked in: {', '.join(candidates)}); "
        "reinstall it with `pip install --force-reinstall polyeval`"
    )
