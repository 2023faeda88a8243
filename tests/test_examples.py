"""The examples and the user guide's code run on every device:
examples/typed_tour.py (every public class) and the Python blocks of the
guide's pages (docs/check_examples.py), each in a child process given the
device through PYOPENCL_CTX."""

import os
import runpy
import subprocess
import sys

import pycl as cl
from pycl.testing import require_kernel_compiler

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _ctx_spec(device):
    """PYOPENCL_CTX's "platform:device" indices of ``device``."""
    for p_index, platform in enumerate(cl.get_platforms()):
        for d_index, candidate in enumerate(platform.get_devices()):
            if candidate == device:
                return "%d:%d" % (p_index, d_index)
    raise AssertionError("%s is not among the devices found" % device.name)


def _run(script, device):
    env = dict(os.environ, PYOPENCL_CTX=_ctx_spec(device))
    return subprocess.run([sys.executable, script], capture_output=True, text=True, env=env, timeout=600)


def test_typed_tour_runs(ctx_factory):
    device = ctx_factory().devices[0]
    run = _run(os.path.join(ROOT, "examples", "typed_tour.py"), device)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "device: %s" % device.name in run.stdout
    assert run.stdout.rstrip().endswith("typed tour: done")


def test_guide_examples_run(ctx_factory):
    device = ctx_factory().devices[0]
    require_kernel_compiler(device)  # the guide's pages build kernels
    script = os.path.join(ROOT, "docs", "check_examples.py")
    run = _run(script, device)
    assert run.returncode == 0, run.stdout + run.stderr
    ran = [line for line in run.stdout.splitlines() if line.startswith("check_examples:") and "blocks ran" in line]
    assert len(ran) == len(runpy.run_path(script)["PAGES"]), run.stdout  # every page
    assert not [line for line in ran if line.endswith(": 0 blocks ran")], run.stdout
