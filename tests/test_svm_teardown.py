"""Queue-ordered SVM frees under stress and at interpreter exit.

- Teardown: queue-bound allocations collected or released while work is still
  queued, with the queue and context dropped first, then interpreter exit with
  everything in flight; in a subprocess, repeated. PyOpenCL aborts with
  "double free or corruption" here on the pip PoCL 3.0, whose
  clEnqueueSVMFree reads the caller's pointer array late (docs/quirks.md).
- Stress: thousands of queue-bound allocations freed while earlier commands
  that use them are held back by a user event; the host writes each new
  allocation's data on another queue meanwhile, so a free that ran early would
  let a later allocation reuse the memory and change what the held-back reads
  see. The expected data comes from a numpy model.
"""

import gc
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pycl as cl
from pycl import svm as _svm
from pycl._lib import lib

RW = cl.svm_mem_flags.READ_WRITE
RUNS = int(os.environ.get("PYCL_TEARDOWN_RUNS", "10"))


def svm_device(device):
    if device.cl_version < (2, 0) or not device.svm_capabilities & cl.device_svm_capabilities.COARSE_GRAIN_BUFFER:
        pytest.skip("%s has no SVM (OpenCL %d.%d)" % ((device.name,) + device.cl_version))


def device_indices(device):
    for p, platform in enumerate(cl.get_platforms()):
        devices = platform.get_devices()
        if device in devices:
            return p, devices.index(device)
    raise AssertionError("device not found")


TEARDOWN_SCRIPT = textwrap.dedent(
    """
    import gc, sys
    import numpy as np
    import pycl as cl

    p, d = int(sys.argv[1]), int(sys.argv[2])
    device = cl.get_platforms()[p].get_devices()[d]
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    RW = cl.svm_mem_flags.READ_WRITE
    gate = cl.UserEvent(ctx)

    # 1. collected while held-back work still uses them
    for i in range(200):
        a = cl.SVMAllocation(ctx, 1 << 12, 0, RW, queue)
        cl.enqueue_svm_memfill(queue, a, np.uint32(i), wait_for=[gate] if i == 0 else None)
        del a
    # 2. released explicitly while queued
    for i in range(100):
        a = cl.SVMAllocation(ctx, 1 << 12, 0, RW, queue)
        cl.enqueue_copy(queue, a, np.full(1 << 10, i, np.uint32), is_blocking=False)
        if i % 2:
            a.release()
        else:
            a.enqueue_release()
    # 3. numpy-style arrays, kept in globals for interpreter shutdown
    keep = [cl.csvm_empty(ctx, 1 << 14, np.float32, queue=queue) for _ in range(50)]
    for ary in keep:
        cl.enqueue_svm_memfill(queue, cl.SVM(ary), np.float32(1))
    # 4. a map dropped together with its allocation
    big = cl.SVMAllocation(ctx, 1 << 24, 0, RW, queue)
    cl.enqueue_svm_memfill(queue, big, np.uint8(7))
    m = big.map_rw(queue, is_blocking=False)
    del big, m
    # The Python queue and context go before the allocations' frees run.
    queue.release()
    del queue, ctx
    gc.collect()
    gate.set_status(cl.command_execution_status.COMPLETE)
    # Heavy work still in flight at exit.
    q2 = cl.CommandQueue(gate.context)
    tail = [cl.SVMAllocation(gate.context, 1 << 24, 0, RW, q2) for _ in range(4)]
    for t in tail:
        cl.enqueue_svm_memfill(q2, t, np.uint8(1))
    print("ok", flush=True)
    """
)


def run_child(script, *args):
    env = dict(os.environ)
    env.setdefault("POCL_CACHE_DIR", os.environ.get("POCL_CACHE_DIR", "/tmp"))
    return subprocess.run(
        [sys.executable, "-c", script] + [str(a) for a in args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_teardown_with_frees_in_flight(device):
    svm_device(device)
    p, d = device_indices(device)
    failures = []
    for run in range(RUNS):
        result = run_child(TEARDOWN_SCRIPT, p, d)
        if result.returncode != 0 or "ok" not in result.stdout:
            failures.append((run, result.returncode, result.stderr[-2000:]))
    assert not failures, "%d of %d runs failed: %r" % (len(failures), RUNS, failures[:2])


def test_stress_queue_ordered_frees(ctx_factory):
    svm_device(ctx_factory.device)
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)  # held back by the gate
    writer = cl.CommandQueue(ctx)  # the host writes new allocations here meanwhile
    gate = cl.UserEvent(ctx)
    n, size = 2000, 256
    lib.pycl_svm_drain(1)
    leaked = lib.pycl_svm_leaked()
    first = cl.SVMAllocation(ctx, 1 << 20, 0, RW, queue)
    first_model = np.random.default_rng(0).integers(0, 256, 1 << 20, dtype=np.uint8)
    cl.enqueue_copy(writer, first, first_model)
    first_out = np.zeros(1 << 20, np.uint8)
    cl.enqueue_copy(queue, first_out, first, is_blocking=False, wait_for=[gate])
    del first
    outs = np.zeros((n, size // 4), np.uint32)
    pointers = set()
    for i in range(n):
        a = cl.SVMAllocation(ctx, size, 0, RW, queue)
        assert a.svm_ptr not in pointers, "allocation %d reuses memory whose free must still be pending" % i
        pointers.add(a.svm_ptr)
        cl.enqueue_copy(writer, a, np.full(size // 4, i, np.uint32))  # blocking, not held back
        cl.enqueue_copy(queue, outs[i], a, is_blocking=False)  # held back by the gate
        if i % 3 == 0:
            a.release()
        elif i % 3 == 1:
            a.enqueue_release()
        del a  # i % 3 == 2: collected
    gc.collect()
    assert _svm.pending_frees() > 0  # the frees wait behind the gate
    gate.set_status(cl.command_execution_status.COMPLETE)
    queue.finish()
    np.testing.assert_array_equal(first_out, first_model)
    np.testing.assert_array_equal(outs, np.repeat(np.arange(n, dtype=np.uint32)[:, None], size // 4, axis=1))
    assert _svm.pending_frees(wait=True) == 0
    assert lib.pycl_svm_leaked() == leaked
