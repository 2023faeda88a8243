"""Staged copies for GPUs between host memory and buffers (linear or rect),
SVM and images: large transfers from or to ordinary (pageable) host memory go
through pinned slots that host threads fill and drain while the device moves
other slots (cl_shim/include/pycl/staging.h). A rect or image copy moves in
chunks of whole rows of one slice, packed in a slot; rows longer than a slot
take the driver's path.

A GPU driver copies pageable memory through its own small pinned buffer with
one thread, several times slower than it copies from pinned memory (NVIDIA's
OpenCL: docs/quirks.md). ``enqueue_copy`` stages a copy between host memory and a
buffer, SVM or an image when

- it is blocking (the default) and moves at least ``min_bytes`` (default
  8 MiB),
- the queue's device type is in ``device_types`` (default: GPU and
  accelerator; staging a CPU device's copy only adds a copy, and a device
  that also reports CPU, as Oclgrind reports every type, is staged only if
  ``device_types`` names CPU),
- the queue is in-order, and
- the host memory is not already pinned (``pycl.pinned`` arrays).

A Buffer or Image made with COPY_HOST_PTR from at least ``min_bytes`` for a
context whose first device is of a staged type is made empty and written the
same way, on a queue of that device (not buffers in host memory,
ALLOC_HOST_PTR, nor memory the host may not write).

Only blocking copies are staged: the host threads of a staged copy wait for
the device to drain slots, that is for the queue to progress, which a
non-blocking call must never do (a command gated by a user event the caller
completes later would wait forever). Non-blocking copies take the driver's
path.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Optional

from pycl import budget as _budget
from pycl import constants as _constants
from pycl._args import SIZE_LIMIT, bounded_value
from pycl._lib import ffi, lib
from pycl.errors import check, logic_error
from pycl.mapping import MemoryMap

if TYPE_CHECKING:
    from pycl.context import Context
    from pycl.platform import Device
    from pycl.queue import CommandQueue

__all__ = ["configure", "settings"]

_dt = _constants.device_type
_mf = _constants.mem_flags
# Of these flags, a staged creation (stages_creation) has COPY_HOST_PTR alone.
_COPY_ONLY = _mf.COPY_HOST_PTR | _mf.USE_HOST_PTR | _mf.ALLOC_HOST_PTR | _mf.HOST_READ_ONLY | _mf.HOST_NO_ACCESS
# The defaults come from sweeps of chunk sizes, thread and slot counts on the
# GPU machines (docs/design.md, "Staging", has the figures).
_settings: dict[str, int] = {
    "min_bytes": 8 << 20,
    "chunk_bytes": 2 << 20,
    "threads": max(1, min(12, (os.cpu_count() or 2) * 3 // 4)),
    "device_types": _dt.GPU | _dt.ACCELERATOR,
    "between_chunk_bytes": 8 << 20,
    "between_slots": 8,
}
# The smallest transfer enqueue_copy considers staging (read on every copy).
threshold = _settings["min_bytes"]


def settings() -> dict[str, int]:
    """The current staging settings (a copy)."""
    return dict(_settings)


def configure(
    min_bytes: Optional[int] = None,
    chunk_bytes: Optional[int] = None,
    threads: Optional[int] = None,
    device_types: Optional[int] = None,
    between_chunk_bytes: Optional[int] = None,
    between_slots: Optional[int] = None,
) -> None:
    """Change when and how copies are staged. ``None`` keeps the current
    value; to turn staging off, pass ``device_types=0`` (which also sends
    ``enqueue_copy_between`` within a context to the driver). New sizes apply
    to contexts that have not staged a copy yet."""
    global threshold
    # Any: mypy does not narrow counts[name] by the `is not None` test below.
    counts: dict[str, Any] = {
        "min_bytes": min_bytes,
        "chunk_bytes": chunk_bytes,
        "threads": threads,
        "between_chunk_bytes": between_chunk_bytes,
        "between_slots": between_slots,
    }
    # Thread and slot counts have limits of their own; sizes the one of sizes.
    limits = {"threads": 64, "between_slots": 1024}
    for name, value in counts.items():
        if value is not None:
            value = counts[name] = bounded_value(value, name, "staging.configure", limits.get(name, SIZE_LIMIT))
            if value == 0:
                raise logic_error("staging.configure", "%s = 0 is not positive" % name)
    if counts["between_slots"] == 1:
        raise logic_error("staging.configure", "between_slots must be at least 2 (reads run ahead of writes), got 1")
    counts["device_types"] = device_types
    for name, value in counts.items():
        if value is not None:
            _settings[name] = value
    threshold = _settings["min_bytes"]


def _staged_type(device: Device) -> bool:
    device_type = device.type
    wanted = _settings["device_types"]
    # A device that is also a CPU is staged only if CPUs are asked for:
    # Oclgrind claims every type, and crashes when several threads enqueue.
    return bool(device_type & wanted) and not (device_type & _dt.CPU and not wanted & _dt.CPU)


def stager(queue: CommandQueue, host: object) -> Any:
    """The context's stager if a copy between ``host`` and ``queue``'s device
    should be staged, else None."""
    if not _staged_type(queue._device) or not queue.is_in_order or _is_pinned(host):
        return None
    found = queue._context._stager
    if found is None:
        found = _host_stager(queue._context, queue._live(), queue._device)
    return found


def _host_stager(context: Context, queue: Any, device: Device) -> Any:
    """The context's stager for host copies, made with ``queue`` (a handle
    on ``device``), which maps its slots."""
    chunk = _settings["chunk_bytes"]
    threads = _threads_for(device, _settings["threads"])
    found = context._stager = _new_stager(context, queue, chunk, 2 * threads, threads)
    return found


def creation_stager(context: Context) -> tuple[Any, Any]:
    """``(stager, queue handle)`` for the staged write of a memory object
    made with COPY_HOST_PTR (``stages_creation``): the context's stager and
    its own queue on its first device, so that no queue is made per object."""
    device = context.devices[0]
    queue = _own_queue(context, device)
    found = context._stager
    if found is None:
        found = _host_stager(context, queue, device)
    return found, queue


def stages_creation(context: Context, flags: int, host: object, nbytes: int) -> bool:
    """True if a memory object of ``context`` made with ``flags`` from
    ``nbytes`` of ``host`` is better made empty and written through a staged
    copy on a queue of the context's first device: COPY_HOST_PTR, not in
    host memory (ALLOC_HOST_PTR) and not memory the host may not write."""
    return (
        flags & _COPY_ONLY == _mf.COPY_HOST_PTR
        and nbytes >= threshold
        and _staged_type(context.devices[0])
        and not _is_pinned(host)
    )


def stages_between(src_device: Device, dst_device: Device) -> bool:
    """True if a copy between two devices of one context goes through pinned
    slots rather than the driver: both are of a staged type (GPUs, by
    default), where the driver's own movement is slow (docs/quirks.md)."""
    return src_device != dst_device and _staged_type(src_device) and _staged_type(dst_device)


