"""``python -m pycl.pyopencl_layer install``: what it takes from a PyOpenCL
wheel, what it writes, what it refuses; and, given a real PyOpenCL wheel
(``PYCL_PYOPENCL_WHEEL``), ``pyopencl.array`` over pycl against numpy."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest

import pycl as cl
from pycl import pyopencl_layer
from pycl.pyopencl_layer import LayerError, install
from pycl.testing import require_kernel_compiler


def _fake_wheel(directory, version="2026.1.4"):
    """A wheel shaped as PyOpenCL's: Python files, kernel headers, the
    compiled module, its stub and bundled libraries."""
    path = os.path.join(str(directory), "pyopencl-%s-cp312-cp312-manylinux_2_28_x86_64.whl" % version)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("pyopencl/__init__.py", "VERSION = 1\n")
        archive.writestr("pyopencl/array.py", "# array\n")
        archive.writestr("pyopencl/cl/pyopencl-complex.h", "/* header */\n")
        archive.writestr("pyopencl/_cl.cpython-312-x86_64-linux-gnu.so", b"\x7fELF")
        archive.writestr("pyopencl/_cl.pyi", "# stub\n")
        archive.writestr("pyopencl/.libs/libOpenCL.so.1", b"\x7fELF")
        archive.writestr(
            "pyopencl-%s.dist-info/METADATA" % version, "Metadata-Version: 2.1\nName: pyopencl\nVersion: %s\n" % version
        )
    return path


def test_install_keeps_python_files_and_headers_only(tmp_path):
    wheel = _fake_wheel(tmp_path)
    target = tmp_path / "site"
    package = install(str(target), wheel=wheel)
    kept = sorted(os.path.relpath(os.path.join(r, f), package) for r, _, fs in os.walk(package) for f in fs)
    assert kept == ["PYCL_LAYER", "__init__.py", "_cl.py", "array.py", os.path.join("cl", "pyopencl-complex.h")]
    assert "from pycl.pyopencl_cl import *" in (target / "pyopencl" / "_cl.py").read_text()


def test_install_writes_a_distribution_pip_can_read(tmp_path):
    target = tmp_path / "site"
    install(str(target), wheel=_fake_wheel(tmp_path))
    info = target / "pyopencl-2026.1.4.dist-info"
    assert (info / "INSTALLER").read_text() == "pycl-cffi\n"
    record = (info / "RECORD").read_text().splitlines()
    listed = {line.split(",")[0] for line in record}
    on_disk = {
        os.path.relpath(os.path.join(r, f), target).replace(os.sep, "/") for r, _, fs in os.walk(target) for f in fs
    }
    assert listed == on_disk
    # importlib.metadata (which PyOpenCL's version.py asks) finds the version
    code = "import importlib.metadata as m; print(m.version('pyopencl'))"
    out = subprocess.run(
        [sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(target)), capture_output=True, text=True
    )
    assert out.stdout.strip() == "2026.1.4", out.stderr


def test_install_again_replaces_the_earlier_layer(tmp_path):
    target = tmp_path / "site"
    install(str(target), wheel=_fake_wheel(tmp_path, "2026.1.3"))
    (tmp_path / "newer").mkdir()
    install(str(target), wheel=_fake_wheel(tmp_path / "newer", "2026.1.4"))
    assert sorted(os.listdir(target)) == ["pyopencl", "pyopencl-2026.1.4.dist-info"]


def test_install_refuses_a_pyopencl_it_did_not_write(tmp_path):
    target = tmp_path / "site"
    (target / "pyopencl").mkdir(parents=True)
    (target / "pyopencl" / "__init__.py").write_text("# a compiled PyOpenCL\n")
    with pytest.raises(LayerError, match="already holds a PyOpenCL that pycl did not write"):
        install(str(target), wheel=_fake_wheel(tmp_path))
    assert (target / "pyopencl" / "__init__.py").read_text() == "# a compiled PyOpenCL\n"


@pytest.mark.parametrize("version", ["2025.2.7", "2026.2", "2026.1.4.post1"])
def test_install_refuses_releases_outside_the_supported_range(tmp_path, version):
    with pytest.raises(LayerError, match=r"outside the releases pycl supports \(>=2026.1,<2026.2\)"):
        install(str(tmp_path / "site"), version=version)


def test_command_line_reports_a_refusal_without_a_traceback(tmp_path, capsys):
    assert pyopencl_layer.main(["install", "--target", str(tmp_path), "--version", "2025.1"]) == 2
    assert "pycl.pyopencl_layer: version: PyOpenCL 2025.1 is outside" in capsys.readouterr().err


_REAL_WHEEL = os.environ.get("PYCL_PYOPENCL_WHEEL")


@pytest.mark.skipif(not _REAL_WHEEL, reason="needs PYCL_PYOPENCL_WHEEL, a PyOpenCL 2026.1 wheel (any platform's)")
@pytest.mark.skipif(sys.version_info < (3, 10), reason="PyOpenCL 2026.1's Python files need Python 3.10 or newer")
def test_pyopencl_array_over_pycl_matches_numpy(tmp_path, ctx_factory):
    device = ctx_factory.device
    install(str(tmp_path), wheel=_REAL_WHEEL)
    script = textwrap.dedent(
        """
        import numpy as np, pyopencl as cl, pyopencl.array as cla, pyopencl.clrandom as clr
        from pyopencl.elementwise import ElementwiseKernel
        import pycl
        assert cl._cl.Kernel is __import__("pycl.pyopencl_cl").pyopencl_cl.Kernel
        dev = [d for p in pycl.get_platforms() for d in p.get_devices() if (p.name, p.version, d.name) == %r][0]
        ctx = cl.Context([dev]); q = cl.CommandQueue(ctx)
        rng = np.random.default_rng(7)
        x = rng.standard_normal(1001).astype(np.float32); y = rng.standard_normal(1001).astype(np.float32)
        a, b = cla.to_device(q, x), cla.to_device(q, y)
        assert np.array_equal((a + b).get(), x + y)
        assert np.allclose((2 * a + 1).get(), 2 * x + 1)
        assert np.isclose(cla.sum(a).get(), x.sum(dtype=np.float64), rtol=1e-4)
        assert np.isclose(cla.dot(a, b).get(), np.dot(x.astype(np.float64), y), rtol=1e-4, atol=1e-3)
        idx = cla.to_device(q, np.arange(0, 1001, 7).astype(np.int32))
        assert np.array_equal(cla.take(a, idx).get(), x[::7])
        axpy = ElementwiseKernel(ctx, "float s, float *u, float *v", "v[i] = s * u[i] + v[i]")
        axpy(np.float32(3), a, b)
        assert np.allclose(b.get(), 3 * x + y, atol=1e-5)  # the device may fuse the multiply-add
        r = clr.rand(q, 4096, np.float32)
        host = r.get()
        assert ((host >= 0) & (host < 1)).all() and 0.4 < host.mean() < 0.6
        # A kernel's invoker is its __call__: kernels of one signature share
        # the class that has it, a new signature (set_scalar_arg_dtypes)
        # moves the kernel to its own, and every call reaches the kernel.
        prg = cl.Program(ctx, "__kernel void f(__global float *a, float s) { a[get_global_id(0)] = s; }").build()
        k1, k2 = cl.Kernel(prg, "f"), cl.Kernel(prg, "f")
        assert type(k1) is type(k2) and isinstance(k1, cl.Kernel) and type(k1).__name__ == "Kernel"
        out = cla.zeros(q, 4, np.float32)
        k1(q, (4,), None, out.data, np.float32(1.5)).wait()
        assert out.get().tolist() == [1.5] * 4
        k1.set_scalar_arg_dtypes([None, np.float32])
        assert type(k1) is not type(k2) and type(k1).__call__ is not type(k2).__call__
        k1(q, (2,), None, out.data, 2.5)
        k2(q, (1,), None, out.data, np.float32(3.5))
        assert out.get().tolist() == [3.5, 2.5, 1.5, 1.5]
        print("ok")
        """
        % ((device.platform.name, device.platform.version, device.name),)
    )
    env = dict(os.environ, PYTHONPATH=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"))
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600, cwd=str(tmp_path)
    )
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-3000:]


def test_private_enqueue_functions_reach_pycls_checks(cq):
    """PyOpenCL's _enqueue_* signatures over pycl's routes: data lands as
    numpy says, and a bad size gets pycl's own error, as a direct call would."""
    from pycl import pyopencl_cl as _cl

    ctx, queue = cq
    host = np.arange(64, dtype=np.uint8)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
    other = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
    _cl._enqueue_write_buffer(queue, buf, host)
    _cl._enqueue_copy_buffer(queue, buf, other, 32, 8, 16)
    back = np.zeros(64, np.uint8)
    _cl._enqueue_read_buffer(queue, other, back)
    assert np.array_equal(back[16:48], host[8:40])
    part = np.zeros(8, np.uint8)
    _cl._enqueue_read_buffer_rect(queue, buf, part, (4, 1, 0), (0, 0, 0), (4, 2, 1), (16, 0), (4, 0))
    assert np.array_equal(part, np.concatenate([host[20:24], host[36:40]]))

    def same_error(via_cl, direct):
        with pytest.raises(cl.LogicError) as ours:
            via_cl()
        with pytest.raises(cl.LogicError) as theirs:
            direct()
        assert str(ours.value) == str(theirs.value)
        assert ours.value.args[0].code() == theirs.value.code  # PyOpenCL's _ErrorRecord

    same_error(
        lambda: _cl._enqueue_read_buffer(queue, buf, np.zeros(8, np.uint8), src_offset=60),
        lambda: cl.enqueue_copy(queue, np.zeros(8, np.uint8), buf, src_offset=60),
    )
    same_error(
        lambda: _cl._enqueue_copy_buffer(queue, buf, other, 65),
        lambda: cl.enqueue_copy(queue, other, buf, byte_count=65),
    )
    same_error(
        lambda: _cl._enqueue_fill_buffer(queue, buf, np.uint8(1), 8, 64),
        lambda: cl.enqueue_fill_buffer(queue, buf, np.uint8(1), 8, 64),
    )
    with pytest.raises(cl.UnavailableError, match="SPIR-V"):
        _cl._create_program_with_il(ctx, b"\x03\x02\x23\x07")


