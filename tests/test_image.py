"""Images on every device with image support: formats, every image type,
transfers, fills, maps, validation and a sampling kernel. The oracle is a
numpy model of each image, indexed ``model[z_or_layer, y_or_layer, x, channel]``
and updated by slicing."""

import numpy as np
import pytest

import pycl as cl
from pycl import cltypes
from pycl.testing import require_kernel_compiler

mf = cl.mem_flags
mot = cl.mem_object_type
co = cl.channel_order
ct = cl.channel_type

# (numpy dtype, channel type) of the formats under test.
CHANNEL_TYPES = [
    (np.uint8, ct.UNSIGNED_INT8),
    (np.int16, ct.SIGNED_INT16),
    (np.float32, ct.FLOAT),
    (np.float16, ct.HALF_FLOAT),
]
ARGB = 0x10B7  # CL_ARGB: PyOpenCL's channel_order (and so pycl's) has no name for it
ORDERS = [(co.R, 1), (co.RG, 2), (co.RGBA, 4)]

# image type -> (shape, is_array, uses a buffer)
TYPES = {
    "1d": ((13,), False),
    "1d_buffer": ((29,), False),
    "1d_array": ((11, 3), True),
    "2d": ((9, 7), False),
    "2d_array": ((6, 5, 3), True),
    "3d": ((5, 4, 3), False),
}
MOT = {
    "1d": mot.IMAGE1D,
    "1d_buffer": mot.IMAGE1D_BUFFER,
    "1d_array": mot.IMAGE1D_ARRAY,
    "2d": mot.IMAGE2D,
    "2d_array": mot.IMAGE2D_ARRAY,
    "3d": mot.IMAGE3D,
}


def model_shape(kind, shape):
    """(slices, rows, width): the numpy axes of an image, independent of pycl."""
    if kind in ("1d", "1d_buffer"):
        return (1, 1, shape[0])
    if kind in ("1d_array", "2d"):
        return (1, shape[1], shape[0])
    return (shape[2], shape[1], shape[0])


@pytest.fixture
def cq(ctx_factory):
    device = ctx_factory.device
    if not device.image_support:
        pytest.skip("%s has no image support" % device.name)
    ctx = ctx_factory()
    return ctx, cl.CommandQueue(ctx)


def random_pixels(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.uniform(-100, 100, shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


def supported(ctx, fmt, image_type, flags=mf.READ_WRITE):
    return fmt in cl.get_supported_image_formats(ctx, flags, image_type)


def make_image(ctx, kind, fmt, shape=None):
    shape = shape or TYPES[kind][0]
    if not supported(ctx, fmt, MOT[kind]):
        pytest.skip("%r not supported for %s images on this device" % (fmt, kind))
    if kind == "1d_buffer":
        buf = cl.Buffer(ctx, mf.READ_WRITE, shape[0] * fmt.itemsize)
        return cl.create_image(ctx, mf.READ_WRITE, fmt, shape, buffer=buf)
    return cl.create_image(ctx, mf.READ_WRITE, fmt, shape, is_array=TYPES[kind][1])


def same_bytes(a, b):
    return np.array_equal(np.ascontiguousarray(a).view(np.uint8), np.ascontiguousarray(b).view(np.uint8))


def read_all(queue, img, kind, nch, dtype):
    out = np.empty(model_shape(kind, img.shape) + (nch,), dtype)
    cl.enqueue_copy(queue, out, img, origin=(0, 0, 0), region=img.shape)
    return out


# {{{ formats


def test_image_format_properties():
    f = cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8)
    assert (f.channel_order, f.channel_data_type) == (co.RGBA, ct.UNSIGNED_INT8)
    assert (f.channel_count, f.dtype_size, f.itemsize) == (4, 1, 4)
    assert repr(f) == "ImageFormat(RGBA, UNSIGNED_INT8)"
    assert f == cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8) and hash(f) == hash(cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8))
    assert f != cl.ImageFormat(co.RGBA, ct.SIGNED_INT8) and f != cl.ImageFormat(co.BGRA, ct.UNSIGNED_INT8)
    assert len({f, cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8), cl.ImageFormat(co.R, ct.FLOAT)}) == 2
    for order, count in [(co.R, 1), (co.RG, 2), (co.RGB, 3), (co.RGBA, 4), (co.Rx, 2), (co.RGBx, 4)]:
        for dtype, channel_type in CHANNEL_TYPES:
            g = cl.ImageFormat(order, channel_type)
            assert g.channel_count == count
            assert g.dtype_size == np.dtype(dtype).itemsize
            assert g.itemsize == count * np.dtype(dtype).itemsize
    # Packed types: the element holds every channel (PyOpenCL multiplies).
    assert cl.ImageFormat(co.RGB, ct.UNORM_SHORT_565).itemsize == 2
    assert cl.ImageFormat(co.RGB, ct.UNORM_INT_101010).itemsize == 4
    bad = cl.ImageFormat(0x1234, 0x4321)
    assert "unknown channel order 0x1234" in repr(bad)
    with pytest.raises(cl.LogicError):
        bad.channel_count
    with pytest.raises(cl.LogicError):
        bad.dtype_size


def test_supported_formats(cq):
    ctx, queue = cq
    formats = cl.get_supported_image_formats(ctx, mf.READ_WRITE, mot.IMAGE2D)
    assert formats and all(isinstance(f, cl.ImageFormat) for f in formats)
    assert len(set(formats)) == len(formats)
    # the driver's list, read field by field from its structs
    from pycl._lib import ffi, lib

    count = ffi.new("cl_uint *")
    assert not lib.pycl_image_get_supported_formats(ctx._handle, mf.READ_WRITE, mot.IMAGE2D, 0, ffi.NULL, count)
    raw = ffi.new("cl_image_format[]", count[0])
    assert not lib.pycl_image_get_supported_formats(ctx._handle, mf.READ_WRITE, mot.IMAGE2D, count[0], raw, ffi.NULL)
    expected = [(r.image_channel_order, r.image_channel_data_type) for r in raw]
    assert [(f.channel_order, f.channel_data_type) for f in formats] == expected
    with pytest.raises(cl.LogicError, match="not an image type"):
        cl.get_supported_image_formats(ctx, mf.READ_WRITE, mot.BUFFER)
    with pytest.raises(TypeError):
        cl.get_supported_image_formats(ctx, mf.READ_WRITE, "2d")


