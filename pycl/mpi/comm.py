"""``Comm``: an MPI communicator and a queue, over which ranks send,
receive, broadcast, reduce and gather device memory.

Every operation takes its memory as a Buffer (a sub-buffer too), an SVM
allocation, an ``SVM`` tag or a numpy array in SVM, from ``offset`` (bytes)
for ``count`` elements of ``dtype`` (default: bytes, or the array's dtype),
and exchanges a header before any data, so that ranks that disagree on the
count, the dtype, the chunk size, the root or the reduction raise
``LogicError`` on every side. The blocking forms return when the data is in
place; the ``i``-forms return a ``Request``.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from mpi4py import MPI

from pycl.errors import logic_error
from pycl.mpi import _wire
from pycl.mpi import config as _config
from pycl.mpi._pipeline import chunking, run
from pycl.mpi._region import Region, region
from pycl.mpi._shared import Window, window
from pycl.mpi.request import ABANDONED, CommError, Request, Steps, fail_in_flight
from pycl.pinned import PinnedPool
from pycl.queue import CommandQueue

__all__ = ["Comm"]

_OPS = {"sum": (1, MPI.SUM, np.add), "min": (2, MPI.MIN, np.minimum), "max": (3, MPI.MAX, np.maximum)}


def _rank_value(value: Any, name: str, size: int, routine: str, wildcard: bool = False) -> int:
    """A rank of the communicator, or ``MPI.PROC_NULL`` (no peer: the
    operation does nothing), or for a source ``MPI.ANY_SOURCE``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError("%s: %s must be an int, not %s" % (routine, name, type(value).__name__))
    value = int(value)
    if value == MPI.PROC_NULL or (wildcard and value == MPI.ANY_SOURCE):
        return value
    if not 0 <= value < size:
        raise logic_error(routine, "%s = %d is not a rank of the communicator (0 to %d)" % (name, value, size - 1))
    return value


def _tag_limit() -> int:
    """MPI's largest tag (``MPI.TAG_UB``; at least 32767 by the standard)."""
    limit = MPI.COMM_WORLD.Get_attr(MPI.TAG_UB)
    return 32767 if limit is None else int(limit)


