"""Fail unless every public name of pycl's documented modules is in the API
reference.

The names are those of ``__all__`` of ``pycl`` and ``pycl.tools`` (the
namespaces PyOpenCL code uses) and of the public submodules that have an
``__all__`` (``pycl.characterize``, ``pycl.pinned``, ``pycl.staging``,
``pycl.budget``, ``pycl.embed``, ``pycl.testing``, ``pycl.strategies``,
``pycl.mpi``). A name
is documented when the built site's inventory (``objects.inv``) holds it
under its public name (``pycl.Buffer``, ``pycl.tools.MemoryPool``), or, for a
submodule's re-export of a ``pycl`` name (``pycl.embed.get_include``), under
that ``pycl`` name. Run after the HTML build::

    python docs/check_coverage.py [docs/_build/html]
"""

from __future__ import annotations

import importlib
import os
import re
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

MODULES = [
    "pycl",
    "pycl.tools",
    "pycl.characterize",
    "pycl.pinned",
    "pycl.staging",
    "pycl.budget",
    "pycl.embed",
    "pycl.testing",
    "pycl.strategies",
    "pycl.mpi",
]


def inventory_names(path: str) -> set[str]:
    """The Python object names of a Sphinx objects.inv (version 2)."""
    with open(path, "rb") as f:
        first = f.readline()
        if not first.startswith(b"# Sphinx inventory version 2"):
            raise SystemExit(f"check_coverage: {path}: not a Sphinx inventory version 2")
        for _ in range(3):
            f.readline()
        body = zlib.decompress(f.read()).decode("utf-8")
    names = set()
    for line in body.splitlines():
        # "name domain:role priority uri display-name"; Python names have no spaces.
        match = re.match(r"(\S+)\s+py:\w+\s", line)
        if match:
            names.add(match.group(1))
    return names


def main(argv: list[str]) -> int:
    build = argv[1] if len(argv) > 1 else os.path.join(HERE, "_build", "html")
    inv_path = os.path.join(build, "objects.inv")
    if not os.path.isfile(inv_path):
        print(f"check_coverage: {inv_path} is missing: build the HTML first", file=sys.stderr)
        return 2
    documented = inventory_names(inv_path)

    import pycl

    missing = []
    counted = 0
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            counted += 1
            if f"{module_name}.{name}" in documented:
                continue
            obj = getattr(module, name)
            if module_name != "pycl" and getattr(pycl, name, None) is obj and f"pycl.{name}" in documented:
                continue
            missing.append(f"{module_name}.{name}")
    if missing:
        print(
            "check_coverage: %d public name(s) missing from the API reference (docs/api_*.rst):\n  %s"
            % (len(missing), "\n  ".join(missing)),
            file=sys.stderr,
        )
        return 1
    print(f"check_coverage: all {counted} public names of {len(MODULES)} modules are documented")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
