"""Small programs written as PyOpenCL users write them, run through pycl.

Each test is a PyOpenCL program with ``import pycl as cl`` in place of
``import pyopencl as cl``: vector addition, a tiled transpose in local memory,
SVM buffers given to kernels, a sub-buffer pipeline, image round trips and
sampled reads, pool-backed temporaries, event callbacks and profiling, and
maps of buffers and images. Only PyOpenCL's API is used, so the same bodies
run unchanged on PyOpenCL, and every result is checked against a numpy model
computed on the host, never against pycl itself.
"""

import threading

import numpy as np
import pytest

import pycl as cl
import pycl.characterize  # noqa: F401  (as pyopencl.characterize, which "import pyopencl" does not load)

# The one pycl-specific name in this module. The pip PoCL cannot compile
# kernels on some CPUs ("unknown target CPU"), so a kernel test skips there,
# naming the compiler's message, as a PyOpenCL test suite would skip such a
# device. Everything else below is PyOpenCL code.
from pycl.testing import require_kernel_compiler


def skip_unless_kernels_build(ctx):
    require_kernel_compiler(ctx.devices[0])


def skip_unless_images(device):
    if not device.image_support:
        pytest.skip("%s has no image support" % device.name)


def skip_unless_coarse_grain_svm(device):
    if not cl.characterize.has_coarse_grain_buffer_svm(device):
        pytest.skip("%s has no coarse-grain buffer SVM (needs OpenCL 2.0 SVM)" % device.name)


mf = cl.mem_flags


# {{{ 1. vector add

VECTOR_ADD = """
__kernel void sum(__global const float *a_g, __global const float *b_g, __global float *res_g)
{
    int gid = get_global_id(0);
    res_g[gid] = a_g[gid] + b_g[gid];
}

__kernel void axpy(int alpha, __global const int *x, __global const int *y, __global int *out)
{
    int gid = get_global_id(0);
    out[gid] = alpha * x[gid] + y[gid];
}
"""


def test_vector_add(ctx_factory):
    ctx = ctx_factory()
    skip_unless_kernels_build(ctx)
    queue = cl.CommandQueue(ctx)

    rng = np.random.default_rng(1)
    a_np = rng.random(50000).astype(np.float32)
    b_np = rng.random(50000).astype(np.float32)

    a_g = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a_np)
    b_g = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b_np)
    res_g = cl.Buffer(ctx, mf.WRITE_ONLY, a_np.nbytes)

    prg = cl.Program(ctx, VECTOR_ADD).build()
    knl = prg.sum
    knl(queue, a_np.shape, None, a_g, b_g, res_g)

    res_np = np.empty_like(a_np)
    cl.enqueue_copy(queue, res_np, res_g)
    # One IEEE single-precision addition per element: the device rounds as numpy does.
    assert np.array_equal(res_np, a_np + b_np)


def test_vector_add_scalar_arg_and_workgroup(ctx_factory):
    ctx = ctx_factory()
    skip_unless_kernels_build(ctx)
    queue = cl.CommandQueue(ctx)

    n = 4096
    rng = np.random.default_rng(2)
    x = rng.integers(-1000, 1000, n, dtype=np.int32)
    y = rng.integers(-1000, 1000, n, dtype=np.int32)

    x_g = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    y_g = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=y)
    out_g = cl.Buffer(ctx, mf.WRITE_ONLY, x.nbytes)

    prg = cl.Program(ctx, VECTOR_ADD).build()
    axpy = prg.axpy
    axpy.set_scalar_arg_dtypes([np.int32, None, None, None])
    axpy(queue, (n,), (64,), -7, x_g, y_g, out_g)

    out = np.empty_like(x)
    cl.enqueue_copy(queue, out, out_g)
    assert np.array_equal(out, -7 * x + y)


# }}}


# {{{ 2. transpose through local memory

