"""Device to device between two MPI ranks, one device each: pycl.mpi
against the PyOpenCL way and against ``enqueue_copy_between`` in one
process, over MPI's shared memory and over TCP.

    python bench/mpi_exchange.py [--bytes N] [--rounds R] [--pyopencl]

run without mpiexec, starts ``mpiexec -n 2`` twice (MPICH's defaults, then
forced onto its network path over TCP on localhost: ``MPIR_CVAR_NOLOCAL=1``,
libfabric's ``tcp`` provider) and prints GB/s rows (N bytes over the best
round's time, rank 0's device to rank 1's):

- pycl.mpi ``send``/``recv`` through the node's shared window (the default
  between ranks of one node); not in the TCP run, which stands for ranks on
  two nodes, so that its ranks turn the window off (``shared=False``): MPI
  still reports both ranks on one node, and the window would bypass TCP;
- pycl.mpi ``send``/``recv`` through MPI messages (the window off): staged
  through pinned slots on GPUs, mapped on CPU devices; on CPU devices also
  forced through the slots;
- the PyOpenCL way: ``enqueue_copy`` into a numpy array, mpi4py
  ``Send``/``Recv``, ``enqueue_copy`` out, with PyOpenCL where it imports
  (``--pyopencl``), else with pycl with its staging off, as the stand-in
  (labelled so);
- ``enqueue_copy_between`` of the two devices in one process (rank 0, no
  MPI; the same row in both runs).

N defaults to 1 GiB where the device is a GPU, else 64 MiB. The ranks take
the node's devices in turn (``pycl.mpi.rank_device``; ``PYOPENCL_CTX``
picks the platform); with one device, both ranks share it.
"""

import argparse
import os
import subprocess
import sys
import time

import numpy as np
from mpi4py import MPI

import pycl as cl
from pycl import mpi as clmpi
from pycl.mpi.config import staged

# MPICH's network path on one host: no shared-memory shortcut between local
# ranks, and libfabric's TCP provider rather than its shared-memory one.
TCP_ENV = {"MPIR_CVAR_NOLOCAL": "1", "MPIR_CVAR_CH4_NETMOD": "ofi", "FI_PROVIDER": "tcp"}


def best_seconds(comm, rounds, body):
    """The best of ``rounds`` timed runs of ``body()``, between barriers,
    as rank 0 sees them."""
    best = float("inf")
    for _ in range(rounds):
        comm.Barrier()
        start = time.perf_counter()
        body()
        comm.Barrier()
        best = min(best, time.perf_counter() - start)
    return comm.bcast(best, root=0)


def pyopencl_side(device_name, nbytes):
    """A PyOpenCL queue and buffer on the device named ``device_name``, or
    None when PyOpenCL does not import."""
    try:
        import pyopencl
    except ImportError:
        return None
    for platform in pyopencl.get_platforms():
        for device in platform.get_devices():
            if device.name == device_name:
                ctx = pyopencl.Context([device])
                queue = pyopencl.CommandQueue(ctx)
                return pyopencl, queue, pyopencl.Buffer(ctx, pyopencl.mem_flags.READ_WRITE, nbytes)
    return None


