"""Argument checks that every enqueue routine shares: the queue's live
handle, a memory object's handle checked against the queue's context, and
non-negative sizes within what pycl passes to C."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pycl._lib import lib
from pycl.errors import logic_error
from pycl.queue import CommandQueue, enqueue_handle

if TYPE_CHECKING:
    from pycl._typing import Size
    from pycl.memory import MemoryObject

SIZE_LIMIT = (1 << 63) - 1  # the largest offset or pitch pycl passes on


def queue_handle(queue: CommandQueue, routine: str) -> Any:
    """The live handle of ``queue``, which must be a CommandQueue."""
    if type(queue) is not CommandQueue:
        if not isinstance(queue, CommandQueue):
            raise TypeError("%s: queue must be a pycl.CommandQueue, not %s" % (routine, type(queue).__name__))
        return enqueue_handle(queue)
    return queue._live()


def mem_handle(mem: MemoryObject, queue: CommandQueue, routine: str, name: str) -> Any:
    """The live handle of memory object ``mem``, checked against the queue's context."""
    handle = mem._live()
    if mem._ctx_ptr != queue._context._ptr:
        raise logic_error(
            routine,
            "%s (%r) belongs to another context than the queue" % (name, mem),
            lib.CL_INVALID_CONTEXT,
        )
    return handle


def size_value(value: Size, name: str, routine: str) -> int:
    """A non-negative int argument (numpy integers accepted)."""
    if type(value) is not int:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError("%s: %s must be an int, not %s" % (routine, name, type(value).__name__))
        value = int(value)
    if value < 0:
        raise logic_error(routine, "%s = %d is negative" % (name, value))
    if value > SIZE_LIMIT:
        raise logic_error(routine, "%s = %d exceeds the limit of %d" % (name, value, SIZE_LIMIT))
    return value