TRANSPOSE = """
__kernel void transpose(__global float *a_t, __global const float *a, int a_width, int a_height,
                        __local float *tile)
{
    int lx = get_local_id(0), ly = get_local_id(1);
    int bx = get_group_id(0) * BLOCK, by = get_group_id(1) * BLOCK;

    tile[ly * BLOCK + lx] = a[(by + ly) * a_width + bx + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    a_t[(bx + ly) * a_height + by + lx] = tile[lx * BLOCK + ly];
}
"""


@pytest.mark.parametrize("block", [4, 8])
def test_transpose_local_memory(ctx_factory, block):
    ctx = ctx_factory()
    skip_unless_kernels_build(ctx)
    queue = cl.CommandQueue(ctx)

    # Non-square, and each side a multiple of the block but not of the other side.
    height, width = 6 * block, 10 * block
    a = np.random.default_rng(3).random((height, width)).astype(np.float32)

    a_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    a_t_buf = cl.Buffer(ctx, mf.WRITE_ONLY, size=a.nbytes)

    prg = cl.Program(ctx, TRANSPOSE).build(options=["-DBLOCK=%d" % block])
    knl = prg.transpose
    tile = cl.LocalMemory(block * block * a.dtype.itemsize)
    knl(queue, (width, height), (block, block), a_t_buf, a_buf, np.int32(width), np.int32(height), tile)

    a_t = np.empty((width, height), np.float32)
    cl.enqueue_copy(queue, a_t, a_t_buf)
    assert np.array_equal(a_t, a.T)


# }}}


# {{{ 3. SVM buffers given to kernels

TWICE = """
__kernel void twice(__global float *a)
{
    int gid = get_global_id(0);
    a[gid] = 2 * a[gid];
}

__kernel void add_into(__global const int *a, __global const int *b, __global int *out)
{
    int gid = get_global_id(0);
    out[gid] = a[gid] + b[gid];
}
"""


def test_svm_array_in_kernel(ctx_factory):
    ctx = ctx_factory()
    skip_unless_coarse_grain_svm(ctx.devices[0])
    skip_unless_kernels_build(ctx)
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, TWICE).build()

    # As PyOpenCL's documentation shows it: a numpy array in coarse-grain SVM,
    # touched by the host only between map and unmap.
    svm_ary = cl.SVM(cl.csvm_empty(ctx, 1000, np.float32, queue=queue))
    assert isinstance(svm_ary.mem, np.ndarray)

    model = np.arange(1000, dtype=np.float32) - 250
    with svm_ary.map_rw(queue) as ary:
        ary[:] = model

    prg.twice(queue, svm_ary.mem.shape, None, svm_ary)

    with svm_ary.map_ro(queue) as ary:
        assert np.array_equal(ary, 2 * model)

    # enqueue_copy reads SVM like a buffer.
    out = np.empty_like(model)
    cl.enqueue_copy(queue, out, svm_ary)
    assert np.array_equal(out, 2 * model)


def test_svm_allocation_in_kernel(ctx_factory):
    ctx = ctx_factory()
    skip_unless_coarse_grain_svm(ctx.devices[0])
    skip_unless_kernels_build(ctx)
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, TWICE).build()

    n = 2048
    rng = np.random.default_rng(4)
    a_model = rng.integers(-(2**20), 2**20, n, dtype=np.int32)
    b_model = rng.integers(-(2**20), 2**20, n, dtype=np.int32)

    flags = cl.svm_mem_flags.READ_WRITE
    a = cl.SVMAllocation(ctx, a_model.nbytes, 0, flags, queue=queue)
    b = cl.SVMAllocation(ctx, b_model.nbytes, 0, flags, queue=queue)
    out = cl.SVMAllocation(ctx, a_model.nbytes, 0, flags, queue=queue)

    with a.map_rw(queue) as a_host:
        a_host.view(np.int32)[:] = a_model
    # Host to SVM through enqueue_copy, the other way to fill it.
    cl.enqueue_copy(queue, b, b_model)

    prg.add_into(queue, (n,), None, a, b, out)

    with out.map_ro(queue) as out_host:
        assert np.array_equal(out_host.view(np.int32), a_model + b_model)


# }}}


# {{{ 4. sub-buffer pipeline

