"""Samplers and pipes on every device (and under PYCL_FORCE_CL_VERSION=1.2)."""

import numpy as np
import pytest

import pycl as cl

am = cl.addressing_mode
fm = cl.filter_mode
sp = cl.sampler_properties
mf = cl.mem_flags


# {{{ samplers


@pytest.mark.parametrize("normalized", [True, False])
@pytest.mark.parametrize("addressing", ["NONE", "CLAMP_TO_EDGE", "CLAMP", "REPEAT", "MIRRORED_REPEAT"])
@pytest.mark.parametrize("filtering", ["NEAREST", "LINEAR"])
def test_sampler_info(ctx_factory, normalized, addressing, filtering):
    ctx = ctx_factory()
    a, f = getattr(am, addressing), getattr(fm, filtering)
    if not normalized and a in (am.REPEAT, am.MIRRORED_REPEAT):
        with pytest.raises(cl.LogicError, match="needs normalized_coords"):
            cl.Sampler(ctx, normalized, a, f)
        return
    s = cl.Sampler(ctx, normalized, a, f)
    assert type(s.normalized_coords) is int and s.normalized_coords == int(normalized)  # cl_bool: 1 or 0
    assert s.addressing_mode == a == s.get_info(cl.sampler_info.ADDRESSING_MODE)
    assert s.filter_mode == f
    assert s.context == ctx
    assert s.reference_count >= 1
    twin = cl.Sampler.from_int_ptr(s.int_ptr)
    assert twin == s and hash(twin) == hash(s) and twin is not s
    assert twin.filter_mode == f
    other = cl.Sampler(ctx, normalized, a, f)
    assert other != s


def test_sampler_keywords_and_properties(ctx_factory):
    ctx = ctx_factory()
    s = cl.Sampler(ctx, normalized_coords=False, addressing_mode=am.CLAMP, filter_mode=fm.LINEAR)
    assert (s.normalized_coords, s.addressing_mode, s.filter_mode) == (False, am.CLAMP, fm.LINEAR)
    flat = [sp.NORMALIZED_COORDS, 0, sp.ADDRESSING_MODE, am.CLAMP_TO_EDGE, sp.FILTER_MODE, fm.NEAREST]
    for props in (flat, flat + [0], list(zip(flat[::2], flat[1::2]))):
        p = cl.Sampler(ctx, props)
        assert (p.normalized_coords, p.addressing_mode, p.filter_mode) == (False, am.CLAMP_TO_EDGE, fm.NEAREST)
    with pytest.raises(cl.LogicError, match="needs normalized_coords"):
        cl.Sampler(ctx, [sp.NORMALIZED_COORDS, 0, sp.ADDRESSING_MODE, am.REPEAT])
    q = cl.Sampler(ctx, properties=[sp.FILTER_MODE, fm.LINEAR])  # the others default as in OpenCL 2.0
    assert (q.normalized_coords, q.addressing_mode, q.filter_mode) == (True, am.CLAMP, fm.LINEAR)
    assert cl.Sampler(ctx, []).filter_mode == fm.NEAREST


def test_sampler_errors(ctx_factory):
    ctx = ctx_factory()
    with pytest.raises(cl.LogicError, match="not an addressing_mode"):
        cl.Sampler(ctx, True, 12345, fm.NEAREST)
    with pytest.raises(cl.LogicError, match="not a filter_mode"):
        cl.Sampler(ctx, True, am.CLAMP, am.CLAMP)
    with pytest.raises(cl.LogicError, match="pairs"):
        cl.Sampler(ctx, [sp.FILTER_MODE])
    with pytest.raises(cl.LogicError, match="twice"):
        cl.Sampler(ctx, [sp.FILTER_MODE, fm.NEAREST, sp.FILTER_MODE, fm.LINEAR])
    with pytest.raises(TypeError):
        cl.Sampler(ctx, True, am.CLAMP)
    with pytest.raises(TypeError):
        cl.Sampler(ctx, True, "clamp", fm.NEAREST)
    with pytest.raises(TypeError):
        cl.Sampler(ctx, True, am.CLAMP, fm.NEAREST, properties=[])
    with pytest.raises(TypeError):
        cl.Sampler(ctx, "properties")


def test_known_sampler_forms_are_still_checked(ctx_factory):
    """A (normalized, addressing, filter) triple seen valid is remembered;
    values equal to it but of another type still take the full checks."""
    ctx = ctx_factory()
    cl.Sampler(ctx, True, am.CLAMP, fm.NEAREST).release()
    with pytest.raises(TypeError, match="addressing_mode"):
        cl.Sampler(ctx, True, float(am.CLAMP), fm.NEAREST)
    one = cl.Sampler(ctx, 1, am.CLAMP, fm.NEAREST)  # an int flag is accepted by the general path
    assert one.normalized_coords and one.addressing_mode == am.CLAMP
    with pytest.raises(cl.LogicError, match="needs normalized_coords"):
        cl.Sampler(ctx, False, am.REPEAT, fm.NEAREST)
    with pytest.raises(cl.LogicError, match="needs normalized_coords"):
        cl.Sampler(ctx, False, am.REPEAT, fm.NEAREST)  # refused again: never remembered


