"""Hypothesis tests of image origins, regions and pitches, valid and invalid.

A numpy model of each image (``model[slice_or_layer, row_or_layer, x, channel]``)
is the oracle: a valid transfer must match numpy slicing, an invalid one must
raise ``LogicError`` (nothing reaches the driver) and leave the image as the
model says. Validity is decided here from the shapes alone, independently of
pycl's checks."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pycl as cl

mf = cl.mem_flags
FMT = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
KINDS = {
    # kind: (mem_object_type, is_array, ndim)
    "1d": (cl.mem_object_type.IMAGE1D, False, 1),
    "1d_array": (cl.mem_object_type.IMAGE1D_ARRAY, True, 2),
    "2d": (cl.mem_object_type.IMAGE2D, False, 2),
    "2d_array": (cl.mem_object_type.IMAGE2D_ARRAY, True, 3),
    "3d": (cl.mem_object_type.IMAGE3D, False, 3),
}

kinds = st.sampled_from(sorted(KINDS))
coordinate = st.integers(-2, 9)
extent = st.integers(-1, 9)


def axes(shape):
    """(slices, rows, width) of the model, from the image shape alone."""
    padded = tuple(shape) + (1,) * (3 - len(shape))
    return padded[::-1]


def box(kind, origin, region):
    """Padded origin and region, and whether they are valid for ``kind``'s
    image of shape ``SHAPES[kind]`` (the oracle)."""
    o = tuple(origin) + (0,) * (3 - len(origin))
    r = tuple(region) + (1,) * (3 - len(region))
    ext = tuple(SHAPES[kind]) + (1,) * (3 - len(SHAPES[kind]))
    ok = all(v >= 0 for v in o + r) and all(a + b <= n for a, b, n in zip(o, r, ext))
    return o, r, ok


SHAPES = {"1d": (9,), "1d_array": (7, 4), "2d": (6, 5), "2d_array": (5, 4, 3), "3d": (4, 3, 5)}


@pytest.fixture
def images(ctx_factory):
    device = ctx_factory.device
    if not device.image_support:
        pytest.skip("%s has no image support" % device.name)
    ctx = ctx_factory()
    queue = cl.CommandQueue(ctx)
    rng = np.random.default_rng(0)
    made = {}
    for kind, (_image_type, is_array, _) in KINDS.items():
        img = cl.create_image(ctx, mf.READ_WRITE, FMT, SHAPES[kind], is_array=is_array)
        model = rng.integers(0, 256, axes(SHAPES[kind]) + (4,), dtype=np.uint8)
        cl.enqueue_copy(queue, img, model, origin=(0,), region=SHAPES[kind])
        made[kind] = (img, model)
    return queue, made


def read_whole(queue, img, kind):
    out = np.empty(axes(SHAPES[kind]) + (4,), np.uint8)
    cl.enqueue_copy(queue, out, img, origin=(0,), region=SHAPES[kind])
    return out


def test_fuzz_read_write(images):
    queue, made = images

    @given(
        kind=kinds,
        origin=st.lists(coordinate, min_size=1, max_size=3),
        region=st.lists(extent, min_size=1, max_size=3),
        write=st.booleans(),
        short_host=st.booleans(),
        seed=st.integers(0, 2**32 - 1),
    )
    def check(kind, origin, region, write, short_host, seed):
        img, model = made[kind]
        o, r, ok = box(kind, origin, region)
        shape = (max(r[2], 0), max(r[1], 0), max(r[0], 0), 4)
        host = np.random.default_rng(seed).integers(0, 256, shape, dtype=np.uint8)
        if short_host and host.size:
            host = host.reshape(-1)[:-1]  # one byte too few
            ok = False
        if ok:
            if write:
                cl.enqueue_copy(queue, img, host, origin=tuple(origin), region=tuple(region))
                model[o[2] : o[2] + r[2], o[1] : o[1] + r[1], o[0] : o[0] + r[0]] = host
            else:
                cl.enqueue_copy(queue, host, img, origin=tuple(origin), region=tuple(region))
                assert np.array_equal(host, model[o[2] : o[2] + r[2], o[1] : o[1] + r[1], o[0] : o[0] + r[0]])
        else:
            with pytest.raises(cl.LogicError) as info:
                if write:
                    cl.enqueue_copy(queue, img, host, origin=tuple(origin), region=tuple(region))
                else:
                    cl.enqueue_copy(queue, host, img, origin=tuple(origin), region=tuple(region))
            assert info.value.routine == "enqueue_copy"
        assert np.array_equal(read_whole(queue, img, kind), model)

    check()


def test_fuzz_host_pitches(images):
    """Padded host layouts: valid pitches move exactly the region's pixels."""
    queue, made = images

    @given(
        kind=kinds,
        pad_row=st.integers(-2, 3),
        pad_slice=st.integers(-1, 2),
        spare=st.integers(-5, 5),
        seed=st.integers(0, 2**32 - 1),
    )
    def check(kind, pad_row, pad_slice, spare, seed):
        img, model = made[kind]
        shape = SHAPES[kind]
        slices, rows, width = axes(shape)
        row = (width + pad_row) * 4
        if kind == "1d_array":
            slice_ = row + pad_slice * 4  # the layer distance
            need = (rows - 1) * slice_ + width * 4
            ok = row >= width * 4 and slice_ >= row
            pitches = (row, slice_)
        elif kind in ("1d", "2d"):
            need = (rows - 1) * row + width * 4
            ok = row >= width * 4
            pitches = (row,)
        else:
            slice_ = (rows + pad_slice) * row
            need = (slices - 1) * slice_ + (rows - 1) * row + width * 4
            ok = row >= width * 4 and slice_ >= rows * row
            pitches = (row, slice_)
        size = max(need + spare, 0)
        ok = ok and spare >= 0
        host = np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8)
        if not ok:
            with pytest.raises(cl.LogicError):
                cl.enqueue_copy(queue, img, host, origin=(0,), region=shape, pitches=pitches)
            assert np.array_equal(read_whole(queue, img, kind), model)
            return
        cl.enqueue_copy(queue, img, host, origin=(0,), region=shape, pitches=pitches)
        # the oracle: pixel (x, y, z) at x*4 + y*ystride + z*zstride
        ystride = pitches[1] if kind == "1d_array" else row
        zstride = pitches[1] if kind in ("2d_array", "3d") else 0
        idx = (
            np.arange(slices)[:, None, None, None] * zstride
            + np.arange(rows)[None, :, None, None] * ystride
            + np.arange(width)[None, None, :, None] * 4
            + np.arange(4)
        )
        model[...] = host[idx]
        assert np.array_equal(read_whole(queue, img, kind), model)
        back = np.zeros_like(host)
        cl.enqueue_copy(queue, back, img, origin=(0,), region=shape, pitches=pitches)
        assert np.array_equal(back[idx], model)
        mask = np.ones(host.shape, bool)
        mask[idx] = False
        assert not back[mask].any()  # bytes outside the pixels are untouched

    check()