PIPELINE = """
__kernel void affine(__global int *x, int scale, int shift)
{
    int gid = get_global_id(0);
    x[gid] = x[gid] * scale + shift;
}

__kernel void add_reversed(__global const int *src, __global int *dst, int n)
{
    int gid = get_global_id(0);
    dst[gid] = src[gid] + src[n - 1 - gid];
}
"""


def test_sub_buffer_pipeline(ctx_factory):
    ctx = ctx_factory()
    skip_unless_kernels_build(ctx)
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, PIPELINE).build()

    # mem_base_addr_align is in bits: sub-buffer origins must be multiples of it.
    align = max(dev.mem_base_addr_align for dev in ctx.devices) // 8
    itemsize = np.dtype(np.int32).itemsize
    stride = 4 * align
    # Each chunk starts on an alignment boundary; lengths vary, and all but one
    # leave a gap before the next chunk that no kernel may touch.
    lengths = [4 * align, 3 * align + 4 * itemsize, align, 2 * align + 3 * itemsize]
    starts = [i * stride for i in range(len(lengths))]
    total = starts[-1] + stride

    host = np.random.default_rng(5).integers(-1000, 1000, total // itemsize, dtype=np.int32)
    src = cl.Buffer(ctx, mf.READ_WRITE, size=total)
    dst = cl.Buffer(ctx, mf.READ_WRITE, size=total)
    cl.enqueue_copy(queue, src, host)
    cl.enqueue_copy(queue, dst, np.full_like(host, -1))

    # Kernels retrieved once: each prg.<name> is a new kernel object.
    affine, add_reversed = prg.affine, prg.add_reversed
    src_model = host.copy()
    dst_model = np.full_like(host, -1)
    for k, (start, length) in enumerate(zip(starts, lengths)):
        n = length // itemsize
        src_sub = src[start : start + length]
        dst_sub = dst[start : start + length]
        affine(queue, (n,), None, src_sub, np.int32(3), np.int32(k + 1))
        add_reversed(queue, (n,), None, src_sub, dst_sub, np.int32(n))

        lo, hi = start // itemsize, start // itemsize + n
        src_model[lo:hi] = src_model[lo:hi] * 3 + (k + 1)
        dst_model[lo:hi] = src_model[lo:hi] + src_model[lo:hi][::-1]

    src_out = np.empty_like(host)
    dst_out = np.empty_like(host)
    cl.enqueue_copy(queue, src_out, src)
    cl.enqueue_copy(queue, dst_out, dst)
    assert np.array_equal(src_out, src_model)
    assert np.array_equal(dst_out, dst_model)


def test_sub_buffer_copies(ctx_factory):
    """The same sub-buffers as copy sources and targets, no kernel needed."""
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)

    align = max(dev.mem_base_addr_align for dev in ctx.devices) // 8
    n_chunks = 5
    host = np.random.default_rng(6).integers(0, 256, n_chunks * align, dtype=np.uint8)
    buf = cl.Buffer(ctx, mf.READ_WRITE, size=host.nbytes)
    cl.enqueue_copy(queue, buf, np.zeros_like(host))

    # Write chunks in reverse order through sub-buffers, then swap the first two.
    for k in reversed(range(n_chunks)):
        cl.enqueue_copy(queue, buf[k * align : (k + 1) * align], host[k * align : (k + 1) * align])
    scratch = cl.Buffer(ctx, mf.READ_WRITE, size=align)
    cl.enqueue_copy(queue, scratch, buf[0:align])
    cl.enqueue_copy(queue, buf[0:align], buf[align : 2 * align])
    cl.enqueue_copy(queue, buf[align : 2 * align], scratch)

    model = host.copy()
    model[:align], model[align : 2 * align] = host[align : 2 * align], host[:align]
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, buf)
    assert np.array_equal(out, model)

    part = np.empty(align // 2, np.uint8)
    cl.enqueue_copy(queue, part, buf[2 * align : 3 * align], src_offset=align // 4)
    assert np.array_equal(part, model[2 * align + align // 4 : 2 * align + align // 4 + align // 2])


# }}}


# {{{ 5. images

IMAGE_KERNELS = """
__kernel void shifted(read_only image2d_t img, sampler_t smp, __global float *out, int dx, int dy)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = read_imagef(img, smp, (int2)(x + dx, y + dy)).x;
}

__constant sampler_t border = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

__kernel void channel_sum(read_only image2d_t img, __global uint *out, int dx)
{
    int x = get_global_id(0), y = get_global_id(1);
    uint4 px = read_imageui(img, border, (int2)(x + dx, y));
    out[y * get_global_size(0) + x] = px.x + px.y + px.z + px.w;
}

__kernel void write_square(__global const float *src, write_only image2d_t img)
{
    int x = get_global_id(0), y = get_global_id(1);
    float v = src[y * get_global_size(0) + x];
    write_imagef(img, (int2)(x, y), (float4)(v * v, 0, 0, 1));
}
"""


def test_image_round_trips(ctx_factory):
    ctx = ctx_factory()
    skip_unless_images(ctx.devices[0])
    queue = cl.CommandQueue(ctx)

    h, w = 13, 21
    a = np.random.default_rng(7).random((h, w)).astype(np.float32)
    img = cl.image_from_array(ctx, a, 1)
    assert img.shape == (w, h)

    whole = np.empty_like(a)
    cl.enqueue_copy(queue, whole, img, origin=(0, 0), region=(w, h))
    assert np.array_equal(whole, a)

    x0, y0, pw, ph = 5, 3, 9, 7
    patch = np.empty((ph, pw), np.float32)
    cl.enqueue_copy(queue, patch, img, origin=(x0, y0), region=(pw, ph))
    assert np.array_equal(patch, a[y0 : y0 + ph, x0 : x0 + pw])

    fmt = cl.ImageFormat(cl.channel_order.R, cl.channel_type.FLOAT)
    rw_img = cl.create_image(ctx, mf.READ_WRITE, fmt, shape=(w, h))
    cl.enqueue_copy(queue, rw_img, a, origin=(0, 0), region=(w, h))
    new_patch = -np.arange(pw * ph, dtype=np.float32).reshape(ph, pw)
    cl.enqueue_copy(queue, rw_img, new_patch, origin=(x0, y0), region=(pw, ph))

    model = a.copy()
    model[y0 : y0 + ph, x0 : x0 + pw] = new_patch
    cl.enqueue_copy(queue, whole, rw_img, origin=(0, 0), region=(w, h))
    assert np.array_equal(whole, model)

    # Image to image, then back to the host.
    copy_img = cl.create_image(ctx, mf.READ_WRITE, fmt, shape=(w, h))
    cl.enqueue_copy(queue, copy_img, rw_img, src_origin=(0, 0), dest_origin=(0, 0), region=(w, h))
    cl.enqueue_copy(queue, whole, copy_img, origin=(0, 0), region=(w, h))
    assert np.array_equal(whole, model)


def test_rgba_image_round_trip(ctx_factory):
    ctx = ctx_factory()
    skip_unless_images(ctx.devices[0])
    queue = cl.CommandQueue(ctx)

    h, w = 6, 10
    rgba = np.random.default_rng(8).integers(0, 256, (h, w, 4), dtype=np.uint8)
    img = cl.image_from_array(ctx, rgba, 4)
    assert img.format.channel_order == cl.channel_order.RGBA
    assert img.format.channel_data_type == cl.channel_type.UNSIGNED_INT8

    out = np.empty_like(rgba)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(w, h))
    assert np.array_equal(out, rgba)

    corner = np.empty((2, 3, 4), np.uint8)
    cl.enqueue_copy(queue, corner, img, origin=(w - 3, h - 2), region=(3, 2))
    assert np.array_equal(corner, rgba[h - 2 :, w - 3 :])


def test_image_sampled_by_kernel(ctx_factory):
    ctx = ctx_factory()
    skip_unless_images(ctx.devices[0])
    skip_unless_kernels_build(ctx)
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, IMAGE_KERNELS).build()

    h, w = 11, 17
    a = np.random.default_rng(9).random((h, w)).astype(np.float32)
    img = cl.image_from_array(ctx, a, 1)
    smp = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
    out_buf = cl.Buffer(ctx, mf.WRITE_ONLY, size=a.nbytes)
    out = np.empty_like(a)

    shifted = prg.shifted
    ys, xs = np.mgrid[0:h, 0:w]
    for dx, dy in [(0, 0), (3, -2), (-5, 4), (w, h)]:
        shifted(queue, (w, h), None, img, smp, out_buf, np.int32(dx), np.int32(dy))
        cl.enqueue_copy(queue, out, out_buf)
        model = a[np.clip(ys + dy, 0, h - 1), np.clip(xs + dx, 0, w - 1)]
        assert np.array_equal(out, model), (dx, dy)


def test_rgba_image_border_sampling(ctx_factory):
    ctx = ctx_factory()
    skip_unless_images(ctx.devices[0])
    skip_unless_kernels_build(ctx)
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, IMAGE_KERNELS).build()

    h, w = 5, 12
    rgba = np.random.default_rng(10).integers(0, 256, (h, w, 4), dtype=np.uint8)
    img = cl.image_from_array(ctx, rgba, 4)
    out_buf = cl.Buffer(ctx, mf.WRITE_ONLY, size=h * w * 4)

    dx = 4
    prg.channel_sum(queue, (w, h), None, img, out_buf, np.int32(dx))
    out = np.empty((h, w), np.uint32)
    cl.enqueue_copy(queue, out, out_buf)

    # CLK_ADDRESS_CLAMP reads the border colour, all zeros for RGBA, past the edge.
    sums = rgba.astype(np.uint32).sum(axis=2)
    model = np.zeros((h, w), np.uint32)
    model[:, : w - dx] = sums[:, dx:]
    assert np.array_equal(out, model)


def test_kernel_writes_image(ctx_factory):
    ctx = ctx_factory()
    skip_unless_images(ctx.devices[0])
    skip_unless_kernels_build(ctx)
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, IMAGE_KERNELS).build()

    h, w = 9, 14
    src = np.random.default_rng(11).random((h, w)).astype(np.float32)
    src_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=src)
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
    img = cl.create_image(ctx, mf.WRITE_ONLY, fmt, shape=(w, h))

    prg.write_square(queue, (w, h), None, src_buf, img)
    out = np.empty((h, w, 4), np.float32)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(w, h))

    model = np.zeros((h, w, 4), np.float32)
    model[..., 0] = src * src
    model[..., 3] = 1
    assert np.array_equal(out, model)


