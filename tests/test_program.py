"""Programs and kernels on every device that compiles kernels."""

import uuid
import warnings

import numpy as np
import pytest

import pycl as cl
from pycl.testing import require_kernel_compiler

SOURCE = """
__kernel void axpb(__global float *x, float a, float b, int n)
{
    int i = get_global_id(0);
    if (i < n) x[i] = a * x[i] + b;
}

__kernel void reverse_local(__global int *x, __local int *scratch)
{
    int l = get_local_id(0), g = get_global_id(0), size = get_local_size(0);
    scratch[l] = x[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    x[g] = scratch[size - 1 - l];
}

__kernel void offset_ids(__global int *x)
{
    x[get_global_id(0) - get_global_offset(0)] = get_global_id(0);
}
"""


@pytest.fixture
def built(ctx_factory):
    require_kernel_compiler(ctx_factory.device)
    ctx = ctx_factory()
    return ctx, cl.CommandQueue(ctx), cl.Program(ctx, SOURCE).build()


def test_program_info(built, ctx_factory):
    ctx, queue, program = built
    device = ctx_factory.device
    assert program.get_build_info(device, cl.program_build_info.STATUS) == cl.build_status.SUCCESS
    assert sorted(program.kernel_names.split(";")) == ["axpb", "offset_ids", "reverse_local"]
    assert program.num_kernels == 3
    assert program.source == SOURCE
    assert program.context == ctx and program.devices == [device]
    assert sorted(k.function_name for k in program.all_kernels()) == ["axpb", "offset_ids", "reverse_local"]
    axpb = cl.Kernel(program, "axpb")
    assert axpb.num_args == 4
    assert axpb.program == program
    binaries = program.binaries
    assert len(binaries) == 1 and len(binaries[0]) == program.binary_sizes[0]


def test_kernel_with_scalars(built):
    ctx, queue, program = built
    host = np.arange(100, dtype=np.float32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
    knl = program.axpb
    with pytest.raises(cl.LogicError, match="argument 1 is a Python float"):
        knl(queue, (128,), None, buf, 2.0, np.float32(1), np.int32(100))
    knl(queue, (128,), None, buf, np.float32(2), np.float32(1), np.int32(100)).wait()
    knl.set_scalar_arg_dtypes([None, np.float32, np.float32, np.int32])
    event = knl(queue, (128,), None, buf, 3, -1, 100)
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, buf, wait_for=[event])
    np.testing.assert_array_equal(out, 3 * (2 * host + 1) - 1)


def test_local_memory_and_work_group_info(built, ctx_factory):
    ctx, queue, program = built
    knl = program.reverse_local
    device = ctx_factory.device
    wg = min(16, knl.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE, device))
    host = np.arange(4 * wg, dtype=np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
    knl.set_args(buf, cl.LocalMemory(4 * wg))
    cl.enqueue_nd_range_kernel(queue, knl, (4,), (wg,), g_times_l=True)
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, host.reshape(4, wg)[:, ::-1].ravel())


def test_global_offset_and_empty_range(built):
    ctx, queue, program = built
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, size=4 * 8)
    program.offset_ids(queue, (8,), None, buf, global_offset=(5,))
    out = np.empty(8, np.int32)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, np.arange(5, 13))
    event = program.offset_ids(queue, (0,), None, buf, allow_empty_ndrange=True)
    event.wait()
    assert event.command_type == cl.command_type.MARKER


def test_enqueue_nd_range_kernel_takes_pyopencl_implementation_names(built):
    # PyOpenCL's binding names the offset global_work_offset and takes
    # g_times_l and allow_empty_ndrange positionally (its stub differs).
    ctx, queue, program = built
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, size=4 * 8)
    knl = cl.Kernel(program, "offset_ids")
    knl.set_args(buf)
    cl.enqueue_nd_range_kernel(queue, knl, (8,), None, global_work_offset=(3,))
    out = np.empty(8, np.int32)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, np.arange(3, 11))
    cl.enqueue_nd_range_kernel(queue, knl, (2,), (4,), (1,), None, True)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, np.arange(1, 9))
    with pytest.raises(TypeError):
        cl.enqueue_nd_range_kernel(queue, knl, (8,), None, global_offset=(3,))