@pytest.mark.parametrize("reading", [False, True], ids=["write", "read"])
def test_private_buffer_transfers_take_offsets_waits_and_refusals_as_enqueue_copy(cq, reading):
    """_enqueue_read_buffer and _enqueue_write_buffer (what pyopencl.array's
    get and set call, with an offset, the array's events and is_blocking):
    the bytes land where a bytes mirror says; a non-blocking one waits for
    its wait list and keeps its host array; each refusal is enqueue_copy's
    own error, word for word."""
    from pycl import pyopencl_cl as _cl

    ctx, queue = cq
    size = 256
    start = np.arange(size, dtype=np.uint8)
    mirror = bytearray(start.tobytes())
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=start)
    rng = np.random.default_rng(7)

    def transfer(host, offset, **kwargs):
        if reading:
            return _cl._enqueue_read_buffer(queue, buf, host, offset, **kwargs)
        return _cl._enqueue_write_buffer(queue, buf, host, offset, **kwargs)

    for offset, count in [(0, 1), (0, size), (1, 7), (100, 156), (255, 1), (64, 64)]:
        host = rng.integers(0, 256, count, dtype=np.uint8)
        event = transfer(host, offset)
        assert isinstance(event, cl.NannyEvent) and event.get_ward() is host
        if reading:
            assert host.tobytes() == bytes(mirror[offset : offset + count])
        else:
            mirror[offset : offset + count] = host.tobytes()
    # a non-blocking one behind a user event: not before it, and its host
    # array kept (the caller's reference is dropped at once)
    gate = cl.UserEvent(ctx)
    host = rng.integers(0, 256, 32, dtype=np.uint8)
    expected = host.tobytes()
    event = transfer(host, 16, wait_for=[gate], is_blocking=False)
    if not reading:
        mirror[16:48] = expected
    del host
    assert event.command_execution_status != cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    event.wait()
    if reading:
        assert event.get_ward().tobytes() == bytes(mirror[16:48])
    whole = np.zeros(size, np.uint8)
    cl.enqueue_copy(queue, whole, buf)
    assert whole.tobytes() == bytes(mirror)

    def same_error(offset, host=None, wait_for=None, target=buf):
        host = np.zeros(8, np.uint8) if host is None else host
        errors = []
        for call in (
            lambda: (_cl._enqueue_read_buffer if reading else _cl._enqueue_write_buffer)(
                queue, target, host, offset, wait_for
            ),
            lambda: (
                cl.enqueue_copy(queue, host, target, src_offset=offset, wait_for=wait_for)
                if reading
                else cl.enqueue_copy(queue, target, host, dst_offset=offset, wait_for=wait_for)
            ),
        ):
            with pytest.raises(Exception) as caught:
                call()
            errors.append((type(caught.value), str(caught.value)))
        assert errors[0] == errors[1]

    same_error(249)  # past the end by one byte
    same_error(-1)
    same_error(1.0)
    same_error(0, wait_for=[1])
    same_error(0, wait_for=[cl.UserEvent(ctx), "event"])
    if reading:
        same_error(0, host=np.zeros(8, np.uint8)[::2])  # not contiguous
        read_only = np.zeros(8, np.uint8)
        read_only.flags.writeable = False
        same_error(0, host=read_only)
    other = cl.Context([ctx.devices[0]])
    same_error(0, target=cl.Buffer(other, cl.mem_flags.READ_WRITE, 64))
    released = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
    released.release()
    same_error(0, target=released)
    # nothing above reached the buffer
    cl.enqueue_copy(queue, whole, buf)
    assert whole.tobytes() == bytes(mirror)