def ranks(args):
    world = MPI.COMM_WORLD
    rank = world.rank
    queue = clmpi.rank_queue(world)
    device = queue.device
    gpu = bool(device.type & cl.device_type.GPU and not device.type & cl.device_type.CPU)
    nbytes = args.bytes or ((1 << 30) if gpu else (64 << 20))
    buf = cl.Buffer(queue.context, cl.mem_flags.READ_WRITE, nbytes)
    cl.enqueue_copy(queue, buf, np.full(nbytes, rank + 1, np.uint8))
    rows = []

    def row(label, seconds):
        rows.append((label, nbytes / seconds / 1e9))

    def exchange(comm):
        def body():
            if rank == 0:
                comm.send(buf, 1)
            else:
                comm.recv(buf, 0)

        return best_seconds(world, args.rounds, body)

    saved = clmpi.settings()
    if not args.tcp:
        with clmpi.Comm(world, queue) as comm:
            row("pycl.mpi send/recv (shared window)", exchange(comm))
    clmpi.configure(shared=False)
    with clmpi.Comm(world, queue) as comm:
        path = "staged" if staged(device.type) else "mapped"
        row("pycl.mpi send/recv (MPI messages, %s)" % path, exchange(comm))
        if path == "mapped":
            clmpi.configure(device_types=cl.device_type.ALL)
            row("pycl.mpi send/recv (MPI messages, staged, forced)", exchange(comm))
    clmpi.configure(**saved)

    host = np.empty(nbytes, np.uint8)

    def read_send_recv_write(library, q, b):
        """The PyOpenCL way: read into a numpy array, mpi4py Send/Recv, write."""

        def body():
            if rank == 0:
                library.enqueue_copy(q, host, b)
                world.Send(host, 1)
            else:
                world.Recv(host, 0)
                library.enqueue_copy(q, b, host)
            q.finish()

        return best_seconds(world, args.rounds, body)

    side = pyopencl_side(device.name, nbytes) if args.pyopencl else None
    if side is not None:
        row("PyOpenCL: enqueue_copy, mpi4py Send/Recv, enqueue_copy", read_send_recv_write(*side))
    else:
        from pycl import staging

        saved_staging = staging.settings()
        staging.configure(device_types=0)
        row("PyOpenCL's way, by pycl unstaged (stand-in: no PyOpenCL)", read_send_recv_write(cl, queue, buf))
        staging.configure(device_types=saved_staging["device_types"])

    if rank == 0:
        devices = clmpi.node_devices()
        other = devices[1 % len(devices)]
        dst_queue = cl.CommandQueue(cl.Context([other]))
        dst = cl.Buffer(dst_queue.context, cl.mem_flags.READ_WRITE, nbytes)
        best = float("inf")
        for _ in range(args.rounds):
            start = time.perf_counter()
            cl.enqueue_copy_between(dst_queue, dst, queue, buf)
            best = min(best, time.perf_counter() - start)
        row("enqueue_copy_between, one process (%s)" % ("two devices" if other != device else "one device"), best)
        print("DEVICE %s | %d bytes | %s" % (device.name, nbytes, MPI.Get_library_version().splitlines()[0]))
        for label, rate in rows:
            print("ROW %s | %.2f" % (label, rate))
    world.Barrier()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bytes", type=int, default=0, help="bytes per exchange (default: 1 GiB on GPUs, else 64 MiB)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pyopencl", action="store_true", help="the PyOpenCL row with PyOpenCL itself")
    parser.add_argument("--ranks", action="store_true", help=argparse.SUPPRESS)  # set for the ranks themselves
    parser.add_argument("--tcp", action="store_true", help=argparse.SUPPRESS)  # the ranks of the TCP run
    args = parser.parse_args()
    if args.ranks:
        return ranks(args)
    mpiexec = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    forward = sys.argv[1:]
    results = {}
    for transport, extra, flags in (("shared memory", {}, []), ("TCP", TCP_ENV, ["--tcp"])):
        env = dict(os.environ, **extra)
        cmd = [mpiexec, "-n", "2", sys.executable, os.path.abspath(__file__), "--ranks", *flags] + forward
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
        if out.returncode:
            sys.exit("%s failed:\n%s%s" % (" ".join(cmd), out.stdout, out.stderr))
        lines = out.stdout.splitlines()
        results[transport] = dict(line[4:].rsplit(" | ", 1) for line in lines if line.startswith("ROW "))
        header = [line[7:] for line in lines if line.startswith("DEVICE ")][0]
    print("device: %s" % header)
    print("| exchange, rank 0's device -> rank 1's | MPI shared memory GB/s | MPI over TCP GB/s |")
    print("|---|---|---|")
    for label, shm in results["shared memory"].items():
        tcp = results["TCP"].get(label, "(window off: another node)")
        print("| %s | %s | %s |" % (label, shm, tcp))


if __name__ == "__main__":
    main()