def test_unsupported_format_lists_supported(cq):
    ctx, queue = cq
    formats = set(cl.get_supported_image_formats(ctx, mf.READ_WRITE, mot.IMAGE2D))
    candidates = [cl.ImageFormat(o, t) for o in (co.RGB, co.RA, co.LUMINANCE) for t in (ct.FLOAT, ct.SIGNED_INT32)]
    missing = [f for f in candidates if f not in formats]
    if not missing:
        pytest.skip("the device supports every candidate format")
    with pytest.raises(cl.LogicError, match="is not supported") as info:
        cl.create_image(ctx, mf.READ_WRITE, missing[0], (4, 4))
    assert repr(missing[0]) in str(info.value)
    some = sorted(formats, key=repr)[0]
    assert "%s/" % repr(some)[len("ImageFormat(") :].split(",")[0] in str(info.value)
    assert info.value.code == cl.status_code.IMAGE_FORMAT_NOT_SUPPORTED


# }}}


# {{{ creation and info


@pytest.mark.parametrize("kind", list(TYPES))
def test_create_every_type(cq, kind):
    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.FLOAT)
    img = make_image(ctx, kind, fmt)
    shape = TYPES[kind][0]
    assert img.type == MOT[kind]
    assert img.shape == shape
    assert img.format == fmt and img.get_image_info(cl.image_info.FORMAT) == fmt
    assert img.element_size == 16 == img.get_image_info(cl.image_info.ELEMENT_SIZE)
    assert img.width == shape[0]
    if kind == "2d":
        assert img.height == shape[1]
    if kind == "3d":
        assert (img.height, img.depth) == shape[1:]
    if kind == "1d_array":
        assert img.array_size == shape[1]
    if kind == "2d_array":
        assert (img.height, img.array_size) == shape[1:]
    if kind == "1d_buffer":
        assert img.buffer is not None and img.get_image_info(cl.image_info.BUFFER) == img.buffer
    assert img.size >= int(np.prod(shape)) * 16
    assert img.context == ctx and img.flags & mf.READ_WRITE
    # Oclgrind reports 0 for CL_IMAGE_ROW_PITCH, NVIDIA (CUDA 13.0) for 1D buffer images
    quirk = "Oclgrind" in ctx.devices[0].name or (kind == "1d_buffer" and ctx.devices[0].vendor.startswith("NVIDIA"))
    assert img.row_pitch >= shape[0] * 16 or (img.row_pitch == 0 and quirk)
    assert img == cl.Image.from_int_ptr(img.int_ptr) and hash(img) == hash(cl.Image.from_int_ptr(img.int_ptr))
    again = cl.Image.from_int_ptr(img.int_ptr)
    assert again.shape == shape and again.format == fmt and again.type == img.type
    img.release()
    with pytest.raises(cl.LogicError, match="released"):
        img.width
    with pytest.raises(cl.LogicError, match="released"):
        img.shape
    with pytest.raises(cl.LogicError, match="released"):
        img.release()
    assert again.width == shape[0]  # its own reference


def test_properties_form(cq):
    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8)
    host = np.arange(4 * 3 * 4, dtype=np.uint8).reshape(3, 4, 4)
    img = cl.create_image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, fmt, (4, 3), hostbuf=host, properties=[])
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(4, 3))
    assert np.array_equal(out, host)


def test_create_with_hostbuf_and_pitches(cq):
    ctx, queue = cq
    fmt = cl.ImageFormat(co.R, ct.UNSIGNED_INT8)
    rng = np.random.default_rng(1)
    padded = random_pixels(rng, (5, 16), np.uint8)  # 5 rows of 16 bytes, 11 used
    img = cl.create_image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, (11, 5), pitches=(16,), hostbuf=padded)
    out = np.empty((5, 11), np.uint8)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(11, 5))
    assert np.array_equal(out, padded[:, :11])
    # shape from hostbuf.shape (PyOpenCL's rule: the numpy shape as given)
    img2 = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, fmt, hostbuf=padded)
    assert img2.shape == (5, 16)
    with pytest.raises(cl.LogicError, match="needs 96 bytes"):
        cl.create_image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, (12, 6), pitches=(16,), hostbuf=padded)
    with pytest.raises(cl.LogicError, match="row pitch"):
        cl.create_image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, (11, 5), pitches=(8,), hostbuf=padded)
    with pytest.raises(cl.LogicError, match="slice pitch"):
        cl.create_image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, (11, 5), pitches=(16, 80), hostbuf=padded)


def test_use_host_ptr_keeps_hostbuf(cq):
    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.FLOAT)
    host = np.ones((4, 8, 4), np.float32)
    img = cl.create_image(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, fmt, (8, 4), hostbuf=host)
    assert img.hostbuf is host
    with pytest.raises(cl.LogicError, match="read-only"):
        ro = np.ones((4, 8, 4), np.float32)
        ro.flags.writeable = False
        cl.create_image(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, fmt, (8, 4), hostbuf=ro)


@pytest.mark.parametrize("kind", ["1d", "1d_array", "2d", "2d_array", "3d"])
def test_creation_from_hostbuf_after_a_plan(cq, kind):
    """Creations of one (flags, format, shape) reuse its checked plan; with a
    hostbuf, what depends on the hostbuf is still checked at every call, with
    the general path's messages, and the contents are the hostbuf's."""
    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8)
    shape, is_array = TYPES[kind]
    if not supported(ctx, fmt, MOT[kind]):
        pytest.skip("%r not supported for %s images on this device" % (fmt, kind))
    rng = np.random.default_rng(11)
    for flags in (mf.READ_ONLY | mf.COPY_HOST_PTR, mf.READ_WRITE | mf.USE_HOST_PTR):
        for _ in range(3):  # the first call makes the plan, the others take it
            model = random_pixels(rng, model_shape(kind, shape) + (4,), np.uint8)
            host = model.copy()
            img = cl.create_image(ctx, flags, fmt, shape, hostbuf=host, is_array=is_array)
            assert (img.hostbuf is host) == bool(flags & mf.USE_HOST_PTR)
            assert np.array_equal(read_all(queue, img, kind, 4, np.uint8), model)
            # the plan made with a hostbuf serves a creation without one
            empty = cl.create_image(ctx, flags & ~(mf.COPY_HOST_PTR | mf.USE_HOST_PTR), fmt, shape, is_array=is_array)
            assert empty.shape == img.shape
        small = np.zeros(model.nbytes - 1, np.uint8)
        with pytest.raises(cl.LogicError, match="needs %d bytes of host memory" % model.nbytes):
            cl.create_image(ctx, flags, fmt, shape, hostbuf=small, is_array=is_array)
        with pytest.raises(cl.LogicError, match="need a hostbuf"):
            cl.create_image(ctx, flags, fmt, shape, is_array=is_array)
        gaps = np.zeros(model.shape[:-1] + (8,), np.uint8)[..., ::2]
        with pytest.raises(TypeError, match="not contiguous"):
            cl.create_image(ctx, flags, fmt, shape, hostbuf=gaps, is_array=is_array)
    read_only = model.copy()
    read_only.flags.writeable = False
    with pytest.raises(cl.LogicError, match="read-only"):
        cl.create_image(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, fmt, shape, hostbuf=read_only, is_array=is_array)
    # COPY_HOST_PTR takes read-only memory, and bytes
    img = cl.create_image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape, hostbuf=read_only, is_array=is_array)
    assert np.array_equal(read_all(queue, img, kind, 4, np.uint8), read_only)
    img = cl.create_image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape, hostbuf=model.tobytes(), is_array=is_array)
    assert np.array_equal(read_all(queue, img, kind, 4, np.uint8), model)