@pytest.mark.skipif(not _REAL_WHEEL, reason="needs PYCL_PYOPENCL_WHEEL, a PyOpenCL 2026.1 wheel (any platform's)")
@pytest.mark.skipif(sys.version_info < (3, 10), reason="PyOpenCL 2026.1's Python files need Python 3.10 or newer")
def test_readme_array_example_runs(tmp_path, ctx_factory):
    """The README's pyopencl.array example, as written, over pycl."""
    readme = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")
    if not os.path.exists(readme):
        pytest.skip("README.md is not beside the tests (an installed wheel's run)")
    with open(readme) as f:
        text = f.read()
    section = text.split("### PyOpenCL's array layer over pycl", 1)[1]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    install(str(tmp_path), wheel=_REAL_WHEEL)
    device = ctx_factory.device
    platforms = cl.get_platforms()
    platform = next(i for i, p in enumerate(platforms) if p == device.platform)
    index = platforms[platform].get_devices().index(device)
    env = dict(
        os.environ,
        PYTHONPATH=str(tmp_path),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        PYOPENCL_CTX="%d:%d" % (platform, index),  # PyOpenCL's platform order is pycl's
    )
    done = subprocess.run([sys.executable, "-c", example], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    expected = (2.5 * np.arange(100_000, dtype=np.float64) + 1).sum()
    assert np.isclose(float(done.stdout.strip()), expected, rtol=1e-4)


def test_packed_argument_takes_a_buffer_again(cq):
    """An index the invoker packs as a scalar (a dtype declared for a
    __global pointer: its bytes would reach the driver as a memory object,
    which crashes PoCL and Oclgrind) is refused, naming it, and takes a
    memory object from _set_arg_multi next (a signature declared anew),
    which the launch sets."""
    require_kernel_compiler(cq[0].devices[0])
    from pycl import pyopencl_cl as _cl

    ctx, queue = cq
    prg = _cl._Program(ctx, "__kernel void f(__global int *x) { x[get_global_id(0)] = 7; }").build()
    knl = _cl.Kernel.__new__(_cl.Kernel)  # pycl's kernel with the invoker calls, no PyOpenCL needed
    cl.Kernel.__init__(knl, prg, "f")
    with pytest.raises(cl.LogicError, match="argument 0 of kernel 'f' is a __global or __constant pointer"):
        knl._set_arg_buf_pack_multi((0, b"q", 12345))
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    knl._set_arg_multi((0, buf))
    cl.enqueue_nd_range_kernel(queue, knl, (4,), None).wait()
    out = np.zeros(4, np.int32)
    cl.enqueue_copy(queue, out, buf)
    assert out.tolist() == [7, 7, 7, 7]


PACKED_SOURCE = """
__kernel void packed(__global double *out, long a, float b, int c, uchar d, double e, short f)
{
    out[0] = (double)a; out[1] = (double)b; out[2] = (double)c;
    out[3] = (double)d; out[4] = e; out[5] = (double)f;
}
"""
# the invoker's (index, struct format) pairs for the kernel's scalars
PACKED_FORMATS = ((1, b"l"), (2, b"f"), (3, b"i"), (4, b"B"), (5, b"d"), (6, b"h"))


def _invoker_kernel(cq, source, name):
    """pycl.pyopencl_cl's Kernel (the invoker's calls, no PyOpenCL needed)."""
    require_kernel_compiler(cq[0].devices[0])
    from pycl import pyopencl_cl as _cl

    prg = _cl._Program(cq[0], source).build()
    knl = _cl.Kernel.__new__(_cl.Kernel)
    cl.Kernel.__init__(knl, prg, name)
    return knl


def _launch_mix(queue, knl, out, values):
    knl._set_arg_multi((0, out))
    knl._set_arg_buf_pack_multi(tuple(x for (i, f), v in zip(PACKED_FORMATS, values) for x in (i, f, v)))
    cl.enqueue_nd_range_kernel(queue, knl, (1,), None).wait()
    got = np.empty(6, np.float64)
    cl.enqueue_copy(queue, got, out)
    return got


def test_packed_arguments_reach_the_kernel_call_after_call(cq):
    """The invoker's packed scalars, written the general way at the first
    call and by one pack_into once the signature is known, reach the kernel
    as struct.pack gives them (the model), call after call; a cell set in
    between through set_arg ends the packed block, and a value out of range
    is refused by name whichever way it comes."""
    ctx, queue = cq
    knl = _invoker_kernel(cq, PACKED_SOURCE, "packed")
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 6 * 8)
    rng = np.random.default_rng(5)
    for _ in range(6):
        values = (
            int(rng.integers(-(2**62), 2**62)),
            float(rng.standard_normal()),
            int(rng.integers(-(2**31), 2**31)),
            int(rng.integers(0, 256)),
            float(rng.standard_normal()),
            int(rng.integers(-(2**15), 2**15)),
        )
        model = [struct.unpack(f.decode(), struct.pack(f.decode(), v))[0] for (i, f), v in zip(PACKED_FORMATS, values)]
        np.testing.assert_array_equal(_launch_mix(queue, knl, out, values), np.array(model, np.float64))
    knl.set_arg(3, np.int32(-5))  # outside the invoker: the next packed call writes every cell anew
    got = _launch_mix(queue, knl, out, (1, 2.0, 3, 4, 5.0, 6))
    np.testing.assert_array_equal(got, [1, 2, 3, 4, 5, 6])
    numpy_values = (np.int64(-7), np.float32(0.25), np.int32(9), np.uint8(200), np.float64(-1.5), np.int16(-300))
    np.testing.assert_array_equal(_launch_mix(queue, knl, out, numpy_values), [-7, 0.25, 9, 200, -1.5, -300])
    for place, bad in ((0, 2**63), (3, 256), (3, -1), (5, 2**15)):
        values = [1, 2.0, 3, 4, 5.0, 6]
        values[place] = bad
        with pytest.raises(cl.LogicError, match="argument %d = " % PACKED_FORMATS[place][0]):
            _launch_mix(queue, knl, out, values)
    with pytest.raises(TypeError, match="argument 1 must be an int"):
        _launch_mix(queue, knl, out, (1.5, 2.0, 3, 4, 5.0, 6))
    np.testing.assert_array_equal(_launch_mix(queue, knl, out, (8, 7.0, 6, 5, 4.0, 3)), [8, 7, 6, 5, 4, 3])


