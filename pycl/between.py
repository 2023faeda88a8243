"""``enqueue_copy_between``: copy a buffer's bytes into a buffer on another
device or in another context.

OpenCL copies buffers within one context only, so the usual multi-GPU
design (a context per GPU) has no copy between GPUs at all, and a context of
several devices moves buffers the driver's way, which on NVIDIA's OpenCL
(CUDA 13) is far slower than a GPU reads and writes pinned host memory
(docs/quirks.md; docs/design.md, "Several devices"). So pycl copies through
pinned slots: the source device reads a chunk into one slot while the
destination device writes an earlier chunk from another, both copy engines
busy at once (``pycl_staged_copy_between``, cl_shim/src/staging.c).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional

from pycl import constants as _constants
from pycl import staging as _staging
from pycl._args import mem_handle
from pycl._buffer_copy import copy_buffer, copy_extent
from pycl._enqueue import enqueued
from pycl._lib import ffi, lib
from pycl.errors import UnavailableError, logic_error
from pycl.event import Event, enqueue_marker, event_context_ptr, out_cell
from pycl.memory import Buffer
from pycl.queue import queue_handle

if TYPE_CHECKING:
    from pycl._typing import Size, WaitList
    from pycl.queue import CommandQueue

__all__ = ["enqueue_copy_between"]

_ROUTINE = "enqueue_copy_between"


def enqueue_copy_between(
    dst_queue: CommandQueue,
    dst: Buffer,
    src_queue: CommandQueue,
    src: Buffer,
    byte_count: Optional[Size] = None,
    dst_offset: Size = 0,
    src_offset: Size = 0,
    wait_for: WaitList = None,
    is_blocking: bool = True,
) -> Event:
    """Copy ``byte_count`` bytes (default: as many as both buffers hold from
    their offsets) of ``src``, a Buffer of ``src_queue``'s context, into
    ``dst``, a Buffer of ``dst_queue``'s context. Returns an Event of
    ``dst_queue``'s context; after it completes (at return, if
    ``is_blocking``) the bytes are in ``dst``.

    The copy reads after the commands already on ``src_queue`` and writes
    after those on ``dst_queue`` (as any command of an in-order queue), and
    waits for ``wait_for``, whose events may belong to either context (as
    for any command, flush the queues of events enqueued on other queues
    first: OpenCL runs a queue's commands only after a flush).
    Commands enqueued later on ``dst_queue`` follow it; on ``src_queue``,
    wait for its event before overwriting ``src``.

    Between two contexts, and between two devices of a context whose devices
    are of a staged type (GPUs and accelerators unless ``pycl.staging`` is
    configured otherwise), the bytes go through pinned host slots
    (``pycl.staging``'s ``between_chunk_bytes`` and ``between_slots``) with
    both devices copying at once. A blocking copy is driven by the calling
    thread, which waits for each chunk's read before it enqueues the write
    (NVIDIA's event callbacks cost milliseconds). A non-blocking one returns
    at once and is driven the same way by the source context's copy thread,
    on queues of pycl's own on the two devices, so it runs as fast as a
    blocking copy and alongside later commands of both queues. On drivers that crash when
    a second thread enqueues (Oclgrind, the pip PoCL 3.0) its chunks are
    enqueued at once instead, ordered by events relayed between the contexts
    from callbacks. Copies through one source context run in the order they
    were asked for. Within one device, or when the devices are not staged, it
    is the driver's ``clEnqueueCopyBuffer`` on ``dst_queue``.
    """
    for name, mem in (("dst", dst), ("src", src)):
        if not isinstance(mem, Buffer):
            raise TypeError("%s: %s must be a pycl.Buffer, not %s" % (_ROUTINE, name, type(mem).__name__))
    dst_q = queue_handle(dst_queue, _ROUTINE)
    src_q = queue_handle(src_queue, _ROUTINE)
    dst_mem = mem_handle(dst, dst_queue, _ROUTINE, "dst")
    src_mem = mem_handle(src, src_queue, _ROUTINE, "src")
    src_offset, dst_offset, n = copy_extent(src, dst, byte_count, src_offset, dst_offset, _ROUTINE, "dst")
    src_device, dst_device = src_queue._device, dst_queue._device
    if src._ctx_ptr == dst._ctx_ptr and not _staging.stages_between(src_device, dst_device):
        waits = list(wait_for or ())
        if src_queue != dst_queue:
            waits.append(enqueue_marker(src_queue))  # after src_queue's earlier commands
        if not dst_queue.is_in_order:
            waits.append(enqueue_marker(dst_queue))
        event = copy_buffer(dst_queue, dst, src, n, src_offset, dst_offset, waits)
    else:
        src_events, dst_events = _split_wait_for(wait_for, src._ctx_ptr, dst._ctx_ptr)
        if not is_blocking and (_runs_queues_at_flush(src_queue) or _runs_queues_at_flush(dst_queue)):
            _settle_for_oclgrind(wait_for or (), src_queue, dst_queue)
        # The shim's reads and writes follow earlier commands by queue order;
        # an out-of-order queue gets a marker (which waits for all of them).
        markers = [
            (enqueue_marker(q), events)
            for q, events in ((src_queue, src_events), (dst_queue, dst_events))
            if not q.is_in_order
        ]  # held until the shim has retained them
        for marker, events in markers:
            events.append(marker._live())
        stager = _staging.between_stager(src_queue)
        src_side, dst_side = (ffi.NULL, ffi.NULL) if is_blocking else _staging.copy_queues(src_queue, dst_queue)
        out = out_cell()[0]
        status = lib.pycl_staged_copy_between(
            stager,
            src_q,
            src_side,
            src_mem,
            src_offset,
            dst_q,
            dst_side,
            dst_mem,
            dst_offset,
            n,
            len(src_events),
            ffi.new("cl_event[]", src_events) if src_events else ffi.NULL,
            len(dst_events),
            ffi.new("cl_event[]", dst_events) if dst_events else ffi.NULL,
            bool(is_blocking),
            out,
        )
        event = enqueued(
            status,
            out,
            "pycl_staged_copy_between",
            "src_offset %d, dst_offset %d, %d bytes",
            src_offset,
            dst_offset,
            n,
        )
    if is_blocking:
        event.wait()
    return event


def _split_wait_for(wait_for: WaitList, src_ctx: int, dst_ctx: int) -> tuple[list[Any], list[Any]]:
    """The handles of ``wait_for``'s events of the source context and of the
    destination context (an event of both when they are one)."""
    src_events: list[Any]  # cl_event handles
    dst_events: list[Any]
    src_events, dst_events = [], []
    if not wait_for:
        return src_events, dst_events
    for event in wait_for:
        if not isinstance(event, Event):
            raise TypeError("%s: wait_for must be a sequence of pycl.Event, got %r" % (_ROUTINE, wait_for))
        handle = event._live()
        owner = event_context_ptr(handle)
        if owner == src_ctx:
            src_events.append(handle)
        elif owner == dst_ctx:
            dst_events.append(handle)
        else:
            raise logic_error(
                _ROUTINE, "wait_for: %r belongs to neither queue's context" % (event,), lib.CL_INVALID_CONTEXT
            )
    return src_events, dst_events


_COMPLETE = _constants.command_execution_status.COMPLETE


def _settle_for_oclgrind(wait_for: Sequence[Event], src_queue: CommandQueue, dst_queue: CommandQueue) -> None:
    """Oclgrind runs the copy's reads and writes in its flushes, which wait
    for every command before them: an event that is not complete by then
    would be waited for forever. The two queues' own commands are run
    first; any other event must already be complete."""
    src_queue.flush()
    dst_queue.flush()
    for event in wait_for:
        if event.command_execution_status > _COMPLETE:
            raise UnavailableError(
                _ROUTINE,
                lib.PYCL_UNAVAILABLE,
                "wait_for holds %r, which is not complete; Oclgrind (21.10) runs commands only when their queue "
                "is flushed, where a flush waits for every command, so the copy would wait for it forever "
                "(docs/quirks.md): set its status or finish its queue before the copy" % (event,),
            )


def _runs_queues_at_flush(queue: CommandQueue) -> bool:
    """Oclgrind 21.10 runs commands only at a flush, finish or wait, and its
    clFlush is a clFinish."""
    return queue._device.platform.name == "Oclgrind"
