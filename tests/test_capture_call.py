"""capture_kernel_call: the script it writes repeats the kernel call, in a
subprocess with pycl (and with PyOpenCL where it can be imported), and the
results match numpy's."""

import io
import os
import runpy
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import pycl as cl
import pycl.characterize
from pycl import cltypes
from pycl._capture_call import _scalar, _string_literal, capture_kernel_call
from pycl.testing import require_kernel_compiler

mf = cl.mem_flags

# OFFSET comes from the build options: the script builds only if it kept them.
# Each item reads its neighbour's value through local memory, so that the
# result depends on the LocalMemory argument and the local size.
SCALE_SOURCE = r"""
__kernel void scale_shift(__global const float *a, float s, __local float *scratch, __global float *out)
{
    int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    scratch[l] = a[g] * s;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = scratch[(l + 1) % n] + OFFSET;
}
"""
SCALE_OPTIONS = ["-DOFFSET=3.0f"]


def scale_model(a, s, local_size):
    """``scale_shift``'s output: each group rotated left by one, scaled, plus 3."""
    groups = (a * s).reshape(-1, local_size)
    return np.roll(groups, -1, axis=1).reshape(-1) + np.float32(3)


def run_script(path, tmp_path, env=None, module="pycl"):
    """Run the captured script with this interpreter; its saved results."""
    if module != "pycl":
        text = open(path).read().replace("import pycl as cl", "import %s as cl" % module)
        path = tmp_path / ("with_%s.py" % module)
        path.write_text(text)
    result = tmp_path / ("result_%s.npz" % module)
    environment = {k: v for k, v in os.environ.items() if k != "PYOPENCL_CTX"}
    environment.update(env or {})
    proc = subprocess.run(
        [sys.executable, str(path), str(result)],
        capture_output=True,
        text=True,
        env=environment,
        cwd=str(tmp_path),
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "not found" not in proc.stderr  # the recorded device was there
    with np.load(result) as saved:
        return {name: saved[name] for name in saved.files}


def device_indices(device):
    """``"platform:device"`` indices for PYOPENCL_CTX."""
    platforms = cl.get_platforms()
    platform_index = platforms.index(device.platform)
    return "%d:%d" % (platform_index, platforms[platform_index].get_devices().index(device))


def scale_setup(ctx_factory):
    ctx = ctx_factory()
    device = ctx.devices[0]
    require_kernel_compiler(device)
    queue = cl.CommandQueue(ctx)
    kernel = cl.Kernel(cl.Program(ctx, SCALE_SOURCE).build(SCALE_OPTIONS), "scale_shift")
    a = np.linspace(-5, 5, 64, dtype=np.float32)
    a_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    out_buf = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
    return ctx, queue, kernel, a, a_buf, out_buf


def test_replay_matches_numpy(ctx_factory, tmp_path):
    ctx, queue, kernel, a, a_buf, out_buf = scale_setup(ctx_factory)
    script = tmp_path / "captured.py"
    s = np.float32(1.5)
    capture_kernel_call(kernel, str(script), queue, (64,), (8,), a_buf, s, cl.LocalMemory(8 * 4), out_buf)
    # The script holds the contents at capture time, not later ones.
    cl.enqueue_copy(queue, a_buf, np.zeros_like(a))
    queue.finish()

    results = run_script(script, tmp_path)
    assert sorted(results) == ["arg0", "arg3"]
    np.testing.assert_array_equal(results["arg0"].view(np.float32), a)
    np.testing.assert_allclose(results["arg3"].view(np.float32), scale_model(a, s, 8), rtol=1e-6)


def test_replay_on_the_pyopencl_ctx_device(ctx_factory, tmp_path):
    ctx, queue, kernel, a, a_buf, out_buf = scale_setup(ctx_factory)
    script = io.StringIO()  # a file object, as PyOpenCL allows
    s = np.float32(-0.5)
    capture_kernel_call(kernel, script, queue, (4,), (16,), a_buf, s, cl.LocalMemory(16 * 4), out_buf, g_times_l=True)
    path = tmp_path / "captured.py"
    path.write_text(script.getvalue())

    results = run_script(path, tmp_path, {"PYOPENCL_CTX": device_indices(ctx.devices[0])})
    np.testing.assert_allclose(results["arg3"].view(np.float32), scale_model(a, s, 16), rtol=1e-6)


def test_replay_with_pyopencl(ctx_factory, tmp_path):
    pyopencl = pytest.importorskip("pyopencl", reason="PyOpenCL is not importable here (CPython only)")
    if not hasattr(pyopencl, "Buffer"):
        pytest.skip("pyopencl is only the empty namespace of the pip device wheels")
    ctx, queue, kernel, a, a_buf, out_buf = scale_setup(ctx_factory)
    path = tmp_path / "captured.py"
    s = np.float32(0.75)
    capture_kernel_call(kernel, path, queue, (64,), (32,), a_buf, s, cl.LocalMemory(32 * 4), out_buf)

    # By the recorded names: PyOpenCL may list the platforms in another order.
    ours, theirs = run_script(path, tmp_path), run_script(path, tmp_path, module="pyopencl")
    assert sorted(ours) == sorted(theirs) == ["arg0", "arg3"]
    for name in ours:
        np.testing.assert_array_equal(ours[name], theirs[name])
    np.testing.assert_allclose(theirs["arg3"].view(np.float32), scale_model(a, s, 32), rtol=1e-6)


MIXED_SOURCE = r"""
__kernel void mixed(__global float *out, int n, float4 v, __global const float *same, __global const float *sub,
                    __global const float *hidden, __global const float *maybe, double d, uchar8 raw)
{
    int i = get_global_id(0);
    float extra = maybe ? maybe[i] : -1000.0f;
    out[i] = same[i] + n + v.y + sub[i] + hidden[i] + extra + (float)d + raw.s2;
}
"""


def test_replay_many_kinds_of_arguments(ctx_factory, tmp_path):
    ctx = ctx_factory()
    device = ctx.devices[0]
    require_kernel_compiler(device)
    if not device.double_fp_config:
        pytest.skip("%s has no double precision" % device.name)
    queue = cl.CommandQueue(ctx)
    kernel = cl.Kernel(cl.Program(ctx, MIXED_SOURCE).build(), "mixed")
    # A Python int through set_scalar_arg_dtypes (captured as its converted bytes).
    kernel.set_scalar_arg_dtypes([None, np.int32] + [None] * 7)

    n = 32
    out = np.arange(n, dtype=np.float32)
    out_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
    align = device.mem_base_addr_align // 8
    whole = np.arange(align // 4 + n, dtype=np.float32) * 100
    parent = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=whole)
    sub = parent.get_sub_region(align, n * 4)
    hidden_values = np.full(n, 0.5, np.float32)
    hidden = cl.Buffer(ctx, mf.READ_ONLY | mf.HOST_NO_ACCESS | mf.COPY_HOST_PTR, hostbuf=hidden_values)
    v = cltypes.make_float4(1, 2, 3, 4)
    raw = bytes(range(10, 18))  # a uchar8 as raw bytes
    marker = cl.enqueue_marker(queue)

    script = tmp_path / "captured.py"
    local = 4
    capture_kernel_call(
        kernel,
        script,
        queue,
        (6,),
        (local,),
        out_buf,
        7,
        v,
        out_buf,  # the same buffer twice: one buffer in the script
        sub,
        hidden,
        None,
        np.float64(0.25),
        raw,
        g_times_l=True,
        global_offset=(4,),
        wait_for=[marker],
    )
    results = run_script(script, tmp_path)
    assert sorted(results) == ["arg0", "arg4", "arg5"]

    expected = out.copy()
    items = slice(4, 4 + 6 * local)
    expected[items] = out[items] + 7 + 2 + whole[align // 4 :][items] + 0.5 - 1000 + 0.25 + 12
    np.testing.assert_allclose(results["arg0"].view(np.float32), expected, rtol=1e-6)
    np.testing.assert_array_equal(results["arg4"].view(np.float32), whole[align // 4 :])
    np.testing.assert_array_equal(results["arg5"].view(np.float32), hidden_values)


SVM_SOURCE = r"""
__kernel void square_in_place(__global float *x) { int i = get_global_id(0); x[i] = x[i] * x[i]; }
"""


def test_replay_svm(ctx_factory, tmp_path):
    ctx = ctx_factory()
    device = ctx.devices[0]
    require_kernel_compiler(device)
    if not pycl.characterize.has_coarse_grain_buffer_svm(device):
        pytest.skip("%s has no coarse-grain SVM" % device.name)
    queue = cl.CommandQueue(ctx)
    kernel = cl.Kernel(cl.Program(ctx, SVM_SOURCE).build(), "square_in_place")
    values = np.linspace(-3, 3, 40, dtype=np.float32)
    svm = cl.SVM(cl.csvm_empty(ctx, values.shape, np.float32, queue=queue))
    cl.enqueue_copy(queue, svm, values)

    script = tmp_path / "captured.py"
    capture_kernel_call(kernel, script, queue, values.shape, None, svm)
    results = run_script(script, tmp_path)
    np.testing.assert_allclose(results["arg0"].view(np.float32), values * values, rtol=1e-6)


def test_uncapturable_arguments(ctx_factory, tmp_path):
    ctx, queue, kernel, a, a_buf, out_buf = scale_setup(ctx_factory)
    local = cl.LocalMemory(4)
    script = io.StringIO()
    with pytest.raises(TypeError, match="argument 1 is a Python float"):
        capture_kernel_call(kernel, script, queue, (1,), None, a_buf, 1.5, local, out_buf)
    with pytest.raises(TypeError, match="argument 1 of type object"):
        capture_kernel_call(kernel, script, queue, (1,), None, a_buf, object(), local, out_buf)
    if ctx.devices[0].image_support:
        sampler = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP, cl.filter_mode.NEAREST)
        with pytest.raises(TypeError, match="argument 1 \\(Sampler\\)"):
            capture_kernel_call(kernel, script, queue, (1,), None, a_buf, sampler, local, out_buf)
    with pytest.raises(TypeError, match="unexpected keyword"):
        capture_kernel_call(kernel, script, queue, (1,), None, a_buf, np.float32(1), local, out_buf, colour=1)
    out_buf.release()
    with pytest.raises(cl.LogicError, match="argument 3"):
        capture_kernel_call(kernel, script, queue, (1,), None, a_buf, np.float32(1), local, out_buf)
    assert script.getvalue() == ""  # nothing written when capturing fails


def test_program_without_source(ctx_factory):
    ctx, queue, kernel, a, a_buf, out_buf = scale_setup(ctx_factory)
    device = ctx.devices[0]
    binary = kernel.program.binaries[0]
    from_binary = cl.Program(ctx, [device], [binary]).build(SCALE_OPTIONS)
    if from_binary.source:
        pytest.skip("%s keeps a source for programs made from binaries" % device.name)
    kernel = cl.Kernel(from_binary, "scale_shift")
    with pytest.raises(cl.LogicError, match="no source"):
        capture_kernel_call(kernel, io.StringIO(), queue, (8,), None, a_buf, np.float32(1), cl.LocalMemory(4), out_buf)


# --- the pieces of the script that need no device


scalar_dtypes = st.one_of(
    hnp.boolean_dtypes(),
    hnp.integer_dtypes(endianness="="),
    hnp.unsigned_integer_dtypes(endianness="="),
    hnp.floating_dtypes(endianness="="),
    hnp.complex_number_dtypes(endianness="="),
)


@given(scalar_dtypes.flatmap(lambda dtype: st.tuples(st.just(dtype), hnp.from_dtype(dtype))))
def test_scalars_read_back_exactly(case):
    dtype, drawn = case
    value = np.array(drawn, dtype)[()]  # a numpy scalar of the dtype
    again = eval(_scalar(value), {"np": np})  # noqa: S307 (our own expression)
    assert again.dtype == value.dtype
    assert again.tobytes() == value.tobytes()


@settings(max_examples=50)
@given(st.text(alphabet=st.sampled_from(['"', "'", "\\", "\n", "\r", "\0", "\t", "a", "é", "{", " "])) | st.text())
def test_source_literal_reads_back_from_a_file(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("literal") / "source.py"
    path.write_text("SOURCE = %s\n" % _string_literal(text), encoding="utf-8")
    assert runpy.run_path(str(path))["SOURCE"] == text


def test_multi_line_source_stays_readable():
    assert _string_literal(SCALE_SOURCE) == 'r"""%s"""' % SCALE_SOURCE
