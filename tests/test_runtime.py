"""Runtime objects on every device: create, info, equality, int_ptr round
trips with reference counts, release rules."""

import gc
import os
import re
import threading
import warnings

import numpy as np
import pytest

import pycl as cl
from pycl._lib import ffi


def test_platform_and_device_info(device):
    platform = device.platform
    assert isinstance(platform, cl.Platform)
    assert device in platform.get_devices()
    assert device.name and platform.name and device.vendor
    assert device.version.startswith("OpenCL ")
    major, minor = (int(x) for x in device.version.split()[1].split(".")[:2])
    assert device.cl_version <= (major, minor)
    assert device.get_info(cl.device_info.NAME) == device.name
    assert device.max_mem_alloc_size <= device.global_mem_size
    # cl_bool values are the ints 1 and 0, as PyOpenCL returns them.
    assert type(device.image_support) is int and device.image_support in (0, 1)
    assert type(device.available) is int and device.available == 1
    assert len(device.max_work_item_sizes) == device.max_work_item_dimensions
    assert device.type & cl.device_type.ALL
    if device.cl_version >= (2, 0):
        assert isinstance(device.svm_capabilities, int)


def test_unknown_info_attribute_is_attribute_error(device):
    with pytest.raises(AttributeError):
        device.no_such_info
    with pytest.raises(cl.LogicError, match="device_info has no parameter 123456"):
        device.get_info(123456)


def test_context_info_and_equality(ctx_factory):
    ctx = ctx_factory()
    device = ctx_factory.device
    assert ctx.devices == [device]
    assert ctx.get_info(cl.context_info.NUM_DEVICES) == 1
    assert ctx.reference_count == 1
    other = ctx_factory()
    assert ctx != other and hash(ctx) != hash(other) or ctx.int_ptr != other.int_ptr
    same = cl.Context.from_int_ptr(ctx.int_ptr)
    assert same == ctx and hash(same) == hash(ctx) and not (same != ctx)
    assert {ctx, same} == {ctx}


def check_round_trip(obj):
    """from_int_ptr with and without retain, counted by REFERENCE_COUNT."""
    cls = type(obj)
    start = obj.reference_count
    twin = cls.from_int_ptr(obj.int_ptr)
    assert twin == obj and twin.int_ptr == obj.int_ptr
    assert obj.reference_count == start + 1
    twin.release()
    assert obj.reference_count == start
    del twin
    gc.collect()  # collection after release does nothing
    assert obj.reference_count == start
    # retain=False moves a reference the caller owns, e.g. one C code retained.
    assert cls._retain(ffi.cast(cls._ctype, obj.int_ptr)) == 0
    taken = cls.from_int_ptr(obj.int_ptr, retain=False)
    assert obj.reference_count == start + 1
    del taken
    gc.collect()
    assert obj.reference_count == start


def test_context_int_ptr_round_trip(ctx_factory):
    check_round_trip(ctx_factory())


def test_queue_int_ptr_round_trip(ctx_factory):
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    check_round_trip(queue)
    twin = cl.CommandQueue.from_int_ptr(queue.int_ptr)
    assert twin.context == ctx and twin.device == ctx_factory.device


def test_event_int_ptr_round_trip(ctx_factory):
    # A user event: the driver holds no reference of its own that it might
    # drop while the test counts.
    event = cl.UserEvent(ctx_factory())
    check_round_trip(event)
    assert type(cl.Event.from_int_ptr(event.int_ptr)) is cl.Event
    # NVIDIA's OpenCL blocks forever releasing a context whose user event
    # never completed: complete every user event.
    event.set_status(cl.command_execution_status.COMPLETE)


