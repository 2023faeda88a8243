"""A 1D stencil across MPI ranks with pycl.mpi, checked against one process.

    mpiexec -n 4 python examples/mpi_halo.py [--cells N] [--steps S]

Each rank owns a slice of the cells in a buffer on its own device, with one
ghost cell at each end. A step exchanges the edge cells with the neighbours
(``Comm.sendrecv`` of one float from an offset of the buffer into the other
rank's ghost cell; the outer ends have no neighbour, ``MPI.PROC_NULL``) and
then runs the stencil kernel. At the end rank 0 gathers the slices and runs
the same kernel over all the cells in one buffer, and the two results must
agree bit for bit (the same float operations on each cell, in the same
order). The exit status is 1 when they do not.

The ranks share out the node's devices (``pycl.mpi.rank_device``), among
the devices that compile kernels: the embedded pip PoCL cannot target some
CPUs, and then another platform's devices are used, or the example says
that none compiles.
"""

import argparse
import sys

import numpy as np
from mpi4py import MPI

import pycl as cl
from pycl import mpi as clmpi

KERNEL = """
__kernel void diffuse(__global const float *u, __global float *out, const float k)
{
    // Cell i of the slice is u[i + 1]: u[0] and u[n + 1] are the ghosts.
    size_t i = get_global_id(0) + 1;
    out[i] = u[i] + k * (u[i - 1] - 2.0f * u[i] + u[i + 1]);
}
"""
K = np.float32(0.25)


def compiles(device):
    try:
        cl.Program(cl.Context([device]), KERNEL).build()
        return True
    except cl.Error:
        return False


def compiling_devices():
    """The node's devices that build the kernel: those pycl.mpi would share
    out, else every device of the first platform whose devices build it."""
    devices = [d for d in clmpi.node_devices() if compiles(d)]
    if devices:
        return devices
    for platform in cl.get_platforms():
        devices = [d for d in platform.get_devices() if compiles(d)]
        if devices:
            return devices
    return []


def run(queue, program, initial, steps):
    """``steps`` steps over ``initial`` (ghosts included, kept fixed at the
    outer ends) in one buffer pair; the exchange runs before each step."""
    ctx = queue.context
    mf = cl.mem_flags
    bufs = [cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=initial) for _ in range(2)]
    kernel = cl.Kernel(program, "diffuse")
    for _ in range(steps):
        yield bufs[0]
        kernel(queue, (initial.size - 2,), None, bufs[0], bufs[1], K)
        bufs.reverse()
    out = np.empty_like(initial)
    cl.enqueue_copy(queue, out, bufs[0])
    yield out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=100_003)
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    world = MPI.COMM_WORLD
    rank, size = world.rank, world.size

    devices = compiling_devices()
    if not devices:
        if rank == 0:
            print("mpi_halo: no OpenCL device here compiles kernels; nothing to run", file=sys.stderr)
        return 0
    queue = clmpi.rank_queue(world, lambda rank, node_rank: devices[node_rank % len(devices)])
    program = cl.Program(queue.context, KERNEL).build()
    comm = clmpi.Comm(world, queue)

    cells = np.random.default_rng(0).random(args.cells, dtype=np.float32)
    bounds = np.linspace(0, args.cells, size + 1).astype(int)
    lo, hi = bounds[rank], bounds[rank + 1]
    n = hi - lo
    mine = np.zeros(n + 2, np.float32)
    mine[1:-1] = cells[lo:hi]
    left = rank - 1 if rank > 0 else MPI.PROC_NULL
    right = rank + 1 if rank < size - 1 else MPI.PROC_NULL
    f4 = 4  # bytes per cell

    steps = run(queue, program, mine, args.steps)
    for buf in steps:
        if isinstance(buf, np.ndarray):
            result = buf
            break
        # My last cell to the right neighbour's left ghost, then my first
        # cell to the left neighbour's right ghost.
        comm.sendrecv(buf, right, buf, left, 0, send_offset=n * f4, recv_offset=0, count=1, dtype=np.float32)
        comm.sendrecv(buf, left, buf, right, 1, send_offset=f4, recv_offset=(n + 1) * f4, count=1, dtype=np.float32)
    comm.free()

    slices = world.gather(result[1:-1], root=0)
    if rank != 0:
        return 0
    distributed = np.concatenate(slices)
    whole = np.zeros(args.cells + 2, np.float32)
    whole[1:-1] = cells
    single = list(run(queue, program, whole, args.steps))[-1][1:-1]
    same = distributed.tobytes() == single.tobytes()
    print(
        "mpi_halo: %d cells, %d steps on %d ranks (%s): %s"
        % (
            args.cells,
            args.steps,
            size,
            queue.device.name,
            "equals the single-process result bit for bit"
            if same
            else "DIFFERS from the single-process result in %d cells" % np.count_nonzero(distributed != single),
        )
    )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
