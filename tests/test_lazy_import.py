"""``import pycl`` loads the core only; the other families (programs, images,
SVM, pipes, samplers, pools and tools ...) load on first use of one of their
names through ``pycl.__getattr__`` (pycl/__init__.py). Each check that needs
a fresh interpreter runs in a child process."""

import ast
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pycl
from pycl._compiler_probe import kernel_compile_problem

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(pycl.__file__)))

# Modules that ``import pycl`` must not load: the lazy families, the internal
# modules only they use, and the tools that were never part of the import.
NOT_AT_IMPORT = {
    "pycl." + name
    for name in """
        allocator between characterize cltypes embed image pipe pool program sampler svm tools
        _binned_pool _memoize _capture_call _kernel_args _launch _compiler_probe
        _image_copy _image_fill_map _image_format _image_object
        _svm_allocation _svm_checks _svm_commands _svm_pointer _svm_tag _testpool _cl
        pinned testing strategies pyopencl_cl pyopencl_layer build_ffi
    """.split()
}


def run_child(code):
    """Run ``code`` in a fresh interpreter that imports this checkout's pycl;
    returns what it prints as JSON on its last line."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")])))
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def test_import_loads_no_lazy_module():
    loaded = run_child(
        """
        import json, sys
        import pycl
        print(json.dumps(sorted(m for m in sys.modules if m.startswith("pycl"))))
        """
    )
    assert "pycl.memory" in loaded and "pycl.transfer" in loaded  # the core is there
    assert not NOT_AT_IMPORT & set(loaded), sorted(NOT_AT_IMPORT & set(loaded))


def test_every_public_name_resolves_in_a_fresh_process():
    found = run_child(
        """
        import json, sys
        import pycl
        listed = set(dir(pycl))
        missing_from_dir = [n for n in pycl.__all__ if n not in listed]
        for name in pycl.__all__:
            getattr(pycl, name)
        cached = [n for n in pycl.__all__ if n not in vars(pycl)]
        from pycl import Image, Kernel, SVMAllocation, enqueue_copy_between, tools
        import pycl.image, pycl.program, pycl.svm
        same = [
            Image is pycl.image.Image,
            Kernel is pycl.program.Kernel,
            SVMAllocation is pycl.svm.SVMAllocation,
            tools is sys.modules["pycl.tools"],
            pycl.pool is sys.modules["pycl.pool"],
        ]
        namespace = {}
        exec("from pycl import *", namespace)
        star = sorted(set(pycl.__all__) - set(namespace))
        print(json.dumps([missing_from_dir, cached, same, star]))
        """
    )
    missing_from_dir, not_cached, same, star_missing = found
    assert missing_from_dir == [], "dir(pycl) before first use lacks %s" % missing_from_dir
    assert not_cached == [], "resolved but not kept in pycl's globals: %s" % not_cached
    assert same == [True] * len(same)
    assert star_missing == []


def test_unknown_names_raise_as_before():
    with pytest.raises(AttributeError, match="^module 'pycl' has no attribute 'no_such_name'$"):
        pycl.no_such_name  # noqa: B018
    with pytest.raises(ImportError, match="cannot import name 'no_such_name' from 'pycl'"):
        from pycl import no_such_name  # noqa: F401


def test_a_family_that_fails_to_import_says_which(monkeypatch, tmp_path):
    """An AttributeError inside a lazy module's import (a compiled module
    older than the Python code, say) comes out as an ImportError naming the
    name and module: as an AttributeError it would read "pycl has no
    attribute", and ``from pycl import`` would drop it."""
    (tmp_path / "pycl_lazy_probe_broken.py").write_text("from pycl._lib import lib\nlib.pycl_no_such_function\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(pycl._LAZY, "BrokenFamilyName", "pycl_lazy_probe_broken")
    message = "^pycl.BrokenFamilyName: importing pycl_lazy_probe_broken failed: .*pycl_no_such_function"
    with pytest.raises(ImportError, match=message) as info:
        pycl.BrokenFamilyName  # noqa: B018
    assert isinstance(info.value.__cause__, AttributeError)
    with pytest.raises(ImportError, match="importing pycl_lazy_probe_broken failed"):
        from pycl import BrokenFamilyName  # noqa: F401
    assert "BrokenFamilyName" not in vars(pycl)


def _type_checking_imports():
    """``{name: module}`` of the imports under ``if TYPE_CHECKING:`` in
    pycl/__init__.py (``from pycl import x`` gives ``x: pycl.x``)."""
    with open(pycl.__file__, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", None) == "TYPE_CHECKING")
    found = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom), ast.dump(node)
        for alias in node.names:
            found[alias.name] = "pycl." + alias.name if node.module == "pycl" else node.module
    return found


def test_lazy_table_matches_what_type_checkers_see():
    # mypy and the import graph (test_layout) read the TYPE_CHECKING imports;
    # the interpreter reads _LAZY: the two must name the same things.
    assert _type_checking_imports() == pycl._LAZY
    eager = set(vars(sys.modules["pycl"])) - set(pycl._LAZY)
    assert set(pycl.__all__) <= eager | set(pycl._LAZY)


def test_core_and_lazy_families_work_from_a_bare_import(device):
    """In a fresh process: context, queue, Buffer and enqueue_copy without
    loading any lazy family; then a kernel through the lazily loaded
    ``pycl.Program``, checked against numpy."""
    platform_index = pycl.get_platforms().index(device.platform)
    device_index = device.platform.get_devices().index(device)
    compiles = kernel_compile_problem(device) is None
    result = run_child(
        f"""
        import json, sys
        import numpy as np
        import pycl as cl
        device = cl.get_platforms()[{platform_index}].get_devices()[{device_index}]
        ctx = cl.Context([device])
        queue = cl.CommandQueue(ctx)
        host = np.arange(1000, dtype=np.float32)
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
        back = np.empty_like(host)
        cl.enqueue_copy(queue, back, buf)
        lazy_loaded = sorted(m for m in {sorted(NOT_AT_IMPORT)!r} if m in sys.modules)
        kernel_result = None
        if {compiles!r}:
            source = "__kernel void twice(__global float *a) {{ a[get_global_id(0)] *= 2.0f; }}"
            program = cl.Program(ctx, source).build()
            program.twice(queue, host.shape, None, buf)
            out = np.empty_like(host)
            cl.enqueue_copy(queue, out, buf)
            kernel_result = out.tolist()
        print(json.dumps([back.tolist(), lazy_loaded, kernel_result, "Program" in vars(cl)]))
        """
    )
    back, lazy_loaded, kernel_result, program_kept = result
    host = np.arange(1000, dtype=np.float32)
    assert np.array_equal(np.array(back, dtype=np.float32), host)
    assert lazy_loaded == [], "the core path loaded %s" % lazy_loaded
    if compiles:
        assert np.array_equal(np.array(kernel_result, dtype=np.float32), host * 2)
        assert program_kept