def test_event_status_as_get_info_says(ctx_factory):
    """``command_execution_status`` (one shim call) answers what
    ``get_info(COMMAND_EXECUTION_STATUS)`` answers: submitted, complete, a
    failed command's negative status; a released event is refused."""
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    status = cl.event_info.COMMAND_EXECUTION_STATUS
    gate = cl.UserEvent(ctx)
    waiting = cl.enqueue_marker(queue, wait_for=[gate])
    for event in (gate, waiting):
        assert event.command_execution_status == event.get_info(status)
    assert gate.command_execution_status == cl.command_execution_status.SUBMITTED
    gate.set_status(cl.command_execution_status.COMPLETE)
    waiting.wait()
    assert gate.command_execution_status == waiting.command_execution_status == cl.command_execution_status.COMPLETE
    failed = cl.UserEvent(ctx)
    failed.set_status(-5)
    assert failed.command_execution_status == failed.get_info(status) == -5
    failed.release()
    with pytest.raises(cl.LogicError, match="released"):
        failed.command_execution_status


def test_wait_for_events_of_one_and_mistakes(ctx_factory):
    """One event (the short way) waits as a longer list does; a released
    event, a non-event and a non-list are refused, as in a longer list."""
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    gate = cl.UserEvent(ctx)
    after = cl.enqueue_marker(queue, wait_for=[gate])
    waiter = threading.Thread(target=cl.wait_for_events, args=([after],))
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive()  # still waiting for the gate
    gate.set_status(cl.command_execution_status.COMPLETE)
    waiter.join(30)
    assert not waiter.is_alive() and after.command_execution_status == cl.command_execution_status.COMPLETE
    cl.wait_for_events([after])
    cl.wait_for_events([])
    done = cl.enqueue_marker(queue)
    done.wait()
    gone = cl.enqueue_marker(queue)
    gone.wait()
    gone.release()
    for events in ([gone], [done, gone]):
        with pytest.raises(cl.LogicError, match="released"):
            cl.wait_for_events(events)
    for events in ([object()], [done, 5]):
        with pytest.raises(TypeError):
            cl.wait_for_events(events)


def check_event_address(event):
    """An Event compares, hashes and prints by its handle's address, read
    from the driver's own reference (a twin from ``from_int_ptr``), before
    and after its release; the released error names the same address."""
    address = event.int_ptr
    twin = cl.Event.from_int_ptr(address)
    assert twin == event and hash(twin) == hash(event) == hash(address)
    assert twin.reference_count == event.reference_count >= 2
    assert repr(event) == "<pycl.%s 0x%x>" % (type(event).__name__, address)
    held = {event}
    event.release()
    assert event in held and hash(event) == hash(address) and event != twin
    assert repr(event) == "<pycl.%s released>" % type(event).__name__
    with pytest.raises(cl.LogicError, match="%s at 0x%x was released" % (type(event).__name__, address)):
        event.wait()
    with pytest.raises(cl.LogicError, match="0x%x was released" % address):
        event.release()
    assert twin.int_ptr == address
    twin.release()


def test_every_route_s_event_keeps_its_address(ctx_factory):
    # pycl stores no address at enqueue (docs/design.md, "The object model"):
    # each route's event works it out from its handle.
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
    host = np.arange(16, dtype=np.float32)
    image = cl.image_from_array(ctx, np.zeros((4, 4), np.float32)) if ctx_factory.device.image_support else None
    mapped, map_event = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 0, (16,), np.float32)
    events = [
        cl.enqueue_marker(queue),
        cl.enqueue_barrier(queue),
        cl.enqueue_copy(queue, buf, host),
        cl.enqueue_copy(queue, host, buf, is_blocking=False),
        cl.enqueue_copy(queue, buf, buf, byte_count=16, src_offset=0, dst_offset=32),
        cl.enqueue_fill_buffer(queue, buf, np.float32(1), 0, 64),
        cl.enqueue_copy(queue, buf, host, buffer_origin=(0, 0), host_origin=(0, 0), region=(16, 2)),
        map_event,
        mapped.base.release(),
    ]
    if image is not None:
        events.append(cl.enqueue_copy(queue, image, host.reshape(4, 4), origin=(0, 0), region=(4, 4)))
    cl.wait_for_events(events)
    kinds = {type(event) for event in events}
    assert kinds == {cl.Event, cl.NannyEvent}
    for event in events:
        check_event_address(event)


