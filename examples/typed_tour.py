"""Every public class of pycl, used with type annotations.

mypy checks this file with pycl (``make typecheck``): each variable below is
annotated with the type pycl's annotations must give, so a wrong or missing
annotation in pycl is an error here. It also runs, on the embedded default
device or the one PYOPENCL_CTX names (tests/test_typing.py runs it on every
device), skipping what the device lacks.

    python examples/typed_tour.py
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Optional

import numpy as np
import numpy.typing as npt

import pycl as cl
from pycl import characterize
from pycl.pinned import PinnedPool, pinned_empty
from pycl.testing import ContextFactory, MultiContextFactory, kernel_compile_problem
from pycl.tools import (
    AllocatorBase,
    DeferredAllocator,
    ImmediateAllocator,
    MemoryPool,
    PooledBuffer,
    PooledSVM,
    SVMAllocator,
    SVMPool,
)

mf = cl.mem_flags


def pick_device() -> cl.Device:
    """The device PYOPENCL_CTX names, else the first one found."""
    if os.environ.get("PYOPENCL_CTX"):
        ctx: cl.Context = cl.create_some_context(interactive=False)
        return ctx.devices[0]
    platforms: list[cl.Platform] = cl.get_platforms()
    return next(d for p in platforms for d in p.get_devices())


def buffers(ctx: cl.Context, queue: cl.CommandQueue) -> None:
    host: npt.NDArray[np.float32] = np.arange(256, dtype=np.float32)
    buf: cl.Buffer = cl.Buffer(ctx, mf.READ_WRITE, size=host.nbytes)
    assert isinstance(buf, cl.MemoryObject) and isinstance(buf, cl.MemoryObjectHolder)
    written: cl.Event = cl.enqueue_copy(queue, buf, host, is_blocking=False)
    written.wait()
    half: cl.Buffer = buf[host.nbytes // 2 :]
    filled: cl.Event = cl.enqueue_fill_buffer(queue, half, np.float32(-1), 0, half.size)
    cl.wait_for_events([filled])
    back = np.empty_like(host)
    cl.enqueue_copy(queue, back, buf)
    expected = host.copy()
    expected[128:] = -1
    assert (back == expected).all()

    # A map: the array's base is the MemoryMap that unmaps it.
    mapped: npt.NDArray[Any]
    mapped, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 0, host.shape, host.dtype)
    mapping = mapped.base
    assert isinstance(mapping, cl.MemoryMap) and (mapped == expected).all()
    mapping.release()

    # Events the host completes, and markers.
    gate: cl.UserEvent = cl.UserEvent(ctx)
    after: cl.Event = cl.enqueue_marker(queue, wait_for=[gate])
    gate.set_status(cl.command_execution_status.COMPLETE)
    after.wait()

    try:
        cl.enqueue_copy(queue, back, buf, src_offset=host.nbytes)
    except cl.LogicError as error:  # an offset past the end: a clean exception
        code: Optional[int] = error.code
        assert code is not None and error.routine == "enqueue_copy"
    half.release()
    buf.release()


def kernels(ctx: cl.Context, queue: cl.CommandQueue) -> None:
    problem: Optional[str] = kernel_compile_problem(queue.device)
    if problem is not None:
        print("kernels skipped: %s" % problem.splitlines()[0])
        return
    source = """
    __kernel void twice(__global float *x, __local float *scratch) {
        size_t i = get_global_id(0);
        scratch[get_local_id(0)] = 2 * x[i];
        x[i] = scratch[get_local_id(0)];
    }
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.CompilerWarning)
        prg: cl.Program = cl.Program(ctx, source).build()
    knl: cl.Kernel = cl.Kernel(prg, "twice")
    host = np.arange(64, dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
    knl.set_args(buf, cl.LocalMemory(16 * 4))
    done: cl.Event = cl.enqueue_nd_range_kernel(queue, knl, host.shape, (16,))
    done.wait()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.RepeatedKernelRetrieval)
        retrieved: cl.Kernel = prg.twice
    assert retrieved.function_name == "twice"
    back = np.empty_like(host)
    cl.enqueue_copy(queue, back, buf)
    assert (back == 2 * host).all()