def test_released_argument_is_refused(built):
    ctx, queue, program = built
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, size=64)
    knl = program.offset_ids
    knl.set_arg(0, buf)
    buf.release()
    with pytest.raises(cl.LogicError, match="kernel argument 0 .* was released"):
        cl.enqueue_nd_range_kernel(queue, knl, (4,), None)
    with pytest.raises(cl.LogicError, match="was released"):
        knl.set_arg(0, buf)


def test_kernel_profiling(built, ctx_factory):
    ctx, _, program = built
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, size=4 * 64)
    event = program.offset_ids(queue, (64,), None, buf)
    event.wait()
    profile = event.profile
    assert profile.queued <= profile.submit <= profile.start <= profile.end
    assert event.get_profiling_info(cl.profiling_info.END) == profile.end
    with pytest.warns(DeprecationWarning, match="non-lower-case"):
        assert profile.END == profile.end  # PyOpenCL 2026.1.4 still answers, with a warning


def test_each_retrieval_is_a_new_kernel(built):
    """``prg.knl`` makes a new, independent kernel each time (as PyOpenCL
    does, warning RepeatedKernelRetrieval at the second retrieval): argument
    state never leaks between retrievals or threads."""
    ctx, queue, program = built
    first = program.axpb
    with pytest.warns(cl.RepeatedKernelRetrieval, match="axpb"):
        second = program.axpb
    assert first is not second and first != second
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        program.axpb  # noqa: B018 (only the second retrieval warns)
        cl.Kernel(program, "axpb")
        program.offset_ids  # noqa: B018 (another name counts apart)
    x = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 8)
    y = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 8)
    cl.enqueue_copy(queue, x, np.arange(8, dtype=np.float32))
    cl.enqueue_copy(queue, y, np.arange(8, dtype=np.float32))
    first.set_args(x, np.float32(2), np.float32(1), np.int32(8))
    second.set_args(y, np.float32(3), np.float32(0), np.int32(8))
    cl.enqueue_nd_range_kernel(queue, first, (8,), None)  # first's own arguments, not second's
    out = np.empty(8, np.float32)
    cl.enqueue_copy(queue, out, x)
    np.testing.assert_array_equal(out, 2 * np.arange(8, dtype=np.float32) + 1)
    cl.enqueue_copy(queue, out, y)
    np.testing.assert_array_equal(out, np.arange(8, dtype=np.float32))
    with pytest.raises(AttributeError, match="no_such_kernel"):
        program.no_such_kernel  # noqa: B018


def test_argument_switched_from_svm_to_buffer(built):
    """An argument set as an SVM pointer, then as a Buffer, on one kernel
    object (NVIDIA fails such an enqueue with CL_INVALID_KERNEL_ARGS; pycl
    gives the kernel a fresh handle with its other arguments set again)."""
    ctx, queue, program = built
    device = ctx.devices[0]
    if not cl.characterize.has_coarse_grain_buffer_svm(device):
        pytest.skip("the device has no coarse-grain buffer SVM (OpenCL 2.0)")
    alloc = cl.SVMAllocation(ctx, 4 * 8, 0, cl.svm_mem_flags.READ_WRITE, queue=queue)
    cl.enqueue_copy(queue, alloc, np.arange(8, dtype=np.float32))
    plain = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 8)
    cl.enqueue_copy(queue, plain, np.full(8, 10, np.float32))
    knl = cl.Kernel(program, "axpb")
    model_svm, model_plain = np.arange(8, dtype=np.float32), np.full(8, 10, np.float32)
    for target in (alloc, alloc.as_buffer(ctx), plain, alloc, plain):
        knl(queue, (8,), None, target, np.float32(2), np.float32(1), np.int32(8))
        if target is plain:
            model_plain = 2 * model_plain + 1
        else:  # the SVM allocation, directly or through its buffer
            model_svm = 2 * model_svm + 1
    # The other arguments (a, b, n) survive the switch: set once, then only x changes.
    knl.set_arg(0, alloc)
    cl.enqueue_nd_range_kernel(queue, knl, (8,), None)
    knl.set_arg(0, plain)
    cl.enqueue_nd_range_kernel(queue, knl, (8,), None)
    model_svm, model_plain = 2 * model_svm + 1, 2 * model_plain + 1
    out = np.empty(8, np.float32)
    cl.enqueue_copy(queue, out, alloc)
    np.testing.assert_array_equal(out, model_svm)
    cl.enqueue_copy(queue, out, plain)
    np.testing.assert_array_equal(out, model_plain)


