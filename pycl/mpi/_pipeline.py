"""The chunk pipeline under every operation of ``pycl.mpi``.

A transfer is cut into chunks of ``chunk_bytes``; each chunk is read from
the device into a send slot, moved by one MPI call, and written from a
receive slot to the device. With ``slots`` slots per direction the device
copies of later chunks run while MPI moves earlier ones: reading chunk k+1
overlaps sending chunk k, and writing chunk k overlaps receiving chunk k+1.
Where memory is mapped instead (CPU devices), there is no device copy and
the MPI calls of ``slots`` chunks are in flight at once.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from mpi4py import MPI

from pycl.event import Event
from pycl.mpi.request import ABANDONED, Steps, is_done
from pycl.queue import CommandQueue

__all__ = ["chunking", "run"]


def chunking(count: int, itemsize: int, chunk_bytes: int) -> tuple[int, int]:
    """``(elements per chunk, number of chunks)`` for ``count`` elements."""
    per = max(1, chunk_bytes // itemsize)
    return per, -(-count // per)


def run(
    queue: CommandQueue,
    chunks: int,
    slots: int,
    read: Callable[[int], Optional[Event]],
    start: Callable[[int], MPI.Request],
    write: Callable[[int], Optional[Event]],
) -> Steps:
    """Steps that move ``chunks`` chunks: ``read(k)`` enqueues chunk k's
    device read into its send slot (or returns None), ``start(k)`` posts
    its MPI call, ``write(k)`` enqueues its device write from its receive
    slot (or returns None). Slot ``k % slots`` serves chunk k.

    If the steps are abandoned (an exception thrown in), the device copies
    are waited for and the MPI calls still posted are kept, with the slots
    they use, in ``ABANDONED``: MPI may still read or write that memory."""
    reads: list[Optional[Event]] = [None] * chunks
    writes: list[Optional[Event]] = [None] * chunks
    requests: list[Any] = [None] * chunks
    next_read = next_start = 0
    try:
        for k in range(chunks):
            # Send slot j is free once chunk j - slots has moved (waited
            # for at step j - slots, before this one).
            top = min(chunks, k + slots)
            enqueued = False
            while next_read < top:
                reads[next_read] = event = read(next_read)
                enqueued = enqueued or event is not None
                next_read += 1
            if enqueued:
                queue.flush()
            # Post chunk k's MPI call when its read is done and its receive
            # slot written out; later chunks too, if that is already so.
            while next_start < top:
                j = next_start
                needs = (reads[j], writes[j - slots] if j >= slots else None)
                if j == k:
                    for need in needs:
                        if need is not None:
                            yield need
                elif not (is_done(needs[0]) and is_done(needs[1])):
                    break
                requests[j] = start(j)
                reads[j] = None
                next_start += 1
            yield requests[k]
            writes[k] = event = write(k)
            if event is not None:
                queue.flush()
        for event in writes[max(0, chunks - slots) :]:
            if event is not None:
                yield event
    except BaseException:
        for event in reads + writes:
            if event is not None:
                event.wait()
        posted = [r for r in requests if r is not None and r != MPI.REQUEST_NULL]
        if posted:
            ABANDONED.append((posted, read, start, write))
        raise