def test_platform_and_device_from_int_ptr(device):
    assert cl.Device.from_int_ptr(device.int_ptr) == device
    assert cl.Platform.from_int_ptr(device.platform.int_ptr) == device.platform
    with pytest.raises(TypeError):
        cl.Device.from_int_ptr("0x1")
    with pytest.raises(cl.LogicError, match="NULL"):
        cl.Context.from_int_ptr(0)


def released_uses(obj):
    yield lambda: obj.int_ptr
    yield lambda: obj.reference_count
    yield lambda: obj.get_info(cl.context_info.REFERENCE_COUNT)


def test_release_rules(ctx_factory):
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    event = cl.enqueue_marker(queue)
    for obj in (event, queue, ctx):
        obj.release()
        with pytest.raises(cl.LogicError, match="was released"):
            obj.release()
        with pytest.raises(cl.LogicError):
            obj.int_ptr
        with pytest.raises(cl.LogicError):
            obj.reference_count
        assert "released" in repr(obj)
    with pytest.raises(cl.LogicError, match="Context at 0x[0-9a-f]+ was released"):
        cl.CommandQueue(ctx)
    with pytest.raises(cl.LogicError):
        queue.finish()
    with pytest.raises(cl.LogicError):
        event.wait()
    with pytest.raises(cl.LogicError):
        cl.enqueue_marker(queue)
    # A released object still hashes (sets and dicts holding it keep working)
    # but equals only itself: its address may belong to a new object now.
    assert hash(ctx) == hash(ctx) and ctx == ctx
    gc.collect()


def test_context_manager_releases(ctx_factory):
    with ctx_factory() as ctx:
        with cl.CommandQueue(ctx) as queue:
            cl.enqueue_marker(queue).wait()
        # PyOpenCL finishes a queue at the end of its with block and keeps it
        # usable, warning at each later command (not at finish or queries).
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
        ctx_queue = cl.CommandQueue(ctx)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            queue.finish()
            assert queue.device == ctx.devices[0]
            assert isinstance(queue, cl.CommandQueue)
        assert caught == []
        out = np.empty(4, np.int32)
        for command in (
            queue.flush,
            lambda: cl.enqueue_marker(queue),
            lambda: cl.enqueue_barrier(queue, wait_for=[cl.enqueue_marker(ctx_queue)]),
            lambda: cl.enqueue_copy(queue, buf, np.arange(4, dtype=np.int32)),
            lambda: cl.enqueue_copy(queue, out, buf),
        ):
            with pytest.warns(cl.CommandQueueUsedAfterExit) as caught:
                command()
            assert caught[0].filename == __file__  # the warning names the caller's line
        np.testing.assert_array_equal(out, np.arange(4))
        queue.release()
        with pytest.raises(cl.LogicError), warnings.catch_warnings():
            warnings.simplefilter("ignore", cl.CommandQueueUsedAfterExit)
            queue.flush()
    with pytest.raises(cl.LogicError):
        ctx.devices
    # Released inside the block: exit does not release again.
    with ctx_factory() as ctx:
        ctx.release()


def test_context_from_dev_type(device):
    ctx = cl.Context(dev_type=cl.device_type.ALL, properties=[(cl.context_properties.PLATFORM, device.platform)])
    assert set(ctx.devices) == set(device.platform.get_devices())


def test_queue_properties_and_info(ctx_factory):
    ctx = ctx_factory()
    device = ctx_factory.device
    queue = cl.CommandQueue(ctx, device, cl.command_queue_properties.PROFILING_ENABLE)
    assert queue.device == device and queue.context == ctx
    assert queue.properties == cl.command_queue_properties.PROFILING_ENABLE
    assert queue.get_info(cl.command_queue_info.PROPERTIES) == cl.command_queue_properties.PROFILING_ENABLE
    assert queue.is_in_order
    queue.flush()
    queue.finish()


