"""The node-local path of ``pycl.mpi``: ranks of one node move data through
a window of shared memory instead of MPI messages.

A ``Comm`` makes the window when it is made, over the ranks of its node
(``MPI.Win.Allocate_shared`` on ``Split_type(COMM_TYPE_SHARED)``): each
rank's part is ``shared_slots`` slots of ``shared_chunk_bytes``. To send,
a rank's device copies chunk k into a free slot of its own part (a
non-blocking ``enqueue_copy`` into a numpy view of the slot: pycl's stager
runs it at the link's speed on GPUs, a CPU device copies it directly), then
announces it to each reader with four int64s (slot, chunk, position,
bytes). A reader copies the slot into its device memory straight from its
view of the sender's part, and when that copy is done echoes the four
numbers back: the ack, after which the sender may fill the slot again. So
the sender fills one slot while the readers drain another, and MPI moves
only the announcements; its own shared-memory copy (a single copy at best)
is slower than the devices' staged copies.

On devices whose copies pycl stages (GPUs), the copies between the device
and the window are blocking, on a queue of the window's own: pycl stages only
blocking copies of ordinary host memory, and the driver's own copy of such
memory is several times slower. Each blocks for one chunk; the queue of the
window's own holds nothing of the caller's (no command that waits for an
event the caller sets later), and an operation starts its copies only once
the commands already on the caller's queue are done. Elsewhere the copies
are non-blocking, on the caller's queue.

A rank's slots serve all its operations in flight; each is held by one
chunk from the device copy that fills it to its last ack. If an operation
fails, its device copies are waited for and its posted messages kept (MPI
may still write their buffers), and the window is not freed while a peer
might still copy from it.
"""

from __future__ import annotations

import collections
import time
from typing import TYPE_CHECKING, Any, Optional

import numpy as np
from mpi4py import MPI

from pycl.event import Event, enqueue_marker
from pycl.mpi.config import staged
from pycl.mpi.request import ABANDONED, CommError, CommTimeoutError, Steps, is_done
from pycl.queue import CommandQueue

if TYPE_CHECKING:
    from pycl.mpi._region import Region

__all__ = ["Window", "window"]

# Tags of the collectives' announcements and acks, on the node communicator
# (which carries nothing else, and one collective at a time).
_NOTE, _ACK = 0, 1
_INT64: np.dtype[Any] = np.dtype(np.int64)


def together(steps: list[Steps]) -> Steps:
    """Steps that run the generators ``steps`` side by side and end when all
    have; an exception in one is thrown into the others, so that they clean
    up too."""
    live = list(steps)
    waiting: list[Any] = [None] * len(live)
    try:
        while live:
            moved = False
            for i in reversed(range(len(live))):
                try:
                    while is_done(waiting[i]):
                        moved = True
                        waiting[i] = next(live[i])
                except StopIteration:
                    del live[i], waiting[i]
            if live and not moved:
                yield lambda: any(is_done(w) for w in waiting)
    except BaseException as error:  # noqa: B902 (the others clean up, then it goes on up)
        for other in live:
            try:
                other.throw(error)
            except BaseException:  # noqa: B902 (the error itself, or one met in clean-up)
                pass
        raise


class _Chunk:
    """A chunk in one of this rank's slots: the device copy filling it, then
    its announcements and the acks they are answered with."""

    __slots__ = ("slot", "event", "note", "acks", "requests")

    def __init__(self, slot: int, k: int, at: int, n: int, event: Optional[Event]) -> None:
        self.slot = slot
        self.event = event
        self.note = np.array([slot, k, at, n], _INT64)
        self.acks: list[np.ndarray] = []
        self.requests: list[Any] = []

    def announce(self, comm: Any, readers: list[int], tag: int, ack_tag: int) -> None:
        for reader in readers:
            ack = np.empty(4, _INT64)
            self.acks.append(ack)
            self.requests += [comm.Isend(self.note, reader, tag), comm.Irecv(ack, reader, ack_tag)]