def test_creation_errors(cq):
    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.FLOAT)
    with pytest.raises(cl.LogicError, match="'shape' must be passed"):
        cl.create_image(ctx, mf.READ_WRITE, fmt)
    with pytest.raises(cl.LogicError, match="'pitches' may only be given"):
        cl.create_image(ctx, mf.READ_WRITE, fmt, (4, 4), pitches=(64,))
    with pytest.raises(TypeError, match="ImageFormat"):
        cl.create_image(ctx, mf.READ_WRITE, (co.RGBA, ct.FLOAT), (4, 4))
    with pytest.raises(cl.LogicError, match="one to three"):
        cl.create_image(ctx, mf.READ_WRITE, fmt, (4, 4, 4, 4))
    with pytest.raises(cl.LogicError, match="zero extent"):
        cl.create_image(ctx, mf.READ_WRITE, fmt, (4, 0))
    with pytest.raises(cl.LogicError, match="negative"):
        cl.create_image(ctx, mf.READ_WRITE, fmt, (4, -1))
    with pytest.raises(TypeError):
        cl.create_image(ctx, mf.READ_WRITE, fmt, (4, 2.5))
    with pytest.raises(TypeError, match="zero-dimensional"):
        cl.create_image(ctx, mf.READ_WRITE, fmt, (4,), is_array=True)
    with pytest.raises(cl.LogicError, match="mutually exclusive"):
        cl.create_image(ctx, mf.READ_WRITE, fmt, (4,), is_array=True, buffer=cl.Buffer(ctx, mf.READ_WRITE, 64))
    with pytest.raises(cl.LogicError, match="exceeds every device's limits"):
        cl.create_image(ctx, mf.READ_WRITE, fmt, (ctx.devices[0].image2d_max_width + 1, 1))
    with pytest.raises(cl.LogicError, match="exceeds buffer"):
        cl.create_image(ctx, mf.READ_WRITE, fmt, (5,), buffer=cl.Buffer(ctx, mf.READ_WRITE, 64))
    with pytest.raises(cl.LogicError, match="need a hostbuf"):
        cl.create_image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, fmt, (4, 4))
    with pytest.raises(cl.LogicError, match="neither USE_HOST_PTR nor COPY_HOST_PTR"):
        cl.create_image(ctx, mf.READ_WRITE, fmt, (4, 4), hostbuf=np.zeros((4, 4, 4), np.float32))
    with pytest.raises(cl.LogicError, match="mutually exclusive"):
        cl.create_image(ctx, mf.READ_ONLY | mf.WRITE_ONLY, fmt, (4, 4))


def test_repeated_creation_checks_the_same(cq):
    """The second creation of the same image reuses the first one's checked
    plan: values equal to it but of other types, a released context and
    bad flags must still fail as on the first creation."""
    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8)
    for _ in range(2):
        img = cl.create_image(ctx, mf.READ_WRITE, fmt, (8, 4))
        assert (img.shape, img.format, img.type, img.flags) == ((8, 4), fmt, mot.IMAGE2D, mf.READ_WRITE)
        data = np.arange(8 * 4 * 4, dtype=np.uint8).reshape(4, 8, 4)
        cl.enqueue_copy(queue, img, data, origin=(0, 0), region=(8, 4))
        back = np.empty_like(data)
        cl.enqueue_copy(queue, back, img, origin=(0, 0), region=(8, 4))
        assert np.array_equal(back, data)
        with pytest.raises(TypeError):
            cl.create_image(ctx, mf.READ_WRITE, fmt, (8.0, 4))
        with pytest.raises(TypeError):
            cl.create_image(ctx, mf.READ_WRITE, fmt, (True, 4))
        with pytest.raises((TypeError, cl.LogicError)):
            cl.create_image(ctx, float(mf.READ_WRITE), fmt, (8, 4))
    # Another context has its own plans (and its own device limits).
    other = cl.Context(ctx.devices)
    assert cl.create_image(other, mf.READ_WRITE, fmt, (8, 4)).context == other
    other.release()
    with pytest.raises(cl.LogicError):
        cl.create_image(other, mf.READ_WRITE, fmt, (8, 4))


def test_no_image_support_is_unavailable(cq, monkeypatch):
    """A 3.0 device may lack images: every image call says so (simulated by
    pycl's per-device cache, since every device here has images)."""
    import pycl._image_format

    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.FLOAT)
    for device in ctx.devices:
        monkeypatch.setitem(pycl._image_format._image_support, device._ptr, False)
    with pytest.raises(cl.UnavailableError, match="IMAGE_SUPPORT false"):
        cl.create_image(ctx, mf.READ_WRITE, fmt, (4, 4))
    with pytest.raises(cl.UnavailableError):
        cl.get_supported_image_formats(ctx, mf.READ_WRITE, mot.IMAGE2D)
    with pytest.raises(cl.UnavailableError):
        cl.image_from_array(ctx, np.zeros((4, 4), np.float32))
    with pytest.raises(NotImplementedError):
        cl.create_image(ctx, mf.READ_WRITE, fmt, (4, 4))


# }}}