def test_kernel_int_ptr_round_trip(built):
    ctx, queue, program = built
    knl = program.axpb
    start = knl.reference_count
    twin = cl.Kernel.from_int_ptr(knl.int_ptr)
    assert twin == knl and knl.reference_count == start + 1 and twin.program == program
    twin.release()
    assert knl.reference_count == start
    prg2 = cl.Program.from_int_ptr(program.int_ptr)
    assert prg2 == program and prg2.context == ctx


def test_bad_sizes(built):
    ctx, queue, program = built
    knl = program.offset_ids
    knl.set_arg(0, None)
    with pytest.raises(cl.LogicError, match=r"global_work_size = \(1, 2, 3, 4\) must have 1 to 3 entries"):
        cl.enqueue_nd_range_kernel(queue, knl, (1, 2, 3, 4), None)
    with pytest.raises(cl.LogicError, match="local_work_size has 2 dimensions but global_work_size has 1"):
        cl.enqueue_nd_range_kernel(queue, knl, (8,), (2, 2))
    with pytest.raises(TypeError, match="unexpected keyword"):
        knl(queue, (8,), None, None, offset=3)


@pytest.mark.parametrize("full_output", [False, True])
def test_build_with_a_log_warns_compiler_warning(ctx_factory, monkeypatch, full_output):
    require_kernel_compiler(ctx_factory.device)
    ctx = ctx_factory()
    device = ctx.devices[0]
    monkeypatch.setenv("PYOPENCL_COMPILER_OUTPUT", "1" if full_output else "0")
    # A fresh marker per run: NVIDIA (CUDA 13.0) logs a note at every real
    # compile but returns an empty log for a program its cache already holds.
    marker = "pycl_marker_%s" % uuid.uuid4().hex
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        quiet = cl.Program(ctx, "__kernel void %s(__global int *x) { x[0] = 1; }" % marker).build()
    said = quiet.get_build_info(device, cl.program_build_info.LOG).strip()
    assert [w.category for w in caught] == ([cl.CompilerWarning] if said else [])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loud = cl.Program(ctx, "#warning %s\n__kernel void loud(__global int *x) { x[0] = 1; }" % marker).build()
    assert [w.category for w in caught] == [cl.CompilerWarning]
    assert caught[0].filename == __file__
    text = str(caught[0].message)
    # PoCL 3.1 answers a later program's log query with an earlier build's
    # log (docs/quirks.md): the warning carries the log the driver gives.
    said = loud.get_build_info(device, cl.program_build_info.LOG).strip()
    assert (said in text) == full_output
    assert full_output or "PYOPENCL_COMPILER_OUTPUT=1" in text


def test_source_as_bytes_and_spirv_refused(ctx_factory):
    # PyOpenCL takes OpenCL C source as bytes too; SPIR-V (by its magic
    # number, in either byte order) would need clCreateProgramWithIL.
    require_kernel_compiler(ctx_factory.device)
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    source = "__kernel void fill7(__global int *x) { x[get_global_id(0)] = 7; }"
    for given in (source.encode(), bytearray(source.encode())):
        knl = cl.Kernel(cl.Program(ctx, given).build(), "fill7")
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, size=16)
        knl(queue, (4,), None, buf)
        out = np.zeros(4, np.int32)
        cl.enqueue_copy(queue, out, buf)
        np.testing.assert_array_equal(out, [7, 7, 7, 7])
    for magic in (b"\x07\x23\x02\x03", b"\x03\x02\x23\x07"):
        assert cl.tools.is_spirv(magic + bytes(16))
        with pytest.raises(cl.UnavailableError, match="clCreateProgramWithIL"):
            cl.Program(ctx, magic + bytes(16))
    assert not cl.tools.is_spirv(source) and not cl.tools.is_spirv(source.encode())
    with pytest.raises(TypeError, match="str or bytes"):
        cl.Program(ctx, 42)


# A child process launches on the device given by its platform and device
# index; a driver abort there fails the test instead of ending the run.
_GROUP_LAUNCH = """
import sys
import pycl as cl
device = cl.get_platforms()[int(sys.argv[1])].get_devices()[int(sys.argv[2])]
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
knl = cl.Program(ctx, "__kernel void k(__global uint *o) { o[0] = 1; }").build().k
knl.set_arg(0, cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4))
for global_size, local_size in [((2**16, 2**16), (1, 1)), ((2**40,), (256,)), ((2**44,), None)]:
    try:
        cl.enqueue_nd_range_kernel(queue, knl, global_size, local_size)
    except cl.UnavailableError as error:
        print("refused:", error)
    queue.finish()
print("done")
"""