def test_property_lists_are_checked(ctx_factory):
    """Queue and context properties are pairs of ints that fit their C type,
    refused by pycl before the driver (a 2**70 value was cffi's OverflowError)."""
    ctx = ctx_factory()
    device = ctx_factory.device
    with pytest.raises(cl.LogicError, match="must be pairs of keys and values") as info:
        cl.CommandQueue(ctx, device, [(cl.queue_properties.PROPERTIES,)])
    assert info.value.routine == "CommandQueue"
    with pytest.raises(cl.LogicError, match=r"properties\[1\] = %d exceeds the limit of %d" % (2**70, 2**64 - 1)):
        cl.CommandQueue(ctx, device, 2**70)
    with pytest.raises(TypeError, match=r"properties\[1\] must be an int, not float"):
        cl.CommandQueue(ctx, device, [(cl.queue_properties.PROPERTIES, 1.5)])
    with pytest.raises(cl.LogicError, match=r"properties\[1\] = -1 is negative"):
        cl.Context([device], properties=[(cl.context_properties.PLATFORM, -1)])
    with pytest.raises(TypeError, match="properties must be a sequence of keys and values, not str"):
        cl.CommandQueue(ctx, device, "PROFILING_ENABLE")


def test_queue_size_property_needs_2_0(ctx_factory):
    """CL_QUEUE_SIZE has no OpenCL 1.2 equivalent: UnavailableError below 2.0
    (also under PYCL_FORCE_CL_VERSION=1.2), accepted with on-device queues above."""
    ctx = ctx_factory()
    device = ctx_factory.device
    properties = [(cl.queue_properties.PROPERTIES, 0), (cl.queue_properties.SIZE, 1024)]
    if device.platform.cl_version < (2, 0):
        with pytest.raises(cl.UnavailableError, match="needs clCreateCommandQueueWithProperties .OpenCL 2.0.") as info:
            cl.CommandQueue(ctx, device, properties)
        assert isinstance(info.value, NotImplementedError)
        assert info.value.code == -9999
    else:
        # SIZE without ON_DEVICE is invalid: the driver must see and reject it.
        with pytest.raises(cl.LogicError) as info:
            cl.CommandQueue(ctx, device, properties)
        assert info.value.routine == "clCreateCommandQueueWithProperties"


def test_user_event_marker_and_callback(ctx_factory):
    ctx = ctx_factory()
    device = ctx_factory.device
    queue = cl.CommandQueue(ctx)
    gate = cl.UserEvent(ctx)
    assert gate.command_execution_status == cl.command_execution_status.SUBMITTED
    marker = cl.enqueue_marker(queue, wait_for=[gate])
    assert marker.command_execution_status != cl.command_execution_status.COMPLETE
    called = threading.Event()
    seen = []

    def callback(status):
        seen.append(status)
        called.set()

    marker.set_callback(cl.command_execution_status.COMPLETE, callback)
    gate.set_status(cl.command_execution_status.COMPLETE)
    marker.wait()
    assert called.wait(30)
    assert seen == [cl.command_execution_status.COMPLETE]
    assert marker.command_execution_status == cl.command_execution_status.COMPLETE
    # NVIDIA's OpenCL (CUDA 13.0) reports its own command type 0x4003 for markers.
    assert marker.command_type == cl.command_type.MARKER or device.platform.name == "NVIDIA CUDA"
    assert marker.command_queue == queue and marker.context == ctx
    barrier = cl.enqueue_barrier(queue)
    cl.wait_for_events([barrier, marker])
    assert barrier.command_execution_status == cl.command_execution_status.COMPLETE


def test_callback_runs_on_its_own_thread_and_may_call_opencl(ctx_factory):
    # PyOpenCL runs each callback on a thread of its own; code relies on
    # taking its own locks and making blocking calls there (Oclgrind calls
    # back from the thread that completes the event, NVIDIA from its own).
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    data = np.arange(64, dtype=np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, size=data.nbytes)
    lock = threading.Lock()
    done = threading.Event()
    seen = {}

    def callback(status):
        with lock:  # held by the test thread while it completes the event
            seen["thread"] = threading.get_ident()
            out = np.empty_like(data)
            cl.enqueue_copy(queue, out, buf)  # blocking, from the callback
            seen["data"] = out
        done.set()

    with lock:
        event = cl.enqueue_copy(queue, buf, data, is_blocking=False)
        event.set_callback(cl.command_execution_status.COMPLETE, callback)
        event.wait()
        queue.finish()
    assert done.wait(30), "callback did not finish within 30 s"
    assert seen["thread"] != threading.get_ident()
    np.testing.assert_array_equal(seen["data"], data)