def _tag_value(value: Any, name: str, routine: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError("%s: %s must be an int, not %s" % (routine, name, type(value).__name__))
    limit = _tag_limit()
    if not 0 <= value <= limit:
        raise logic_error(routine, "%s = %d is outside MPI's tags (0 to %d)" % (name, value, limit))
    return int(value)


class Comm:
    """``Comm(comm, queue)``: ``pycl.mpi``'s operations between the ranks of
    ``comm`` (an mpi4py communicator), each moving memory of ``queue``'s
    context with ``queue`` (in-order: the reads follow the commands already
    on it). Collective over ``comm``: it duplicates ``comm`` so that its
    messages never meet the caller's, and makes the window of shared memory
    through which ranks of one node move data (the ``shared`` setting).
    ``free()`` (or ``with``) releases them; after an operation fails on the
    MPI side the Comm refuses further ones (free it and make another)."""

    comm: Any  # the communicator given
    queue: CommandQueue
    rank: int
    size: int

    def __init__(self, comm: Any, queue: CommandQueue) -> None:
        if not isinstance(comm, MPI.Comm) or comm == MPI.COMM_NULL:
            raise TypeError("Comm: comm must be an mpi4py communicator, not %r" % (comm,))
        if not isinstance(queue, CommandQueue):
            raise TypeError("Comm: queue must be a pycl.CommandQueue, not %s" % type(queue).__name__)
        if not queue.is_in_order:
            raise logic_error("Comm", "queue must be in-order (the device copies follow its earlier commands)")
        self.comm = comm
        self.queue = queue
        self.rank = comm.Get_rank()
        self.size = comm.Get_size()
        # Headers travel on one duplicate, under the caller's tags; data and
        # replies on the other, under tags of the sender's own sequence.
        self._head: Any = comm.Dup()
        self._data: Any = comm.Dup()
        self._span = max(1, _tag_limit() // self.size)
        self._sequence = 0
        self._pool: Optional[PinnedPool] = None
        self._unusable = ""
        self._last_collective: Optional[Request] = None
        settings = _config.settings()
        slots = settings["shared_slots"] if settings["shared"] else 0
        self._window = window(comm, slots, _config.shared_chunk(queue.device.type), queue)

    # {{{ state

    def unusable_reason(self) -> str:
        """Why no operation may run (empty if they may)."""
        if self._unusable:
            return self._unusable
        if self._head is None:
            return "this Comm was freed"
        if self.comm == MPI.COMM_NULL:
            return "the communicator was freed"
        return ""

    def mark_unusable(self, reason: str) -> None:
        if not self._unusable:
            self._unusable = (
                "an earlier operation failed, so its messages may be out of step: %s; free this Comm" % reason
            )

    def free(self) -> None:
        """Free the duplicated communicators and the shared window
        (collective over ``comm``, as ``MPI.Comm.Free``); operations in
        flight end with ``CommError``. The window is freed once every rank
        of the node frees its Comm, within the ``timeout`` setting (else
        ``CommTimeoutError``), and kept after a failed operation (one ended
        so included): a peer may still copy from it."""
        if self._head is not None:
            for dup in (self._head, self._data):
                dup.Free()
            self._head = self._data = None
        shared, self._window = self._window, None
        if shared is not None:
            # Device copies of operations in flight may still use the window.
            fail_in_flight(self, "this Comm was freed")
            if self._unusable:
                ABANDONED.append(shared)
            else:
                shared.free(_config.settings()["timeout"])

    def __enter__(self) -> Comm:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.free()

    def _check(self, routine: str) -> None:
        reason = self.unusable_reason()
        if reason:
            raise CommError("%s: %s" % (routine, reason))

    def _slots(self, n: int, nbytes: int) -> list[np.ndarray]:
        if self._pool is None:
            self._pool = PinnedPool(self.queue)
        return [self._pool.empty(nbytes, np.uint8) for _ in range(n)]

    def _region(self, mem: Any, offset: Any, count: Any, dtype: Any, routine: str, name: str) -> Region:
        return region(self.queue, mem, offset, count, dtype, routine, name)

    def _window_for(self, rank: Optional[int] = None) -> Optional[Window]:
        """The node's shared window if data to or from ``rank`` (None: every
        rank, for a collective) goes through it, else None."""
        shared = self._window
        if shared is None or not (shared.on and shared.everyone if rank is None else shared.local(rank)):
            return None
        return shared

    def _collective(self, routine: str, steps: Steps) -> Request:
        """The request of a collective operation, whose MPI calls follow
        those of the previous collective on this Comm: non-blocking
        collectives must be posted in the same order on every rank."""
        previous = self._last_collective

        def ordered() -> Steps:
            if previous is not None and not previous.done:
                yield previous
            yield from steps

        self._last_collective = request = Request(self, routine, [ordered()])
        return request

    def _next_tag(self) -> int:
        """A data tag of this rank's own (its rank modulo the size), unique
        among this rank's messages in flight."""
        self._sequence = (self._sequence + 1) % self._span
        return self._sequence * self.size + self.rank

    # }}}

    # {{{ point to point

    def isend(
        self, mem: Any, dest: int, tag: int = 0, *, offset: int = 0, count: Optional[int] = None, dtype: Any = None
    ) -> Request:
        """Start sending ``count`` elements of ``dtype`` of ``mem`` from
        ``offset`` (bytes) to rank ``dest`` (``MPI.PROC_NULL``: nowhere),
        matched by a ``recv`` with this ``tag``."""
        routine = "pycl.mpi.Comm.isend"
        self._check(routine)
        dest = _rank_value(dest, "dest", self.size, routine)
        tag = _tag_value(tag, "tag", routine)
        reg = self._region(mem, offset, count, dtype, routine, "mem")
        return Request(self, routine, [] if dest == MPI.PROC_NULL else [self._send_steps(reg, dest, tag, routine)])

    def irecv(
        self, mem: Any, source: int, tag: int = 0, *, offset: int = 0, count: Optional[int] = None, dtype: Any = None
    ) -> Request:
        """Start receiving ``count`` elements of ``dtype`` into ``mem`` from
        ``offset`` (bytes), sent by rank ``source`` (or ``MPI.ANY_SOURCE``; ``MPI.PROC_NULL``:
        nothing) with ``tag``. The sender's count and dtype must be the same."""
        routine = "pycl.mpi.Comm.irecv"
        self._check(routine)
        source = _rank_value(source, "source", self.size, routine, wildcard=True)
        tag = _tag_value(tag, "tag", routine)
        reg = self._region(mem, offset, count, dtype, routine, "mem")
        return Request(self, routine, [] if source == MPI.PROC_NULL else [self._recv_steps(reg, source, tag, routine)])

    def send(self, mem: Any, dest: int, tag: int = 0, **kwargs: Any) -> None:
        """``isend(...).wait()``: returns when ``mem`` may be reused."""
        self.isend(mem, dest, tag, **kwargs).wait()

    def recv(self, mem: Any, source: int, tag: int = 0, **kwargs: Any) -> None:
        """``irecv(...).wait()``: returns when the data is in ``mem``."""
        self.irecv(mem, source, tag, **kwargs).wait()

    def isendrecv(
        self,
        sendmem: Any,
        dest: int,
        recvmem: Any,
        source: int,
        sendtag: int = 0,
        recvtag: Optional[int] = None,
        *,
        send_offset: int = 0,
        recv_offset: int = 0,
        count: Optional[int] = None,
        recv_count: Optional[int] = None,
        dtype: Any = None,
    ) -> Request:
        """Start sending ``sendmem`` to ``dest`` and receiving ``recvmem``
        from ``source`` at once (a halo exchange), as ``isend`` and
        ``irecv``; ``recvtag`` defaults to ``sendtag``, ``recv_count`` to
        ``count``. One request for both."""
        routine = "pycl.mpi.Comm.isendrecv"
        self._check(routine)
        dest = _rank_value(dest, "dest", self.size, routine)
        source = _rank_value(source, "source", self.size, routine, wildcard=True)
        sendtag = _tag_value(sendtag, "sendtag", routine)
        recvtag = sendtag if recvtag is None else _tag_value(recvtag, "recvtag", routine)
        send = region(self.queue, sendmem, send_offset, count, dtype, routine, "sendmem")
        recv_count = count if recv_count is None else recv_count
        recv = region(self.queue, recvmem, recv_offset, recv_count, dtype, routine, "recvmem")
        steps = []
        if source != MPI.PROC_NULL:
            steps.append(self._recv_steps(recv, source, recvtag, routine))
        if dest != MPI.PROC_NULL:
            steps.append(self._send_steps(send, dest, sendtag, routine))
        return Request(self, routine, steps)

    def sendrecv(self, sendmem: Any, dest: int, recvmem: Any, source: int, *args: Any, **kwargs: Any) -> None:
        """``isendrecv(...).wait()``."""
        self.isendrecv(sendmem, dest, recvmem, source, *args, **kwargs).wait()

    def _send_steps(self, reg: Region, dest: int, tag: int, routine: str) -> Steps:
        chunk, slots = _config.settings()["chunk_bytes"], _config.settings()["slots"]
        data_tag = self._next_tag()
        shared = self._window_for(dest)
        head = _wire.header(_wire.SEND, reg.count, reg.dtype, chunk, shared is not None, data_tag, self.rank)
        answer = _wire.empty()
        yield [self._head.Isend(head, dest, tag), self._data.Irecv(answer, dest, data_tag)]
        _wire.check_peer(head, answer, routine, "send to rank %d (tag %d)" % (dest, tag))
        if shared is not None:
            yield from shared.publish(reg, shared.chunk, self._data, [dest], data_tag, data_tag)
            return
        yield from self._stream(reg, chunk, slots, lambda view: self._data.Isend(view, dest, data_tag), True)

    def _recv_steps(self, reg: Region, source: int, tag: int, routine: str) -> Steps:
        chunk, slots = _config.settings()["chunk_bytes"], _config.settings()["slots"]
        theirs = _wire.empty()
        yield self._head.Irecv(theirs, source, tag)
        sender, data_tag = _wire.rank_of(theirs), _wire.extra(theirs)
        # The path follows the sender, which ANY_SOURCE names only now.
        shared = self._window_for(sender) if 0 <= sender < self.size else None
        mine = _wire.header(_wire.REPLY, reg.count, reg.dtype, chunk, shared is not None, 0, self.rank)
        answer = _wire.reply(mine, theirs, routine)
        replied = self._data.Isend(answer, sender, data_tag)
        try:
            _wire.check_peer(theirs, answer, routine, "recv from rank %d (tag %d)" % (sender, tag))
        except Exception:
            yield replied
            raise
        if shared is not None:
            owner = shared.node_rank[sender]
            yield from shared.collect(reg, 0, reg.nbytes, owner, self._data, sender, data_tag, data_tag)
        else:
            yield from self._stream(reg, chunk, slots, lambda view: self._data.Irecv(view, sender, data_tag), False)
        yield replied

    def _stream(self, reg: Region, chunk: int, slots: int, post: Any, outgoing: bool) -> Steps:
        """Steps moving ``reg`` in chunks, each posted by ``post(view)``:
        out of the device (``outgoing``) or into it."""
        per, chunks = chunking(reg.count, reg.dtype.itemsize, chunk)
        size = reg.dtype.itemsize

        def bounds(k: int) -> tuple[int, int]:
            return k * per * size, min(reg.count, (k + 1) * per) * size

        if not chunks:
            return
        if reg.staged:
            held = self._slots(min(slots, chunks), min(per, reg.count) * size)

            def view(k: int) -> np.ndarray:
                a, b = bounds(k)
                return held[k % slots][: b - a]

            def read(k: int) -> Any:
                return reg.read(bounds(k)[0], view(k)) if outgoing else None

            def write(k: int) -> Any:
                return None if outgoing else reg.write(bounds(k)[0], view(k))

            yield from run(self.queue, chunks, slots, read, lambda k: post(view(k)), write)
        else:
            array, unmap = reg.map(writable=not outgoing, readable=outgoing)
            yield from run(self.queue, chunks, slots, _none, lambda k: post(array[slice(*bounds(k))]), _none)
            unmap()

    # }}}

    # {{{ collectives

    def _agree(self, head: np.ndarray) -> Steps:
        heads: np.ndarray = np.empty((self.size, head.size), np.int64)
        yield self._data.Iallgather(head, heads)
        _wire.agree(heads, self._routine_of(head))

    @staticmethod
    def _routine_of(head: np.ndarray) -> str:
        return "pycl.mpi.Comm.i" + {_wire.BCAST: "bcast", _wire.ALLREDUCE: "allreduce"}.get(int(head[1]), "allgather")

    def ibcast(
        self, mem: Any, root: int = 0, *, offset: int = 0, count: Optional[int] = None, dtype: Any = None
    ) -> Request:
        """Start copying ``count`` elements of ``dtype`` of ``mem`` from
        ``offset`` on rank ``root`` into the same place on every rank."""
        routine = "pycl.mpi.Comm.ibcast"
        self._check(routine)
        root = _rank_value(root, "root", self.size, routine)
        reg = self._region(mem, offset, count, dtype, routine, "mem")
        return self._collective(routine, self._bcast_steps(reg, root))

    def bcast(self, mem: Any, root: int = 0, **kwargs: Any) -> None:
        """``ibcast(...).wait()``."""
        self.ibcast(mem, root, **kwargs).wait()

    def _bcast_steps(self, reg: Region, root: int) -> Steps:
        chunk, slots = _config.settings()["chunk_bytes"], _config.settings()["slots"]
        shared = self._window_for()
        head = _wire.header(_wire.BCAST, reg.count, reg.dtype, chunk, shared is not None, root, self.rank)
        yield from self._agree(head)
        if shared is not None:
            yield from shared.bcast(reg, root)
            return
        comm = self._data
        yield from self._stream(reg, chunk, slots, lambda view: comm.Ibcast(view, root), self.rank == root)

    def iallreduce(
        self,
        sendmem: Any,
        recvmem: Any = None,
        op: str = "sum",
        *,
        send_offset: int = 0,
        recv_offset: int = 0,
        count: Optional[int] = None,
        dtype: Any = None,
    ) -> Request:
        """Start reducing ``count`` elements of ``dtype`` of ``sendmem`` over
        the ranks (``op``: ``"sum"``, ``"min"`` or ``"max"``, elementwise)
        into ``recvmem`` on every rank (``None``: in place, into
        ``sendmem``). A Buffer needs ``dtype``. Sums of floats follow MPI's
        order of reduction, which may differ from a sum in rank order in the
        last bits."""
        routine = "pycl.mpi.Comm.iallreduce"
        self._check(routine)
        if op not in _OPS:
            raise logic_error(routine, "op = %r is none of 'sum', 'min', 'max'" % (op,))
        if dtype is None and not isinstance(sendmem, np.ndarray):
            raise TypeError("%s: dtype is needed to reduce a %s" % (routine, type(sendmem).__name__))
        send = self._region(sendmem, send_offset, count, dtype, routine, "sendmem")
        if send.dtype.kind == "b" or (send.dtype.kind == "c" and op != "sum"):
            raise TypeError("%s: op %r does not apply to dtype %s" % (routine, op, send.dtype))
        recv = send
        if recvmem is not None:
            recv = self._region(recvmem, recv_offset, send.count, send.dtype, routine, "recvmem")
        return self._collective(routine, self._allreduce_steps(send, recv, op))

    def allreduce(self, sendmem: Any, recvmem: Any = None, op: str = "sum", **kwargs: Any) -> None:
        """``iallreduce(...).wait()``."""
        self.iallreduce(sendmem, recvmem, op, **kwargs).wait()

    def _allreduce_steps(self, send: Region, recv: Region, op: str) -> Steps:
        chunk, slots = _config.settings()["chunk_bytes"], _config.settings()["slots"]
        code, mpi_op, ufunc = _OPS[op]
        shared = self._window_for()
        head = _wire.header(_wire.ALLREDUCE, send.count, send.dtype, chunk, shared is not None, code, self.rank)
        yield from self._agree(head)
        per, chunks = chunking(send.count, send.dtype.itemsize, chunk)
        if not chunks:
            return
        if shared is not None:
            # Host arrays for the reduced chunks, written to the device from there.
            outs = self._slots(shared.slots, min(shared.chunk_of(send.dtype.itemsize), send.nbytes))
            yield from shared.allreduce(send, recv, ufunc, outs)
            return
        size, dtype = send.dtype.itemsize, send.dtype
        comm = self._data

        def bounds(k: int) -> tuple[int, int]:
            return k * per * size, min(send.count, (k + 1) * per) * size

        if send.staged:
            n = min(slots, chunks)
            ins, outs = self._slots(n, min(per, send.count) * size), self._slots(n, min(per, send.count) * size)

            def view(slot: list[np.ndarray], k: int) -> np.ndarray:
                a, b = bounds(k)
                return slot[k % slots][: b - a].view(dtype)

            yield from run(
                self.queue,
                chunks,
                slots,
                lambda k: send.read(bounds(k)[0], ins[k % slots][: bounds(k)[1] - bounds(k)[0]]),
                lambda k: comm.Iallreduce(view(ins, k), view(outs, k), mpi_op),
                lambda k: recv.write(bounds(k)[0], outs[k % slots][: bounds(k)[1] - bounds(k)[0]]),
            )
            return
        if recv is send:
            array, unmap = send.map(writable=True)
            values = array.view(dtype)

            def start(k: int) -> Any:
                return comm.Iallreduce(MPI.IN_PLACE, values[k * per : (k + 1) * per], mpi_op)

        else:
            array, unmap_send = send.map(writable=False)
            into, unmap_recv = recv.map(writable=True, readable=False)
            values, results = array.view(dtype), into.view(dtype)

            def start(k: int) -> Any:
                return comm.Iallreduce(values[k * per : (k + 1) * per], results[k * per : (k + 1) * per], mpi_op)

            def unmap() -> None:
                unmap_send()
                unmap_recv()

        yield from run(self.queue, chunks, slots, _none, start, _none)
        unmap()

    def iallgather(
        self,
        sendmem: Any,
        recvmem: Any,
        *,
        send_offset: int = 0,
        recv_offset: int = 0,
        count: Optional[int] = None,
        dtype: Any = None,
    ) -> Request:
        """Start gathering ``count`` elements of ``dtype`` of ``sendmem``
        from every rank into ``recvmem`` on every rank, rank r's at
        ``recv_offset + r * count * itemsize``."""
        routine = "pycl.mpi.Comm.iallgather"
        self._check(routine)
        send = self._region(sendmem, send_offset, count, dtype, routine, "sendmem")
        recv = self._region(recvmem, recv_offset, send.count * self.size, send.dtype, routine, "recvmem")
        return self._collective(routine, self._allgather_steps(send, recv))

    def allgather(self, sendmem: Any, recvmem: Any, **kwargs: Any) -> None:
        """``iallgather(...).wait()``."""
        self.iallgather(sendmem, recvmem, **kwargs).wait()

    def _allgather_steps(self, send: Region, recv: Region) -> Steps:
        chunk, slots = _config.settings()["chunk_bytes"], _config.settings()["slots"]
        shared = self._window_for()
        head = _wire.header(_wire.ALLGATHER, send.count, send.dtype, chunk, shared is not None, 0, self.rank)
        yield from self._agree(head)
        per, chunks = chunking(send.count, send.dtype.itemsize, chunk)
        if not chunks:
            return
        if shared is not None:
            yield from shared.allgather(send, recv)
            return
        size, ranks, part = send.dtype.itemsize, self.size, send.nbytes
        comm = self._data

        def bounds(k: int) -> tuple[int, int]:
            return k * per * size, min(send.count, (k + 1) * per) * size

        if send.staged or recv.staged:
            n, width = min(slots, chunks), min(per, send.count) * size
            ins, outs = self._slots(n, width), self._slots(n, width * ranks)

            def read(k: int) -> Any:
                a, b = bounds(k)
                return send.read(a, ins[k % slots][: b - a])

            def start(k: int) -> Any:
                a, b = bounds(k)
                return comm.Iallgather(ins[k % slots][: b - a], outs[k % slots][: (b - a) * ranks])

            def write(k: int) -> Any:
                a, b = bounds(k)
                out = outs[k % slots]
                events = [recv.write(r * part + a, out[r * (b - a) : (r + 1) * (b - a)]) for r in range(ranks)]
                return events[-1]  # the queue is in-order: the last completes last

            yield from run(self.queue, chunks, slots, read, start, write)
            return
        array, unmap_send = send.map(writable=False)
        into, unmap_recv = recv.map(writable=True, readable=False)
        types: list[Any] = []

        def start_mapped(k: int) -> Any:
            a, b = bounds(k)
            # Rank r's chunk k lands at r * part + a: b - a bytes, then a
            # stride of part to the next rank's.
            run_of_bytes = MPI.BYTE.Create_contiguous(b - a)
            piece = run_of_bytes.Create_resized(0, part).Commit()
            run_of_bytes.Free()
            types.append(piece)
            return comm.Iallgather(array[a:b], [into[a:], 1, piece])

        try:
            yield from run(self.queue, chunks, slots, _none, start_mapped, _none)
        finally:
            for piece in types:
                piece.Free()
        unmap_send()
        unmap_recv()

    # }}}

    def __repr__(self) -> str:
        return "<pycl.mpi.Comm rank %d of %d on %r>" % (self.rank, self.size, self.queue.device)


def _none(k: int) -> None:
    """No device copy (mapped memory)."""
    return None