def between_stager(src_queue: CommandQueue) -> Any:
    """The pinned slots through which ``src_queue``'s context copies to other
    devices and contexts (``pycl_staged_copy_between``)."""
    context = src_queue._context
    found = context._between_stager
    if found is None:
        chunk, slots = _settings["between_chunk_bytes"], _settings["between_slots"]
        found = context._between_stager = _new_stager(context, src_queue._live(), chunk, slots, 1)
    return found


def copy_queues(src_queue: CommandQueue, dst_queue: CommandQueue) -> tuple[Any, Any]:
    """``(source side, destination side)``: in-order queues of pycl's own on
    the two queues' devices, on which the copy thread of a non-blocking
    ``enqueue_copy_between`` runs its chunks; ``(NULL, NULL)`` where a driver
    cannot take enqueues from a second thread (the copy is then ordered by
    events relayed from callbacks)."""
    if _threads_for(src_queue._device, 2) == 1 or _threads_for(dst_queue._device, 2) == 1:
        return ffi.NULL, ffi.NULL
    return (
        _own_queue(src_queue._context, src_queue._device),
        _own_queue(dst_queue._context, dst_queue._device),
    )


def _own_queue(context: Context, device: Device) -> Any:
    """The context's own in-order queue on ``device`` (staged creations, the
    copy thread of ``enqueue_copy_between``), made at first use and released
    with the context (a bare handle: a CommandQueue object would hold the
    context in a reference cycle)."""
    found = context._own_queues.get(device._ptr)
    if found is None:
        out = ffi.new("cl_command_queue *")
        status = lib.pycl_queue_create(context._live(), device._live(), ffi.NULL, out)
        check(status, "clCreateCommandQueueWithProperties", "pycl's own queue on %r" % (device,))
        found = context._own_queues[device._ptr] = ffi.gc(out[0], lib.pycl_queue_release)
    return found


def _new_stager(context: Context, queue: Any, chunk: int, slots: int, threads: int) -> Any:
    """A stager of ``context`` whose slots ``queue`` (a handle) maps."""
    if _budget.enabled:
        _budget.charge(context, slots * chunk)  # the pinned slots, freed with the context
    out = ffi.new("struct pycl_stager **")
    status = lib.pycl_stager_create(context._live(), queue, chunk, slots, threads, out)
    check(status, "pycl_stager_create", "%d slots of %d bytes" % (slots, chunk))
    return ffi.gc(out[0], lib.pycl_stager_free)


def _threads_for(device: Device, threads: int) -> int:
    """One host thread on drivers that crash when several threads enqueue on
    one queue at once (docs/quirks.md): Oclgrind 21.10 (any two threads) and
    the pip PoCL 3.0-rc2 (three threads; Debian's PoCL 3.1 and NVIDIA's
    OpenCL run 3 to 12 threads cleanly)."""
    platform = device.platform
    if platform.name == "Oclgrind" or "PoCL 3.0-rc2" in platform.version:
        return 1
    return threads


def _is_pinned(host: object) -> bool:
    """True for arrays over pinned memory (a mapped ALLOC_HOST_PTR buffer)."""
    obj = host
    for _ in range(8):  # views of views ... of a pinned array
        if isinstance(obj, MemoryMap):
            return bool(obj._mem._flags & _mf.ALLOC_HOST_PTR)
        obj = getattr(obj, "base", None)
        if obj is None:
            return False
    return False