_BUSY_CALLBACKS_SCRIPT = """
import threading, time
import numpy as np
import pycl as cl

device = cl.get_platforms()[%d].get_devices()[%d]
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, "__kernel void inc(__global int *a) { a[get_global_id(0)] += 1; }").build()
inc = cl.Kernel(prg, "inc")
data = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64 * 4)
cl.enqueue_fill_buffer(queue, data, np.int32(0), 0, 64 * 4)
lock = threading.Lock()
seen = []
slow_done = threading.Event()

def slow(status):  # long, in Python, and calling OpenCL
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4096).release()
        sum(range(1000))
    slow_done.set()

def quick(i):
    def callback(status):
        with lock:
            seen.append(i)
    return callback

gate = cl.UserEvent(ctx)
cl.enqueue_marker(queue, wait_for=[gate]).set_callback(cl.command_execution_status.COMPLETE, slow)
gate.set_status(cl.command_execution_status.COMPLETE)
launches = 0
while launches < 100 or not slow_done.is_set():  # this thread keeps the GIL busy meanwhile
    for _ in range(20):
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4096)
        buf[0:1024].release()
        buf.release()
    event = inc(queue, (64,), None, data)
    if launches < 200:
        event.set_callback(cl.command_execution_status.COMPLETE, quick(launches))
    launches += 1
    queue.flush()  # Oclgrind (21.10) runs queued commands at a flush
queue.finish()
deadline = time.monotonic() + 60
while len(seen) < min(launches, 200) and time.monotonic() < deadline:
    time.sleep(0.01)
assert sorted(seen) == list(range(min(launches, 200))), (len(seen), launches)
out = np.empty(64, np.int32)
cl.enqueue_copy(queue, out, data)
assert (out == launches).all(), (out, launches)
print("launches", launches)
"""


def test_busy_callbacks_never_stall_a_thread_that_creates_and_launches(device):
    """Driver calls that keep the GIL (pycl/build_ffi.py, KEEPS_GIL) while
    callbacks run Python for long, and call OpenCL, on other threads: no
    deadlock, and every callback runs. In a child process, so that a
    deadlock fails the test by its timeout instead of hanging the suite."""
    import subprocess
    import sys

    if device.platform.name == "Oclgrind":
        pytest.skip("Oclgrind 21.10 crashes under concurrent OpenCL calls from several threads (docs/quirks.md)")
    platforms = cl.get_platforms()
    platform = platforms.index(device.platform)
    index = platforms[platform].get_devices().index(device)
    script = _BUSY_CALLBACKS_SCRIPT % (platform, index)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stderr[-3000:]
    assert int(run.stdout.split()[-1]) > 0


def test_calls_that_keep_the_gil_are_shim_functions():
    """A name in KEEPS_GIL that is no shim function would keep nothing,
    silently: each one is one."""
    from pycl._lib import lib
    from pycl.build_ffi import KEEPS_GIL

    assert [name for name in KEEPS_GIL if not callable(getattr(lib, name, None))] == []


@pytest.mark.parametrize("kind", ["command", "user"])
def test_callback_on_an_event_already_complete(ctx_factory, kind):
    """The specification calls a callback set on an event that has already
    reached the status; Oclgrind 21.10 never does (docs/quirks.md)."""
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    if kind == "user":
        event = cl.UserEvent(ctx)
        event.set_status(cl.command_execution_status.COMPLETE)
    else:
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
        event = cl.enqueue_fill_buffer(queue, buf, np.uint8(1), 0, 64)
        queue.finish()
    assert event.command_execution_status == cl.command_execution_status.COMPLETE
    seen = []
    called = threading.Event()
    for status in (cl.command_execution_status.SUBMITTED, cl.command_execution_status.COMPLETE):
        event.set_callback(status, lambda s: (seen.append(s), len(seen) == 2 and called.set()))
    assert called.wait(30), "callbacks seen: %r" % seen
    assert sorted(seen) == [cl.command_execution_status.COMPLETE, cl.command_execution_status.SUBMITTED]