class Window:
    """A ``Comm``'s window over the ranks of its node. ``node_rank[r]``: the
    rank on the node of rank ``r`` of the ``Comm``, or ``MPI.UNDEFINED``;
    ``on``: this rank has slots (the ``shared`` setting); ``everyone``:
    every rank of the ``Comm`` is on this node. ``queue``: the Comm's."""

    def __init__(self, comm: Any, node: Any, slots: int, chunk: int, queue: CommandQueue) -> None:
        self.node = node
        self.queue = queue
        self.blocking = staged(queue.device.type)
        self._own: Optional[CommandQueue] = None
        self.rank = node.Get_rank()
        self.on = slots > 0
        self.slots = slots
        self.chunk = chunk
        info = MPI.Info.Create()
        # Each rank's part on pages of its own, placed near the rank that
        # fills them, rather than one block for the node.
        info.Set("alloc_shared_noncontig", "true")
        try:
            self.win = MPI.Win.Allocate_shared(slots * chunk, 1, info, node)
        finally:
            info.Free()
        self.layouts = np.empty((node.Get_size(), 2), _INT64)
        node.Allgather(np.array([slots, chunk], _INT64), self.layouts)
        self.node_rank = comm.Get_group().Translate_ranks(list(range(comm.Get_size())), node.Get_group())
        self.everyone = node.Get_size() == comm.Get_size()
        self.free_slots = list(range(slots))
        self._parts: dict[int, np.ndarray] = {}

    def local(self, rank: int) -> bool:
        """True if data to or from ``rank`` of the Comm goes through the window."""
        return self.on and self.node_rank[rank] != MPI.UNDEFINED

    def _part(self, owner: int) -> np.ndarray:
        """The bytes of node rank ``owner``'s part, as this process maps them."""
        part = self._parts.get(owner)
        if part is None:
            # mpi4py's buffer type (its stubs declare no buffer protocol)
            memory: Any = self.win.Shared_query(owner)[0]
            self._parts[owner] = part = np.frombuffer(memory, np.uint8)
        return part

    def _read(self, reg: Region, at: int, view: np.ndarray) -> Event:
        """The copy of ``reg``'s bytes from ``at`` into the slot ``view``."""
        if self.blocking:
            return reg.read(at, view, self._own_queue(), blocking=True)
        event = reg.read(at, view)
        self.queue.flush()
        return event

    def _write(self, reg: Region, at: int, view: np.ndarray) -> Event:
        """The copy of the slot ``view`` to ``reg``'s bytes from ``at``."""
        if self.blocking:
            return reg.write(at, view, self._own_queue(), blocking=True)
        event = reg.write(at, view)
        self.queue.flush()
        return event

    def _own_queue(self) -> CommandQueue:
        if self._own is None:
            self._own = CommandQueue(self.queue.context, self.queue.device)
        return self._own

    def _after_queue(self) -> Steps:
        """Where the copies run on the window's own queue, a step that waits
        for the commands already on the Comm's queue (which may write the
        memory sent, or use the memory received into)."""
        if self.blocking:
            marker = enqueue_marker(self.queue)
            self.queue.flush()
            yield marker

    def _slot(self, owner: int, slot: int, n: int) -> np.ndarray:
        start = slot * int(self.layouts[owner, 1])
        return self._part(owner)[start : start + n]

    def _announced(self, note: np.ndarray, owner: int, k: int, at: int, left: int, exact: bool = False) -> np.ndarray:
        """The view of the slot that ``note`` announces, checked against
        what was due: chunk ``k``, from byte ``at``, at most ``left`` bytes
        (``exact``: just so many)."""
        slot, chunk, start, n = (int(v) for v in note)
        slots, size = (int(v) for v in self.layouts[owner])
        wrong_size = n != left if exact else not 0 < n <= min(left, size)
        if chunk != k or start != at or wrong_size or not 0 <= slot < slots:
            raise CommError(
                "pycl.mpi: node rank %d announced slot %d, chunk %d, bytes %d to %d where chunk %d from byte %d "
                "(at most %d bytes) was due: the shared window's messages are out of step"
                % (owner, slot, chunk, start, start + n, k, at, min(left, size))
            )
        return self._slot(owner, slot, n)

    # {{{ the two sides of a transfer

    def publish(self, reg: Region, chunk: int, comm: Any, readers: list[int], tag: int, ack_tag: int) -> Steps:
        """Steps that send ``reg`` in chunks of ``chunk`` bytes through this
        rank's slots: each chunk is copied from the device into a slot,
        announced to ``readers`` (ranks of ``comm``) under ``tag``, and its
        slot freed when all have acked it under ``ack_tag``."""
        nbytes = reg.nbytes
        chunks = -(-nbytes // chunk)
        flight: collections.deque[_Chunk] = collections.deque()
        k = 0

        def ready() -> bool:
            if k < chunks and self.free_slots:
                return True
            if flight and flight[0].requests and is_done(flight[0].requests):
                return True
            filling = next((c for c in flight if not c.requests), None)
            return filling is not None and is_done(filling.event)

        if chunks:
            yield from self._after_queue()
        try:
            while k < chunks or flight:
                moved = False
                # One chunk a pass, so that a blocking copy's chunk is
                # announced before the next copy starts.
                if k < chunks and self.free_slots:
                    at = k * chunk
                    n = min(chunk, nbytes - at)
                    slot = self.free_slots.pop()
                    flight.append(_Chunk(slot, k, at, n, self._read(reg, at, self._slot(self.rank, slot, n))))
                    k += 1
                    moved = True
                # Announce in chunk order: each reader expects them so.
                for c in flight:
                    if c.requests:
                        continue
                    if not is_done(c.event):
                        break
                    c.announce(comm, readers, tag, ack_tag)
                    moved = True
                while flight and flight[0].requests and is_done(flight[0].requests):
                    c = flight.popleft()
                    for reader, ack in zip(readers, c.acks):
                        if not np.array_equal(ack, c.note):
                            raise CommError(
                                "pycl.mpi: rank %d acked %s where %s (slot, chunk, position, bytes) was due: the "
                                "shared window's messages are out of step" % (reader, ack.tolist(), c.note.tolist())
                            )
                    self.free_slots.append(c.slot)
                    moved = True
                if not moved:
                    yield ready
        except BaseException:
            # The slots of the chunks in flight stay taken: a reader may
            # still copy from them, and the Comm is unusable now.
            _abandon([c.event for c in flight], [(c.requests, c.note, c.acks) for c in flight if c.requests])
            raise

    def collect(
        self, reg: Region, base: int, nbytes: int, owner: int, comm: Any, source: int, tag: int, ack_tag: int
    ) -> Steps:
        """Steps that receive ``nbytes`` bytes into ``reg`` from byte
        ``base``, announced by ``source`` (a rank of ``comm``; ``owner``:
        its rank on the node) under ``tag``: each chunk is copied from the
        announced slot to the device, and acked under ``ack_tag`` when that
        copy is done."""
        got = k = 0
        note = np.empty(4, _INT64)
        posted: Any = comm.Irecv(note, source, tag) if nbytes else None
        writes: collections.deque[tuple[Any, np.ndarray]] = collections.deque()
        acks: list[Any] = []

        def ready() -> bool:
            return (posted is not None and is_done(posted)) or (bool(writes) and is_done(writes[0][0]))

        if nbytes:
            yield from self._after_queue()
        try:
            while posted is not None or writes:
                moved = False
                if posted is not None and is_done(posted):
                    view = self._announced(note, owner, k, got, nbytes - got)
                    writes.append((self._write(reg, base + got, view), note.copy()))
                    got, k = got + view.size, k + 1
                    posted = comm.Irecv(note, source, tag) if got < nbytes else None
                    moved = True
                while writes and is_done(writes[0][0]):
                    _, done = writes.popleft()
                    acks.append((comm.Isend(done, source, ack_tag), done))
                    moved = True
                if not moved:
                    yield ready
            yield [request for request, _ in acks]
        except BaseException:
            _abandon([event for event, _ in writes], [(posted, note), acks])
            raise

    # }}}

    # {{{ collectives, every rank of the Comm on this node

    def chunk_of(self, itemsize: int) -> int:
        """The chunk of a collective: whole elements that fit every rank's
        slots, so that chunk k covers the same elements on every rank."""
        return max(1, int(self.layouts[:, 1].min()) // itemsize) * itemsize

    def bcast(self, reg: Region, root: int) -> Steps:
        """Steps of a broadcast of ``reg`` from ``root`` (a rank of the Comm)."""
        chunk = self.chunk_of(reg.dtype.itemsize)
        owner = self.node_rank[root]
        if owner == self.rank:
            readers = [r for r in range(self.node.Get_size()) if r != owner]
            yield from self.publish(reg, chunk, self.node, readers, _NOTE, _ACK)
        else:
            yield from self.collect(reg, 0, reg.nbytes, owner, self.node, owner, _NOTE, _ACK)

    def allgather(self, send: Region, recv: Region) -> Steps:
        """Steps of an allgather of ``send`` into ``recv``: every rank's part
        goes through its own slots to every rank, itself included."""
        chunk = self.chunk_of(send.dtype.itemsize)
        everyone = list(range(self.node.Get_size()))
        part = send.nbytes
        steps = [self.publish(send, chunk, self.node, everyone, _NOTE, _ACK)]
        for rank, owner in enumerate(self.node_rank):
            steps.append(self.collect(recv, rank * part, part, owner, self.node, owner, _NOTE, _ACK))
        yield from together(steps)

    def allreduce(self, send: Region, recv: Region, ufunc: Any, outs: list[np.ndarray]) -> Steps:
        """Steps of an allreduce of ``send`` into ``recv``: every rank's
        chunk k goes through its slots to every rank, which reduces the
        chunks in rank order (so every rank gets the same bits) into one of
        ``outs`` (pinned host arrays of a chunk each) and writes that to its
        device, on the Comm's queue (a pinned array's copy is the driver's
        fast one)."""
        chunk = self.chunk_of(send.dtype.itemsize)
        everyone = list(range(self.node.Get_size()))
        publish = self.publish(send, chunk, self.node, everyone, _NOTE, _ACK)
        yield from together([publish, self._reduce(send, recv, ufunc, outs, chunk)])

    def _reduce(self, send: Region, recv: Region, ufunc: Any, outs: list[np.ndarray], chunk: int) -> Steps:
        owners = list(self.node_rank)  # in the Comm's rank order
        chunks = -(-send.nbytes // chunk)
        notes = [np.empty(4, _INT64) for _ in owners]
        posted: list[Any] = [self.node.Irecv(note, owner, _NOTE) for note, owner in zip(notes, owners)]
        arrived: list[collections.deque[np.ndarray]] = [collections.deque() for _ in owners]
        writes: collections.deque[tuple[Any, int]] = collections.deque()
        free_outs = list(range(len(outs)))
        acks: list[Any] = []
        k = 0

        def ready() -> bool:
            return any(p is not None and is_done(p) for p in posted) or (bool(writes) and is_done(writes[0][0]))

        try:
            while k < chunks or writes:
                moved = False
                for i, owner in enumerate(owners):
                    if posted[i] is not None and is_done(posted[i]):
                        arrived[i].append(notes[i].copy())
                        announced = k + len(arrived[i])
                        posted[i] = self.node.Irecv(notes[i], owner, _NOTE) if announced < chunks else None
                        moved = True
                if k < chunks and free_outs and all(arrived):
                    at = k * chunk
                    n = min(chunk, send.nbytes - at)
                    due = [got.popleft() for got in arrived]
                    views = [
                        self._announced(note, owner, k, at, n, exact=True).view(send.dtype)
                        for note, owner in zip(due, owners)
                    ]
                    index = free_outs.pop()
                    out = outs[index][:n]
                    total = out.view(send.dtype)
                    np.copyto(total, views[0])
                    for view in views[1:]:
                        ufunc(total, view, out=total)
                    # The chunks are read: their slots may be filled again.
                    acks += [(self.node.Isend(note, owner, _ACK), note) for note, owner in zip(due, owners)]
                    writes.append((recv.write(at, out), index))
                    self.queue.flush()
                    k += 1
                    moved = True
                while writes and is_done(writes[0][0]):
                    free_outs.append(writes.popleft()[1])
                    moved = True
                if not moved:
                    yield ready
            yield [request for request, _ in acks]
        except BaseException:
            _abandon([event for event, _ in writes], [list(zip(posted, notes)), acks, outs])
            raise

    # }}}

    def free(self, timeout: float) -> None:
        """Free the window (collective over the node), once every rank of
        the node has come to free it within ``timeout`` seconds; else keep
        it, since a peer may still copy from this rank's part."""
        request = self.node.Ibarrier()
        start = time.monotonic()
        while not request.Test():
            if time.monotonic() - start > timeout:
                ABANDONED.append((request, self))
                raise CommTimeoutError(
                    "pycl.mpi.Comm.free: the other ranks of the node did not free their Comm within %.3g s "
                    "(timeout); the shared window is kept" % timeout
                )
            time.sleep(1e-4)
        self.win.Free()
        self.node.Free()


def _abandon(events: list[Any], kept: list[Any]) -> None:
    """After a failure: wait for the device copies still running from or
    into shared memory, and keep the messages MPI may still be moving."""
    for event in events:
        if event is not None:
            event.wait()
    ABANDONED.append(kept)


def window(comm: Any, slots: int, chunk: int, queue: CommandQueue) -> Optional[Window]:
    """The shared window of a new ``Comm`` over ``comm`` (collective), or
    None where this rank is alone on its node; ``slots`` 0 gives this rank
    no part (the ``shared`` setting off)."""
    node = comm.Split_type(MPI.COMM_TYPE_SHARED)
    if node.Get_size() == 1:
        node.Free()
        return None
    return Window(comm, node, slots, chunk, queue)
