"""Run by tests/test_budget.py in a fresh process: make objects of one kind,
write each once and drop it without release(), and report how much memory
the dropped objects held at worst.

    python budget_probe.py PLATFORM_INDEX DEVICE_INDEX KIND OBJECT_BYTES COUNT

Prints one JSON line:
- ``hwm_growth``: growth of the process's peak resident memory (VmHWM) over
  the loop, in bytes;
- ``max_uncollected``: the most bytes of objects that were dropped but not
  yet collected at any step (tracked with weak references, independently of
  pycl's own accounting);
- ``collections``: the collections pycl's budget ran.

The pycl under test takes its budget from PYCL_GC_BUDGET.
"""

import gc
import json
import sys
import weakref

import numpy as np

import pycl as cl
from pycl import budget
from pycl.pinned import pinned_empty
from pycl.tools import ImmediateAllocator, MemoryPool, SVMAllocator, SVMPool


def peak_resident():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def maker(kind, ctx, queue, nbytes):
    """A function that makes one object of ``kind`` and writes its memory once
    (so that it is really allocated); it returns (the object to track with a
    weak reference, the object the program holds)."""
    host = np.full(nbytes, 7, np.uint8)
    mf = cl.mem_flags
    if kind == "buffer":

        def make():
            buf = cl.Buffer(ctx, mf.READ_WRITE, nbytes)
            cl.enqueue_copy(queue, buf, host)
            return buf, buf

    elif kind == "image":
        fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
        shape = (1024, nbytes // 4096)

        def make():
            image = cl.Image(ctx, mf.READ_WRITE, fmt, shape=shape)
            cl.enqueue_copy(queue, image, host, origin=(0, 0), region=shape)
            return image, image

    elif kind == "svm":

        def make():
            svm = cl.SVMAllocation(ctx, nbytes, 0, cl.svm_mem_flags.READ_WRITE, queue=queue)
            cl.enqueue_copy(queue, svm, host)
            return svm, svm

    elif kind == "pipe":

        def make():
            pipe = cl.Pipe(ctx, 0, 4096, nbytes // 4096)
            return pipe, pipe

    elif kind == "pool":
        pool = MemoryPool(ImmediateAllocator(queue))
        steps = iter(range(1 << 30))

        def make():
            # Sizes that differ a little, as a program's temporaries do.
            buf = pool.allocate(nbytes - 4096 * (next(steps) % 7))
            cl.enqueue_copy(queue, buf, host[: buf.size])
            return buf, buf

    elif kind == "svm_pool":
        svm_pool = SVMPool(SVMAllocator(ctx, queue=queue))

        def make():
            svm = svm_pool.allocate(nbytes)
            cl.enqueue_copy(queue, svm, host)
            return svm, svm

    elif kind == "pinned":

        def make():
            array = pinned_empty(queue, nbytes, np.uint8)
            array[:] = 7
            return array.base, array

    elif kind == "map":
        mapped = cl.Buffer(ctx, mf.READ_WRITE, nbytes)

        def make():
            array, _ = cl.enqueue_map_buffer(queue, mapped, cl.map_flags.WRITE, 0, nbytes, np.uint8)
            array[:] = 7
            return array.base, array

    else:
        raise SystemExit("unknown kind %r" % kind)
    return make


def main(platform_index, device_index, kind, nbytes, count):
    device = cl.get_platforms()[platform_index].get_devices()[device_index]
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    make = maker(kind, ctx, queue, nbytes)
    # Warm up (first-use allocations of the driver and the interpreter) and
    # start from a clean slate.
    for _ in range(2):
        make()
    queue.finish()
    budget.collect()
    gc.collect()
    start = peak_resident()
    collections = budget.stats()["collections"]
    alive = []  # weak references to the dropped objects
    worst = 0
    for _ in range(count):
        tracked, dropped = make()
        alive.append(weakref.ref(tracked))
        del tracked, dropped
        alive = [ref for ref in alive if ref() is not None]
        worst = max(worst, len(alive) * nbytes)
    queue.finish()
    print(
        json.dumps(
            {
                "hwm_growth": peak_resident() - start,
                "max_uncollected": worst,
                "collections": budget.stats()["collections"] - collections,
            }
        )
    )


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