def test_wait_for_must_hold_events(ctx_factory):
    queue = cl.CommandQueue(ctx_factory())
    with pytest.raises(TypeError, match="wait_for must be a sequence of pycl.Event"):
        cl.enqueue_marker(queue, wait_for=[1])


def test_version_helpers():
    assert cl.get_cl_header_version() == (3, 0)
    assert cl.VERSION_TEXT.startswith("%d.%d" % cl.VERSION[:2])
    import pycl._cl as _cl

    assert _cl.Context is cl.Context and _cl.CommandQueue is cl.CommandQueue


def test_create_some_context_answers(device, monkeypatch):
    platforms = cl.get_platforms()
    p_index = platforms.index(device.platform)
    d_index = device.platform.get_devices().index(device)
    for name in ("PYOPENCL_CTX", "PYOPENCL_TEST", "PYCL_TEST"):  # PYOPENCL_TEST would decide first
        monkeypatch.delenv(name, raising=False)
    ctx = cl.create_some_context(interactive=False, answers=[str(p_index), str(d_index)])
    assert ctx.devices == [device]
    monkeypatch.setenv("PYOPENCL_CTX", "%d:%d" % (p_index, d_index))
    assert cl.create_some_context(interactive=False).devices == [device]
    # As in PyOpenCL: an index out of range is tried as a name, and a choice
    # that matches nothing raises RuntimeError; pycl's message names the choices.
    choices = ", ".join("[%d] %r" % (i, p.name) for i, p in enumerate(platforms))
    with pytest.raises(RuntimeError, match=re.escape("no platform matches '99'; choices: %s" % choices)) as info:
        cl.create_some_context(interactive=False, answers=["99"])
    assert isinstance(info.value, cl.RuntimeError)
    devices = device.platform.get_devices()
    choices = ", ".join("[%d] %r" % (i, d.name) for i, d in enumerate(devices))
    with pytest.raises(cl.RuntimeError, match=re.escape("no device matches 'no such device'; choices: %s" % choices)):
        cl.create_some_context(interactive=False, answers=[str(p_index), "no such device"])


def test_pyopencl_version_helpers(device, monkeypatch):
    """``_get_cl_version`` (PyOpenCL's semi-private helpers, which code calls
    to choose code paths): the version in the ``version`` string, capped by
    PYCL_FORCE_CL_VERSION where set."""

    def parsed(obj):
        major, minor = re.match(r"^OpenCL (\d+)\.(\d+) ", obj.version).groups()
        version = (int(major), int(minor))
        forced = os.environ.get("PYCL_FORCE_CL_VERSION")
        if forced:
            version = min(version, tuple(int(x) for x in forced.split(".")))
        return version

    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    assert device._get_cl_version() == parsed(device)
    assert device.platform._get_cl_version() == parsed(device.platform)
    assert ctx._get_cl_version() == parsed(device.platform)  # the platform's, as in PyOpenCL
    assert queue._get_cl_version() == parsed(device)
    expected = ("v1", device.vendor, device.vendor_id, device.name, device.version)
    assert device.hashable_model_and_version_identifier == expected
    hash(expected)
    with pytest.warns(DeprecationWarning, match="hashable_model_and_version_identifier"):
        assert device.persistent_unique_id == expected
    from pycl import tools

    assert tools.context_dependent_memoize is tools.first_arg_dependent_memoize


def test_small_runtime_names():
    assert cl.have_gl() is False
    assert cl.MemoryObjectHolder is cl.MemoryObject
    model = [max(n.bit_length() - 1, 0) for n in range(4097)]
    assert [cl.tools.bitlog2(n) for n in range(4097)] == model
    assert cl.tools.bitlog2(2**40 + 1) == 40
    assert cl.tools.get_cl_header_version() == cl.get_cl_header_version()