def test_pocl_launch_of_2_32_work_groups_is_refused(ctx_factory):
    """PoCL's CPU devices (3.0, 3.1, 5.0) abort the process for a launch of
    2**32 or more work-groups (docs/quirks.md): pycl refuses it there, naming
    the count, and smaller launches still run."""
    import subprocess
    import sys

    device = ctx_factory.device
    if "PoCL" not in device.platform.version or not device.type & cl.device_type.CPU:
        pytest.skip("%s would run 2**32 work-groups (minutes): only PoCL's CPU devices refuse them" % device.name)
    require_kernel_compiler(device)
    platforms = cl.get_platforms()
    p = platforms.index(device.platform)
    d = platforms[p].get_devices().index(device)
    run = subprocess.run(
        [sys.executable, "-c", _GROUP_LAUNCH, str(p), str(d)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0 and run.stdout.endswith("done\n"), (run.returncode, run.stdout, run.stderr[-2000:])
    refused = [line for line in run.stdout.splitlines() if line.startswith("refused:")]
    assert len(refused) == 3, run.stdout
    assert "global_work_size = (65536, 65536) with local_work_size = (1, 1) makes 4294967296 work-groups" in refused[0]
    assert "makes 4294967296 work-groups" in refused[1]
    assert "makes up to 17592186044416 work-groups" in refused[2] and "pass a local_work_size" in refused[2]
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    knl = cl.Program(ctx, SOURCE).build().offset_ids
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 2**16)
    knl.set_arg(0, out)
    # 2**16 groups of one: far below the limit, and they run.
    cl.enqueue_nd_range_kernel(queue, knl, (2**16,), (1,))
    ids = np.empty(2**16, np.int32)
    cl.enqueue_copy(queue, ids, out)
    assert np.array_equal(ids, np.arange(2**16))


def test_compile_with_headers_then_link_runs(ctx_factory):
    require_kernel_compiler(ctx_factory.device)
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    header = cl.Program(ctx, "#define SCALE 3\n")
    unit = cl.Program(ctx, '#include "scale.h"\n__kernel void f(__global int *x) { x[get_global_id(0)] *= SCALE; }')
    assert unit.compile(headers=[("scale.h", header)]) is unit
    helper = cl.Program(ctx, "int twice(int v) { return 2 * v; }").compile()
    caller = cl.Program(
        ctx, "int twice(int v);\n__kernel void g(__global int *x) { x[get_global_id(0)] = twice(x[get_global_id(0)]); }"
    )
    linked = cl.link_program(ctx, [unit, helper, caller.compile()])
    host = np.arange(16, dtype=np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
    linked.f(queue, (16,), None, buf)
    linked.g(queue, (16,), None, buf)
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, buf)
    assert np.array_equal(out, host * 3 * 2)
    assert linked.context == ctx


def test_compile_failure_and_bad_headers_are_errors(ctx_factory):
    require_kernel_compiler(ctx_factory.device)
    ctx = ctx_factory()
    with pytest.raises(cl.RuntimeError, match="clCompileProgram failed") as info:
        cl.Program(ctx, "__kernel void f(__global int *x) { undeclared_thing = 1; }").compile()
    assert "undeclared_thing" in str(info.value)
    with pytest.raises(TypeError, match=r"Program.compile: headers\[0\] must be a \(str, Program\) pair"):
        cl.Program(ctx, "__kernel void f(__global int *x) {}").compile(headers=[("a.h", "#define A 1")])
    with pytest.raises(TypeError, match=r"link_program: programs\[1\] must be a Program, not str"):
        cl.link_program(ctx, [cl.Program(ctx, "int one(void) { return 1; }").compile(), "source"])


def test_unload_compiler_then_build_again(ctx_factory):
    require_kernel_compiler(ctx_factory.device)
    ctx = ctx_factory()
    ctx.devices[0].platform.unload_compiler()
    prg = cl.Program(ctx, "__kernel void f(__global int *x) { x[0] = 7; }").build()
    assert prg.f.function_name == "f"


def test_unknown_built_in_kernels_are_refused_by_the_driver(ctx_factory):
    ctx = ctx_factory()
    with pytest.raises(cl.LogicError, match="clCreateProgramWithBuiltInKernels failed: CL_INVALID_VALUE"):
        cl.create_program_with_built_in_kernels(ctx, ctx.devices, "no_such_built_in_kernel")