def test_an_argument_packed_after_a_buffer_is_no_longer_held(cq):
    """A buffer the invoker set at an index that a later signature packs as
    a scalar is no longer the kernel's: releasing it does not stop the next
    launch (the launch checks only the objects the kernel holds)."""
    ctx, queue = cq
    knl = _invoker_kernel(cq, "__kernel void f(__global long *a, long s) { a[get_global_id(0)] = s; }", "f")
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 8)
    other = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    knl._set_arg_multi((0, buf, 1, other))  # a handle's 8 bytes where the kernel takes a long
    cl.enqueue_nd_range_kernel(queue, knl, (4,), None).wait()
    knl._set_arg_buf_pack_multi((1, b"q", 5))
    other.release()
    cl.enqueue_nd_range_kernel(queue, knl, (4,), None).wait()
    out = np.zeros(4, np.int64)
    cl.enqueue_copy(queue, out, buf)
    assert out.tolist() == [5, 5, 5, 5]


def test_set_arg_multi_skips_only_the_same_live_buffer(cq):
    """_set_arg_multi, as the invoker calls it at every launch: the buffer
    set before is skipped, a new one at that index reaches the kernel, a
    released one is refused (at the launch where it was set before, at the
    setting where it is given again), and a tuple that is not of
    (index, value) pairs is a TypeError, with nothing set."""
    ctx, queue = cq
    knl = _invoker_kernel(cq, "__kernel void f(__global int *a, __global int *b) { a[0] = 5; b[0] = 6; }", "f")
    bufs = [cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4) for _ in range(4)]
    for first, second in [(0, 1), (0, 1), (2, 1), (2, 3)]:
        for buf in bufs:
            cl.enqueue_fill_buffer(queue, buf, np.int32(0), 0, 4)
        knl._set_arg_multi((0, bufs[first], 1, bufs[second]))
        cl.enqueue_nd_range_kernel(queue, knl, (1,), None).wait()
        got = [int(np.frombuffer(cl.enqueue_copy(queue, np.empty(4, np.uint8), b).get_ward(), np.int32)[0])
               for b in bufs]  # fmt: skip
        assert got == [5 if i == first else 6 if i == second else 0 for i in range(4)]
    with pytest.raises(TypeError, match=r"\(index, value\) pairs, got 3 items"):
        knl._set_arg_multi((0, bufs[0], 1))
    bufs[3].release()  # the one set at index 1
    with pytest.raises(cl.LogicError, match="kernel argument 1 .* was released"):
        cl.enqueue_nd_range_kernel(queue, knl, (1,), None)
    with pytest.raises(cl.LogicError, match="Kernel.set_arg failed: .* was released"):
        knl._set_arg_multi((0, bufs[2], 1, bufs[3]))


