"""Buffer allocators: ``AllocatorBase``, ``DeferredAllocator`` and
``ImmediateAllocator`` (``pyopencl.tools``'s)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from pycl import constants as _constants
from pycl._args import alignment_value, mem_flags_value, size_value, svm_flags_value
from pycl.errors import logic_error
from pycl.memory import Buffer
from pycl.queue import CommandQueue

if TYPE_CHECKING:
    from pycl._typing import Size
    from pycl.context import Context
    from pycl.svm import SVMAllocation

__all__ = ["AllocatorBase", "DeferredAllocator", "ImmediateAllocator"]

_mf = _constants.mem_flags


class AllocatorBase:
    """Makes Buffers: ``allocator(size)`` returns a Buffer of ``size`` bytes,
    or None for size 0."""

    #: The context of the Buffers.
    context: Context
    #: The ``mem_flags`` of the Buffers.
    mem_flags: int

    def __init__(self, context: Context, mem_flags: int = _mf.READ_WRITE) -> None:
        routine = type(self).__name__
        mem_flags = mem_flags_value(mem_flags, routine, "mem_flags")
        if mem_flags & (_mf.USE_HOST_PTR | _mf.COPY_HOST_PTR):
            raise logic_error(
                routine,
                "mem_flags %s need a host buffer, which an allocator does not have" % _mf.to_string(mem_flags),
            )
        self.context = context
        self.mem_flags = mem_flags

    def __call__(self, size: int) -> Optional[Buffer]:
        size = size_value(size, "size", type(self).__name__ + ".__call__")
        if size == 0:
            return None
        return self._allocate(size)

    def _allocate(self, size: int) -> Buffer:
        return Buffer(self.context, self.mem_flags, size)


class DeferredAllocator(AllocatorBase):
    """``DeferredAllocator(context, mem_flags=READ_WRITE)``: plain
    ``clCreateBuffer``; the driver may only find out at first use that the
    memory is not there."""


class ImmediateAllocator(AllocatorBase):
    """``ImmediateAllocator(queue, mem_flags=READ_WRITE)``: makes the memory
    resident at allocation, so a lack of memory shows up here (migration to
    the queue's device on OpenCL 1.2+, else a one-byte write)."""

    #: The queue the memory is made resident for.
    queue: CommandQueue
    _migrate: bool

    def __init__(self, queue: CommandQueue, mem_flags: int = _mf.READ_WRITE) -> None:
        if not isinstance(queue, CommandQueue):
            raise TypeError("ImmediateAllocator: queue must be a pycl.CommandQueue, not %s" % type(queue).__name__)
        AllocatorBase.__init__(self, queue.context, mem_flags)
        self.queue = queue
        self._migrate = queue.device.cl_version >= (1, 2)

    def _allocate(self, size: int) -> Buffer:
        from pycl.transfer import enqueue_copy, enqueue_migrate_mem_objects

        buf = Buffer(self.context, self.mem_flags, size)
        if self._migrate:
            enqueue_migrate_mem_objects(self.queue, [buf], flags=_constants.mem_migration_flags.CONTENT_UNDEFINED)
        else:
            # The NannyEvent keeps the source alive until the write completes.
            enqueue_copy(self.queue, buf, bytearray(1), is_blocking=False)
        return buf


class SVMAllocator:
    """``SVMAllocator(context, *, alignment=0, flags=svm_mem_flags.READ_WRITE,
    queue=None)``: ``allocator(size)`` returns an ``SVMAllocation``. With an
    (in-order) ``queue`` its frees are enqueued there; without, they are
    immediate (see ``pycl.SVMAllocation``)."""

    #: The context of the allocations.
    context: Context
    #: Their alignment in bytes (0: the driver's default).
    alignment: int
    #: Their ``svm_mem_flags``.
    flags: int
    #: The queue their frees are enqueued on, or None.
    queue: Optional[CommandQueue]

    def __init__(
        self,
        context: Context,
        *,
        alignment: Size = 0,
        flags: int = _constants.svm_mem_flags.READ_WRITE,
        queue: Optional[CommandQueue] = None,
    ) -> None:
        from pycl._svm_checks import check_context_svm, in_order_queue

        routine = "SVMAllocator"
        self.alignment = alignment_value(alignment, routine)
        self.flags = svm_flags_value(flags, routine)
        check_context_svm(context, self.flags, routine)
        if queue is not None:
            in_order_queue(queue, context, routine)
        self.context = context
        self.queue = queue

    def __call__(self, size: int) -> SVMAllocation:
        from pycl.svm import SVMAllocation

        size = size_value(size, "size", "SVMAllocator.__call__")
        return SVMAllocation(self.context, size, self.alignment, self.flags, self.queue)
