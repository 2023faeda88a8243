"""What ``import pycl`` costs over ``import numpy``: whole processes, best of N.

    python bench/import_time.py [--python EXE] [--repeats N] [--source] [--also pyopencl]

Each round starts one process per module, ``EXE -c "import MODULE"``, in
turn (so the machine's load falls on all alike), and times it from start to
exit; a figure is the best over ``--repeats`` (10) rounds. ``python -c pass``
is the interpreter's own start, ``numpy`` the floor pycl builds on, and the
last column each module's cost over ``import numpy``.

The pycl imported is this checkout's (``PYTHONPATH`` points at it). By default
every module's bytecode is written first (into a temporary
``PYTHONPYCACHEPREFIX``) and read back, as in an installed package.
``--source`` sets ``PYTHONDONTWRITEBYTECODE`` instead, as the development
machines' environment does: a checkout without ``__pycache__`` then compiles
pycl's modules on every import, while numpy reads its installed bytecode.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def process_seconds(python, statement, env):
    start = time.perf_counter()
    subprocess.run([python, "-c", statement], env=env, check=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter to time (default: this one)")
    parser.add_argument("--repeats", type=int, default=10, help="rounds; each figure is the best (default 10)")
    parser.add_argument("--source", action="store_true", help="compile pycl's modules on every import")
    parser.add_argument("--also", default="", help="more modules to time, comma separated (e.g. pyopencl)")
    args = parser.parse_args()

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")])))
    with tempfile.TemporaryDirectory() as bytecode:
        if args.source:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        else:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = bytecode
        rows = [("python -c pass", "pass"), ("import numpy", "import numpy"), ("import pycl", "import pycl")]
        rows += [(f"import {name}", f"import {name}") for name in filter(None, args.also.split(","))]
        for _, statement in rows:  # writes the bytecode (unless --source) and checks each import works
            process_seconds(args.python, statement, env)
        best = {label: float("inf") for label, _ in rows}
        for _ in range(args.repeats):
            for label, statement in rows:
                best[label] = min(best[label], process_seconds(args.python, statement, env))

    version = subprocess.run(
        [args.python, "-c", "import sys; print(sys.implementation.name, sys.version.split()[0])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(f"{version}, best of {args.repeats}, {'compiled from source' if args.source else 'from .pyc'}")
    print(f"{'':16} {'ms':>8} {'- numpy':>8}")
    for label, _ in rows:
        over = f"{(best[label] - best['import numpy']) * 1e3:+8.1f}" if label != "python -c pass" else ""
        print(f"{label:16} {best[label] * 1e3:8.1f} {over}")


if __name__ == "__main__":
    main()