# }}}


# {{{ 6. pool-backed temporaries

SCALE = """
__kernel void scale_into(__global const float *src, __global float *dst, float factor)
{
    int gid = get_global_id(0);
    dst[gid] = src[gid] * factor;
}
"""


def test_pool_temporaries_in_kernels(ctx_factory):
    ctx = ctx_factory()
    skip_unless_kernels_build(ctx)
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SCALE).build()
    scale_into = cl.Kernel(prg, "scale_into")

    pool = cl.tools.MemoryPool(cl.tools.ImmediateAllocator(queue))
    n = 1000
    host = np.random.default_rng(12).random(n).astype(np.float32)

    a = pool.allocate(host.nbytes)
    cl.enqueue_copy(queue, a, host)
    model = host.copy()
    # Ping-pong through temporaries, each released when its step is done: the
    # pool hands the same block back instead of allocating again.
    for factor in [2.0, 0.5, -3.0, 0.25]:
        tmp = pool.allocate(host.nbytes)
        scale_into(queue, (n,), None, a, tmp, np.float32(factor))
        a.release()
        a = tmp
        model = model * np.float32(factor)
        assert pool.active_blocks == 1
        assert pool.held_blocks == 1

    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, a)
    assert np.array_equal(out, model)

    a.release()
    assert pool.active_blocks == 0
    assert pool.held_blocks == 2
    pool.free_held()
    assert pool.held_blocks == 0


