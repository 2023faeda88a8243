"""Every kernel launch shape that bench/bench_kernels.py measures, on every
device that compiles kernels, against a numpy model of the kernels."""

import numpy as np
import pytest

import pycl as cl
from pycl.testing import require_kernel_compiler

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
N = 64


@pytest.fixture
def env(ctx_factory):
    require_kernel_compiler(ctx_factory.device)
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    program = cl.Program(ctx, SOURCE).build()
    start = np.arange(N, dtype=np.float32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=start)
    return ctx, queue, program, buf, start.copy()


def read(queue, buf, n=N):
    out = np.empty(n, np.float32)
    cl.enqueue_copy(queue, out, buf)
    return out


def step(model, s, n=N):
    """The model of kernel k: the first ``n`` elements halved plus ``s``, in float32."""
    model[:n] = model[:n] * np.float32(0.5) + np.float32(s)


def test_typed_call(env):
    ctx, queue, program, buf, model = env
    knl = cl.Kernel(program, "k")
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    knl(queue, (N,), None, buf, 1.0, N)
    step(model, 1.0)
    knl(queue, (N,), (16,), buf, 2.5, N // 2)  # fewer work-items than elements written
    step(model, 2.5, N // 2)
    np.testing.assert_array_equal(read(queue, buf), model)


def test_untyped_call_and_enqueue(env):
    ctx, queue, program, buf, model = env
    knl = cl.Kernel(program, "k")
    knl.set_args(buf, np.float32(-3.0), np.int32(N))
    cl.enqueue_nd_range_kernel(queue, knl, (N,), None)
    step(model, -3.0)
    # The arguments stay set: a launch without set_args repeats them.
    cl.enqueue_nd_range_kernel(queue, knl, (N,), (N,))
    step(model, -3.0)
    np.testing.assert_array_equal(read(queue, buf), model)


def test_enqueue_waits_for_its_events(env):
    ctx, queue, program, buf, model = env
    knl = cl.Kernel(program, "k")
    knl.set_args(buf, np.float32(4.0), np.int32(N))
    gate = cl.UserEvent(ctx)
    event = cl.enqueue_nd_range_kernel(queue, knl, (N,), (N,), wait_for=[gate])
    assert event.command_execution_status != cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    event.wait()
    step(model, 4.0)
    done = cl.enqueue_marker(queue)
    done.wait()
    cl.enqueue_nd_range_kernel(queue, knl, (N,), (N,), wait_for=[done]).wait()
    step(model, 4.0)
    np.testing.assert_array_equal(read(queue, buf), model)


def test_eight_arguments(env, ctx_factory):
    ctx, queue, program, buf, model = env
    b = np.linspace(-1, 1, N, dtype=np.float32)
    b_buf = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=b)
    p = np.full(N, 0.25, np.float32)
    if cl.characterize.has_coarse_grain_buffer_svm(ctx_factory.device):
        pointer = cl.SVMAllocation(ctx, p.nbytes, 0, cl.svm_mem_flags.READ_WRITE, queue)
        cl.enqueue_copy(queue, pointer, p)
    else:  # no SVM (OpenCL 1.2): a buffer in the same place
        pointer = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=p)
    knl = cl.Kernel(program, "k8")
    knl.set_scalar_arg_dtypes([None, None, np.float32, np.int32, np.int64, np.uint16, None, None])
    knl(queue, (N,), (16,), buf, b_buf, 2.0, N, 7, 3, cl.LocalMemory(4 * 16), pointer)
    expected = b * np.float32(2.0) + np.float32(10) + p
    np.testing.assert_array_equal(read(queue, buf), expected)


def test_iteration_loop(env):
    ctx, queue, program, buf, model = env
    knl = cl.Kernel(program, "k")
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    for i in range(20):
        knl(queue, (N,), None, buf, 0.125 * i, N - i)
        step(model, 0.125 * i, N - i)
    np.testing.assert_array_equal(read(queue, buf), model)


def test_launch_errors(env):
    ctx, queue, program, buf, model = env
    knl = cl.Kernel(program, "k")
    with pytest.raises(cl.LogicError, match="argument 1 is a Python float, whose size OpenCL cannot know"):
        knl.set_args(buf, 1.0, N)
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    gone = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * N)
    knl(queue, (N,), None, gone, 1.0, N)
    gone.release()
    with pytest.raises(cl.LogicError, match=r"kernel argument 0 \(<pycl.Buffer released>\) was released"):
        cl.enqueue_nd_range_kernel(queue, knl, (N,), None)
    with pytest.raises(cl.LogicError, match="local_work_size has 2 dimensions but global_work_size has 1"):
        cl.enqueue_nd_range_kernel(queue, knl, (N,), (1, 1))
    with pytest.raises(TypeError, match=r"global_size\[0\] must be an int, not float"):
        knl(queue, (64.0,), None, buf, 1.0, N)
    np.testing.assert_array_equal(read(queue, buf), model)  # nothing ran
