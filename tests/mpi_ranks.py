"""The ranks of tests/test_mpi.py: ``mpiexec -n N python tests/mpi_ranks.py
SCENARIO [--staged]``. Each rank checks what it received against numpy
(every rank draws every rank's data from the same seeds) and prints
``rank R: SCENARIO ok``; a failed check raises, which mpiexec reports.
By default the ranks, all on this node, move data through the shared window;
``--messages`` turns it off, so that data goes through MPI messages.
``--staged`` treats every device as pycl.mpi treats GPUs (CPU devices
included): through the window, blocking copies on a queue of the window's
own; through messages, pinned slots (where CPU devices are otherwise
mapped).

Scenarios: ops (every operation, blocking and not, on Buffers, sub-buffers
and SVM, odd sizes, offsets, zero-length messages, several transfers in
flight at once), mismatch (counts, dtypes, roots, reductions and paths that
differ between ranks), dies (rank 1 exits in the middle of a transfer),
freed (a communicator freed during an operation), unfreed (a rank that
never frees its Comm, whose window the others free).
"""

import os
import sys
import time

import numpy as np
from mpi4py import MPI

import pycl as cl
from pycl import mpi as clmpi

CHUNK = 4096  # small, so that a few KiB cross several chunks and slots
RW = cl.mem_flags.READ_WRITE
SENTINEL = 0xA5


def rng_of(rank, what):
    return np.random.default_rng([rank, sum(map(ord, what))])


def data(rank, what, count, dtype):
    """Rank ``rank``'s random values for ``what``."""
    rng = rng_of(rank, what)
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(count).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -1000), min(info.max, 1000), count, endpoint=True).astype(dtype)


class Device:
    def __init__(self, comm):
        self.comm = comm
        self.queue = comm.queue
        self.ctx = self.queue.context
        caps = self.queue.device.svm_capabilities if self.queue.device.cl_version >= (2, 0) else 0
        self.svm = bool(caps & cl.device_svm_capabilities.COARSE_GRAIN_BUFFER)

    def buffer(self, nbytes):
        """A buffer of ``nbytes`` filled with the sentinel."""
        buf = cl.Buffer(self.ctx, RW, max(nbytes, 1))
        cl.enqueue_copy(self.queue, buf, np.full(max(nbytes, 1), SENTINEL, np.uint8))
        return buf

    def host(self, buf, nbytes=None):
        out = np.empty(buf.size if nbytes is None else nbytes, np.uint8)
        cl.enqueue_copy(self.queue, out, buf)
        return out


def expect_bytes(got, offset, values, what):
    """``got`` (all bytes of a buffer) holds ``values`` at ``offset`` and the
    sentinel elsewhere."""
    want = np.full(got.size, SENTINEL, np.uint8)
    raw = np.ascontiguousarray(values).view(np.uint8)
    want[offset : offset + raw.size] = raw
    if not np.array_equal(got, want):
        bad = np.flatnonzero(got != want)
        raise AssertionError("%s: %d bytes differ, first at %d" % (what, bad.size, bad[0]))