def test_pool_blocks_as_copy_targets(ctx_factory):
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    pool = cl.tools.MemoryPool(cl.tools.ImmediateAllocator(queue))

    host = np.random.default_rng(13).integers(0, 2**31, 4096, dtype=np.int32)
    first = pool.allocate(host.nbytes)
    second = pool.allocate(host.nbytes)
    assert (pool.active_blocks, pool.held_blocks) == (2, 0)

    cl.enqueue_copy(queue, first, host)
    cl.enqueue_copy(queue, second, first, byte_count=host.nbytes)
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, second)
    assert np.array_equal(out, host)

    first.release()
    assert (pool.active_blocks, pool.held_blocks) == (1, 1)
    # A request of the same size reuses the held block.
    third = pool.allocate(host.nbytes)
    assert (pool.active_blocks, pool.held_blocks) == (2, 0)
    cl.enqueue_copy(queue, third, host[::-1].copy())
    cl.enqueue_copy(queue, out, third)
    assert np.array_equal(out, host[::-1])

    second.release()
    third.release()
    assert (pool.active_blocks, pool.held_blocks) == (0, 2)
    pool.free_held()
    assert (pool.active_blocks, pool.held_blocks) == (0, 0)


# }}}


# {{{ 7. event callbacks and profiling

CALLBACK_TIMEOUT_S = 60