# {{{ round trips


@pytest.mark.parametrize("kind", list(TYPES))
@pytest.mark.parametrize("dtype,channel_type", CHANNEL_TYPES, ids=lambda v: getattr(v, "__name__", str(v)))
@pytest.mark.parametrize("order,nch", ORDERS, ids=["R", "RG", "RGBA"])
def test_round_trip_and_subregions(cq, kind, dtype, channel_type, order, nch):
    ctx, queue = cq
    round_trip(ctx, queue, kind, cl.ImageFormat(order, channel_type), dtype, nch)


@pytest.mark.parametrize("kind", ["1d", "2d", "2d_array", "3d"])
@pytest.mark.parametrize(
    "order,channel_type,dtype,nch",
    [
        (co.BGRA, ct.UNORM_INT8, np.uint8, 4),
        (ARGB, ct.UNSIGNED_INT8, np.uint8, 4),
        (co.A, ct.FLOAT, np.float32, 1),
        (co.R, ct.SNORM_INT16, np.int16, 1),
        (co.RGBA, ct.UNSIGNED_INT32, np.uint32, 4),
        (co.RGBA, ct.SIGNED_INT8, np.int8, 4),
        (co.RGBA, ct.UNORM_INT16, np.uint16, 4),
    ],
    ids=["BGRA-unorm8", "ARGB-uint8", "A-float", "R-snorm16", "RGBA-uint32", "RGBA-int8", "RGBA-unorm16"],
)
def test_round_trip_more_formats(cq, kind, order, channel_type, dtype, nch):
    ctx, queue = cq
    round_trip(ctx, queue, kind, cl.ImageFormat(order, channel_type), dtype, nch)


def round_trip(ctx, queue, kind, fmt, dtype, nch):
    channel_type = fmt.channel_data_type
    img = make_image(ctx, kind, fmt)
    rng = np.random.default_rng([sorted(TYPES).index(kind), nch, channel_type])
    mshape = model_shape(kind, img.shape)
    model = random_pixels(rng, mshape + (nch,), dtype)
    cl.enqueue_copy(queue, img, model, origin=(0,), region=img.shape)
    assert same_bytes(read_all(queue, img, kind, nch, dtype), model)
    # a sub-region write then reads of the whole and of another sub-region
    dims = len(img.shape)
    origin = tuple(int(rng.integers(0, n)) for n in img.shape)
    region = tuple(int(rng.integers(1, n - o + 1)) for n, o in zip(img.shape, origin))
    o3 = origin + (0,) * (3 - dims)
    r3 = region + (1,) * (3 - dims)
    patch = random_pixels(rng, (r3[2], r3[1], r3[0], nch), dtype)
    ev = cl.enqueue_copy(queue, img, patch, origin=origin, region=region)
    assert isinstance(ev, cl.NannyEvent) and ev.get_ward() is patch
    model[o3[2] : o3[2] + r3[2], o3[1] : o3[1] + r3[1], o3[0] : o3[0] + r3[0]] = patch
    assert same_bytes(read_all(queue, img, kind, nch, dtype), model)
    sub = np.empty((r3[2], r3[1], r3[0], nch), dtype)
    cl.enqueue_copy(queue, sub, img, origin=origin, region=region)
    assert same_bytes(sub, model[o3[2] : o3[2] + r3[2], o3[1] : o3[1] + r3[1], o3[0] : o3[0] + r3[0]])


@pytest.mark.parametrize("kind", ["2d", "3d", "1d_array", "2d_array"])
def test_host_pitches(cq, kind):
    """Host arrays with padded rows/slices, via pitches, vs numpy slicing."""
    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8)
    img = make_image(ctx, kind, fmt)
    rng = np.random.default_rng(7)
    mshape = model_shape(kind, img.shape)
    s, r, w = mshape
    # host buffer with 3 spare pixels per row and 2 spare rows per slice
    if kind == "1d_array":
        host = random_pixels(rng, (r, w + 3, 4), np.uint8)  # layers (w + 3) * 4 bytes apart
        pitches = ((w + 3) * 4,)
        view = host[:, :w][None]
    else:
        host = random_pixels(rng, (s, r + 2, w + 3, 4), np.uint8)
        pitches = ((w + 3) * 4, (r + 2) * (w + 3) * 4) if kind != "2d" else ((w + 3) * 4,)
        if kind == "2d":
            host = host[:1]
        view = host[:, :r, :w]
    cl.enqueue_copy(queue, img, host, origin=(0, 0, 0), region=img.shape, pitches=pitches)
    model = np.ascontiguousarray(view.reshape(mshape + (4,)))
    assert np.array_equal(read_all(queue, img, kind, 4, np.uint8), model)
    back = np.zeros_like(host)
    cl.enqueue_copy(queue, back, img, origin=(0, 0, 0), region=img.shape, pitches=pitches)
    expected = np.zeros_like(host)
    if kind == "1d_array":
        expected[:, :w] = model[0]
    else:
        expected[:, :r, :w] = model
    assert np.array_equal(back, expected)  # padding untouched


def test_non_blocking_read_keeps_ward(cq):
    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.FLOAT)
    host = np.random.default_rng(3).random((16, 16, 4)).astype(np.float32)
    img = cl.image_from_array(ctx, host, 4)
    out = np.empty_like(host)
    ev = cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(16, 16), is_blocking=False)
    assert isinstance(ev, cl.NannyEvent) and ev.get_ward() is out
    ev.wait()
    assert np.array_equal(out, host)
    assert fmt == img.format


# }}}


# {{{ buffer <-> image and image <-> image


