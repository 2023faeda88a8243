"""The runtime calls of OpenCL 1.2 and 2.1 beyond the basics: partitioning a
device, kernel clones, sub-group queries, device timers, a context's default
device queue; and PooledBuffer's queue binding (PyOpenCL's API). On every
device: where the device has the feature, against the specification's model;
where it has not, the UnavailableError naming what is missing."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest

import pycl as cl
from pycl.testing import require_kernel_compiler
from pycl.tools import ImmediateAllocator, MemoryPool

_dpp = cl.device_partition_property
FILL = "__kernel void fill(__global int *a, int v) { a[get_global_id(0)] = v + (int)get_global_id(0); }"


def _partitions_equally(device):
    return device.partition_max_sub_devices >= 2 and _dpp.EQUALLY in (device.partition_properties or [])


def test_sub_devices(device):
    """EQUALLY and BY_COUNTS partitions give the sub-devices the
    specification says (count, compute units, parent), each usable in a
    context of its own; a device that cannot partition gets the driver's
    refusal; bad properties are named."""
    if not _partitions_equally(device):
        with pytest.raises(cl.Error):
            device.create_sub_devices([_dpp.EQUALLY, 1])
        pytest.skip("the device does not partition (partition_max_sub_devices %d)" % device.partition_max_sub_devices)
    units = device.max_compute_units
    subs = device.create_sub_devices([_dpp.EQUALLY, 1])
    assert len(subs) == min(units, device.partition_max_sub_devices)
    for sub in subs:
        assert isinstance(sub, cl.Device)
        assert sub.parent_device == device
        assert sub.max_compute_units == 1
        assert list(sub.partition_type)[:2] == [_dpp.EQUALLY, 1]
        assert sub != device
    (counted,) = device.create_sub_devices([_dpp.BY_COUNTS, 1, _dpp.BY_COUNTS_LIST_END])
    assert counted.max_compute_units == 1 and counted.parent_device == device

    require_kernel_compiler(device)
    ctx = cl.Context([subs[-1]])
    assert ctx.devices == [subs[-1]]
    queue = cl.CommandQueue(ctx)
    assert queue.device == subs[-1]
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 16)
    cl.Program(ctx, FILL).build().fill(queue, (16,), None, buf, np.int32(100))
    out = np.empty(16, np.int32)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, 100 + np.arange(16))

    subs[0].release()
    with pytest.raises(cl.LogicError, match="was released"):
        subs[0].name
    with pytest.raises(cl.LogicError, match=r"properties\[1\] = -1 is negative"):
        device.create_sub_devices([_dpp.EQUALLY, -1])
    with pytest.raises(TypeError, match="properties must be a sequence of ints"):
        device.create_sub_devices(_dpp.EQUALLY)


SUB_DEVICE_FIRST_CHILD = r"""
import gc, sys, time
import numpy as np
import pycl as cl

