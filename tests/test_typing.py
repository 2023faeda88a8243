"""pycl's annotations as a user's type checker sees them: examples/typed_tour.py
(every public class, each variable annotated with the type pycl must give)
passes mypy, and mypy rejects misuse that the annotations exist to catch.
tests/test_examples.py runs the tour."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOUR = os.path.join(ROOT, "examples", "typed_tour.py")
CONFIG = os.path.join(ROOT, "pyproject.toml")


def _mypy(tmp_path, *files):
    pytest.importorskip("mypy", reason="mypy is not installed here (make typecheck installs it; CPython only)")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", CONFIG, "--cache-dir", str(tmp_path / "cache"), *files],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
        timeout=600,
    )
    return run.returncode, run.stdout + run.stderr


def test_mypy_accepts_the_tour(tmp_path):
    code, out = _mypy(tmp_path, TOUR)
    assert code == 0, out


# Each line is a mistake the annotations must catch: (code, what mypy says).
MISUSE = [
    ('cl.Buffer(ctx, "READ_WRITE", 16)', 'incompatible type "str"'),
    ("cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16, hostbuf=3.5)", 'incompatible type "float"'),
    ("cl.CommandQueue(ctx).finish(1)", "Too many arguments"),
    ("image: cl.Image = cl.Buffer(ctx, 0, 16)", 'Incompatible types in assignment (expression has type "Buffer"'),
    ("name: int = ctx.devices[0].platform.get_devices()[0].name", "Incompatible types in assignment"),
    ("cl.enqueue_fill_buffer(queue, cl.Buffer(ctx, 0, 16), b'x', 0, size='4')", 'incompatible type "str"'),
    ("cl.tools.MemoryPool(cl.tools.ImmediateAllocator(queue)).allocate('big')", 'incompatible type "str"'),
    ("cl.svm_empty(ctx, cl.svm_mem_flags.READ_WRITE, (4,), np.float32, alignment='8')", 'incompatible type "str"'),
    ("cl.enqueue_marker(queue, wait_for=3)", 'incompatible type "int"'),
    ("cl.Kernel(cl.Program(ctx, 'src'), 7)", 'incompatible type "int"'),
]


def test_mypy_rejects_misuse(tmp_path):
    lines = ["import numpy as np", "import pycl as cl", "import pycl.tools", ""]
    lines += ["ctx = cl.create_some_context()", "queue = cl.CommandQueue(ctx)", ""]
    first = len(lines) + 1
    lines += [code for code, _ in MISUSE]
    path = tmp_path / "misuse.py"
    path.write_text("\n".join(lines) + "\n")
    code, out = _mypy(tmp_path, "misuse.py")
    assert code == 1, out
    for offset, (line, expected) in enumerate(MISUSE):
        reported = [r for r in out.splitlines() if r.startswith("misuse.py:%d:" % (first + offset))]
        assert reported, "mypy accepted %r:\n%s" % (line, out)
        assert any(expected in r for r in reported), "%r: expected %r in\n%s" % (line, expected, "\n".join(reported))
    assert out.count(" error: ") == len(MISUSE), out
