"""Run the Python examples of the user guide, so they stay correct.

Each page's ``.. code-block:: python`` blocks run in order in one namespace
(the examples on a page continue one another), on the device
``create_some_context(interactive=False)`` picks (``PYOPENCL_CTX``). The
embedding page is left out: its examples build a C extension. The fuzzing
page needs the test extra (pytest, hypothesis). Needs an OpenCL device that
compiles kernels (the pip PoCL, on most machines); tests/test_examples.py
runs it on every such device::

    .venv/bin/python docs/check_examples.py [page.rst ...]
"""

from __future__ import annotations

import os
import re
import sys
import textwrap
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
PAGES = ["index", "devices", "transfers", "svm", "images", "pools", "pinned", "pypy", "fuzzing"]


def python_blocks(path: str) -> list[tuple[int, str]]:
    """``(line number, code)`` of each ``.. code-block:: python`` of an rst file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        match = re.match(r"(\s*)\.\. code-block:: python\s*$", lines[i])
        i += 1
        if not match:
            continue
        indent, start, body = len(match.group(1)), i + 1, []
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
            body.append(lines[i])
            i += 1
        code = textwrap.dedent("\n".join(line for line in body if not line.strip().startswith(":")))
        blocks.append((start, code.strip("\n")))
    return blocks


def main(argv: list[str]) -> int:
    os.environ.setdefault("POCL_CACHE_DIR", os.path.join(HERE, "_build", "pocl-cache"))
    pages = argv[1:] or [os.path.join(HERE, page + ".rst") for page in PAGES]
    failed = 0
    for path in pages:
        namespace = {"__name__": "__main__"}
        blocks = python_blocks(path)
        for line, code in blocks:
            try:
                exec(compile(code, f"{path}:{line}", "exec"), namespace)
            except Exception:
                print(f"check_examples: {os.path.relpath(path)}, the block at line {line} failed:", file=sys.stderr)
                traceback.print_exc()
                failed += 1
                break
        else:
            print(f"check_examples: {os.path.relpath(path)}: {len(blocks)} blocks ran")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
