"""Kernel launch: ``Kernel.__call__`` and ``enqueue_nd_range_kernel`` end
here, in one C call that sets the kernel's changed arguments and enqueues
(``pycl_launch``, ``cl_shim/include/pycl/launch.h``).

The fast path takes work sizes that are plain ints (or tuples of 1 to 3 of
them) as they are: cffi refuses a negative or too large one, the shim refuses
one above ``SIZE_LIMIT`` and a launch of more work-groups than the device
survives, and any refusal goes to the general path, ``checked_sizes``, which
names the mistake. The size objects of a kernel's last fast launch are
remembered with what the shim took of them: the same objects again skip the
parsing (only identity counts, so an equal float or bool never passes for an
int). The checks that depend on the queue (its type, that the
kernel's program was built for its device, the device's work-group limit)
run when a kernel meets a queue other than its last one, or its program was
built again. Every other check runs at every launch: the kernel, the queue
and every held argument object must be live.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

from pycl import constants as _constants
from pycl._args import EVENT_TYPES, sizes, wait_list
from pycl._handle import out_cell
from pycl._kernel_args import WAIT_CELLS
from pycl._lib import ffi, lib
from pycl.errors import UnavailableError, check, logic_error
from pycl.event import Event, enqueue_marker, take_event
from pycl.queue import enqueue_handle, queue_handle

if TYPE_CHECKING:
    from typing import Protocol

    from pycl._kernel_args import KernelArgs
    from pycl._typing import Extent, WaitList
    from pycl.platform import Device
    from pycl.queue import CommandQueue

    class Kernel(Protocol):
        """What is read of a ``pycl.Kernel`` (pycl.program imports this
        module, so it is not imported here)."""

        _program: Any
        _handle: Any

        def _live(self) -> Any: ...
        @property
        def function_name(self) -> str: ...


__all__ = ["launch", "work_sizes", "checked_sizes", "check_group_count"]

_ROUTINE = "enqueue_nd_range_kernel"
_REFUSED = lib.PYCL_LAUNCH_REFUSED
_NULL = ffi.NULL
_new_object, _gc, _release_event = object.__new__, ffi.gc, lib.pycl_event_release
_launch_1d, _launch_nd = lib.pycl_launch_1d, lib.pycl_launch


def launch(
    queue: CommandQueue,
    kernel: Kernel,
    args: KernelArgs,
    global_size: Union[int, Extent],
    local_size: Optional[Union[int, Extent]],
    global_offset: Optional[Union[int, Extent]],
    wait_for: WaitList,
    g_times_l: bool,
    allow_empty_ndrange: bool,
    names: tuple[str, str, str],
    args_checked: bool = False,
) -> Event:
    """Enqueue ``kernel`` (whose argument cells are ``args``); ``names``
    name the three work sizes in messages, as the caller called them.
    ``args_checked``: every argument was set (and found live) by this call."""
    if queue is not args.queue or kernel._program._built_for is not args.built_for:
        _meet_queue(queue, kernel, args)
    queue_ptr = queue._handle
    if queue_ptr is None or queue._used_after_exit:
        queue_ptr = enqueue_handle(queue)
    kernel_ptr = kernel._handle
    if kernel_ptr is None:
        kernel_ptr = kernel._live()
    if not args_checked:
        objects = args.objects
        if objects is None:
            objects = args.live_objects()
        for held in objects:
            if held._handle is None:
                # a mistake in the sizes is named first, as the general path does
                checked_sizes(global_size, local_size, global_offset, g_times_l, names)
                _raise_released(args, held)

    count = 0
    if not wait_for:
        events = _NULL
    elif type(wait_for) is list and len(wait_for) == 1 and type(wait_for[0]) in EVENT_TYPES:
        # the most common wait list, in one step (0.03 us less than the loop)
        event = wait_for[0]._handle
        if event is None:
            event = wait_for[0]._live()
        count, events = 1, args.wait_cells
        events[0] = event
    elif (type(wait_for) is list or type(wait_for) is tuple) and len(wait_for) <= WAIT_CELLS:
        # Live events (PyOpenCL's arrays pass the events of each array) go
        # into the kernel's own cells, one by one: a slice assignment of a
        # list of handles costs four times as much. Anything else: wait_list,
        # which names what is wrong. (wait_list's loop into a new array is
        # the same; shared as a function, it cost these launches 0.11 us on
        # CPython 3.11 and 0.15 us on PyPy, measured 2026-11-27.)
        events = args.wait_cells
        for waited in wait_for:
            handle = waited._handle if type(waited) in EVENT_TYPES else None
            if handle is None:
                count, events = wait_list(wait_for, _ROUTINE)
                break
            events[count] = handle
            count += 1
    else:
        count, events = wait_list(wait_for, _ROUTINE)

    # The fast path: plain ints, no offset, no g_times_l, no empty ranges.
    # The size objects of the kernel's last fast launch, and what the shim
    # took of them, are remembered: tuples and ints are immutable, so the
    # same objects (a constant, an array's shape) need no parsing again.
    status = _REFUSED
    if global_offset is None and not (g_times_l or allow_empty_ndrange):
        last = args.last_sizes
        if global_size is last[0] and local_size is last[1]:
            # Sizes the shim took before (so no OverflowError), read by
            # index: unpacking all nine cost a 1-D launch 0.05 us.
            dims = last[2]
            if dims == 1:
                status = _launch_1d(queue_ptr, kernel_ptr, args.struct, last[3], last[6], count, events)
            else:
                status = _launch_nd(
                    queue_ptr, kernel_ptr, args.struct, dims, last[3], last[4], last[5], last[6], last[7], last[8],
                    count, events,
                )  # fmt: skip
        else:
            # dims 0: not plain ints (or tuples of 1 to 3 of them) in
            # matching dimensions, or a local size with a 0 (the general
            # path refuses it). l0 = 0 tells the shim that there is no
            # local size; a dimension past the size's own counts 1.
            dims = 0
            g0: Any
            l0: Any
            extent = (global_size,) if type(global_size) is int else global_size
            if type(extent) is tuple and len(extent) == 1:
                # 1-D, the most common (often a (n,) written in the call):
                # parsed in a third of the time the general case takes.
                g0 = extent[0]
                g1 = g2 = 1
                if local_size is None:
                    l0 = l1 = l2 = 0
                    dims = 1 if type(g0) is int else 0
                else:
                    local_extent = (local_size,) if type(local_size) is int else local_size
                    if type(local_extent) is tuple and len(local_extent) == 1:
                        l0 = local_extent[0]
                        l1 = l2 = 1
                        dims = 1 if type(g0) is int and type(l0) is int and l0 else 0
            elif type(extent) is tuple and (
                local_size is None or type(local_size) is tuple and len(local_size) == len(extent)
            ):
                n = len(extent)
                if n == 2:
                    g0, g1 = extent
                    g2 = 1
                    l0, l1 = (0, 0) if local_size is None else local_size
                    l2 = 1
                    plain = type(g0) is int and type(g1) is int
                elif n == 3:
                    g0, g1, g2 = extent
                    l0, l1, l2 = (0, 0, 0) if local_size is None else local_size
                    plain = type(g0) is int and type(g1) is int and type(g2) is int
                else:
                    plain = False  # no entry, or more than 3
                if plain and (
                    local_size is None or type(l0) is int and type(l1) is int and type(l2) is int and l0 and l1 and l2
                ):
                    dims = n
            try:
                if dims == 1:
                    status = _launch_1d(queue_ptr, kernel_ptr, args.struct, g0, l0, count, events)
                elif dims:
                    status = _launch_nd(queue_ptr, kernel_ptr, args.struct, dims, g0, g1, g2, l0, l1, l2, count, events)
            except OverflowError:  # a negative size, or one past size_t
                pass
            if not status:
                args.last_sizes = (global_size, local_size, dims, g0, g1, g2, l0, l1, l2)
        if not status:
            event = _new_object(Event)
            event._handle = _gc(args.event_cell[0], _release_event)
            return event
        if status != _REFUSED:
            _raise_failed(status, args, global_size, local_size)

    # The general path: check everything and name the mistake.
    global_name, local_name, offset_name = names
    full, local, offset = checked_sizes(global_size, local_size, global_offset, g_times_l, names)
    check_group_count(queue._device, full, local, (global_name, local_name))
    if allow_empty_ndrange and 0 in full:
        return enqueue_marker(queue, wait_for)
    args.apply(kernel_ptr)
    out = out_cell()[0]
    status = lib.pycl_enqueue_nd_range_kernel(
        queue_ptr,
        kernel_ptr,
        len(full),
        _NULL if offset is None else ffi.new("size_t[]", offset),
        ffi.new("size_t[]", full),
        _NULL if local is None else ffi.new("size_t[]", local),
        count,
        events,
        out,
    )
    if status:
        check(status, "clEnqueueNDRangeKernel", "global %r, local %r" % (full, local))
    return take_event(Event, out)


def _raise_failed(status: int, args: KernelArgs, global_size: Any, local_size: Any) -> None:
    if args.struct.failed < args.count:
        args.raise_failed(status)
    check(status, "clEnqueueNDRangeKernel", "global %r, local %r" % (global_size, local_size))


def _raise_released(args: KernelArgs, held: Any) -> None:
    index = next(i for i, a in enumerate(args.held) if a is held)
    raise logic_error(_ROUTINE, "kernel argument %d (%r) was released" % (index, held))


def _meet_queue(queue: CommandQueue, kernel: Kernel, args: KernelArgs) -> None:
    """The checks a new queue (or a rebuilt program) needs, cached in
    ``args`` for the launches that follow."""
    queue_handle(queue, _ROUTINE)
    program = kernel._program
    built_for = program._built_for
    if built_for is not None:
        _check_built_for(program, kernel, queue)
    args.struct.max_groups = group_limit(queue._device)
    args.queue, args.built_for = queue, built_for


def _check_built_for(program: Any, kernel: Kernel, queue: CommandQueue) -> None:
    """Refuse a queue whose device the last build of the kernel's program
    left out (the driver's CL_INVALID_PROGRAM_EXECUTABLE; Debian's PoCL 3.1
    fails an assertion there and aborts the process). The devices are named
    by their place in the context: they often share a name."""
    device = queue.device
    built: tuple[int, ...] = program._built_for
    if device._ptr in built:
        return
    devices = program._context.devices
    names = ", ".join("[%d] %r" % (i, d.name) for i, d in enumerate(devices) if d._ptr in built)
    here = [i for i, d in enumerate(devices) if d._ptr == device._ptr]
    raise logic_error(
        _ROUTINE,
        "kernel %r: the last build of its program was for the context's device(s) %s only, not for the "
        "queue's device [%s] %r; build it for every device (Program.build() or link_program() without devices)"
        % (kernel.function_name, names, here[0] if here else "?", device.name),
        lib.CL_INVALID_PROGRAM_EXECUTABLE,
    )


def work_sizes(
    value: Union[int, Extent], name: str, dims: Optional[int] = None, global_name: str = "global_work_size"
) -> tuple[int, ...]:
    """A work size or offset: an int or 1 to 3 of them (``dims`` of them,
    the dimensions of the global size ``global_name``, where given)."""
    value = sizes(value, name, _ROUTINE)
    if not 1 <= len(value) <= 3:
        raise logic_error(_ROUTINE, "%s = %r must have 1 to 3 entries" % (name, value))
    if dims is not None and len(value) != dims:
        raise logic_error(_ROUTINE, "%s has %d dimensions but %s has %d" % (name, len(value), global_name, dims))
    return value


def checked_sizes(
    global_work_size: Union[int, Extent],
    local_work_size: Optional[Union[int, Extent]],
    global_work_offset: Optional[Union[int, Extent]],
    g_times_l: bool,
    names: tuple[str, str, str],
) -> tuple[tuple[int, ...], Optional[tuple[int, ...]], Optional[tuple[int, ...]]]:
    """The global size (times the local size with ``g_times_l``), local
    size and offset of a launch, every entry checked."""
    global_name, local_name, offset_name = names
    global_size = work_sizes(global_work_size, global_name)
    dims = len(global_size)
    local_size = None if local_work_size is None else work_sizes(local_work_size, local_name, dims, global_name)
    if local_size is not None and 0 in local_size:
        # Drivers do not refuse it: Debian's PoCL 3.1 spins forever or
        # crashes (SIGSEGV), Oclgrind 21.10 dies of SIGFPE (2026-11-27).
        raise logic_error(
            _ROUTINE,
            "%s = %r has an entry of 0: a work-group spans at least 1 work-item in each dimension "
            "(pass None to let the driver choose)" % (local_name, local_size),
            lib.CL_INVALID_WORK_GROUP_SIZE,
        )
    if g_times_l:
        if local_size is None:
            raise logic_error(_ROUTINE, "g_times_l needs a %s" % local_name)
        global_size = tuple(g * n for g, n in zip(global_size, local_size))
        global_size = work_sizes(global_size, "%s * %s" % (global_name, local_name))
    offset = None if global_work_offset is None else work_sizes(global_work_offset, offset_name, dims, global_name)
    return global_size, local_size, offset


# PoCL's CPU devices count a launch's work-groups in 32 bits: 2**32 or more
# of them abort the process (PoCL 3.1: assertion `max_wgs > 0` in
# pthread_scheduler.c; 3.0: SIGILL or SIGFPE; 5.0: SIGFPE), measured
# 2026-11-26; 2**31 run.
_POCL_MAX_GROUPS = 1 << 32
_group_limits: dict[int, int] = {}  # device handle -> the limit, 0 for none


def group_limit(device: Device) -> int:
    """The number of work-groups at which ``device`` fails, 0 for none."""
    limit = _group_limits.get(device._ptr)
    if limit is None:
        pocl_cpu = "PoCL" in device.platform.version and device.type & _constants.device_type.CPU
        limit = _group_limits[device._ptr] = _POCL_MAX_GROUPS if pocl_cpu else 0
    return limit


def check_group_count(
    device: Device, global_size: tuple[int, ...], local_size: Optional[tuple[int, ...]], names: tuple[str, str]
) -> None:
    """Refuse a launch with more work-groups than ``device`` survives.
    Without a local size the driver chooses the groups, so every work-item
    counts as one (the worst case)."""
    limit = group_limit(device)
    if not limit:
        return
    groups = 1
    for i, g in enumerate(global_size):
        groups *= g if local_size is None else -(-g // local_size[i]) if local_size[i] else g
    if groups >= limit:
        raise UnavailableError(
            _ROUTINE,
            lib.PYCL_UNAVAILABLE,
            "%s = %r with %s = %r makes %s work-groups; %s (%s) aborts the process at 2**32 or more: %s"
            % (
                names[0],
                global_size,
                names[1],
                local_size,
                "up to %d" % groups if local_size is None else "%d" % groups,
                device.platform.version.split("  ")[0],
                device.name,
                "pass a larger %s" % names[1] if local_size is not None else "pass a %s" % names[1],
            ),
        )