def pools(ctx: cl.Context, queue: cl.CommandQueue) -> None:
    allocators: list[AllocatorBase] = [ImmediateAllocator(queue), DeferredAllocator(ctx)]
    for allocator in allocators:
        plain: Optional[cl.Buffer] = allocator(4096)  # None for 0 bytes, as in PyOpenCL
        assert plain is not None
        plain.release()
    pool: MemoryPool = MemoryPool(ImmediateAllocator(queue))
    block: PooledBuffer = pool.allocate(4096)
    assert isinstance(block, cl.Buffer)
    block.release()
    held: int = pool.held_blocks
    assert held == 1
    pool.free_held()

    pinned: PinnedPool = PinnedPool(queue)
    staging_array: npt.NDArray[Any] = pinned.empty((1024,), np.float32)
    staging_array[:] = 1
    direct: npt.NDArray[Any] = pinned_empty(queue, (16,), np.uint8)
    direct[:] = 0


def svm(ctx: cl.Context, queue: cl.CommandQueue) -> None:
    if not characterize.has_coarse_grain_buffer_svm(queue.device):
        try:
            cl.SVMAllocation(ctx, 64, 0, cl.svm_mem_flags.READ_WRITE)
        except cl.UnavailableError as error:
            print("SVM skipped: %s" % error)
        return
    alloc: cl.SVMAllocation = cl.SVMAllocation(ctx, 256, 0, cl.svm_mem_flags.READ_WRITE, queue=queue)
    assert isinstance(alloc, cl.SVMPointer)
    array: npt.NDArray[Any] = cl.csvm_empty(ctx, (64,), np.float32, queue=queue)
    mapping: cl.SVMMap = cl.SVM(array).map_rw(queue)
    with mapping as view:
        view[:] = 3
    fill: cl.Event = cl.enqueue_svm_memfill(queue, cl.SVM(array), np.float32(0))
    fill.wait()
    alloc.release()

    pool: SVMPool = SVMPool(SVMAllocator(ctx, queue=queue))
    block: PooledSVM = pool.allocate(1024)
    assert isinstance(block, cl.SVMPointer)
    block.release()


def images(ctx: cl.Context, queue: cl.CommandQueue) -> None:
    if not queue.device.image_support:
        print("images skipped: the device has no image support")
        return
    fmt: cl.ImageFormat = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
    formats: list[cl.ImageFormat] = cl.get_supported_image_formats(ctx, mf.READ_WRITE, cl.mem_object_type.IMAGE2D)
    assert fmt in formats
    image: cl.Image = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(8, 4))
    pixels = np.arange(8 * 4 * 4, dtype=np.uint8).reshape(4, 8, 4)
    cl.enqueue_copy(queue, image, pixels, origin=(0, 0), region=(8, 4))
    back = np.empty_like(pixels)
    cl.enqueue_copy(queue, back, image, origin=(0, 0), region=(8, 4))
    assert (back == pixels).all()
    sampler: cl.Sampler = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP, cl.filter_mode.NEAREST)
    sampler.release()
    image.release()


def pipes(ctx: cl.Context) -> None:
    try:
        pipe: cl.Pipe = cl.Pipe(ctx, 0, 4, 16, [])
    except cl.UnavailableError as error:
        print("pipes skipped: %s" % error)
        return
    packet: int = pipe.get_pipe_info(cl.pipe_info.PACKET_SIZE)
    assert packet == 4
    pipe.release()


def errors() -> None:
    classes: list[type[cl.Error]] = [cl.LogicError, cl.MemoryError, cl.RuntimeError, cl.UnavailableError]
    assert all(issubclass(c, cl.Error) for c in classes)
    assert issubclass(cl.CommandQueueUsedAfterExit, UserWarning)


def main() -> None:
    device = pick_device()
    factory: ContextFactory = ContextFactory(device)
    ctx: cl.Context = factory()
    print("device: %s (%s)" % (device.name, device.platform.name))
    if len(device.platform.get_devices()) > 1:
        several: MultiContextFactory = MultiContextFactory(device.platform, device.platform.get_devices())
        several().release()
    with cl.CommandQueue(ctx) as queue:
        buffers(ctx, queue)
        kernels(ctx, queue)
        pools(ctx, queue)
        svm(ctx, queue)
        images(ctx, queue)
        queue.finish()
    pipes(ctx)
    errors()
    print("typed tour: done")


if __name__ == "__main__":
    main()