def test_clone_keeps_the_invoker(cq):
    """Kernel.clone of PyOpenCL's kernel class (OpenCL 2.1): the clone is of
    the same class, with the invoker's calls, and launches with the
    arguments the original had."""
    ctx, queue = cq
    if ctx.devices[0].cl_version < (2, 1):
        pytest.skip("kernel clones need OpenCL 2.1; the device has %d.%d" % ctx.devices[0].cl_version)
    # a kernel made from a handle sets up its invoker, which is PyOpenCL's code
    pytest.importorskip("pyopencl.invoker", reason="PyOpenCL's Python files are not installed here")
    knl = _invoker_kernel(cq, "__kernel void f(__global long *a, long s) { a[get_global_id(0)] = s; }", "f")
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 8)
    knl._set_arg_multi((0, buf))
    knl._set_arg_buf_pack_multi((1, b"q", 9))
    cl.enqueue_nd_range_kernel(queue, knl, (4,), None).wait()
    twin = knl.clone()
    # PyOpenCL's kernel class, its invoker as its __call__ (a subclass per invoker)
    assert isinstance(twin, type(knl)) and type(twin).__name__ == "Kernel"
    assert type(twin).__call__.__code__ == twin._enqueue.__code__
    twin._set_arg_buf_pack_multi((1, b"q", 11))  # the clone's own packed cells
    cl.enqueue_nd_range_kernel(queue, twin, (2,), None).wait()
    out = np.zeros(4, np.int64)
    cl.enqueue_copy(queue, out, buf)
    assert out.tolist() == [11, 11, 9, 9]