@pytest.mark.parametrize("kind", list(TYPES))
def test_buffer_image_copies(cq, kind):
    ctx, queue = cq
    if kind == "1d_array" and ctx.devices[0].platform.name == "NVIDIA CUDA":
        pytest.skip(
            "NVIDIA OpenCL (CUDA 13.0) refuses buffer<->1D image array copies past layer 0 with "
            "CL_INVALID_VALUE (docs/quirks.md)"
        )
    fmt = cl.ImageFormat(co.RGBA, ct.SIGNED_INT16)
    img = make_image(ctx, kind, fmt)
    rng = np.random.default_rng(11)
    mshape = model_shape(kind, img.shape)
    model = random_pixels(rng, mshape + (4,), np.int16)
    cl.enqueue_copy(queue, img, model, origin=(0, 0, 0), region=img.shape)
    raw = random_pixels(rng, (4096,), np.uint8)
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=raw)
    dims = len(img.shape)
    origin = tuple(n // 3 for n in img.shape)
    region = tuple(n - n // 3 for n in img.shape)
    o3, r3 = origin + (0,) * (3 - dims), region + (1,) * (3 - dims)
    nbytes = r3[0] * r3[1] * r3[2] * 8
    # buffer -> image at offset 16
    ev = cl.enqueue_copy(queue, img, buf, offset=16, origin=origin, region=region)
    assert type(ev) is cl.Event
    model[o3[2] : o3[2] + r3[2], o3[1] : o3[1] + r3[1], o3[0] : o3[0] + r3[0]] = (
        raw[16 : 16 + nbytes].view(np.int16).reshape(r3[2], r3[1], r3[0], 4)
    )
    assert np.array_equal(read_all(queue, img, kind, 4, np.int16), model)
    # image -> buffer at offset 100 (another region)
    origin2 = (0,) * dims
    region2 = tuple(max(1, n // 2) for n in img.shape)
    r23 = region2 + (1,) * (3 - dims)
    cl.enqueue_copy(queue, buf, img, origin=origin2, region=region2, offset=100)
    n2 = r23[0] * r23[1] * r23[2] * 8
    raw[100 : 100 + n2] = model[: r23[2], : r23[1], : r23[0]].reshape(-1).view(np.uint8)
    back = np.empty_like(raw)
    cl.enqueue_copy(queue, back, buf)
    assert np.array_equal(back, raw)
    with pytest.raises(cl.LogicError, match="past the end of src"):
        cl.enqueue_copy(queue, img, buf, offset=4096 - nbytes + 2, origin=origin, region=region)
    with pytest.raises(TypeError, match="offset must be an int, not NoneType"):
        cl.enqueue_copy(queue, img, buf, origin=origin, region=region)


@pytest.mark.parametrize("kind", ["2d", "3d", "2d_array", "1d", "1d_array"])
def test_image_image_copies(cq, kind):
    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.HALF_FLOAT)
    a = make_image(ctx, kind, fmt)
    b = make_image(ctx, kind, fmt)
    rng = np.random.default_rng(5)
    mshape = model_shape(kind, a.shape)
    ma = random_pixels(rng, mshape + (4,), np.float16)
    mb = random_pixels(rng, mshape + (4,), np.float16)
    cl.enqueue_copy(queue, a, ma, origin=(0,), region=a.shape)
    cl.enqueue_copy(queue, b, mb, origin=(0,), region=b.shape)
    dims = len(a.shape)
    region = tuple(max(1, n // 2) for n in a.shape)
    src_origin = tuple(n - r for n, r in zip(a.shape, region))
    dest_origin = (0,) * dims
    cl.enqueue_copy(queue, b, a, src_origin=src_origin, dest_origin=dest_origin, region=region)
    s3, d3 = src_origin + (0,) * (3 - dims), dest_origin + (0,) * (3 - dims)
    r3 = region + (1,) * (3 - dims)
    mb[d3[2] : d3[2] + r3[2], d3[1] : d3[1] + r3[1], d3[0] : d3[0] + r3[0]] = ma[
        s3[2] : s3[2] + r3[2], s3[1] : s3[1] + r3[1], s3[0] : s3[0] + r3[0]
    ]
    assert same_bytes(read_all(queue, b, kind, 4, np.float16), mb)
    # within one image, non-overlapping
    if a.shape[0] >= 2:
        half = (a.shape[0] // 2,) + a.shape[1:]
        cl.enqueue_copy(
            queue, a, a, src_origin=(0,) * dims, dest_origin=(a.shape[0] - half[0],) + (0,) * (dims - 1), region=half
        )
        h3 = half + (1,) * (3 - dims)
        ma[: h3[2], : h3[1], a.shape[0] - half[0] :] = ma[: h3[2], : h3[1], : half[0]].copy()
        assert same_bytes(read_all(queue, a, kind, 4, np.float16), ma)
    with pytest.raises(cl.LogicError, match="overlap"):
        cl.enqueue_copy(queue, a, a, src_origin=(0,) * dims, dest_origin=(0,) * dims, region=(1,) * dims)
    other = make_image(ctx, kind, cl.ImageFormat(co.RGBA, ct.FLOAT))
    with pytest.raises(cl.LogicError, match="equal formats") as info:
        cl.enqueue_copy(queue, other, a, src_origin=(0,), dest_origin=(0,), region=(1,))
    assert info.value.code == cl.status_code.IMAGE_FORMAT_MISMATCH


def test_copy_between_image_types(cq):
    """A 2D image into one slice of a 3D image (region depth 1)."""
    ctx, queue = cq
    fmt = cl.ImageFormat(co.R, ct.FLOAT)
    flat = make_image(ctx, "2d", fmt, (5, 4))
    vol = make_image(ctx, "3d", fmt, (5, 4, 3))
    data = np.arange(20, dtype=np.float32).reshape(4, 5, 1)
    cl.enqueue_copy(queue, flat, data, origin=(0, 0), region=(5, 4))
    cl.enqueue_copy(queue, vol, np.zeros((3, 4, 5, 1), np.float32), origin=(0, 0, 0), region=(5, 4, 3))
    cl.enqueue_copy(queue, vol, flat, src_origin=(0, 0, 0), dest_origin=(0, 0, 2), region=(5, 4, 1))
    expected = np.zeros((3, 4, 5, 1), np.float32)
    expected[2] = data
    assert np.array_equal(read_all(queue, vol, "3d", 1, np.float32), expected)
    with pytest.raises(cl.LogicError, match="axis 2"):
        cl.enqueue_copy(queue, vol, flat, src_origin=(0, 0, 0), dest_origin=(0, 0, 0), region=(5, 4, 2))


# }}}


# {{{ fills and maps


@pytest.mark.parametrize("kind", list(TYPES))
@pytest.mark.parametrize(
    "channel_type,color",
    [
        (ct.FLOAT, np.array([1.5, -2.0, 3.25, 4.0], np.float32)),
        (ct.UNSIGNED_INT8, np.array([7, 200, 3, 255], np.uint32)),
        (ct.SIGNED_INT16, np.array([-5, 300, -32768, 32767], np.int32)),
        (ct.HALF_FLOAT, np.array([0.5, -1.0, 2.0, 8.0], np.float32)),
    ],
    ids=["float", "uint8", "int16", "half"],
)
def test_fill(cq, kind, channel_type, color):
    ctx, queue = cq
    dtype = {ct.FLOAT: np.float32, ct.UNSIGNED_INT8: np.uint8, ct.SIGNED_INT16: np.int16, ct.HALF_FLOAT: np.float16}[
        channel_type
    ]
    fmt = cl.ImageFormat(co.RGBA, channel_type)
    img = make_image(ctx, kind, fmt)
    mshape = model_shape(kind, img.shape)
    model = np.zeros(mshape + (4,), dtype)
    cl.enqueue_copy(queue, img, model, origin=(0,), region=img.shape)
    dims = len(img.shape)
    origin = tuple(n // 2 for n in img.shape)
    region = tuple(n - n // 2 for n in img.shape)
    o3, r3 = origin + (0,) * (3 - dims), region + (1,) * (3 - dims)
    ev = cl.enqueue_fill_image(queue, img, color, origin, region)
    assert type(ev) is cl.Event
    model[o3[2] : o3[2] + r3[2], o3[1] : o3[1] + r3[1], o3[0] : o3[0] + r3[0]] = color.astype(dtype)
    assert same_bytes(read_all(queue, img, kind, 4, dtype), model)


def test_fill_errors(cq):
    ctx, queue = cq
    img = make_image(ctx, "2d", cl.ImageFormat(co.RGBA, ct.FLOAT))
    with pytest.raises(cl.LogicError, match="16 bytes"):
        cl.enqueue_fill_image(queue, img, np.zeros(3, np.float32), (0, 0), (1, 1))
    with pytest.raises(cl.LogicError, match="filled with float32"):
        cl.enqueue_fill_image(queue, img, np.zeros(4, np.int32), (0, 0), (1, 1))
    with pytest.raises(cl.LogicError, match="origin"):
        cl.enqueue_fill_image(queue, img, np.zeros(4, np.float32), (8, 0), (2, 1))
    with pytest.raises(TypeError):
        cl.enqueue_fill_image(queue, cl.Buffer(ctx, mf.READ_WRITE, 64), np.zeros(4, np.float32), (0,), (1,))


@pytest.mark.parametrize("kind", list(TYPES))
def test_map_honours_pitches(cq, kind):
    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8)
    img = make_image(ctx, kind, fmt)
    rng = np.random.default_rng(13)
    mshape = model_shape(kind, img.shape)
    model = random_pixels(rng, mshape + (4,), np.uint8)
    cl.enqueue_copy(queue, img, model, origin=(0,), region=img.shape)
    dims = len(img.shape)
    origin = tuple(n // 3 for n in img.shape)
    region = tuple(n - n // 3 for n in img.shape)
    o3, r3 = origin + (0,) * (3 - dims), region + (1,) * (3 - dims)
    expect = model[o3[2] : o3[2] + r3[2], o3[1] : o3[1] + r3[1], o3[0] : o3[0] + r3[0]]
    # C order, numpy shape without unit axes: (…, rows, width, 4)
    shape = tuple(n for n in (r3[2], r3[1]) if n > 1) + (r3[0], 4)
    ary, ev, row_pitch, slice_pitch = cl.enqueue_map_image(
        queue, img, cl.map_flags.READ | cl.map_flags.WRITE, origin, region, shape, np.uint8
    )
    assert isinstance(ary.base, cl.MemoryMap)
    # The array's strides are the driver's pitches (a 1D array's layers are a
    # row pitch apart; for a 1D image PoCL 3.x reports a row pitch of 0).
    if len(shape) > 2:
        assert row_pitch >= r3[0] * 4
    assert ary.strides[-2:] == (4, 1)
    if len(shape) > 2:
        assert ary.strides[-3] == (slice_pitch or row_pitch if kind == "1d_array" else row_pitch)
    if len(shape) > 3:
        assert ary.strides[-4] == slice_pitch
    assert np.array_equal(ary, expect.reshape(shape))
    ary[...] = 255 - ary
    ary.base.release()
    model[o3[2] : o3[2] + r3[2], o3[1] : o3[1] + r3[1], o3[0] : o3[0] + r3[0]] = 255 - expect
    assert np.array_equal(read_all(queue, img, kind, 4, np.uint8), model)
    # a vector dtype, Fortran order: shape is the region itself
    with cl.enqueue_map_image(queue, img, cl.map_flags.READ, origin, region, region, cltypes.uchar4, order="F")[
        0
    ].base as m:
        pass
    assert m.is_released
    ary = cl.enqueue_map_image(queue, img, cl.map_flags.READ, origin, region, region, cltypes.uchar4, order="F")[0]
    assert ary.shape == region
    part = model[o3[2] : o3[2] + r3[2], o3[1] : o3[1] + r3[1], o3[0] : o3[0] + r3[0]].reshape(region[::-1] + (4,))
    for c in range(4):  # F order: ary[x, y, z] is pixel (x, y, z)
        assert np.array_equal(ary["s%d" % c], part[..., c].transpose())
    ary.base.release()
    with pytest.raises(cl.LogicError, match="released"):
        ary.base.release()


@pytest.mark.parametrize(
    "spec, shape",
    [
        (np.uint8, (5, 6, 4)),
        (np.uint32, (5, 6)),
        (cltypes.uchar4, (5, 6)),
        ("(4,)u1", (5, 6)),
        (np.dtype([("r", "u1"), ("g", "u1"), ("b", "u1"), ("a", "u1")]), (5, 6)),
    ],
)
def test_map_dtype_forms(cq, spec, shape):
    """Plain dtypes take the one-pass path; fields and subarrays the general
    one: each gives numpy's array over the region's pixels."""
    ctx, queue = cq
    img = make_image(ctx, "2d", cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8))
    model = random_pixels(np.random.default_rng(5), model_shape("2d", img.shape) + (4,), np.uint8)
    cl.enqueue_copy(queue, img, model, origin=(0, 0), region=img.shape)
    part = np.ascontiguousarray(model[0, 2:7, 1:7])
    expected = np.ndarray(shape, np.dtype(spec), buffer=part.tobytes())
    for _ in range(2):  # the second call finds its dtype remembered
        ary = cl.enqueue_map_image(queue, img, cl.map_flags.READ, (1, 2), (6, 5), shape, spec)[0]
        assert (ary.dtype, ary.shape) == (expected.dtype, expected.shape)
        assert same_bytes(ary, expected)
        ary.base.release().wait()


def test_map_errors(cq):
    ctx, queue = cq
    img = make_image(ctx, "2d", cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8))
    with pytest.raises(cl.LogicError, match="holds 24 bytes"):
        cl.enqueue_map_image(queue, img, cl.map_flags.READ, (0, 0), (2, 2), (2, 3, 4), np.uint8)
    with pytest.raises(cl.LogicError, match="does not split"):
        cl.enqueue_map_image(queue, img, cl.map_flags.READ, (0, 0), (4, 2), (4, 8), np.uint8)
    with pytest.raises(cl.LogicError, match="maps no pixels"):
        cl.enqueue_map_image(queue, img, cl.map_flags.READ, (0, 0), (0, 2), (0,), np.uint8)
    with pytest.raises(cl.LogicError, match="origin"):
        cl.enqueue_map_image(queue, img, cl.map_flags.READ, (8, 0), (2, 2), (2, 2, 4), np.uint8)
    with pytest.raises(cl.LogicError, match="reaches byte"):
        cl.enqueue_map_image(queue, img, cl.map_flags.READ, (0, 0), (2, 2), (2, 2, 4), np.uint8, strides=(10**6, 4, 1))
    # explicit strides inside the map are honoured as given
    ary = cl.enqueue_map_image(queue, img, cl.map_flags.READ, (0, 0), (2, 1), (8,), np.uint8, strides=(1,))[0]
    ary.base.release()


# }}}


# {{{ validation of transfers


def test_transfer_validation(cq):
    ctx, queue = cq
    img = make_image(ctx, "2d", cl.ImageFormat(co.RGBA, ct.FLOAT))  # 9 x 7
    host = np.zeros((7, 9, 4), np.float32)
    with pytest.raises(cl.LogicError, match=r"origin = \(5, 0, 0\) with region = \(5, 7, 1\) reaches 10 on axis 0"):
        cl.enqueue_copy(queue, host, img, origin=(5, 0), region=(5, 7))
    with pytest.raises(cl.LogicError, match="axis 2"):
        cl.enqueue_copy(queue, host, img, origin=(0, 0, 1), region=(1, 1))
    with pytest.raises(cl.LogicError, match="spans 1008 bytes; dest"):
        cl.enqueue_copy(queue, host[:6], img, origin=(0, 0), region=(9, 7))
    with pytest.raises(cl.LogicError, match="row pitch"):
        cl.enqueue_copy(queue, host, img, origin=(0, 0), region=(9, 7), pitches=(100,))
    with pytest.raises(cl.LogicError, match="slice pitch"):
        cl.enqueue_copy(queue, host, img, origin=(0, 0), region=(9, 7), pitches=(144, 2000))
    with pytest.raises(cl.LogicError, match="negative"):
        cl.enqueue_copy(queue, host, img, origin=(-1, 0), region=(1, 1))
    with pytest.raises(cl.LogicError, match="1 to 3 entries"):
        cl.enqueue_copy(queue, host, img, origin=(0, 0, 0, 0), region=(1, 1))
    with pytest.raises(TypeError):
        cl.enqueue_copy(queue, host, img, origin="00", region=(1, 1))
    with pytest.raises(TypeError, match="origin must be a tuple of 1 to 3 ints, not NoneType"):
        cl.enqueue_copy(queue, host, img)
    with pytest.raises(TypeError, match="unexpected keyword"):
        cl.enqueue_copy(queue, host, img, origin=(0, 0), region=(1, 1), src_offset=3)
    with pytest.raises(TypeError, match="not contiguous"):
        cl.enqueue_copy(queue, host[:, ::2], img, origin=(0, 0), region=(1, 1))
    with pytest.raises(cl.LogicError, match="read-only"):
        ro = host.copy()
        ro.flags.writeable = False
        cl.enqueue_copy(queue, ro, img, origin=(0, 0), region=(1, 1))
    # zero regions enqueue a marker
    ev = cl.enqueue_copy(queue, host, img, origin=(0, 0), region=(0, 7))
    assert isinstance(ev, cl.NannyEvent)
    img.release()
    with pytest.raises(cl.LogicError, match="released"):
        cl.enqueue_copy(queue, host, img, origin=(0, 0), region=(1, 1))


def test_host_access_flags(cq):
    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.FLOAT)
    if not supported(ctx, fmt, mot.IMAGE2D, mf.READ_WRITE | mf.HOST_WRITE_ONLY):
        pytest.skip("format not supported")
    img = cl.create_image(ctx, mf.READ_WRITE | mf.HOST_WRITE_ONLY, fmt, (2, 2))
    with pytest.raises(cl.LogicError, match="HOST_WRITE_ONLY"):
        cl.enqueue_copy(queue, np.zeros((2, 2, 4), np.float32), img, origin=(0, 0), region=(2, 2))
    cl.enqueue_copy(queue, img, np.zeros((2, 2, 4), np.float32), origin=(0, 0), region=(2, 2))


# }}}


# {{{ image_from_array


@pytest.mark.parametrize("dtype,channel_type", CHANNEL_TYPES, ids=lambda v: getattr(v, "__name__", str(v)))
@pytest.mark.parametrize("nch", [1, 2, 4])
@pytest.mark.parametrize("ndim", [1, 2, 3])
def test_image_from_array(cq, dtype, channel_type, nch, ndim):
    ctx, queue = cq
    shape = (3, 5, 7)[-ndim:]
    rng = np.random.default_rng(17)
    ary = random_pixels(rng, shape + ((nch,) if nch > 1 else ()), dtype)
    order = {1: co.R, 2: co.RG, 4: co.RGBA}[nch]
    image_type = {1: mot.IMAGE1D, 2: mot.IMAGE2D, 3: mot.IMAGE3D}[ndim]
    if not supported(ctx, cl.ImageFormat(order, channel_type), image_type, mf.READ_ONLY):
        pytest.skip("format not supported")
    img = cl.image_from_array(ctx, ary, num_channels=nch if nch > 1 else None)
    assert img.shape == shape[::-1]  # reversed indices
    assert img.format == cl.ImageFormat(order, channel_type)
    assert img.flags & mf.READ_ONLY
    out = np.empty_like(ary)
    cl.enqueue_copy(queue, out, img, origin=(0,), region=img.shape)
    assert same_bytes(out, ary)
    # pixel ary[..., i, j] is image pixel (j, i, ...)
    idx = tuple(n - 1 for n in shape)
    one = np.empty((nch,), dtype)
    cl.enqueue_copy(queue, one, img, origin=idx[::-1], region=(1,) * ndim)
    assert same_bytes(one, ary[idx])


def test_image_from_array_vector_dtypes_and_errors(cq):
    ctx, queue = cq
    ary = np.zeros((4, 6), cltypes.float4)
    ary["x"] = np.arange(24).reshape(4, 6)
    img = cl.image_from_array(ctx, ary)
    assert img.format == cl.ImageFormat(co.RGBA, ct.FLOAT) and img.shape == (6, 4)
    out = np.empty((4, 6, 4), np.float32)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(6, 4))
    assert np.array_equal(out[..., 0], ary["x"])
    norm = cl.image_from_array(ctx, np.zeros((4, 4, 4), np.uint8), 4, mode="w", norm_int=True)
    assert norm.format == cl.ImageFormat(co.RGBA, ct.UNORM_INT8) and norm.flags & mf.WRITE_ONLY
    with pytest.raises(cl.LogicError, match="C-contiguous"):
        cl.image_from_array(ctx, np.zeros((4, 4), np.float32).T)
    with pytest.raises(cl.LogicError, match="last axis"):
        cl.image_from_array(ctx, np.zeros((4, 3), np.float32), 4)
    with pytest.raises(cl.LogicError, match="mode"):
        cl.image_from_array(ctx, np.zeros((4, 4), np.float32), mode="rw")
    with pytest.raises(cl.LogicError, match="no channel type"):
        cl.image_from_array(ctx, np.zeros((4, 4), np.float64))
    with pytest.raises(cl.LogicError, match="no normalized channel type"):
        cl.image_from_array(ctx, np.zeros((4, 4), np.float32), norm_int=True)
    with pytest.raises(cl.LogicError, match="1, 2, 3 or 4"):
        cl.image_from_array(ctx, np.zeros((4, 5), np.float32), 5)


# }}}


# {{{ kernels


SAMPLE_SOURCE = """
__kernel void sample(__read_only image2d_t img, sampler_t smp, __global float4 *out, int w)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * w + x] = read_imagef(img, smp, (int2)(x, y));
}

__kernel void sample_shifted(__read_only image2d_t img, sampler_t smp, __global float4 *out, int w)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * w + x] = read_imagef(img, smp, (int2)(x - 1, y + 1));
}

__kernel void write_img(__write_only image2d_t img)
{
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(img, (int2)(x, y), (float4)(x, y, x + y, 1.0f));
}
"""


def test_kernel_samples_image(cq, ctx_factory):
    require_kernel_compiler(ctx_factory.device)
    ctx, queue = cq
    h, w = 6, 10
    ary = np.random.default_rng(19).random((h, w, 4)).astype(np.float32)
    img = cl.image_from_array(ctx, ary, 4)
    prg = cl.Program(ctx, SAMPLE_SOURCE).build()
    out = cl.Buffer(ctx, mf.WRITE_ONLY, ary.nbytes)
    smp = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
    prg.sample(queue, (w, h), None, img, smp, out, np.int32(w))
    got = np.empty_like(ary)
    cl.enqueue_copy(queue, got, out)
    assert np.array_equal(got, ary)
    # CLAMP_TO_EDGE: coordinates outside the image read the nearest edge pixel
    prg.sample_shifted(queue, (w, h), None, img, smp, out, np.int32(w))
    cl.enqueue_copy(queue, got, out)
    ys = np.clip(np.arange(h) + 1, 0, h - 1)
    xs = np.clip(np.arange(w) - 1, 0, w - 1)
    assert np.array_equal(got, ary[ys][:, xs])
    # CLAMP: outside reads the border colour (0, 0, 0, 0 for RGBA)
    border = cl.Sampler(
        ctx,
        properties=[
            cl.sampler_properties.NORMALIZED_COORDS,
            0,
            cl.sampler_properties.ADDRESSING_MODE,
            cl.addressing_mode.CLAMP,
            cl.sampler_properties.FILTER_MODE,
            cl.filter_mode.NEAREST,
        ],
    )
    prg.sample_shifted(queue, (w, h), None, img, border, out, np.int32(w))
    cl.enqueue_copy(queue, got, out)
    expected = np.zeros_like(ary)
    expected[: h - 1, 1:] = ary[1:, : w - 1]
    assert np.array_equal(got, expected)
    smp.release()
    with pytest.raises(cl.LogicError, match="released"):
        prg.sample(queue, (w, h), None, img, smp, out, np.int32(w))


def test_kernel_writes_image(cq, ctx_factory):
    require_kernel_compiler(ctx_factory.device)
    ctx, queue = cq
    h, w = 5, 7
    img = cl.create_image(ctx, mf.WRITE_ONLY, cl.ImageFormat(co.RGBA, ct.FLOAT), (w, h))
    prg = cl.Program(ctx, SAMPLE_SOURCE).build()
    prg.write_img(queue, (w, h), None, img)
    got = np.empty((h, w, 4), np.float32)
    cl.enqueue_copy(queue, got, img, origin=(0, 0), region=(w, h))
    y, x = np.mgrid[:h, :w].astype(np.float32)
    assert np.array_equal(got, np.stack([x, y, x + y, np.ones_like(x)], axis=-1))


# }}}


def test_memory_object_from_int_ptr_gives_the_handle_class(cq):
    """As in PyOpenCL, MemoryObject.from_int_ptr wraps a handle in its own
    class, so that transfers take it: an image comes back as an Image."""
    ctx, queue = cq
    fmt = cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8)
    img = cl.create_image(ctx, mf.READ_WRITE, fmt, (8, 4))
    generic = cl.MemoryObject.from_int_ptr(img.int_ptr)
    assert type(generic) is cl.Image and generic == img and generic.shape == (8, 4)
    data = np.random.default_rng(3).integers(0, 256, (4, 8, 4), dtype=np.uint8)
    cl.enqueue_copy(queue, generic, data, origin=(0, 0), region=(8, 4))
    out = np.zeros_like(data)
    cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(8, 4))
    np.testing.assert_array_equal(out, data)
    buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
    assert type(cl.MemoryObject.from_int_ptr(buf.int_ptr)) is cl.Buffer