def test_callback_on_kernel_completion(ctx_factory):
    ctx = ctx_factory()
    skip_unless_kernels_build(ctx)
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, TWICE).build()

    host = np.arange(256, dtype=np.float32)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)

    fired = threading.Event()
    statuses = []

    def on_complete(status):
        statuses.append(status)
        fired.set()

    evt = prg.twice(queue, host.shape, None, buf)
    evt.set_callback(cl.command_execution_status.COMPLETE, on_complete)
    queue.flush()
    assert fired.wait(CALLBACK_TIMEOUT_S), "callback did not fire within %d s" % CALLBACK_TIMEOUT_S
    assert statuses == [cl.command_execution_status.COMPLETE]
    assert evt.command_execution_status == cl.command_execution_status.COMPLETE

    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, buf)
    assert np.array_equal(out, 2 * host)


def test_callback_waits_for_user_event(ctx_factory):
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)

    host = np.random.default_rng(14).integers(0, 256, 1 << 16, dtype=np.uint8)
    src = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=host)
    dst = cl.Buffer(ctx, mf.READ_WRITE, size=host.nbytes)

    fired = threading.Event()
    statuses = []

    def on_complete(status):
        statuses.append(status)
        fired.set()

    gate = cl.UserEvent(ctx)
    try:
        evt = cl.enqueue_copy(queue, dst, src, wait_for=[gate])
        evt.set_callback(cl.command_execution_status.COMPLETE, on_complete)
        # The copy cannot complete before the gate opens. No flush here:
        # Oclgrind's clFlush runs the queue and blocks on the closed gate.
        assert not fired.wait(0.2)
        assert statuses == []
    finally:
        gate.set_status(cl.command_execution_status.COMPLETE)
    queue.flush()
    assert fired.wait(CALLBACK_TIMEOUT_S), "callback did not fire within %d s" % CALLBACK_TIMEOUT_S
    assert statuses == [cl.command_execution_status.COMPLETE]

    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, dst)
    assert np.array_equal(out, host)


def check_profile(evt):
    evt.wait()
    p = evt.profile
    assert 0 < p.queued <= p.submit <= p.start <= p.end, (p.queued, p.submit, p.start, p.end)


def test_profiling_kernel(ctx_factory):
    ctx = ctx_factory()
    skip_unless_kernels_build(ctx)
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    prg = cl.Program(ctx, VECTOR_ADD).build()

    n = 10000
    a = np.arange(n, dtype=np.float32)
    a_g = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    res_g = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)

    evt = prg.sum(queue, a.shape, None, a_g, a_g, res_g)
    check_profile(evt)
    assert evt.command_type == cl.command_type.NDRANGE_KERNEL

    res = np.empty_like(a)
    cl.enqueue_copy(queue, res, res_g)
    assert np.array_equal(res, 2 * a)