def test_sampler_beyond_1_2(ctx_factory):
    """A property without a 1.2 equivalent: UnavailableError below OpenCL 2.0;
    2.0+ drivers decide (mipmaps need cl_khr_mipmap_image)."""
    ctx = ctx_factory()
    device = ctx.devices[0]
    props = [sp.FILTER_MODE, fm.NEAREST, cl.sampler_info.MIP_FILTER_MODE, fm.NEAREST]
    if device.cl_version < (2, 0):
        with pytest.raises(cl.UnavailableError, match="needs clCreateSamplerWithProperties") as info:
            cl.Sampler(ctx, props)
        assert isinstance(info.value, NotImplementedError)
    else:
        try:
            s = cl.Sampler(ctx, props)
        except cl.LogicError as error:  # the driver refuses mipmap properties
            assert error.routine == "clCreateSamplerWithProperties"
        else:
            assert s.filter_mode == fm.NEAREST


def test_sampler_release(ctx_factory):
    ctx = ctx_factory()
    s = cl.Sampler(ctx, False, am.NONE, fm.NEAREST)
    twin = cl.Sampler.from_int_ptr(s.int_ptr)
    with s:
        pass
    with pytest.raises(cl.LogicError, match="released"):
        s.release()
    with pytest.raises(cl.LogicError, match="released"):
        s.filter_mode
    with pytest.raises(cl.LogicError, match="released"):
        s.int_ptr
    with pytest.raises(cl.LogicError, match="released"):
        s._kernel_arg("Kernel.set_arg")
    assert twin.addressing_mode == am.NONE  # holds its own reference
    assert "released" in repr(s)


# }}}


# {{{ pipes


def pipes_usable(device):
    return device.cl_version >= (2, 0) and (device.cl_version < (3, 0) or device.pipe_support)


def test_pipe_unavailable(ctx_factory):
    ctx = ctx_factory()
    device = ctx.devices[0]
    if pipes_usable(device):
        pytest.skip("%s supports pipes" % device.name)
    with pytest.raises(cl.UnavailableError) as info:
        cl.Pipe(ctx, 0, 4, 16)
    expected = "reports no pipe support" if device.cl_version >= (3, 0) else "OpenCL 2.0"
    assert expected in str(info.value) and device.name in str(info.value)
    assert isinstance(info.value, NotImplementedError)


def test_pipe_validation(ctx_factory):
    """Argument errors come before the capability check, on every device."""
    ctx = ctx_factory()
    with pytest.raises(cl.LogicError, match="must be empty"):
        cl.Pipe(ctx, 0, 4, 16, properties=[cl.pipe_info.PACKET_SIZE, 4])
    with pytest.raises(cl.LogicError, match="packet_size = 0"):
        cl.Pipe(ctx, 0, 0, 16)
    with pytest.raises(cl.LogicError, match="max_packets = 0"):
        cl.Pipe(ctx, 0, 4, 0)
    with pytest.raises(cl.LogicError, match="only READ_WRITE and HOST_NO_ACCESS"):
        cl.Pipe(ctx, mf.READ_ONLY, 4, 16)
    with pytest.raises(cl.LogicError, match="negative"):
        cl.Pipe(ctx, 0, -4, 16)
    with pytest.raises(TypeError):
        cl.Pipe(ctx, 0, 4.0, 16)


def test_pipe(ctx_factory):
    ctx = ctx_factory()
    device = ctx.devices[0]
    if not pipes_usable(device):
        pytest.skip("%s has no pipe support (OpenCL %d.%d)" % ((device.name,) + device.cl_version))
    pipe = cl.Pipe(ctx, mf.READ_WRITE | mf.HOST_NO_ACCESS, 8, 32)
    assert pipe.packet_size == 8 == pipe.get_pipe_info(cl.pipe_info.PACKET_SIZE)
    assert pipe.max_packets == 32
    assert pipe.type == cl.mem_object_type.PIPE
    assert pipe.size >= 8 * 32
    assert cl.Pipe.from_int_ptr(pipe.int_ptr) == pipe
    with pytest.raises(TypeError):
        cl.enqueue_copy(cl.CommandQueue(ctx), np.zeros(8, np.uint8), pipe)
    pipe.release()
    with pytest.raises(cl.LogicError):
        pipe.packet_size


# }}}
