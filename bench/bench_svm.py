"""Shared Virtual Memory: pycl against PyOpenCL on the same device.

    python bench/run.py --only svm [--pypy PATH] [--device SPEC]
    python bench/bench_svm.py [same options]

Allocations are bound to the queue on both sides, so both free in queue order
(pycl batches such frees in the shim). Except: PyOpenCL's queue-bound frees
corrupt memory on PoCL 3.0 (the pip PoCL: docs/quirks.md), so there its
queue-bound rows are skipped and its long-lived allocations are unbound; the
"(no queue)" row compares immediate frees on both sides. Rows that need SVM
are skipped on devices without it, fine-grain rows on devices without
fine-grain buffer SVM (NVIDIA).

Operations (``L`` = ``--large-mib``):

- ``SVMAllocation(ctx, 4096, 0, READ_WRITE, queue)`` + ``release()``, and the
  same without a queue (``clSVMFree`` at once);
- ``csvm_empty(ctx, 1024, float32, queue=queue)`` dropped at once (PyOpenCL
  2026.1.4's ``csvm_empty`` has no queue argument: its ``svm_empty(ctx,
  READ_WRITE, 1024, float32, queue=queue)``, the same allocation);
- ``fsvm_empty`` of 1024 float32 dropped at once (fine-grain);
- a blocking SVM->SVM ``enqueue_copy`` of ``L``;
- blocking host->SVM and SVM->host copies of ``L`` (against ``np.copyto``);
- ``enqueue_svm_memfill`` of ``L``, then ``finish()``;
- ``with alloc.map_rw(queue): pass`` of 1 MiB (map + unmap).
"""

import harness
import numpy as np

TITLE = "Shared Virtual Memory"


def operations(s):
    cl, ctx, queue, large = s.cl, s.ctx, s.queue, s.large
    coarse = s.svm_skip()
    fine = s.svm_skip(fine_grain=True)
    label = harness.size_label(large)
    names = [
        ("SVMAllocation 4 KiB create+release (queue-bound)", "object"),
        ("SVMAllocation 4 KiB create+release (no queue)", "object"),
        ("csvm_empty 1024 float32 (queue-bound), dropped", "object"),
        ("fsvm_empty 1024 float32 (queue-bound), dropped", "object"),
        ("SVM->SVM copy %s" % label, "driver"),
        ("host->SVM copy %s" % label, "driver"),
        ("SVM->host copy %s" % label, "driver"),
        ("np.copyto %s" % label, None),
        ("enqueue_svm_memfill %s (+ finish)" % label, "driver"),
        ("map_rw+unmap 1 MiB", "driver"),
    ]
    if coarse:
        return [harness.Op(name, kind=kind, skip=coarse) for name, kind in names]

    RW = cl.svm_mem_flags.READ_WRITE
    bound = s.svm_queue()  # None for PyOpenCL on PoCL 3.0
    crash = "PyOpenCL's queue-bound SVM frees corrupt memory on PoCL 3.0 (docs/quirks.md)"
    ops = []

    def alloc_bound():
        cl.SVMAllocation(ctx, 4096, 0, RW, queue).release()

    def alloc_unbound():
        cl.SVMAllocation(ctx, 4096, 0, RW, None).release()

    ops.append(harness.Op(names[0][0], alloc_bound, kind="object", skip=crash if bound is None else None))
    ops.append(harness.Op(names[1][0], alloc_unbound, kind="object"))

    if s.is_pycl:

        def csvm():
            cl.csvm_empty(ctx, 1024, np.float32, queue=queue)
    else:

        def csvm():
            cl.svm_empty(ctx, RW, 1024, np.float32, queue=queue)

    ops.append(harness.Op(names[2][0], csvm, kind="object", skip=crash if bound is None else None))

    def fsvm():
        cl.fsvm_empty(ctx, 1024, np.float32, queue=queue)

    ops.append(harness.Op(names[3][0], fsvm, kind="object", skip=fine or (crash if bound is None else None)))

    src = cl.SVMAllocation(ctx, large, 0, RW, bound)
    dst = cl.SVMAllocation(ctx, large, 0, RW, bound)
    cl.enqueue_svm_memfill(queue, src, np.uint32(7))
    host_src = np.ones(large, np.uint8)
    host_dst = np.empty(large, np.uint8)
    ops.append(harness.Op(names[4][0], lambda: cl.enqueue_copy(queue, dst, src), nbytes=large))
    ops.append(harness.Op(names[5][0], lambda: cl.enqueue_copy(queue, dst, host_src), nbytes=large, bulk=True))
    ops.append(harness.Op(names[6][0], lambda: cl.enqueue_copy(queue, host_dst, src), nbytes=large, bulk=True))
    ops.append(s.copyto())
    pattern = np.uint32(3)

    def memfill():
        cl.enqueue_svm_memfill(queue, dst, pattern)
        queue.finish()

    ops.append(harness.Op(names[8][0], memfill, nbytes=large))
    mapped = cl.SVMAllocation(ctx, 1 << 20, 0, RW, bound)

    def map_unmap():
        with mapped.map_rw(queue):
            pass

    ops.append(harness.Op(names[9][0], map_unmap))
    return ops


if __name__ == "__main__":
    harness.main(default_only=["svm"])
