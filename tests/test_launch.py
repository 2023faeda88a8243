"""Every kernel launch shape that bench/bench_kernels.py measures, on every
device that compiles kernels, against a numpy model of the kernels."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_runtime import check_event_address

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
    # A launch's event (of the remembered sizes, new ones and the typed call)
    # works out its address as every route's does.
    sizes = (N,)
    for launch in (
        lambda: cl.enqueue_nd_range_kernel(queue, knl, sizes, None),
        lambda: cl.enqueue_nd_range_kernel(queue, knl, (N, 1), None),
        lambda: knl(queue, sizes, None, buf, np.float32(4.0), np.int32(N)),
    ):
        launched = [launch(), launch()]
        cl.wait_for_events(launched)
        assert launched[0] != launched[1]
        for event in launched:
            check_event_address(event)


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


def test_typed_scalars_reach_the_kernel_after_every_change_of_its_arguments(env, ctx_factory):
    """Typed scalars, repeated or changed, reach the kernel after each way
    its arguments can change under them: undeclared bytes set in between,
    another dtype of the same size, a clone, a second kernel object of one
    function, and a renewed kernel object (an SVM pointer replaced by a
    buffer), each followed by a launch with the value the kernel held
    before."""
    ctx, queue, program, buf, model = env
    knl = cl.Kernel(program, "k")
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    for s, n in [(1.5, N), (1.5, N), (1.5, N // 2), (-2.0, N // 2), (-2.0, N)]:
        knl(queue, (N,), None, buf, s, n)
        step(model, s, n)
    cl.enqueue_nd_range_kernel(queue, knl, (N,), None)  # the arguments of the last call
    step(model, -2.0)
    np.testing.assert_array_equal(read(queue, buf), model)

    # Bytes set without a declaration in between: the kernel holds 3.0.
    knl.set_scalar_arg_dtypes([None, None, None])
    knl.set_args(buf, np.float32(3.0), np.int32(N))
    cl.enqueue_nd_range_kernel(queue, knl, (N,), None)
    step(model, 3.0)
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    knl(queue, (N,), None, buf, -2.0, N)  # the value the typed cell held before the bytes
    step(model, -2.0)
    np.testing.assert_array_equal(read(queue, buf), model)

    # n as a uint32 (4 bytes, as int32): the same bytes, then other ones.
    knl.set_scalar_arg_dtypes([None, np.float32, np.uint32])
    for s, n in [(-2.0, N), (0.5, N // 4)]:
        knl(queue, (N,), None, buf, s, n)
        step(model, s, n)
    np.testing.assert_array_equal(read(queue, buf), model)

    # A clone holds the values of its original; each then goes its own way.
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    knl(queue, (N,), None, buf, 0.25, N)
    step(model, 0.25)
    twin = knl.clone() if ctx_factory.device.cl_version >= (2, 1) else None  # clCloneKernel
    if twin is not None:
        cl.enqueue_nd_range_kernel(queue, twin, (N,), None)
        step(model, 0.25)
        twin(queue, (N,), None, buf, 4.0, N)
        step(model, 4.0)
        knl(queue, (N,), None, buf, 0.25, N)
        step(model, 0.25)
        twin(queue, (N,), None, buf, 0.25, N)  # twin held 4.0
        step(model, 0.25)
    # A second kernel object of the function holds nothing of the first's.
    other = cl.Kernel(program, "k")
    other.set_scalar_arg_dtypes([None, np.float32, np.int32])
    other(queue, (N,), None, buf, 0.25, N)
    step(model, 0.25)
    np.testing.assert_array_equal(read(queue, buf), model)

    # An SVM pointer replaced by a buffer renews the kernel object (pycl's
    # NVIDIA workaround, done on every driver): it holds no argument then.
    if cl.characterize.has_coarse_grain_buffer_svm(ctx_factory.device):
        svm = cl.SVMAllocation(ctx, 4 * N, 0, cl.svm_mem_flags.READ_WRITE, queue)
        cl.enqueue_copy(queue, svm, model)
        svm_model = model.copy()
        knl(queue, (N,), None, svm, 0.75, N)
        step(svm_model, 0.75)
        before = knl.int_ptr
        knl(queue, (N,), None, buf, 0.75, N)  # the same scalars, on the renewed kernel object
        assert knl.int_ptr != before
        step(model, 0.75)
        np.testing.assert_array_equal(read(queue, buf), model)
        out = np.empty(N, np.float32)
        cl.enqueue_copy(queue, out, svm)
        np.testing.assert_array_equal(out, svm_model)


SHAPE_SOURCE = """
__kernel void shape(__global int *global_sizes, __global int *local_sizes, int tag)
{
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    global_sizes[i] = (int)(get_global_size(0) * get_global_size(1)) * 100 + tag;
    local_sizes[i] = (int)(get_local_size(0) * 16 + get_local_size(1));
}
"""


def test_sizes_repeated_by_object_or_by_value(env):
    """A launch remembers the size objects of the last one (pycl._launch):
    the same objects, equal new ones and different ones, with and without
    an offset or g_times_l, each run exactly the work-items and groups
    asked for."""
    ctx, queue, _, _, _ = env
    knl = cl.Kernel(cl.Program(ctx, SHAPE_SOURCE).build(), "shape")
    knl.set_scalar_arg_dtypes([None, None, np.int32])
    mf = cl.mem_flags
    sizes_buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    groups_buf = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
    sizes_model = np.full(N, -1, np.int32)
    groups_model = np.full(N, -1, np.int32)
    cl.enqueue_fill_buffer(queue, sizes_buf, np.int32(-1), 0, 4 * N)
    cl.enqueue_fill_buffer(queue, groups_buf, np.int32(-1), 0, 4 * N)
    whole, half, group = (N,), (N // 2,), (8,)
    plane, tile = (N // 8, 8), (4, 2)
    calls = [  # global size, local size, keywords, first work-item, work-items
        (whole, None, {}, 0, N),
        (whole, None, {}, 0, N),  # the same objects
        (half, None, {}, 0, N // 2),
        (whole, group, {}, 0, N),
        (whole, (16,), {}, 0, N),  # the same global size, another local size
        (whole, (16,), {}, 0, N),
        (tuple([N // 4]), group, {}, 0, N // 4),  # equal values, new objects
        (half, group, {}, 0, N // 2),
        (half, group, {"offset": (8,)}, 8, N // 2),  # the same objects, with an offset
        (group, group, {}, 0, 8),
        (group, group, {"g_times_l": True}, 0, N),  # the same objects, times the local size
        (whole, 32, {}, 0, N),
        (plane, tile, {}, 0, N),
        (plane, tile, {}, 0, N),
        (plane, (2, 4), {}, 0, N),
        (whole, None, {}, 0, N),
    ]
    tag = 0
    for global_size, local_size, extra, first, items in calls:
        for form in ("call", "enqueue"):
            tag += 1
            if form == "call":
                keywords = {("global_offset" if k == "offset" else k): v for k, v in extra.items()}
                knl(queue, global_size, local_size, sizes_buf, groups_buf, tag, **keywords)
            else:
                keywords = {("global_work_offset" if k == "offset" else k): v for k, v in extra.items()}
                knl.set_args(sizes_buf, groups_buf, np.int32(tag))
                cl.enqueue_nd_range_kernel(queue, knl, global_size, local_size, **keywords)
            sizes_model[first : first + items] = items * 100 + tag
            got_sizes, got_groups = np.empty(N, np.int32), np.empty(N, np.int32)
            cl.enqueue_copy(queue, got_sizes, sizes_buf)
            cl.enqueue_copy(queue, got_groups, groups_buf)
            np.testing.assert_array_equal(got_sizes, sizes_model, err_msg="%s %d" % (form, tag))
            if local_size is not None:
                local = (local_size, 1) if type(local_size) is int else tuple(local_size) + (1,)
                groups_model[first : first + items] = local[0] * 16 + local[1]
                np.testing.assert_array_equal(got_groups, groups_model, err_msg="%s %d" % (form, tag))
            else:  # the driver chooses
                groups_model[first : first + items] = got_groups[first : first + items]
    with pytest.raises(TypeError, match=r"global_size\[0\] must be an int, not float"):
        knl(queue, (64.0,), None, sizes_buf, groups_buf, 0)  # equal to an earlier (64,), but refused
    with pytest.raises(cl.LogicError, match="local_work_size has 2 dimensions but global_work_size has 1"):
        cl.enqueue_nd_range_kernel(queue, knl, whole, (1, 1))


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
    with pytest.raises(cl.LogicError, match="g_times_l needs a local_size"):
        knl(queue, (N,), None, buf, 1.0, N, g_times_l=True)
    with pytest.raises(cl.LogicError, match="g_times_l needs a local_work_size"):
        cl.enqueue_nd_range_kernel(queue, knl, (N,), None, g_times_l=True)
    np.testing.assert_array_equal(read(queue, buf), model)  # nothing ran


def test_wrong_argument_counts(env):
    """PyOpenCL's generated invokers take exactly the kernel's arguments;
    so does pycl, with a TypeError that names the kernel and both counts."""
    ctx, queue, program, buf, model = env
    knl = cl.Kernel(program, "k")
    with pytest.raises(TypeError, match=r"Kernel.set_scalar_arg_dtypes: kernel 'k' takes 3 arguments, got 2 dtypes"):
        knl.set_scalar_arg_dtypes([None, np.float32])
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    knl(queue, (N,), None, buf, 1.0, N)
    step(model, 1.0)
    with pytest.raises(TypeError, match=r"Kernel.__call__: kernel 'k' takes 3 arguments, got 2"):
        knl(queue, (N,), None, buf, 1.0)
    with pytest.raises(TypeError, match=r"Kernel.__call__: kernel 'k' takes 3 arguments, got 4"):
        knl(queue, (N,), None, buf, 1.0, N, N)
    with pytest.raises(TypeError, match=r"Kernel.set_args: kernel 'k' takes 3 arguments, got 0"):
        knl.set_args()
    with pytest.raises(
        cl.LogicError,
        match=r"Kernel.set_arg failed: CL_INVALID_ARG_INDEX - index = 3 exceeds the limit of 2: kernel 'k' takes 3",
    ):
        knl.set_arg(3, np.int32(1))
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'global_ofset'"):
        knl(queue, (N,), None, buf, 1.0, N, global_ofset=(1,))
    np.testing.assert_array_equal(read(queue, buf), model)  # nothing ran


def test_buffer_of_another_context_is_refused(env):
    ctx, queue, program, buf, model = env
    other_ctx = cl.Context(ctx.devices)
    other = cl.Buffer(other_ctx, cl.mem_flags.READ_WRITE, 4 * N)
    knl = cl.Kernel(program, "k")
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    pattern = r"argument 0 \(<pycl.Buffer of 256 bytes at 0x[0-9a-f]+>\) belongs to another context than the kernel"
    with pytest.raises(cl.LogicError, match="Kernel.__call__ failed: CL_INVALID_CONTEXT - " + pattern) as info:
        knl(queue, (N,), None, other, 1.0, N)
    assert info.value.code == cl.status_code.INVALID_CONTEXT
    with pytest.raises(cl.LogicError, match="Kernel.set_arg failed: CL_INVALID_CONTEXT - " + pattern):
        knl.set_arg(0, other)
    with pytest.raises(cl.LogicError, match="Kernel.set_args failed: CL_INVALID_CONTEXT - " + pattern):
        knl.set_args(other, np.float32(1), np.int32(N))
    # With a buffer in the cell, the next memory object takes a shorter way
    # (KernelArgs.put), which checks the context too.
    knl.set_arg(0, buf)
    with pytest.raises(cl.LogicError, match="Kernel.set_arg failed: CL_INVALID_CONTEXT - " + pattern):
        knl.set_arg(0, other)
    with pytest.raises(cl.LogicError, match="Kernel.__call__ failed: CL_INVALID_CONTEXT - " + pattern):
        knl(queue, (N,), None, other, 1.0, N)
    np.testing.assert_array_equal(read(queue, buf), model)  # nothing ran


def test_declared_scalars_are_checked(env):
    """A declared dtype takes what struct.pack takes (PyOpenCL's rules):
    numpy's silent truncation and wrap-around are errors naming the
    argument, and a refused call sets and launches nothing."""
    ctx, queue, program, buf, model = env
    knl = cl.Kernel(program, "k")
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    cases = [
        (TypeError, r"argument 2 must be an int \(dtype int32\), not float", (1.0, 2.5)),
        (TypeError, r"argument 2 must be an int \(dtype int32\), not float64", (1.0, np.float64(3))),
        (TypeError, r"argument 2 must be an int \(dtype int32\), not (numpy\.)?bool", (1.0, np.True_)),
        (TypeError, r"argument 2 must be an int \(dtype int32\), not str", (1.0, "64")),
        (cl.LogicError, r"argument 2 = 2147483648 exceeds the limit of 2147483647 \(dtype int32\)", (1.0, 2**31)),
        (cl.LogicError, r"argument 2 = -2147483649 is below the limit of -2147483648", (1.0, -(2**31) - 1)),
        (cl.LogicError, r"argument 2 = 9223372036854775808 exceeds the limit", (1.0, np.uint64(2**63))),
        (TypeError, r"argument 1 must be a real number \(dtype float32\), not NoneType", (None, N)),
        (TypeError, r"argument 1 must be a real number \(dtype float32\), not str", ("1.0", N)),
        (TypeError, r"argument 1 must be a real number \(dtype float32\), not complex", (1j, N)),
    ]
    for error, pattern, (s, n) in cases:
        said = ": " if error is TypeError else " failed: CL_INVALID_VALUE - "  # pycl.LogicError's form
        with pytest.raises(error, match="Kernel.__call__" + said + pattern):
            knl(queue, (N,), None, buf, s, n)
        with pytest.raises(error, match="Kernel.set_args" + said + pattern):
            knl.set_args(buf, s, n)
    np.testing.assert_array_equal(read(queue, buf), model)  # nothing ran
    # What converts: numpy scalars, bools and 0-d arrays of the right kind.
    for s, n in [(np.float32(0.5), np.int64(N)), (np.float64(2), np.array(N // 2)), (True, N), (3, np.uint8(N))]:
        knl(queue, (N,), None, buf, s, n)
        step(model, float(s), int(n))
    np.testing.assert_array_equal(read(queue, buf), model)


SCALARS = """
__kernel void scalars(__global long *ints, __global float *reals, char a, uchar b, short c, ushort d, int e,
                      uint f, long g, ulong h, float x, ushort bits, float2 z)
{
    if (get_global_id(0)) return;
    ints[0] = a; ints[1] = b; ints[2] = c; ints[3] = d; ints[4] = e; ints[5] = f; ints[6] = g;
    ints[7] = (long)h; ints[8] = bits;
    reals[0] = x; reals[1] = z.x; reals[2] = z.y;
}
"""
SCALAR_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


@pytest.fixture
def scalars_kernel(ctx_factory):
    require_kernel_compiler(ctx_factory.device)
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    knl = cl.Kernel(cl.Program(ctx, SCALARS).build(), "scalars")
    # float16 for the ushort and complex64 for the float2: numpy's bytes
    knl.set_scalar_arg_dtypes([None, None, *SCALAR_DTYPES, np.float32, np.float16, np.complex64])
    ints = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 8 * 9)
    reals = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 3)
    return queue, knl, ints, reals


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_declared_scalars_reach_the_kernel(scalars_kernel, data):
    """Every integer dtype at and past its limits, floats, float16 and
    complex64: in range, the kernel sees the value numpy gives; out of
    range, the call names the argument and its limit."""
    queue, knl, ints, reals = scalars_kernel
    values = []
    for dtype in SCALAR_DTYPES:
        info = np.iinfo(dtype)
        values.append(
            data.draw(st.integers(int(info.min) - 2, int(info.max) + 2) | st.sampled_from([info.min, info.max]))
        )
    x = data.draw(st.floats(width=32, allow_nan=False))
    half = data.draw(st.floats(width=16, allow_nan=False))
    z = complex(*data.draw(st.tuples(st.floats(width=32, allow_nan=False), st.floats(width=32, allow_nan=False))))
    bad = [i for i, (v, d) in enumerate(zip(values, SCALAR_DTYPES)) if not np.iinfo(d).min <= v <= np.iinfo(d).max]
    args = (ints, reals, *values, x, half, z)
    if bad:
        index = bad[0] + 2
        dtype = np.dtype(SCALAR_DTYPES[bad[0]])
        v = values[bad[0]]
        text = "is negative" if v < 0 and dtype.kind == "u" else "is below the limit" if v < 0 else "exceeds the limit"
        with pytest.raises(
            cl.LogicError, match=r"Kernel.__call__ failed: CL_INVALID_VALUE - argument %d = %d %s" % (index, v, text)
        ):
            knl(queue, (1,), None, *args)
        return
    knl(queue, (1,), None, *args)
    got_ints = np.empty(9, np.int64)
    got_reals = np.empty(3, np.float32)
    cl.enqueue_copy(queue, got_ints, ints)
    cl.enqueue_copy(queue, got_reals, reals)
    expected = [
        np.array(v, d).astype(np.int64) if d != np.uint64 else np.uint64(v).view(np.int64)
        for v, d in zip(values, SCALAR_DTYPES)
    ]
    expected.append(np.float16(half).view(np.uint16))
    np.testing.assert_array_equal(got_ints, np.array(expected, np.int64))
    np.testing.assert_array_equal(got_reals, np.array([x, z.real, z.imag], np.float32))


def test_changed_arguments_reach_the_kernel(env):
    """Cells are set again only where they changed: a new buffer, bytes
    changed in place and LocalMemory all reach the kernel, and a released
    argument is refused whichever way the launch comes."""
    ctx, queue, program, buf, model = env
    knl = cl.Kernel(program, "k")
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    other_model = np.zeros(N, np.float32)
    other = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=other_model)
    for target, target_model in [(buf, model), (other, other_model), (buf, model), (buf, model)]:
        knl(queue, (N,), None, target, 1.5, N)
        step(target_model, 1.5)
    np.testing.assert_array_equal(read(queue, buf), model)
    np.testing.assert_array_equal(read(queue, other), other_model)
    # Undeclared: bytes changed in place between two calls with the same object
    untyped = cl.Kernel(program, "k")
    scalar = bytearray(np.float32(2.0).tobytes())
    untyped.set_args(other, scalar, np.int32(N))
    cl.enqueue_nd_range_kernel(queue, untyped, (N,), None)
    step(other_model, 2.0)
    scalar[:] = np.float32(-1.0).tobytes()
    untyped.set_args(other, scalar, np.int32(N))
    cl.enqueue_nd_range_kernel(queue, untyped, (N,), None)
    step(other_model, -1.0)
    np.testing.assert_array_equal(read(queue, other), other_model)
    # A released argument: passed again, or left set from before
    other.release()
    with pytest.raises(
        cl.LogicError, match=r"Kernel.__call__ failed: CL_INVALID_MEM_OBJECT - Buffer at 0x[0-9a-f]+ was released"
    ):
        knl(queue, (N,), None, other, 1.0, N)
    with pytest.raises(cl.LogicError, match=r"kernel argument 0 \(<pycl.Buffer released>\) was released"):
        cl.enqueue_nd_range_kernel(queue, untyped, (N,), None)
    knl(queue, (N,), None, buf, 1.0, N)  # the kernel recovers with a live one
    step(model, 1.0)
    np.testing.assert_array_equal(read(queue, buf), model)


def _pooled(ctx, queue):
    pool = cl.tools.MemoryPool(cl.tools.ImmediateAllocator(queue))
    return pool.allocate(4 * N), pool


@pytest.mark.parametrize("kind", ["buffer", "sub-buffer", "pooled", "svm", "svm tag"])
def test_released_argument_is_refused(env, kind):
    """Every kind of memory argument a kernel keeps: released after it was
    set, the next launch is refused (the driver would get a dangling handle)."""
    ctx, queue, program, buf, model = env
    keep = None
    if kind.startswith("svm"):
        if not cl.characterize.has_coarse_grain_buffer_svm(ctx.devices[0]):
            pytest.skip("the device has no coarse-grain SVM")
        alloc = cl.SVMAllocation(ctx, 4 * N, 0, cl.svm_mem_flags.READ_WRITE)
        arg, gone = (alloc, alloc) if kind == "svm" else (cl.SVM(alloc.buf), alloc)
    elif kind == "pooled":
        arg, keep = _pooled(ctx, queue)
        gone = arg
    elif kind == "sub-buffer":
        arg = gone = buf.get_sub_region(0, 4 * N)
    else:
        arg = gone = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * N)
    knl = cl.Kernel(program, "k")
    knl.set_args(arg, np.float32(1), np.int32(N))
    cl.enqueue_nd_range_kernel(queue, knl, (N,), None).wait()
    gone.release()
    with pytest.raises(cl.LogicError, match=r"kernel argument 0 \(.*\) was released"):
        cl.enqueue_nd_range_kernel(queue, knl, (N,), None)
    with pytest.raises(cl.LogicError, match="released"):
        knl.set_args(arg, np.float32(1), np.int32(N))
    with pytest.raises(cl.LogicError, match="released"):
        knl.set_arg(0, arg)  # the object the cell holds: set_arg's shortcut for it must not pass it
    del keep


def test_set_arg_again_and_changed(env):
    """``set_arg`` of the object the cell already holds sets nothing new;
    a changed object, and the first one again, reach the kernel."""
    ctx, queue, program, buf, model = env
    other_model = np.zeros(N, np.float32)
    other = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=other_model)
    knl = cl.Kernel(program, "k")
    knl.set_args(buf, np.float32(0.5), np.int32(N))
    for target, target_model in [(buf, model), (buf, model), (other, other_model), (other, other_model), (buf, model)]:
        knl.set_arg(0, target)
        knl.set_arg(0, target)
        cl.enqueue_nd_range_kernel(queue, knl, (N,), None)
        step(target_model, 0.5)
    np.testing.assert_array_equal(read(queue, buf), model)
    np.testing.assert_array_equal(read(queue, other), other_model)


def test_wait_lists_of_every_length(env):
    """Wait lists from none to past the kernel's own cells (WAIT_CELLS), of
    every kind of pycl event, as lists and tuples: the launch waits for each;
    a released event or an object that is no event among them is refused by
    name."""
    from pycl._kernel_args import WAIT_CELLS

    ctx, queue, program, buf, model = env
    knl = cl.Kernel(program, "k")
    knl.set_args(buf, np.float32(1.0), np.int32(N))
    host = np.zeros(4, np.float32)
    other = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    for length in [*range(0, 11), WAIT_CELLS, WAIT_CELLS + 1]:
        gates = [cl.UserEvent(ctx) for _ in range(length)]
        # the events of copies (NannyEvent) and of markers count as well
        waits = [*gates, cl.enqueue_copy(queue, other, host, is_blocking=False), cl.enqueue_marker(queue)][:length]
        gates = [g for g in gates if g in waits]
        # lists, and tuples (the odd lengths)
        event = cl.enqueue_nd_range_kernel(queue, knl, (N,), None, wait_for=tuple(waits) if length % 2 else waits)
        if gates:
            assert event.command_execution_status != cl.command_execution_status.COMPLETE
            for gate in gates:
                gate.set_status(cl.command_execution_status.COMPLETE)
        event.wait()
        step(model, 1.0)
    np.testing.assert_array_equal(read(queue, buf), model)
    done = cl.enqueue_marker(queue)
    gone = cl.enqueue_marker(queue)
    gone.wait()
    gone.release()
    for waits in ([gone], (done, gone), [done] * 9 + [gone], [done] * WAIT_CELLS + [gone]):
        with pytest.raises(cl.LogicError, match="Event at 0x[0-9a-f]+ was released"):
            cl.enqueue_nd_range_kernel(queue, knl, (N,), None, wait_for=waits)
    for waits in ([done, buf], [done] * 9 + [buf], [done] * WAIT_CELLS + [buf]):
        with pytest.raises(TypeError, match="wait_for must be a sequence of pycl.Event"):
            cl.enqueue_nd_range_kernel(queue, knl, (N,), None, wait_for=waits)
        with pytest.raises(TypeError, match="wait_for must be a sequence of pycl.Event"):
            cl.enqueue_nd_range_kernel(queue, knl, (N,), None, wait_for=iter(waits))  # read once
    # an iterator of events is waited for (read once, as a list would be)
    gate = cl.UserEvent(ctx)
    event = cl.enqueue_nd_range_kernel(queue, knl, (N,), None, wait_for=(e for e in [done, gate]))
    assert event.command_execution_status != cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    event.wait()
    step(model, 1.0)
    np.testing.assert_array_equal(read(queue, buf), model)


def run_child(device, script, *args):
    """``script`` run by this interpreter in a child process, with the
    platform and device index of ``device`` and ``args`` as its arguments:
    a crash there fails the test instead of ending the run."""
    import subprocess
    import sys

    platforms = cl.get_platforms()
    p = platforms.index(device.platform)
    d = platforms[p].get_devices().index(device)
    return subprocess.run(
        [sys.executable, "-c", script, str(p), str(d), *args], capture_output=True, text=True, timeout=300
    )


_THREADS = """
import sys, threading
import numpy as np
import pycl as cl

p, d = int(sys.argv[1]), int(sys.argv[2])
ctx = cl.Context([cl.get_platforms()[p].get_devices()[d]])
knl = cl.Kernel(cl.Program(ctx, sys.argv[3]).build(), "k")
knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
n, workers, launches = 64, 4, 150
buffers = [cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * n) for _ in range(workers)]
queues = [cl.CommandQueue(ctx) for _ in range(workers)]
for q, b in zip(queues, buffers):
    cl.enqueue_fill_buffer(q, b, np.float32(0), 0, 4 * n).wait()