def test_fuzz_image_copies_and_fills(images):
    queue, made = images

    @given(
        src_kind=kinds,
        dst_kind=kinds,
        src_origin=st.lists(coordinate, min_size=1, max_size=3),
        dst_origin=st.lists(coordinate, min_size=1, max_size=3),
        region=st.lists(extent, min_size=1, max_size=3),
        fill=st.booleans(),
        color=st.lists(st.integers(0, 255), min_size=4, max_size=4),
    )
    def check(src_kind, dst_kind, src_origin, dst_origin, region, fill, color):
        dst, dmodel = made[dst_kind]
        do, r, ok = box(dst_kind, dst_origin, region)
        if fill:
            pattern = np.array(color, np.uint32)
            if ok:
                cl.enqueue_fill_image(queue, dst, pattern, tuple(dst_origin), tuple(region))
                dmodel[do[2] : do[2] + r[2], do[1] : do[1] + r[1], do[0] : do[0] + r[0]] = pattern.astype(np.uint8)
            else:
                with pytest.raises(cl.LogicError):
                    cl.enqueue_fill_image(queue, dst, pattern, tuple(dst_origin), tuple(region))
        else:
            src, smodel = made[src_kind]
            so, _, src_ok = box(src_kind, src_origin, region)
            ok = ok and src_ok
            if ok and src_kind == dst_kind and 0 not in r:
                if all(abs(a - b) < n for a, b, n in zip(so, do, r)):
                    ok = False  # overlapping copy within one image
            kwargs = dict(src_origin=tuple(src_origin), dest_origin=tuple(dst_origin), region=tuple(region))
            if ok:
                cl.enqueue_copy(queue, dst, src, **kwargs)
                dmodel[do[2] : do[2] + r[2], do[1] : do[1] + r[1], do[0] : do[0] + r[0]] = smodel[
                    so[2] : so[2] + r[2], so[1] : so[1] + r[1], so[0] : so[0] + r[0]
                ].copy()
            else:
                with pytest.raises(cl.LogicError):
                    cl.enqueue_copy(queue, dst, src, **kwargs)
        assert np.array_equal(read_whole(queue, dst, dst_kind), dmodel)

    check()
