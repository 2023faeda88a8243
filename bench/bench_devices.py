"""Moving data between devices and contexts: pycl against PyOpenCL.

    python bench/run.py --only devices [--device SPEC] [--large-mib 1024]

Operations (``L`` = ``--large-mib``):

- copy ``L`` into a buffer of another context on the same device (the
  multi-GPU design with a context per GPU, here on one): pycl's
  ``enqueue_copy_between`` (pinned slots, both queues copying at once);
  PyOpenCL has no copy between contexts, so its row is what its users write,
  a blocking read into a numpy array and a blocking write from it;
- with two devices in the device's platform (two GPUs; PoCL with
  ``POCL_DEVICES="pthread pthread"``), on a context over both:
  ``enqueue_migrate_mem_objects`` of ``L`` to the second device and back
  (the driver's migration, both libraries); a copy of ``L`` from a buffer
  used on the first device into one used on the second (pycl:
  ``enqueue_copy_between``; PyOpenCL: ``enqueue_copy`` on the second
  device's queue, the driver's choice); and non-blocking writes of ``L`` from
  the host to each device at once (aggregate bandwidth);
- non-blocking copies followed by a wait, to another context on the same
  device and to a context on the second device (pycl's
  ``enqueue_copy_between(is_blocking=False)``; PyOpenCL's non-blocking read
  into a numpy array and write from it), and the latter while both devices
  fill another ``L`` (the bytes counted are the copy's).
"""

import threading

import harness
import numpy as np

TITLE = "Between devices and contexts"


def operations(s):
    cl, ctx, queue, large, device = s.cl, s.ctx, s.queue, s.large, s.device
    mf = cl.mem_flags
    label = harness.size_label(large)
    other_ctx = cl.Context([device])
    other_queue = cl.CommandQueue(other_ctx)
    src = cl.Buffer(ctx, mf.READ_WRITE, large)
    dst = cl.Buffer(other_ctx, mf.READ_WRITE, large)
    cl.enqueue_fill_buffer(queue, src, np.uint8(1), 0, large).wait()
    if s.is_pycl:

        def across():
            cl.enqueue_copy_between(other_queue, dst, queue, src)

    else:
        host = np.empty(large, np.uint8)

        def across():
            cl.enqueue_copy(queue, host, src)
            cl.enqueue_copy(other_queue, dst, host)

    nonblocking = _non_blocking(s, other_queue, dst, queue, src)
    ops = [
        harness.Op("copy %s to another context" % label, across, nbytes=large),
        harness.Op("copy %s to another context, non-blocking (+ wait)" % label, nonblocking, nbytes=large),
    ]
    ops.extend(_two_devices(s, label, src))
    return ops


def _non_blocking(s, dst_queue, dst, src_queue, src):
    """A non-blocking copy of ``src`` into ``dst``, then a wait: pycl's
    ``enqueue_copy_between``; PyOpenCL's users' non-blocking read into a
    numpy array and write from it."""
    cl = s.cl
    if s.is_pycl:
        return lambda: cl.enqueue_copy_between(dst_queue, dst, src_queue, src, is_blocking=False).wait()
    host = np.empty(src.size, np.uint8)

    def copy():
        read = cl.enqueue_copy(src_queue, host, src, is_blocking=False)
        read.wait()  # events do not cross contexts
        cl.enqueue_copy(dst_queue, dst, host, is_blocking=False).wait()

    return copy


def _two_devices(s, label, src):
    cl, large = s.cl, s.large
    names = (
        "migrate %s to device 1 and back" % label,
        "copy %s device 0 -> device 1" % label,
        "write %s from the host to each device at once" % label,
        "copy %s to a context on device 1" % label,
        "copy %s to a context on device 1, non-blocking (+ wait)" % label,
        "the same while both devices fill another %s (+ wait all)" % label,
    )
    devices = s.device.platform.get_devices()
    if len(devices) < 2:
        why = "needs two devices in %r (POCL_DEVICES='pthread pthread' gives PoCL two)" % s.device.platform.name
        return [harness.Op(name, skip=why) for name in names]
    ctx = cl.Context(devices[:2])
    queues = [cl.CommandQueue(ctx, d) for d in devices[:2]]
    mf = cl.mem_flags
    bufs = [cl.Buffer(ctx, mf.READ_WRITE, large) for _ in range(2)]
    for queue, buf in zip(queues, bufs):
        cl.enqueue_fill_buffer(queue, buf, np.uint8(2), 0, large).wait()

    def migrate():
        cl.enqueue_migrate_mem_objects(queues[1], [bufs[0]]).wait()
        cl.enqueue_migrate_mem_objects(queues[0], [bufs[0]]).wait()

    one = np.ones(1, np.uint8)
    # A one-byte write on device 0 first, so that device 0 holds the only
    # current copy of the source (NVIDIA keeps a migrated buffer's copy on
    # each device until one is written).
    if s.is_pycl:

        def between():
            cl.enqueue_copy(queues[0], bufs[0], one)
            cl.enqueue_copy_between(queues[1], bufs[1], queues[0], bufs[0])

    else:

        def between():
            cl.enqueue_copy(queues[0], bufs[0], one)
            cl.enqueue_copy(queues[1], bufs[1], bufs[0]).wait()

    host = np.ones(large, np.uint8)

    def both():
        # A blocking write per device, each from its own thread (both
        # libraries release the GIL while they wait).
        threads = [threading.Thread(target=cl.enqueue_copy, args=(q, b, host)) for q, b in zip(queues, bufs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    # One context per device, the usual multi-GPU design.
    ctx1 = cl.Context([devices[1]])
    queue1 = cl.CommandQueue(ctx1)
    dst1 = cl.Buffer(ctx1, mf.READ_WRITE, large)
    if s.is_pycl:

        def across():
            cl.enqueue_copy_between(queue1, dst1, s.queue, src)

    else:
        staging = np.empty(large, np.uint8)

        def across():
            cl.enqueue_copy(s.queue, staging, src)
            cl.enqueue_copy(queue1, dst1, staging)

    nonblocking = _non_blocking(s, queue1, dst1, s.queue, src)
    busy = [cl.Buffer(s.ctx, mf.READ_WRITE, large), cl.Buffer(ctx1, mf.READ_WRITE, large)]

    def alongside():
        # The copy first, then a fill on each queue.
        if s.is_pycl:
            copied = cl.enqueue_copy_between(queue1, dst1, s.queue, src, is_blocking=False)
        else:
            read = cl.enqueue_copy(s.queue, staging, src, is_blocking=False)
        fills = [cl.enqueue_fill_buffer(q, b, np.uint8(3), 0, large) for q, b in zip((s.queue, queue1), busy)]
        if s.is_pycl:
            copied.wait()
        else:
            read.wait()
            cl.enqueue_copy(queue1, dst1, staging, is_blocking=False).wait()
        for fill in fills:
            fill.wait()

    return [
        harness.Op(names[0], migrate, nbytes=2 * large),
        harness.Op(names[1], between, nbytes=large),
        harness.Op(names[2], both, nbytes=2 * large),
        harness.Op(names[3], across, nbytes=large),
        harness.Op(names[4], nonblocking, nbytes=large),
        harness.Op(names[5], alongside, nbytes=large),
    ]


if __name__ == "__main__":
    harness.main(default_only=["devices"])