errors = []

def work(i):
    try:
        for j in range(launches):
            if j % 2:  # the fast path, then the general one (an int size, an offset)
                knl(queues[i], (n,), None, buffers[i], float(i), n)
            else:
                knl(queues[i], n, None, buffers[i], np.float32(i), np.int32(n), global_offset=(0,))
        queues[i].finish()
    except Exception as error:
        errors.append(repr(error))

threads = [threading.Thread(target=work, args=(i,)) for i in range(workers)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert not errors, errors
for i in range(workers):
    expected = np.zeros(n, np.float32)
    for _ in range(launches):
        expected = expected * np.float32(0.5) + np.float32(i)
    got = np.empty(n, np.float32)
    cl.enqueue_copy(queues[i], got, buffers[i])
    assert np.array_equal(got, expected), (i, got[:4], expected[:4])
print("done")
"""


def test_threads_take_turns_on_one_kernel(ctx_factory):
    """Threads that launch one kernel object, each with its own buffer,
    scalar and queue, get their own results: each call's setting of
    arguments and its launch is one step (the C calls run without the GIL;
    without the turns, another thread's arguments replaced the cells under a
    running launch and the process crashed). In a child process, so that a
    crash is a failure. (set_args then enqueue_nd_range_kernel are two
    steps: another thread's arguments may come between them, as in OpenCL.)"""
    device = ctx_factory.device
    require_kernel_compiler(device)
    if "Oclgrind" in device.platform.version:
        pytest.skip("Oclgrind 21.10 crashes under launches from several threads, with PyOpenCL too (docs/quirks.md)")
    run = run_child(device, _THREADS, SOURCE)
    assert run.returncode == 0 and run.stdout.endswith("done\n"), (run.returncode, run.stdout, run.stderr[-2000:])


def test_declared_vector_argument(ctx_factory):
    """A cltypes vector dtype takes a value of the dtype, a tuple or its
    bytes (PyOpenCL takes bytes-like values for structured dtypes)."""
    require_kernel_compiler(ctx_factory.device)
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    source = "__kernel void v4(__global float *o, float4 v) { o[0] = v.x; o[1] = v.y; o[2] = v.z; o[3] = v.w; }"
    knl = cl.Kernel(cl.Program(ctx, source).build(), "v4")
    knl.set_scalar_arg_dtypes([None, cl.cltypes.float4])
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    expected = np.array([1.5, -2, 3, 4.25], np.float32)
    for value in (cl.cltypes.make_float4(*expected), tuple(expected), expected.tobytes()):
        cl.enqueue_fill_buffer(queue, out, np.float32(0), 0, 16)
        knl(queue, (1,), None, out, value)
        np.testing.assert_array_equal(read(queue, out, 4), expected)
    with pytest.raises(cl.LogicError, match="argument 1 has 8 bytes, dtype .* has 16"):
        knl(queue, (1,), None, out, expected[:2].tobytes())


def test_dropped_kernel_frees_its_arguments_at_once(env):
    """A kernel's argument cells and its fill function hold no reference
    cycle: on CPython a dropped kernel frees the buffer it held at once."""
    import platform
    import weakref

    if platform.python_implementation() != "CPython":
        pytest.skip("only CPython frees by reference count")
    ctx, queue, program, buf, model = env
    knl = cl.Kernel(program, "k")
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    scratch = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * N)
    for _ in range(3):  # the second call installs the kernel's own fill function
        knl(queue, (N,), None, scratch, 1.0, N).wait()
    gone = weakref.ref(scratch)
    del scratch, knl
    assert gone() is None


def test_declaring_again_after_calls(env):
    """set_scalar_arg_dtypes after calls: the next calls use the new
    declaration (the kernel's fill function is made anew)."""
    ctx, queue, program, buf, model = env
    knl = cl.Kernel(program, "k")
    knl.set_scalar_arg_dtypes([None, np.float32, np.int32])
    for _ in range(3):
        knl(queue, (N,), None, buf, 1.0, N)
        step(model, 1.0)
    knl.set_scalar_arg_dtypes([None, np.float32, None])
    with pytest.raises(cl.LogicError, match="argument 2 is a Python int"):
        knl(queue, (N,), None, buf, 1.0, N)
    for _ in range(3):
        knl(queue, (N,), None, buf, 2.0, np.int32(N // 2))
        step(model, 2.0, N // 2)
    knl.set_scalar_arg_dtypes([None, np.float64, np.int32])  # 8 bytes where the kernel takes 4
    with pytest.raises(
        cl.LogicError, match=r"clSetKernelArg failed: CL_INVALID_ARG_SIZE - argument 1 \(dtype float64\)"
    ):
        knl(queue, (N,), None, buf, 1.0, N)
    np.testing.assert_array_equal(read(queue, buf), model)


def test_every_refusal_of_a_declared_or_plain_argument(scalars_kernel, env):
    """The refusals test_declared_scalars_are_checked does not reach: each
    integer dtype just past both ends, and the numpy-converted dtypes
    (complex, bool, a cltypes vector); an object that is no argument at all
    on a kernel's first call; LocalMemory(0)."""
    queue, knl, ints, reals = scalars_kernel
    values = [0] * len(SCALAR_DTYPES)
    base = (ints, reals, *values, 1.0, 0.5, 1j)
    for i, dtype in enumerate(SCALAR_DTYPES):
        info = np.iinfo(dtype)
        for value, text in [(int(info.min) - 1, "below"), (int(info.max) + 1, "above")]:
            args = list(base)
            args[2 + i] = value
            if text == "above":
                said = "exceeds the limit of %d" % info.max
            elif info.min == 0:
                said = "is negative"
            else:
                said = "is below the limit of %d" % info.min
            pattern = r"argument %d = %d %s \(dtype %s\)" % (2 + i, value, said, np.dtype(dtype))
            with pytest.raises(cl.LogicError, match=pattern):
                knl(queue, (1,), None, *args)
    with pytest.raises(TypeError, match=r"Kernel.__call__: argument 12 must be a number \(dtype complex64\), not str"):
        knl(queue, (1,), None, *base[:-1], "1j")
    knl.set_scalar_arg_dtypes([None, None, *SCALAR_DTYPES[:1], np.bool_, *SCALAR_DTYPES[2:], np.float32, None, None])
    with pytest.raises(TypeError, match=r"argument 3 must be a scalar \(dtype bool\), not list"):
        knl(queue, (1,), None, ints, reals, 0, [1, 2], *values[2:], 1.0, np.uint16(0), np.zeros(2, np.float32))
    ctx, queue, program, buf, model = env
    source = "__kernel void v4(__global float *o, float4 v) { o[0] = v.x; }"
    v4 = cl.Kernel(cl.Program(ctx, source).build(), "v4")
    v4.set_scalar_arg_dtypes([None, cl.cltypes.float4])
    with pytest.raises(TypeError, match=r"argument 1 must be a value or the bytes \(dtype .*\), not float"):
        v4(queue, (1,), None, buf, 1.5)
    with pytest.raises(TypeError, match=r"argument 1 \(tuple\) does not convert to dtype"):
        v4(queue, (1,), None, buf, (1.0, 2.0))
    fresh = cl.Kernel(program, "k")
    with pytest.raises(TypeError, match=r"Kernel.__call__: argument 0 of type object is not a memory object"):
        fresh(queue, (N,), None, object(), np.float32(1), np.int32(N))
    with pytest.raises(cl.LogicError, match="size = 0: local memory arguments need at least one byte"):
        cl.LocalMemory(0)
    np.testing.assert_array_equal(read(queue, buf), model)  # nothing ran


_ZERO_LOCAL = """
import sys
import numpy as np
import pycl as cl

p, d = int(sys.argv[1]), int(sys.argv[2])
ctx = cl.Context([cl.get_platforms()[p].get_devices()[d]])
queue = cl.CommandQueue(ctx)
knl = cl.Kernel(cl.Program(ctx, sys.argv[3]).build(), "shape")
knl.set_scalar_arg_dtypes([None, None, np.int32])
n = 64
sizes = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * n)
groups = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * n)
cl.enqueue_fill_buffer(queue, sizes, np.int32(-1), 0, 4 * n)
one, plane, cube = (n,), (n // 8, 8), (n // 8, 4, 2)
refused = 0
for global_size, local_size in [
    (one, (0,)), (one, 0), (n, 0), (plane, (0, 4)), (plane, (4, 0)), (cube, (2, 2, 0)), (cube, (0, 1, 1)),
]:
    for form in ("call", "enqueue"):
        # A valid launch (tag 1) first: a refused one that ran would leave tag 2.
        ok_local = None if type(local_size) is int else tuple(1 for _ in local_size)
        knl(queue, global_size, ok_local, sizes, groups, 1)
        try:
            if form == "call":
                knl(queue, global_size, local_size, sizes, groups, 2)
            else:
                knl.set_args(sizes, groups, np.int32(2))
                cl.enqueue_nd_range_kernel(queue, knl, global_size, local_size)
        except cl.LogicError as error:
            name = "local_size" if form == "call" else "local_work_size"
            assert "%s = %r has an entry of 0" % (name, tuple(local_size) if type(local_size) is tuple
                                                  else (local_size,)) in str(error), str(error)
            assert error.code == cl.status_code.INVALID_WORK_GROUP_SIZE
            refused += 1
        got = np.empty(n, np.int32)
        cl.enqueue_copy(queue, got, sizes)
        assert (got % 100 == 1).all(), got  # the valid launch ran, the refused one (tag 2) did not
print("refused", refused)
"""


def test_a_local_size_with_a_zero_is_refused(ctx_factory):
    """A 0 in any entry of a local size is a LogicError naming it, from the
    typed call and from enqueue_nd_range_kernel, the fast path included:
    drivers do not refuse it (Debian's PoCL 3.1 spins forever or dies of
    SIGSEGV, Oclgrind of SIGFPE). In a child process, so that a crash is a
    failure, with a timeout for the spin."""
    device = ctx_factory.device
    require_kernel_compiler(device)
    run = run_child(device, _ZERO_LOCAL, SHAPE_SOURCE)
    assert run.returncode == 0 and run.stdout.endswith("refused 14\n"), (run.returncode, run.stdout, run.stderr[-2000:])


_KINDS = """
import sys
import numpy as np
import pycl as cl

p, d = int(sys.argv[1]), int(sys.argv[2])
device = cl.get_platforms()[p].get_devices()[d]
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
source = '''
__kernel void k(__global float *a, __local float *tmp, float s, __constant float *c, int n)
{
    size_t i = get_global_id(0);
    tmp[get_local_id(0)] = s + c[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n) a[i] = tmp[get_local_id(0)];
}
__kernel void two(__global float *a, __local float *x, __local float *y) { a[0] = 1.0f; }
'''
program = cl.Program(ctx, source).build()
n = 16
a = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * n)
c = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.array([2.0], np.float32))
sampler = cl.Sampler(ctx, False, cl.addressing_mode.NONE, cl.filter_mode.NEAREST) if device.image_support else None
knl = cl.Kernel(program, "k")
good = [a, cl.LocalMemory(4 * n), np.float32(1.5), c, np.int32(n)]
refused = 0

def expect_refusal(index, value, space, how):
    global refused
    args = list(good)
    args[index] = value
    try:
        if how == "set_arg":
            knl.set_arg(index, value)
        elif how == "set_args":
            knl.set_args(*args)
        else:
            knl(queue, (n,), (n,), *args)
    except cl.LogicError as error:
        text = str(error)
        assert "argument %d of kernel 'k' is a %s pointer" % (index, space) in text, text
        assert text.endswith("not a value of type %s" % type(value).__name__), text
        assert error.code == cl.status_code.INVALID_ARG_VALUE, error.code
        refused += 1
    else:
        raise AssertionError("not refused: %r for argument %d (%s)" % (value, index, how))

wrong_for_global = [np.int64(12345), np.uint64(0), b"12345678", np.float64(1.0), cl.LocalMemory(8)]
if sampler is not None:
    wrong_for_global.append(sampler)
for how in ("set_arg", "set_args", "call"):
    for value in wrong_for_global:
        expect_refusal(0, value, "__global or __constant", how)
        expect_refusal(3, value, "__global or __constant", how)
    for value in (a, np.float32(1.0), b"1234", None):
        expect_refusal(1, value, "__local", how)
# A dtype declared for a pointer is refused before any change.
knl.set_scalar_arg_dtypes([None, None, np.float32, None, np.int32])
try:
    knl.set_scalar_arg_dtypes([np.int64, None, np.float32, None, np.int32])
except cl.LogicError as error:
    assert "argument 0 of kernel 'k' is a __global or __constant pointer: it takes a memory object" in str(error)
    assert str(error).endswith("not a declared dtype (int64)"), str(error)
    refused += 1
# What the kernel takes still runs, and computes what numpy says.
knl(queue, (n,), (n,), a, cl.LocalMemory(4 * n), 1.5, c, n)
out = np.empty(n, np.float32)
cl.enqueue_copy(queue, out, a)
assert (out == np.float32(1.5) + np.float32(2.0)).all(), out
# Local memory past the device's is refused, alone or with another argument;
# half of it runs (NVIDIA refuses the whole of it: the driver keeps some).
limit = device.local_mem_size
two = cl.Kernel(program, "two")
for sizes in ((limit + 1, 4), (2**40, 4), (limit // 2 + 4, limit // 2)):
    try:
        two(queue, (1,), None, a, cl.LocalMemory(sizes[0]), cl.LocalMemory(sizes[1]))
    except cl.LogicError as error:
        assert "past the %d bytes of local memory" % limit in str(error), str(error)
        assert error.code == cl.status_code.INVALID_ARG_SIZE
        refused += 1
    else:
        raise AssertionError("not refused: %r" % (sizes,))
two(queue, (1,), None, a, cl.LocalMemory(limit // 4), cl.LocalMemory(limit // 4)).wait()
print("refused", refused)
"""


def test_arguments_of_the_wrong_kind_are_refused(ctx_factory):
    """Where the driver tells the arguments' address spaces (pycl builds with
    -cl-kernel-arg-info), a __global or __constant pointer takes only a
    memory object, an SVM pointer or None, and a __local one only a
    LocalMemory: through set_arg, set_args, a call and a declared dtype, a
    LogicError names the argument. A driver takes the bytes of anything else
    as a memory object (a numpy int64 crashed Debian's PoCL 3.1, the pip PoCL
    and Oclgrind). Local memory arguments past the device's local memory are
    refused too (Debian's PoCL 3.1 and Oclgrind aborted). In a child process,
    so that a crash is a failure."""
    device = ctx_factory.device
    require_kernel_compiler(device)
    run = run_child(device, _KINDS)
    expected = 3 * (2 * (5 + (1 if device.image_support else 0)) + 4) + 1 + 3
    assert run.returncode == 0 and run.stdout.endswith("refused %d\n" % expected), (
        run.returncode,
        run.stdout,
        run.stderr[-2000:],
    )