name, version, index = sys.argv[1], sys.argv[2], int(sys.argv[3])
platform = [p for p in cl.get_platforms() if (p.name, p.version) == (name, version)][0]
device = platform.get_devices()[index]
size = 64 << 20
for _ in range(5):
    subs = device.create_sub_devices([cl.device_partition_property.EQUALLY, 1])
    ctx = cl.Context([subs[-1]])
    queue = cl.CommandQueue(ctx)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, size)
    cl.enqueue_fill_buffer(queue, buf, np.uint32(7), 0, size)  # still running below
    del queue, buf, ctx, subs  # the sub-devices go before the driver frees the queue
    gc.collect()
    churn = [bytearray(b"\xff" * 2000) for _ in range(2000)]  # reuses freed memory
    time.sleep(0.2)
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
cl.enqueue_fill_buffer(queue, buf, np.uint32(5), 0, 64)
out = np.zeros(16, np.uint32)
cl.enqueue_copy(queue, out, buf)
assert (out == 5).all(), out
print("ok")
"""


def test_sub_device_released_while_its_queue_works(device):
    """A sub-device released while a command on a queue of it still runs:
    the queue the driver frees afterwards finds its device alive (PoCL 3.0
    and 3.1 crash there without the context's hold, PyOpenCL included),
    and the hold ends with the context. In a child, as a crash is the
    failure."""
    if not _partitions_equally(device):
        pytest.skip("the device does not partition (partition_max_sub_devices %d)" % device.partition_max_sub_devices)
    sub = device.create_sub_devices([_dpp.EQUALLY, 1])[-1]
    alone = sub.reference_count
    ctx = cl.Context([sub])
    held = sub.reference_count
    ctx.release()
    deadline = time.monotonic() + 5
    while sub.reference_count != alone and time.monotonic() < deadline:
        time.sleep(0.005)  # the driver frees the context (and drops the hold) on its own thread
    assert sub.reference_count == alone and held > alone
    index = device.platform.get_devices().index(device)
    args = [sys.executable, "-c", SUB_DEVICE_FIRST_CHILD, device.platform.name, device.platform.version, str(index)]
    child = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert child.returncode == 0 and child.stdout.strip() == "ok", child.stdout + child.stderr


def _has_2_1(device):
    return device.cl_version >= (2, 1)


def test_kernel_clone(ctx_factory):
    """A clone runs with the arguments its original had, keeps their objects
    alive as the original does, and takes arguments of its own after."""
    ctx = ctx_factory()
    device = ctx.devices[0]
    require_kernel_compiler(device)
    queue = cl.CommandQueue(ctx)
    knl = cl.Program(ctx, FILL).build().fill
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 16)
    knl.set_args(buf, np.int32(7))
    if not _has_2_1(device):
        with pytest.raises(cl.UnavailableError, match="clCloneKernel needs OpenCL 2.1"):
            knl.clone()
        pytest.skip("kernel clones need OpenCL 2.1; the device has %d.%d" % device.cl_version)
    twin = knl.clone()
    assert type(twin) is type(knl) and twin != knl
    assert twin.function_name == "fill" and twin.num_args == 2
    out = np.empty(16, np.int32)
    cl.enqueue_nd_range_kernel(queue, twin, (16,), None)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, 7 + np.arange(16))
    other = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 16)
    twin.set_args(other, np.int32(-3))  # the original keeps its own
    cl.enqueue_nd_range_kernel(queue, knl, (16,), None)
    cl.enqueue_nd_range_kernel(queue, twin, (16,), None)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, 7 + np.arange(16))
    cl.enqueue_copy(queue, out, other)
    np.testing.assert_array_equal(out, -3 + np.arange(16))
    third = knl.clone()
    buf.release()
    with pytest.raises(cl.LogicError, match=r"kernel argument 0 \(.*\) was released"):
        cl.enqueue_nd_range_kernel(queue, third, (16,), None)


def test_kernel_sub_group_info(ctx_factory):
    """The five sub-group queries with their inputs where the device has
    sub-groups; the refusal that names the missing feature elsewhere; a
    parameter that is no sub-group query, or a wrong input, named first."""
    ctx = ctx_factory()
    device = ctx.devices[0]
    require_kernel_compiler(device)
    knl = cl.Program(ctx, FILL).build().fill
    info = cl.kernel_sub_group_info
    with pytest.raises(cl.LogicError, match="param = 12345 is no kernel_sub_group_info value"):
        knl.get_sub_group_info(device, 12345)
    with pytest.raises(cl.LogicError, match="takes no input_value"):
        knl.get_sub_group_info(device, info.MAX_NUM_SUB_GROUPS, 4)
    with pytest.raises(cl.LogicError, match="input_value = .* must have 1 to 3 entries"):
        knl.get_sub_group_info(device, info.SUB_GROUP_COUNT_FOR_NDRANGE, (1, 1, 1, 1))
    if not _has_2_1(device) or not device.max_num_sub_groups:
        with pytest.raises(cl.UnavailableError, match="needs OpenCL 2.1|needs a device with sub-groups"):
            knl.get_sub_group_info(device, info.MAX_NUM_SUB_GROUPS)
        pytest.skip("the device has no sub-groups")
    most = knl.get_sub_group_info(device, info.MAX_NUM_SUB_GROUPS)
    assert 1 <= most <= device.max_num_sub_groups
    assert knl.get_sub_group_info(device, info.COMPILE_NUM_SUB_GROUPS) == 0  # no attribute in the source
    size = knl.get_sub_group_info(device, info.MAX_SUB_GROUP_SIZE_FOR_NDRANGE, (64,))
    count = knl.get_sub_group_info(device, info.SUB_GROUP_COUNT_FOR_NDRANGE, (64,))
    assert size >= 1 and count == -(-64 // size)
    local = knl.get_sub_group_info(device, info.LOCAL_SIZE_FOR_SUB_GROUP_COUNT, 1)
    assert isinstance(local, list)


def test_device_timers(device):
    """The host timer and the device and host timers read together: the
    host reading of the pair lies between two host readings."""
    platform = device.platform
    if not _has_2_1(device) or not platform.host_timer_resolution:
        for call in (device.host_timer, device.device_and_host_timer):
            with pytest.raises(cl.UnavailableError, match="needs OpenCL 2.1|host_timer_resolution of 0"):
                call()
        pytest.skip("the platform does not synchronize device and host timers")
    before = device.host_timer()
    stamps = device.device_and_host_timer()
    after = device.host_timer()
    assert len(stamps) == 2 and all(isinstance(s, int) for s in stamps)
    assert before <= stamps[1] <= after


def test_default_device_command_queue(ctx_factory):
    """A device queue becomes the default where the device has device-side
    enqueue; elsewhere the refusal names what is missing; a host queue is the
    driver's error."""
    ctx = ctx_factory()
    device = ctx.devices[0]
    queue = cl.CommandQueue(ctx)
    with pytest.raises(TypeError, match="device must be a pycl.Device"):
        ctx.set_default_device_command_queue(queue, queue)
    capable = _has_2_1(device) and (
        device.cl_version < (3, 0) or device.get_info(cl.device_info.DEVICE_ENQUEUE_CAPABILITIES)
    )
    if not capable:
        with pytest.raises(cl.UnavailableError, match="needs OpenCL 2.1|needs a device with device-side enqueue"):
            ctx.set_default_device_command_queue(device, queue)
        pytest.skip("the device has no device-side enqueue")
    with pytest.raises(cl.LogicError, match="CL_INVALID_COMMAND_QUEUE"):
        ctx.set_default_device_command_queue(device, queue)
    qp = cl.command_queue_properties
    on_device = cl.CommandQueue(
        ctx, device, properties=qp.ON_DEVICE | qp.ON_DEVICE_DEFAULT | qp.OUT_OF_ORDER_EXEC_MODE_ENABLE
    )
    ctx.set_default_device_command_queue(device, on_device)


def test_pooled_buffer_queue_binding(cq):
    """PooledBuffer.bind_to_queue and unbind_from_queue take a queue and a
    live block, as PyOpenCL's (which do nothing else for buffers)."""
    ctx, queue = cq
    pool = MemoryPool(ImmediateAllocator(queue))
    block = pool.allocate(64)
    block.bind_to_queue(queue)
    block.unbind_from_queue()
    with pytest.raises(TypeError, match="queue must be a pycl.CommandQueue"):
        block.bind_to_queue(ctx)
    block.release()
    with pytest.raises(cl.LogicError, match="was released"):
        block.bind_to_queue(queue)
    with pytest.raises(cl.LogicError, match="was released"):
        block.unbind_from_queue()