def test_invoker_with_a_closure_is_forwarded_to(cq):
    """Only an invoker whose code says it all (a plain function without a
    closure) becomes a shared class's __call__; another is called through
    the forwarding __call__, each kernel its own."""
    from pycl import pyopencl_cl as _cl

    source = "__kernel void f(__global long *a, long s) { a[get_global_id(0)] = s; }"
    kernels = [_invoker_kernel(cq, source, "f") for _ in range(2)]

    def invoker_returning(tag):
        def enqueue(self, *args):
            return tag, args

        return enqueue

    for tag, knl in enumerate(kernels):
        knl._set_enqueue_and_set_args(invoker_returning(tag), None)
        assert type(knl) is _cl.Kernel
    assert kernels[0](1, 2) == (0, (1, 2)) and kernels[1](3) == (1, (3,))


def test_members_without_a_pycl_counterpart(cq):
    """What PyOpenCL's _cl.pyi declares and pycl cannot do says so: SPIR-V
    programs and their specialization constants (UnavailableError), OpenGL
    (absent, as on a PyOpenCL build without it)."""
    from pycl import pyopencl_cl as _cl

    ctx, _ = cq
    with pytest.raises(cl.UnavailableError, match="programs from SPIR-V"):
        _cl._create_program_with_il(ctx, b"\x03\x02\x23\x07")
    prg = _cl._Program(ctx, "__kernel void f(__global int *x) { x[0] = 1; }")
    refusal = "specialization constants are for SPIR-V programs, which need clCreateProgramWithIL"
    with pytest.raises(cl.UnavailableError, match=refusal):
        prg.set_specialization_constant(0, b"\x01\x00\x00\x00")
    assert not _cl.have_gl()
    assert not hasattr(_cl, "GLBuffer") and not hasattr(_cl, "enqueue_acquire_gl_objects")