def test_profiling_transfers(ctx_factory):
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    assert queue.properties & cl.command_queue_properties.PROFILING_ENABLE

    host = np.random.default_rng(15).random(1 << 15)
    buf = cl.Buffer(ctx, mf.READ_WRITE, size=host.nbytes)
    write = cl.enqueue_copy(queue, buf, host, is_blocking=False)
    out = np.empty_like(host)
    read = cl.enqueue_copy(queue, out, buf, wait_for=[write])
    for evt in (write, read):
        check_profile(evt)
    assert write.command_type == cl.command_type.WRITE_BUFFER
    assert read.command_type == cl.command_type.READ_BUFFER
    # In-order queue: the read starts after the write ends.
    assert write.profile.end <= read.profile.start
    assert np.array_equal(out, host)


# }}}


# {{{ 8. maps


def test_map_buffer_write_then_read(ctx_factory):
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)

    n = 5000
    model = np.random.default_rng(16).random(n).astype(np.float32)
    buf = cl.Buffer(ctx, mf.READ_WRITE, size=model.nbytes)

    ary, evt = cl.enqueue_map_buffer(queue, buf, cl.map_flags.WRITE, 0, (n,), np.float32)
    ary[:] = model
    ary.base.release(queue)

    out = np.empty_like(model)
    cl.enqueue_copy(queue, out, buf)
    assert np.array_equal(out, model)


def test_map_buffer_rows_read_write(ctx_factory):
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)

    rows, cols = 40, 24
    host = np.random.default_rng(17).integers(-100, 100, (rows, cols), dtype=np.int32)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)

    r0, r1 = 7, 19
    offset = r0 * cols * host.itemsize
    ary, evt = cl.enqueue_map_buffer(
        queue, buf, cl.map_flags.READ | cl.map_flags.WRITE, offset, (r1 - r0, cols), np.int32, is_blocking=False
    )
    evt.wait()
    with ary.base:
        assert np.array_equal(ary, host[r0:r1])
        ary *= 3
        ary[:, 0] = -1

    model = host.copy()
    model[r0:r1] *= 3
    model[r0:r1, 0] = -1
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, buf)
    assert np.array_equal(out, model)

    # A Fortran-order map of the same bytes sees the transpose.
    ary_f, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 0, (cols, rows), np.int32, order="F")
    with ary_f.base:
        assert np.array_equal(ary_f, model.T)


def test_map_image(ctx_factory):
    ctx = ctx_factory()
    skip_unless_images(ctx.devices[0])
    queue = cl.CommandQueue(ctx)

    h, w = 12, 16
    a = np.random.default_rng(18).random((h, w)).astype(np.float32)
    fmt = cl.ImageFormat(cl.channel_order.R, cl.channel_type.FLOAT)
    img = cl.create_image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, fmt, shape=(w, h), hostbuf=a)

    ary, evt, row_pitch, slice_pitch = cl.enqueue_map_image(
        queue, img, cl.map_flags.READ, (0, 0), (w, h), (h, w), np.float32
    )
    assert row_pitch >= w * a.itemsize
    with ary.base:
        assert np.array_equal(ary, a)

    # A band of whole rows: PyOpenCL lays the mapped array out with tight rows, ignoring row_pitch, so only a
    # map whose rows are whole image rows shows the region the same way on PyOpenCL and on pycl.
    y0, bh = 4, 5
    band = -np.arange(bh * w, dtype=np.float32).reshape(bh, w)
    ary, evt, row_pitch, slice_pitch = cl.enqueue_map_image(
        queue, img, cl.map_flags.WRITE, (0, y0), (w, bh), (bh, w), np.float32
    )
    ary[:] = band
    ary.base.release(queue)

    model = a.copy()
    model[y0 : y0 + bh] = band
    out = np.empty_like(a)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(w, h))
    assert np.array_equal(out, model)


# }}}