def ops(comm, dev):
    rank, size = comm.rank, comm.size
    q = dev.queue
    last = size - 1
    # Point to point, rank 0 to the last: odd sizes, offsets, zero-length,
    # one element, several chunks.
    cases = [(0, np.float32, 0), (1, np.uint8, 3), (1001, np.float64, 16), (5 * CHUNK // 4 + 3, np.int32, 12)]
    for i, (count, dtype, offset) in enumerate(cases):
        itemsize = np.dtype(dtype).itemsize
        nbytes = offset + count * itemsize + 5
        values = data(0, "p2p%d" % i, count, dtype)
        buf = dev.buffer(nbytes)
        if rank == 0:
            cl.enqueue_copy(q, buf, values, dst_offset=offset) if count else None
            comm.send(buf, last, tag=i, offset=offset, count=count, dtype=dtype)
        elif rank == last:
            comm.recv(buf, 0, tag=i, offset=offset, count=count, dtype=dtype)
            expect_bytes(dev.host(buf), offset, values, "recv case %d" % i)
    # Sub-buffers on both sides, count from the sub-buffer's size.
    align = max(d.mem_base_addr_align for d in dev.ctx.devices) // 8
    values = data(0, "sub", 3 * CHUNK + 1, np.uint8)
    buf = dev.buffer(align + values.size + 7)
    sub = buf[align : align + values.size]
    if rank == 0:
        cl.enqueue_copy(q, sub, values)
        comm.send(sub, last, tag=9)
    elif rank == last:
        comm.recv(sub, 0, tag=9)
        expect_bytes(dev.host(buf), align, values, "sub-buffer")
    # Several sends in flight at once, of several chunks each, received in
    # the reverse order: on the shared path they take turns at the slots.
    # The data is written, and the receive buffers cleared, by non-blocking
    # copies just before: the transfers must follow them.
    sizes = [3 * CHUNK + 11, 2 * CHUNK + 1, 5 * CHUNK - 3, 64 * CHUNK]
    parts = [data(0, "many%d" % i, n, np.uint8) for i, n in enumerate(sizes)]
    bufs = [dev.buffer(n) for n in sizes]
    if rank == 0:
        for buf, values in zip(bufs, parts):
            cl.enqueue_copy(q, buf, values, is_blocking=False)
        requests = [comm.isend(buf, last, tag=20 + i) for i, buf in enumerate(bufs)]
    elif rank == last:
        zeros = np.zeros(max(sizes), np.uint8)
        for buf, n in zip(bufs, sizes):
            cl.enqueue_copy(q, buf, zeros[:n], is_blocking=False)
        requests = [comm.irecv(bufs[i], 0, tag=20 + i) for i in reversed(range(len(bufs)))]
    else:
        requests = []
    for request in requests:
        request.wait()
    if rank == last:
        for i, (buf, values) in enumerate(zip(bufs, parts)):
            expect_bytes(dev.host(buf), 0, values, "concurrent recv %d" % i)
    # The transfers follow the commands already on the queue, even those
    # that wait for an event set later: the data written, the receive
    # buffer cleared, once the user event is set. (Through the window only:
    # mapped memory maps with a blocking call, which would wait for ever.)
    # Not on Oclgrind, whose clFlush waits for every command on the queue,
    # the gated one too, for ever.
    if comm._window_for() is not None and "Oclgrind" not in dev.queue.device.platform.name:
        values = data(0, "gated", 6 * CHUNK + 5, np.uint8)
        buf = dev.buffer(values.size)
        gate = cl.UserEvent(dev.ctx)
        request = None
        if rank == 0:
            cl.enqueue_copy(q, buf, values, is_blocking=False, wait_for=[gate])
            request = comm.isend(buf, last, tag=30)
        elif rank == last:
            cl.enqueue_copy(q, buf, np.zeros(values.size, np.uint8), is_blocking=False, wait_for=[gate])
            request = comm.irecv(buf, 0, tag=30)
        # Both sides posted: the headers meet while the gate is shut.
        comm.comm.Barrier()
        start = time.monotonic()
        while request is not None and time.monotonic() - start < 0.2:
            request.test()
        gate.set_status(cl.command_execution_status.COMPLETE)
        if request is not None:
            request.wait()
        if rank == last:
            expect_bytes(dev.host(buf), 0, values, "recv after a gated command")
    # MPI.PROC_NULL: nothing moves, nothing is touched.
    buf = dev.buffer(64)
    comm.send(buf, MPI.PROC_NULL)
    comm.sendrecv(buf, MPI.PROC_NULL, buf, MPI.PROC_NULL, count=64)
    expect_bytes(dev.host(buf), 0, np.empty(0, np.uint8), "PROC_NULL")
    # Non-blocking, receive posted first, from any source; tested to the end.
    values = data(last, "nb", 2 * CHUNK // 8 + 1, np.int64)
    buf = dev.buffer(values.nbytes)
    if rank == 0:
        request = comm.irecv(buf, MPI.ANY_SOURCE, tag=11, dtype=np.int64)
        while not request.test():
            pass
        assert request.done
        expect_bytes(dev.host(buf), 0, values, "irecv")
    elif rank == last:
        cl.enqueue_copy(q, buf, values)
        comm.isend(buf, 0, tag=11, dtype=np.int64).wait()
    # A ring of sendrecv, odd counts, offsets on both sides.
    right, left = (rank + 1) % size, (rank - 1) % size
    count = 777
    send = dev.buffer(8 + count * 2)
    recv = dev.buffer(6 + count * 2 + 1)
    cl.enqueue_copy(q, send, data(rank, "ring", count, np.int16), dst_offset=8)
    comm.sendrecv(send, right, recv, left, 5, send_offset=8, recv_offset=6, count=count, dtype=np.int16)
    expect_bytes(dev.host(recv), 6, data(left, "ring", count, np.int16), "sendrecv")
    # SVM, through the same calls.
    if dev.svm:
        count = CHUNK // 4 + 9
        svm = cl.csvm_empty(dev.ctx, count + 4, np.float32, queue=q)
        values = data(0, "svm", count, np.float32)
        if rank == 0:
            cl.enqueue_copy(q, cl.SVM(svm[4:]), values)
            comm.send(svm, last, tag=12, offset=16, count=count)
        elif rank == last:
            cl.enqueue_copy(q, cl.SVM(svm), np.zeros(count + 4, np.float32))
            comm.recv(svm, 0, tag=12, offset=16, count=count)
            got = np.empty(count + 4, np.float32)
            cl.enqueue_copy(q, got, cl.SVM(svm))
            assert np.array_equal(got[4:], values) and not got[:4].any(), "svm recv"
        # bcast of an SVM allocation (its SVMAllocation, bytes)
        values = data(last, "svmb", count + 4, np.float32)
        if rank == last:
            cl.enqueue_copy(q, cl.SVM(svm), values)
        comm.bcast(svm.base, root=last)
        got = np.empty(count + 4, np.float32)
        cl.enqueue_copy(q, got, cl.SVM(svm))
        assert np.array_equal(got, values), "svm bcast"
    # bcast with an offset, from the last rank; a zero-length one.
    values = data(last, "bcast", 3 * CHUNK // 8 + 5, np.float64)
    buf = dev.buffer(24 + values.nbytes + 3)
    if rank == last:
        cl.enqueue_copy(q, buf, values, dst_offset=24)
    comm.bcast(buf, root=last, offset=24, count=values.size, dtype=np.float64)
    expect_bytes(dev.host(buf), 24, values, "bcast")
    comm.bcast(buf, root=0, count=0)
    # allreduce: every op over integer and float dtypes, in place and not.
    for dtype in (np.int32, np.uint16, np.int64, np.float32, np.float64):
        for op, fold in (("sum", np.sum), ("min", np.min), ("max", np.max)):
            count = 2 * CHUNK // np.dtype(dtype).itemsize + 3
            values = [data(r, "reduce" + op, count, dtype) for r in range(size)]
            want = fold(np.stack(values), axis=0).astype(dtype)
            send = dev.buffer(values[rank].nbytes + 8)
            cl.enqueue_copy(q, send, values[rank], dst_offset=8)
            if op == "max":  # in place
                comm.allreduce(send, None, op, send_offset=8, count=count, dtype=dtype)
                got = dev.host(send)[8:].view(dtype)
            else:
                recv = dev.buffer(values[rank].nbytes)
                comm.allreduce(send, recv, op, send_offset=8, count=count, dtype=dtype)
                got = dev.host(recv).view(dtype)
            if np.dtype(dtype).kind == "f" and op == "sum":
                assert np.allclose(got, want, rtol=1e-5, atol=1e-5), "allreduce %s %s" % (op, dtype)
            else:
                assert np.array_equal(got, want), "allreduce %s %s" % (op, dtype)
    # allgather with offsets on both sides, and a zero-length one.
    count = CHUNK // 2 + 3
    parts = [data(r, "gather", count, np.uint16) for r in range(size)]
    send = dev.buffer(2 + count * 2)
    cl.enqueue_copy(q, send, parts[rank], dst_offset=2)
    recv = dev.buffer(4 + size * count * 2 + 2)
    comm.allgather(send, recv, send_offset=2, recv_offset=4, count=count, dtype=np.uint16)
    expect_bytes(dev.host(recv), 4, np.concatenate(parts), "allgather")
    comm.allgather(send, recv, count=0)
    # Non-blocking collectives in flight together keep their order.
    a = dev.buffer(CHUNK * 2)
    values = data(0, "ib", CHUNK * 2, np.uint8)
    if rank == 0:
        cl.enqueue_copy(q, a, values)
    b = dev.buffer(8 * 100)
    cl.enqueue_copy(q, b, np.full(100, rank + 1, np.int64))
    requests = [comm.ibcast(a, 0), comm.iallreduce(b, None, "sum", dtype=np.int64)]
    for request in reversed(requests):
        request.wait()
    expect_bytes(dev.host(a), 0, values, "ibcast")
    assert (dev.host(b).view(np.int64) == size * (size + 1) // 2).all(), "iallreduce"


def expect_logic_error(call, *words):
    try:
        call()
    except cl.LogicError as error:
        for word in words:
            assert word in str(error), (word, str(error))
        return str(error)
    raise AssertionError("no LogicError from %r" % (call,))


def mismatch(comm, dev):
    rank, size = comm.rank, comm.size
    last = size - 1
    buf = dev.buffer(4096)
    # Counts, then dtypes, differ: both sides raise, with the same words.
    if rank == 0:
        expect_logic_error(lambda: comm.send(buf, last, count=10, dtype=np.float32), "count 10", "count 11")
        expect_logic_error(lambda: comm.send(buf, last, count=10, dtype=np.float32), "float32", "int32")
    elif rank == last:
        expect_logic_error(lambda: comm.recv(buf, 0, count=11, dtype=np.float32), "count 10", "count 11")
        expect_logic_error(lambda: comm.recv(buf, 0, count=10, dtype=np.int32), "float32", "int32")
    # Collectives: the last rank's count, root, op differ; every rank raises.
    count = 7 if rank == last else 8
    expect_logic_error(lambda: comm.bcast(buf, 0, count=count, dtype=np.float32), "rank %d" % last, "count 7")
    expect_logic_error(lambda: comm.bcast(buf, 1 if rank == last else 0, count=8), "root 1", "root 0")
    op = "min" if rank == last else "max"
    expect_logic_error(lambda: comm.allreduce(buf, None, op, count=8, dtype=np.int32), "op min", "op max")
    expect_logic_error(lambda: comm.allgather(buf, dev.buffer(4096 * size), count=count), "count 7")
    # Nothing moved, and the Comm is still in step: a correct exchange works.
    values = data(0, "after", 100, np.int32)
    if rank == 0:
        cl.enqueue_copy(dev.queue, buf, values)
    comm.bcast(buf, 0, count=100, dtype=np.int32)
    assert np.array_equal(dev.host(buf, 400).view(np.int32), values), "bcast after mismatches"
    # A Comm whose last rank has the shared window off: its operations with
    # the others, which have it on, raise on every side.
    saved = clmpi.settings()
    clmpi.configure(shared=rank != last)
    other = clmpi.Comm(comm.comm, comm.queue)
    clmpi.configure(**saved)
    paths = ("through the shared window", "through MPI messages")
    if rank == 0:
        expect_logic_error(lambda: other.send(buf, last, count=8), *paths)
    elif rank == last:
        expect_logic_error(lambda: other.recv(buf, 0, count=8), *paths)
    expect_logic_error(lambda: other.bcast(buf, 0, count=8), *paths)
    other.free()
    # Argument checks name the argument and the limit.
    expect_logic_error(lambda: comm.send(buf, size), "dest = %d" % size)
    expect_logic_error(lambda: comm.send(buf, 0, count=1025, dtype=np.float32), "past the end of mem (4096 bytes)")
    expect_logic_error(lambda: comm.recv(buf, 0, offset=4097), "offset = 4097 is past the end")
    try:
        comm.allreduce(buf)
    except TypeError as error:
        assert "dtype is needed" in str(error)
    else:
        raise AssertionError("allreduce of a Buffer without dtype")


def dies(comm, dev):
    """Rank 1 exits while rank 0 sends it 256 chunks, then waits for its
    answer; the others wait for data rank 1 never sends. Every survivor must
    raise CommError (a timeout, or MPI's error) rather than hang. (MPI may
    take the chunks of the send into its own buffers and complete it: the
    answer never comes.)"""
    rank = comm.rank
    buf = dev.buffer(256 * CHUNK)
    if rank == 1:
        request = comm.irecv(buf, 0, tag=1)
        request.test()
        os._exit(3)
    try:
        if rank == 0:
            comm.send(buf, 1, tag=1)
            comm.recv(buf, 1, tag=2)
        else:
            comm.recv(buf, 1, tag=2)
    except clmpi.CommError as error:
        print("rank %d: raised %s: %s" % (rank, type(error).__name__, error), flush=True)
        try:
            comm.send(buf, 1)
        except clmpi.CommError as again:
            assert "earlier operation failed" in str(again), again
        else:
            raise AssertionError("a Comm that failed accepted another operation")
        return
    raise AssertionError("rank %d: no error although rank 1 died" % rank)


def freed(comm, dev):
    """Rank 0 frees the communicator while its send is in flight: its wait
    raises CommError; the receiving rank never gets the data and times out."""
    rank, size = comm.rank, comm.size
    buf = dev.buffer(64 * CHUNK)
    # The receiver posts its side only after the free (the barrier), so
    # that the send cannot have completed before it, as it can when the
    # receiver's reply arrives at once and MPI takes the chunks eagerly.
    if rank == 0:
        request = comm.isend(buf, size - 1, tag=3)
        comm.comm.Free()
        MPI.COMM_WORLD.Barrier()
        try:
            request.wait()
        except clmpi.CommError as error:
            assert "communicator was freed" in str(error), error
            print("rank 0: raised %s: %s" % (type(error).__name__, error), flush=True)
            return
        raise AssertionError("a wait on a freed communicator succeeded")
    MPI.COMM_WORLD.Barrier()
    if rank == size - 1:
        try:
            comm.recv(buf, 0, tag=3)
        except clmpi.CommTimeoutError as error:
            print("rank %d: raised %s: %s" % (rank, type(error).__name__, error), flush=True)
            return
        raise AssertionError("the receive of a freed sender completed")


def unfreed(comm, dev):
    """Rank 0 never frees its Comm: the others' ``free`` raises
    CommTimeoutError (MPI's window free would wait for rank 0 for ever)."""
    if comm.rank == 0:
        # Stay until the others have given up (an exit would end the job).
        time.sleep(clmpi.settings()["timeout"] + 1)
        return
    try:
        comm.free()
    except clmpi.CommTimeoutError as error:
        assert "the shared window is kept" in str(error), error
        print("rank %d: raised %s: %s" % (comm.rank, type(error).__name__, error), flush=True)
        return
    raise AssertionError("free returned without rank 0")


def main():
    scenario = sys.argv[1]
    world = MPI.COMM_WORLD
    if "--staged" in sys.argv:
        clmpi.configure(device_types=cl.device_type.ALL)
    if "--messages" in sys.argv:
        clmpi.configure(shared=False)
    # Slots of a size of each rank's own (odd on odd ranks), and fewer than
    # the chunks of most transfers, so that slots are reused.
    shared_chunk = CHUNK + 1003 * world.rank
    timeout = float(os.environ.get("PYCL_MPI_TEST_TIMEOUT", "20"))
    clmpi.configure(chunk_bytes=CHUNK, shared_slots=3, shared_chunk_bytes=shared_chunk, timeout=timeout)
    # Scenarios that free the communicator get one of their own.
    user = world.Dup() if scenario == "freed" else world
    comm = clmpi.Comm(user, clmpi.rank_queue(world))
    # The path the tests mean to take is the one taken.
    assert (comm._window_for() is not None) == ("--messages" not in sys.argv and world.size > 1), "path"
    dev = Device(comm)
    {"ops": ops, "mismatch": mismatch, "dies": dies, "freed": freed, "unfreed": unfreed}[scenario](comm, dev)
    if scenario in ("ops", "mismatch"):
        comm.free()
    print("rank %d: %s ok on %s" % (world.rank, scenario, dev.queue.device.name), flush=True)
    if scenario in ("dies", "freed", "unfreed"):
        # The peers are gone or out of step: leave without MPI's finalize,
        # which would wait for them.
        sys.stdout.flush()
        os._exit(0)


if __name__ == "__main__":
    main()
