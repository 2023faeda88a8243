"""Buffers and transfers: pycl against PyOpenCL on the same device.

    python bench/run.py --only buffers [--pypy PATH] [--device SPEC]
    python bench/bench_buffers.py [same options]

Operations (``L`` = ``--large-mib``, default 64 MiB):

- ``Buffer(ctx, READ_WRITE, 4096)`` + ``release()``: the cost of a memory
  object (pycl makes a Python object with ``ffi.gc``; PyOpenCL one in C++);
- ``buf[0:1024]`` + ``release()``: a sub-buffer of a 1 MiB buffer;
- 10,000 such sub-buffers made, then released in the order they were made
  (pycl destroys sub-buffers youngest first, for an NVIDIA defect: the cost
  of a release must not grow with the number of siblings alive);
- blocking writes and reads of 8 B and 4 KiB: per-call overhead, which the
  driver's latency dominates on PoCL (docs/quirks.md);
- blocking write and read of ``L`` from/to a numpy array, against
  ``np.copyto`` of ``L`` (the host's memory bandwidth);
- a rect read of a 1024x1024 float32 block out of a 2048-wide buffer, and of
  a 16x16 block (blocking: per-call overhead);
- ``enqueue_fill_buffer`` of ``L`` with a float32 pattern, then ``finish()``;
- ``enqueue_map_buffer`` of 4 KiB as a (1024,) float32 array + unmap.
"""

import harness
import numpy as np

TITLE = "Buffers and transfers"
SUB_BUFFERS = 10000


def operations(s):
    cl, ctx, queue, large = s.cl, s.ctx, s.queue, s.large
    mf = cl.mem_flags
    ops = [harness.Op("Buffer create+release", lambda: cl.Buffer(ctx, mf.READ_WRITE, 4096).release(), kind="object")]
    parent = cl.Buffer(ctx, mf.READ_WRITE, 1 << 20)
    ops.append(harness.Op("sub-buffer buf[0:1024] create+release", lambda: parent[0:1024].release(), kind="object"))

    def many_sub_buffers():
        subs = [parent[0:1024] for _ in range(SUB_BUFFERS)]
        for sub in subs:
            sub.release()  # oldest first: pycl destroys each once its younger siblings are released

    ops.append(
        harness.Op("%d sub-buffers made, then released oldest first" % SUB_BUFFERS, many_sub_buffers, kind="object")
    )
    for size in (8, 4096):
        buf = cl.Buffer(ctx, mf.READ_WRITE, size)
        host = np.zeros(size, np.uint8)
        label = harness.size_label(size)
        ops.append(
            harness.Op("write %s (blocking)" % label, lambda buf=buf, host=host: cl.enqueue_copy(queue, buf, host))
        )
        ops.append(
            harness.Op("read %s (blocking)" % label, lambda buf=buf, host=host: cl.enqueue_copy(queue, host, buf))
        )
    big = cl.Buffer(ctx, mf.READ_WRITE, large)
    src = np.ones(large, np.uint8)
    out = np.empty(large, np.uint8)
    label = harness.size_label(large)
    ops.append(
        harness.Op("write %s" % label, lambda: cl.enqueue_copy(queue, big, src), nbytes=large, bulk=True),
    )
    ops.append(harness.Op("read %s" % label, lambda: cl.enqueue_copy(queue, out, big), nbytes=large, bulk=True))
    ops.append(s.copyto())

    wide = cl.Buffer(ctx, mf.READ_WRITE, 2048 * 1024 * 4)
    block = np.empty((1024, 1024), np.float32)

    def rect():
        cl.enqueue_copy(
            queue, block, wide, buffer_origin=(4096, 0), host_origin=(0, 0), region=(4096, 1024), buffer_pitches=(8192,)
        )

    ops.append(harness.Op("rect read 1024x1024 float32", rect, nbytes=block.nbytes))
    tile = np.empty((16, 16), np.float32)

    def rect_small():
        cl.enqueue_copy(
            queue, tile, wide, buffer_origin=(4096, 0), host_origin=(0, 0), region=(64, 16), buffer_pitches=(8192,)
        )

    ops.append(harness.Op("rect read 16x16 float32 (blocking)", rect_small, nbytes=tile.nbytes))
    pattern = np.float32(1.5)

    def fill():
        cl.enqueue_fill_buffer(queue, big, pattern, 0, large)
        queue.finish()

    ops.append(harness.Op("fill %s (+ finish)" % label, fill, nbytes=large))
    small = cl.Buffer(ctx, mf.READ_WRITE, 4096)
    flags = cl.map_flags.READ | cl.map_flags.WRITE

    def map_unmap():
        array, _ = cl.enqueue_map_buffer(queue, small, flags, 0, (1024,), np.float32)
        array.base.release()

    ops.append(harness.Op("map+unmap 4 KiB", map_unmap))
    return ops


if __name__ == "__main__":
    harness.main(default_only=["buffers"])
