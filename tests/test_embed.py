"""Embedding pycl in other cffi projects: get_include(), the public builder,
the C dispatcher table, and examples/embed built and run on every device."""

import os
import re
import sys

import numpy as np
import pytest

import pycl as cl
from pycl._lib import ffi, lib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "embed")

# Headers of the builder's list whose functions are not in the dispatcher. A
# new area header is checked too: add its functions to embed.h (appended: the
# table is an ABI), or exclude it here with the reason.
NOT_DISPATCHED = {
    "types.h": "types only",
    "constants.h": "constants only",
    "embed.h": "the dispatcher itself",
    # pycl's own pinned staging path for enqueue_copy, still settling; C code
    # copies with enqueue_write_buffer/enqueue_read_buffer (append it once stable).
    "staging.h": "pycl-internal transfer path",
    # The bins of pycl's MemoryPool/SVMPool objects; C code allocates with the
    # buffer and SVM entries.
    "pool.h": "pycl-internal pool bookkeeping",
    # Scalar forms of the rect and image-region calls for pycl's hot paths;
    # C code has the array forms.
    "scalars.h": "pycl-internal scalar call forms",
    # The argument cells of pycl's Kernel objects and the one-call launch over
    # them; C code sets arguments and enqueues with the runtime.h entries.
    "launch.h": "pycl-internal kernel launch",
}


def area_functions():
    """{header: [function names without pycl_]} of every area header the
    builder reads, parsed from the headers themselves (comments removed)."""
    from pycl import build_ffi

    found = {}
    for name in build_ffi.DECLARATION_FILES:
        if name in NOT_DISPATCHED:
            continue
        with open(os.path.join(cl.get_include(), "pycl", name)) as f:
            text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
        found[name] = re.findall(r"\bpycl_(\w+)\s*\(", text)
    return found


def test_area_headers_parsed():
    functions = area_functions()
    for header in ("loader.h", "runtime.h", "memory.h", "svm.h", "image.h"):
        assert functions[header], header
    assert "buffer_create" in functions["memory.h"]
    assert "svm_alloc" in functions["svm.h"]


def test_dispatcher_has_every_area_function():
    fields = dict(ffi.typeof("struct pycl_dispatcher").fields)
    declared = [f for functions in area_functions().values() for f in functions]
    missing = [
        "pycl_%s (%s)" % (f, header)
        for header, functions in area_functions().items()
        for f in functions
        if f not in fields
    ]
    assert not missing, "add to struct pycl_dispatcher (embed.h) and embed.c: %s" % ", ".join(missing)
    # No entry for a function that is gone, and each entry has the function's type.
    assert sorted(fields) == sorted(declared + ["version", "size"])
    for name in declared:
        assert fields[name].type == ffi.typeof(getattr(lib, "pycl_" + name)), name
    # Entries are in header order (appended only: the table is an ABI).
    assert [name for name, _ in ffi.typeof("struct pycl_dispatcher").fields][2:] == declared


def test_dispatcher_table_filled():
    table = cl.dispatcher()
    assert ffi.typeof(table) is ffi.typeof("struct pycl_dispatcher *")
    assert table.version == lib.PYCL_DISPATCHER_VERSION
    assert table.size == ffi.sizeof("struct pycl_dispatcher")
    empty = [
        name
        for name, field in ffi.typeof("struct pycl_dispatcher").fields
        if name not in ("version", "size") and getattr(table, name) == ffi.NULL
    ]
    assert not empty
    assert cl.dispatcher_address() == int(ffi.cast("uintptr_t", table))
    # The entries are the shim's functions.
    assert table.error_name(lib.CL_INVALID_VALUE) == lib.pycl_error_name(lib.CL_INVALID_VALUE)
    assert ffi.string(table.error_name(lib.CL_INVALID_VALUE)) == b"CL_INVALID_VALUE"


def test_get_include():
    from pycl import build_ffi

    include = cl.get_include()
    assert os.path.isfile(os.path.join(include, "pycl_shim.h"))
    for name in build_ffi.DECLARATION_FILES:
        assert os.path.isfile(os.path.join(include, "pycl", name)), name
    assert include == build_ffi.include_dir() == build_ffi.INCLUDE_DIR
    # The public builder: pycl._lib's declarations, for ffibuilder.include().
    assert build_ffi.ffibuilder._assigned_source[0] == "pycl._lib"
    assert "struct pycl_dispatcher" in build_ffi.read_declarations()


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """examples/embed built in a temporary folder and imported."""
    import runpy

    tmpdir = str(tmp_path_factory.mktemp("embed"))
    builder = runpy.run_path(os.path.join(EXAMPLE, "build_embed.py"))["ffibuilder"]
    path = builder.compile(tmpdir=tmpdir)
    with open(path, "rb") as f:
        assert b"libOpenCL" not in f.read(), "the example must not link an OpenCL library"
    sys.path.insert(0, tmpdir)
    try:
        import pycl_embed_example
    finally:
        sys.path.remove(tmpdir)
    assert os.path.dirname(os.path.abspath(pycl_embed_example.__file__)) == os.path.abspath(tmpdir)
    return pycl_embed_example


def test_example_fills_pycl_buffers(example, ctx_factory):
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    n = 1000
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, n * 4)
    table = cl.dispatcher()
    # Handles cross as int_ptr (what C code that is not cffi would get) ...
    q = example.ffi.cast("cl_command_queue", queue.int_ptr)
    mem = example.ffi.cast("cl_mem", buf.int_ptr)
    assert example.lib.embed_write_ramp(table, q, mem, 5, 3, n) == lib.CL_SUCCESS
    # ... or as pycl's own cdata: the two modules share the types.
    assert example.lib.embed_fill(table, queue._handle, buf._handle, 0xDEADBEEF, 100, 250) == lib.CL_SUCCESS
    expected = np.arange(n, dtype=np.uint32) * 3 + 5
    expected[100:350] = 0xDEADBEEF
    out = np.empty(n, np.uint32)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, expected)
    # The C side checks the range against the buffer's size (queried through the table).
    assert example.lib.embed_fill(table, q, mem, 1, n - 1, 2) == lib.CL_INVALID_VALUE
    # Statuses are pycl's: check() turns them into its exceptions.
    with pytest.raises(cl.LogicError):
        from pycl.errors import check

        check(example.lib.embed_write_ramp(table, q, mem, 0, 1, n + 1), "embed_write_ramp")
    # The example retained nothing: the buffer's reference count is pycl's one.
    assert buf.reference_count == 1


def test_example_through_dispatcher_address(example, ctx_factory):
    """C code that is not cffi gets the table as an int."""
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
    table = example.ffi.cast("const struct pycl_dispatcher *", cl.dispatcher_address())
    assert example.lib.embed_fill(table, queue._handle, buf._handle, 42, 0, 16) == lib.CL_SUCCESS
    out = np.empty(16, np.uint32)
    cl.enqueue_copy(queue, out, buf)
    assert (out == 42).all()
