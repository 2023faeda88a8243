"""Kernel launch: pycl against PyOpenCL on the same device.

    python bench/run.py --only kernels [--pypy PATH] [--device SPEC]
    python bench/bench_kernels.py [same options]

Every operation enqueues one launch over 64 work-items and drops its event
(a batch ends with ``queue.finish()``), so the figures are the Python and
driver cost of a launch, the call programs make most:

- ``knl(queue, (64,), None, buf, 1.0, 64)`` of ``k(__global float *a, float s,
  int n)`` with ``set_scalar_arg_dtypes([None, float32, int32])``: the typed
  call (Python scalars converted per call);
- ``knl.set_args(buf, float32(1.0), int32(64))`` then
  ``enqueue_nd_range_kernel(queue, knl, (64,), None)``: the untyped call;
- ``enqueue_nd_range_kernel(queue, knl, (64,), (64,))`` with the arguments
  set before, without and with ``wait_for=[a complete event]``;
- the typed call of a kernel of 8 arguments (two buffers, float, int, long
  and ushort scalars, ``LocalMemory`` and an SVM pointer; a buffer where the
  device has no SVM);
- an iteration loop: the typed call with a new float scalar each launch.

Targets (kind "launch"): 1.25x on GPUs, 1.5x on CPU devices, where PoCL's
worker thread sleeps between launches and makes small ratios noisy. On PoCL's
CPU devices run with ``--processes``: in one process the two libraries'
launches share PoCL's worker threads and slow each other down (bench/README.md,
``--processes``).
"""

import harness
import numpy as np

TITLE = "Kernel launch"

SOURCE = """
__kernel void k(__global float *a, float s, int n)
{
    int i = get_global_id(0);
    if (i < n) a[i] = a[i] * 0.5f + s;
}

__kernel void k8(__global float *a, __global const float *b, float s, int n, long m, ushort u,
                 __local float *tmp, __global float *p)
{
    int i = get_global_id(0), l = get_local_id(0);
    tmp[l] = b[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n) a[i] = tmp[l] * s + (float)(m + u) + p[i];
}
"""

NAMES = [
    "typed call knl(queue, (64,), None, buf, 1.0, 64)",
    "untyped: set_args + enqueue_nd_range_kernel",
    "enqueue_nd_range_kernel (args set before)",
    "enqueue_nd_range_kernel with wait_for=[event]",
    "typed call, 8 arguments (buffers, scalars, local, SVM)",
    "iteration loop: typed call with a new scalar each launch",
]


def operations(s):
    cl, ctx, queue, device = s.cl, s.ctx, s.queue, s.device
    target = 1.5 if device.type & cl.device_type.CPU else 1.25
    try:
        program = cl.Program(ctx, SOURCE).build()
    except Exception as error:  # noqa: BLE001 - any build failure: the rows say why
        reason = "the device cannot build the kernels: %s" % str(error).splitlines()[0][:200]
        return [harness.Op(name, kind="launch", skip=reason) for name in NAMES]
    mf = cl.mem_flags
    n = 64
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(n, np.float32))

    typed = program.k
    typed.set_scalar_arg_dtypes([None, np.float32, np.int32])

    def typed_call():
        typed(queue, (n,), None, buf, 1.0, n)

    untyped = cl.Kernel(program, "k")

    def untyped_call():
        untyped.set_args(buf, np.float32(1.0), np.int32(n))
        cl.enqueue_nd_range_kernel(queue, untyped, (n,), None)

    preset = cl.Kernel(program, "k")
    preset.set_args(buf, np.float32(1.0), np.int32(n))

    def enqueue_only():
        cl.enqueue_nd_range_kernel(queue, preset, (n,), (n,))

    done = cl.enqueue_marker(queue)
    done.wait()
    waits = [done]

    def enqueue_waiting():
        cl.enqueue_nd_range_kernel(queue, preset, (n,), (n,), wait_for=waits)

    ops = [
        harness.Op(NAMES[0], typed_call, kind="launch", target=target),
        harness.Op(NAMES[1], untyped_call, kind="launch", target=target),
        harness.Op(NAMES[2], enqueue_only, kind="launch", target=target),
        harness.Op(NAMES[3], enqueue_waiting, kind="launch", target=target),
    ]

    b = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.ones(n, np.float32))
    try:
        has_svm = device.svm_capabilities & cl.device_svm_capabilities.COARSE_GRAIN_BUFFER
    except Exception:  # noqa: BLE001 - OpenCL 1.2 devices have no such query
        has_svm = False
    if has_svm:
        # Unbound (no queue): PyOpenCL's queue-bound SVM frees crash on PoCL 3.0.
        pointer = cl.SVMAllocation(ctx, 4 * n, 0, cl.svm_mem_flags.READ_WRITE)
        cl.enqueue_copy(queue, pointer, np.zeros(n, np.float32))
    else:
        pointer = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(n, np.float32))
    eight = program.k8
    eight.set_scalar_arg_dtypes([None, None, np.float32, np.int32, np.int64, np.uint16, None, None])
    local = cl.LocalMemory(4 * n)

    def eight_call():
        eight(queue, (n,), (n,), buf, b, 1.0, n, 7, 3, local, pointer)

    ops.append(harness.Op(NAMES[4], eight_call, kind="launch", target=target))

    step = [0.0]

    def iterate():
        step[0] += 1.0
        typed(queue, (n,), None, buf, step[0], n)

    ops.append(harness.Op(NAMES[5], iterate, kind="launch", target=target))
    queue.finish()
    return ops


if __name__ == "__main__":
    harness.main(default_only=["kernels"])
