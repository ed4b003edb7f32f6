"""``python -m polyeval ARGS``: run the ``polyeval`` command with ARGS."""

import os
import sys

from polyeval import find_polyeval_bin


def main() -> None:
    binary = find_polyeval_bin()
    if sys.platform == "win32":  # pragma: no cover - polyeval runs on Linux
        import subprocess

        sys.exit(subprocess.call([binary, *sys.argv[1:]]))
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
