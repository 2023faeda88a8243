"""The one-pass paths of the small calls against the general paths.

Buffer and image maps, rect and image-region host copies and
``enqueue_fill_image`` take their common call in one pass and leave
anything else to a general path that checks again and names the mistake
(docs/design.md, "Errors and argument checks"). A CommandQueue subclass takes
every general path (the one-pass paths ask for ``type(queue) is
CommandQueue``), so each call below runs twice, once on each queue. The
arguments are drawn valid, then given one mistake of the kind each test's
parameter names (a value out of range, of the wrong type or spelling, a host
array too small, read-only or strided, a memory object that the host may not
access, that was released or belongs to another context, a wait list). Both calls must raise the same
exception with the same message, or both must succeed and match a numpy
model of the memory. Runs on every device.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pycl as cl
import pycl._buffer_copy
import pycl._image_copy
import pycl._image_fill_map
import pycl._rect
import pycl.mapping
import pycl.transfer

mf = cl.mem_flags
MAP = cl.map_flags
BUF_SIZE = 384
FMT = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
IMAGE_SHAPES = {"1d": ((9,), False), "1d_array": ((7, 4), True), "2d": ((6, 5), False), "3d": ((4, 3, 5), False)}


class GeneralQueue(cl.CommandQueue):
    """A queue whose every call takes the general path."""


def outcome(function, *args, **kwargs):
    """``("raised", type, message)`` or ``("returned", value)`` of a call."""
    try:
        return ("returned", function(*args, **kwargs))
    except Exception as error:  # noqa: BLE001  (any exception must match)
        return ("raised", type(error), str(error))


def both_failed(fast, general):
    """True when both calls failed alike, False when both succeeded."""
    assert fast[0] == general[0], (fast, general)
    if fast[0] == "raised":
        assert fast[1:] == general[1:]
        return True
    return False


def padded(value, pad):
    return tuple(value) + (pad,) * (3 - len(value))


# {{{ drawing arguments: valid, then maybe one mistake

JUNK = [True, 1.0, "1", None, np.float32(1), -1, -(2**64), 2**63, 2**64]


@st.composite
def spelled(draw, values, pad):
    """``values`` (3 ints) as a caller may write them: trailing entries equal
    to ``pad`` left out, a tuple or a list, numpy integers."""
    values = list(values)
    while len(values) > 1 and values[-1] == pad and draw(st.booleans()):
        values.pop()
    how = draw(st.sampled_from(["tuple", "tuple", "tuple", "list", "numpy"]))
    if how == "list":
        return values
    if how == "numpy":
        return tuple(np.int64(v) for v in values)
    return tuple(values)


@st.composite
def broken(draw, value):
    """``value`` (a tuple or list of ints, or an int) with one mistake."""
    how = draw(st.sampled_from(["entry", "entry", "length", "type"]))
    if how == "type" or not isinstance(value, (tuple, list)):
        return draw(st.sampled_from(JUNK + [np.array([1, 2])]))
    if how == "length":
        return draw(st.sampled_from([(), tuple(value) + (0,) * (4 - len(value)) + (1,)]))
    entries = list(value)
    entries[draw(st.integers(0, len(entries) - 1))] = draw(st.sampled_from(JUNK + [0]))
    return type(value)(entries)


def maybe_broken(draw, name, value, mistake):
    return draw(broken(value)) if mistake == name else value


def wait_for_value(kind, ctx):
    if kind == "none":
        return None
    if kind == "empty":
        return []
    if kind == "object":
        return [object()]
    event = cl.UserEvent(ctx)
    event.set_status(cl.command_execution_status.COMPLETE)
    if kind == "released":
        event.release()
    return [event]


wait_fors = st.sampled_from(["none", "none", "none", "empty", "event", "released", "object"])


def host_array(kind, size, seed):
    data = np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8)
    if kind == "read-only":
        data.flags.writeable = False
    elif kind == "strided":
        data = np.repeat(data, 2)[::2]
    elif kind == "list":
        return list(data)
    return data


host_kinds = st.sampled_from(["plain", "plain", "read-only", "strided", "list"])


# }}}


@pytest.fixture
def setup(ctx_factory):
    ctx = ctx_factory()
    other = cl.Context([ctx_factory.device])
    queue, general = cl.CommandQueue(ctx), GeneralQueue(ctx)
    model = np.random.default_rng(1).integers(0, 256, BUF_SIZE, dtype=np.uint8)
    buffers = {
        "plain": cl.Buffer(ctx, mf.READ_WRITE, BUF_SIZE),
        "no host access": cl.Buffer(ctx, mf.READ_WRITE | mf.HOST_NO_ACCESS, BUF_SIZE),
        "other context": cl.Buffer(other, mf.READ_WRITE, BUF_SIZE),
        "released": cl.Buffer(ctx, mf.READ_WRITE, BUF_SIZE),
    }
    buffers["released"].release()
    cl.enqueue_copy(queue, buffers["plain"], model)
    return ctx, queue, general, buffers, model


bad_buffer_kinds = st.sampled_from(["no host access", "other context", "released"])


# {{{ rect copies between a buffer and the host


@st.composite
def rect_side(draw, region, size):
    """A valid (origin, pitches) for ``region`` in ``size`` bytes, most of
    the time (the region may not fit)."""
    rx, ry, rz = region
    row = draw(st.sampled_from([0, rx, rx + draw(st.integers(1, 9))]))
    row_used = row or rx
    slice_ = draw(st.sampled_from([0, ry * row_used, (ry + draw(st.integers(1, 2))) * row_used]))
    slice_used = slice_ or ry * row_used
    room = size - ((rz - 1) * slice_used + (ry - 1) * row_used + rx)
    z = draw(st.integers(0, max(0, room // slice_used)))
    y = draw(st.integers(0, max(0, (room - z * slice_used) // row_used)))
    x = draw(st.integers(0, max(0, room - z * slice_used - y * row_used)))
    if slice_:
        pitches = (row, slice_)
    elif row:
        pitches = (row,)
    else:
        pitches = draw(st.sampled_from([None, (), (0,), (0, 0)]))
    return (x, y, z), pitches


@st.composite
def bad_pitches(draw, region):
    """Pitches that do not fit ``region``: a row shorter than the region's,
    a slice shorter than its rows, a slice that is no multiple of the row."""
    rx, ry, _ = region
    row = rx + draw(st.integers(0, 3))
    return draw(st.sampled_from([(rx - 1,), (row, ry * row - 1), (row, ry * row + 1), (0, ry * rx - 1)]))


def rect_offsets(origin, region, pitches):
    """The byte offsets a rect side covers, in the order both sides pair them."""
    rx, ry, rz = region
    row = (tuple(pitches or ()) + (0, 0))[0] or rx
    slice_ = (tuple(pitches or ()) + (0, 0))[1] or ry * row
    start = origin[0] + origin[1] * row + origin[2] * slice_
    return np.array([start + z * slice_ + y * row + x for z in range(rz) for y in range(ry) for x in range(rx)], int)


RECT_MISTAKES = [
    "buffer_origin",
    "host_origin",
    "region",
    "empty region",
    "buffer_pitches",
    "host_pitches",
    "pitches that do not fit",
    "pitches past the limit",
    "host",
    "buffer",
    "wait",
]


@pytest.mark.parametrize("mistake", [None] + RECT_MISTAKES)
def test_rect_paths_agree(setup, mistake):
    ctx, queue, general, buffers, model = setup

    @given(st.data())
    def check(data):
        draw = data.draw
        reading = draw(st.booleans())
        region = (draw(st.integers(1, 8)), draw(st.integers(1, 4)), draw(st.integers(1, 3)))
        buffer_origin, buffer_pitches = draw(rect_side(region, BUF_SIZE))
        host_size = draw(st.integers(region[0] * region[1] * region[2], 300))
        host_origin, host_pitches = draw(rect_side(region, host_size))
        if mistake == "host":
            host_size = max(0, host_size - draw(st.integers(1, 200)))
        if mistake == "pitches past the limit":
            # One row: the pitches move no byte, so only their limit refuses them.
            region = (region[0], 1, 1)
            buffer_origin, host_origin = (buffer_origin[0], 0, 0), (host_origin[0], 0, 0)
            buffer_pitches = draw(st.sampled_from([(2**63,), (region[0], 2**63), (2**64,), (2**63 + 5, 2**63 + 5)]))
        if mistake == "empty region":
            axis = draw(st.integers(0, 2))
            region = tuple(0 if i == axis else n for i, n in enumerate(region))
        kwargs = {
            "buffer_origin": maybe_broken(draw, "buffer_origin", draw(spelled(buffer_origin, 0)), mistake),
            "host_origin": maybe_broken(draw, "host_origin", draw(spelled(host_origin, 0)), mistake),
            "region": maybe_broken(draw, "region", draw(spelled(region, 1)), mistake),
            "buffer_pitches": buffer_pitches,
            "host_pitches": host_pitches,
            "is_blocking": draw(st.booleans()),
            "wait_for": wait_for_value(draw(wait_fors) if mistake == "wait" else "none", ctx),
        }
        for name in ("buffer_pitches", "host_pitches"):
            if mistake == name:
                kwargs[name] = draw(broken(kwargs[name] or (region[0],)))
        if mistake == "pitches that do not fit":
            kwargs[draw(st.sampled_from(["buffer_pitches", "host_pitches"]))] = draw(bad_pitches(region))
        buf = buffers[draw(bad_buffer_kinds) if mistake == "buffer" else "plain"]
        host_kind = draw(host_kinds) if mistake == "host" else "plain"
        seed = draw(st.integers(0, 2**32 - 1))
        results = []
        for q in (queue, general):
            host = host_array(host_kind, host_size, seed)
            if reading:
                result = outcome(cl.enqueue_copy, q, host, buf, **kwargs)
            else:
                result = outcome(cl.enqueue_copy, q, buf, host, **kwargs)
            q.finish()
            device = np.empty(BUF_SIZE, np.uint8)
            cl.enqueue_copy(queue, device, buffers["plain"])
            cl.enqueue_copy(queue, buffers["plain"], model)  # as it was, for the other path
            results.append((result, host, device))
        (fast, fast_host, fast_device), (slow, slow_host, slow_device) = results
        if both_failed(fast, slow):
            return
        # What was passed, a mistake included: some (an empty region) are no mistakes.
        region = padded(kwargs["region"], 1)
        b_index = rect_offsets(padded(kwargs["buffer_origin"], 0), region, kwargs["buffer_pitches"])
        h_index = rect_offsets(padded(kwargs["host_origin"], 0), region, kwargs["host_pitches"])
        expected_host = host_array(host_kind, host_size, seed)
        expected_device = model.copy()
        if reading:
            expected_host[h_index] = model[b_index]
        else:
            expected_device[b_index] = expected_host[h_index]
        for host, device in ((fast_host, fast_device), (slow_host, slow_device)):
            np.testing.assert_array_equal(host, expected_host)
            np.testing.assert_array_equal(device, expected_device)

    check()


@pytest.mark.parametrize(
    "origin, pitches",
    [((0, 2**62, 0), (8,)), ((0, 0, 2**61), (8, 64)), ((2**63 - 1, 0, 0), None), ((0, 2**63 - 1, 0), (2**62,))],
)
def test_rect_past_64_bits(setup, origin, pitches):
    """Origins and pitches whose box ends past 2**64 bytes, or past the
    buffer just below 2**63 (the one-pass route checks the box in 64-bit
    arithmetic): refused as the general path refuses them, nothing copied."""
    ctx, queue, general, buffers, model = setup
    kwargs = dict(buffer_origin=origin, host_origin=(0, 0, 0), region=(4, 2, 2), buffer_pitches=pitches)
    results = []
    for q in (queue, general):
        host = np.zeros(64, np.uint8)
        results.append(outcome(cl.enqueue_copy, q, host, buffers["plain"], **kwargs))
        assert not host.any()
    assert results[0][0] == "raised"
    assert results[0] == results[1]


# }}}


# {{{ buffer maps


DTYPES = [np.uint8, np.float32, "f4", np.dtype(np.uint16), np.dtype("i8")]
FLAGS = [MAP.READ, MAP.WRITE, MAP.READ | MAP.WRITE]
FLAG_MISTAKES = [0, 8, True, MAP.READ | MAP.WRITE_INVALIDATE_REGION, -1, 1.0]
MAP_MISTAKES = ["flags", "offset", "shape", "negative shape", "dtype", "order", "buffer", "wait"]


@st.composite
def map_shape(draw, itemsize, room):
    """A C-order shape of at most ``room`` bytes (at least one element)."""
    count = draw(st.integers(1, max(1, room // itemsize)))
    how = draw(st.sampled_from(["int", "1", "2", "3"]))
    if how == "int":
        return count
    if how == "1":
        return (count,)
    a = draw(st.sampled_from([d for d in range(1, 7) if count % d == 0]))
    if how == "2":
        return (a, count // a)
    b = draw(st.sampled_from([d for d in range(1, 7) if (count // a) % d == 0]))
    return (a, b, count // a // b)


@pytest.mark.parametrize("mistake", [None] + MAP_MISTAKES)
def test_map_buffer_paths_agree(setup, mistake):
    ctx, queue, general, buffers, model = setup

    @given(st.data())
    def check(data):
        draw = data.draw
        dtype = draw(st.sampled_from(DTYPES))
        itemsize = np.dtype(dtype).itemsize
        offset = draw(st.integers(0, BUF_SIZE - itemsize))
        shape = draw(map_shape(itemsize, BUF_SIZE - offset))
        flags = draw(st.sampled_from(FLAG_MISTAKES)) if mistake == "flags" else draw(st.sampled_from(FLAGS))
        if mistake == "offset":
            offset = draw(st.sampled_from(JUNK + [BUF_SIZE, np.int64(offset), BUF_SIZE - offset]))
        if mistake == "shape":
            shape = draw(st.one_of(broken(shape), st.just(0), st.just((0, 3))))
        if mistake == "negative shape":  # a product in range from entries that are not
            count = int(np.prod(shape))
            shape = draw(st.sampled_from([(-1, -count), (-count, -1, 1), -count]))
        if mistake == "dtype":
            dtype = draw(st.sampled_from(["no such dtype", None, [("a", "u1")], "V3"]))
        order = draw(st.sampled_from(["F", "K", "c", None])) if mistake == "order" else "C"
        strides = draw(st.sampled_from([None, (1,), (8, 1)])) if mistake == "order" else None
        buf = buffers[draw(bad_buffer_kinds) if mistake == "buffer" else "plain"]
        waits = wait_for_value(draw(wait_fors) if mistake == "wait" else "none", ctx)
        is_blocking = draw(st.booleans())
        results = []
        for q in (queue, general):
            result = outcome(
                cl.enqueue_map_buffer, q, buf, flags, offset, shape, dtype, order, strides, waits, is_blocking
            )
            if result[0] == "returned":
                array, event = result[1]
                event.wait()
                assert isinstance(array.base, cl.MemoryMap)
                result = ("returned", array.shape, array.dtype, array.strides, array.copy())
                array.base.release().wait()
            results.append(result)
        fast, slow = results
        if both_failed(fast, slow):
            return
        assert fast[1:4] == slow[1:4]
        np.testing.assert_array_equal(fast[4], slow[4])
        if strides is None and order == "C":
            expected = model[offset : offset + fast[4].nbytes].view(fast[2]).reshape(fast[1])
            np.testing.assert_array_equal(fast[4], expected)

    check()


# }}}


# {{{ images


@pytest.fixture
def images(setup, ctx_factory):
    if not ctx_factory.device.image_support:
        pytest.skip("%s has no image support" % ctx_factory.device.name)
    ctx, queue, general, _buffers, _model = setup
    made = {}
    rng = np.random.default_rng(2)
    for kind, (shape, is_array) in IMAGE_SHAPES.items():
        img = cl.create_image(ctx, mf.READ_WRITE, FMT, shape, is_array=is_array)
        model = rng.integers(0, 256, padded(shape, 1)[::-1] + (4,), dtype=np.uint8)
        cl.enqueue_copy(queue, img, model, origin=(0,), region=shape)
        made[kind] = (img, model)
    made["no host access"] = (cl.create_image(ctx, mf.READ_WRITE | mf.HOST_NO_ACCESS, FMT, (6, 5)), None)
    released = cl.create_image(ctx, mf.READ_WRITE, FMT, (6, 5))
    released.release()
    made["released"] = (released, None)
    other = cl.Context([ctx_factory.device])
    made["other context"] = (cl.create_image(other, mf.READ_WRITE, FMT, (6, 5)), None)
    return ctx, queue, general, made


image_kinds = st.sampled_from(sorted(IMAGE_SHAPES))
image_mistake_kinds = st.sampled_from(["no host access", "released", "other context"])


def read_image(queue, img, model):
    out = np.empty_like(model)
    cl.enqueue_copy(queue, out, img, origin=(0,), region=model.shape[:-1][::-1])
    return out


def reset_image(queue, img, model):
    cl.enqueue_copy(queue, img, model, origin=(0,), region=model.shape[:-1][::-1])


def region_of(model, origin, region):
    (x, y, z), (w, h, d) = origin, region
    return model[z : z + d, y : y + h, x : x + w]


@st.composite
def image_box(draw, kind):
    """A valid origin and region (3 ints each) of ``kind``'s image."""
    extent = padded(IMAGE_SHAPES[kind][0], 1)
    region = tuple(draw(st.integers(1, n)) for n in extent)
    origin = tuple(draw(st.integers(0, n - r)) for n, r in zip(extent, region))
    return origin, region


BOX_MISTAKES = ["origin", "region", "image", "wait", "outside"]


def box_args(draw, kind, mistake, made):
    """``(image, model, origin, region, spelled origin, spelled region)``."""
    origin, region = draw(image_box(kind))
    spelled_origin = maybe_broken(draw, "origin", draw(spelled(origin, 0)), mistake)
    spelled_region = maybe_broken(draw, "region", draw(spelled(region, 1)), mistake)
    if mistake == "outside":
        axis = draw(st.integers(0, 2))
        spelled_region = list(padded(region, 1))
        spelled_region[axis] += padded(IMAGE_SHAPES[kind][0], 1)[axis]
        spelled_region = tuple(spelled_region)
    img, model = made[draw(image_mistake_kinds) if mistake == "image" else kind]
    return img, model, origin, region, spelled_origin, spelled_region


@pytest.mark.parametrize("mistake", [None] + BOX_MISTAKES + ["pitches", "host"])
def test_image_region_paths_agree(images, mistake):
    ctx, queue, general, made = images

    @given(st.data())
    def check(data):
        draw = data.draw
        reading = draw(st.booleans())
        kind = draw(image_kinds)
        img, model, origin, region, spelled_origin, spelled_region = box_args(draw, kind, mistake, made)
        nbytes = region[0] * region[1] * region[2] * 4
        host_size = nbytes + draw(st.sampled_from([0, 0, 0, 5]))
        host_kind = "plain"
        pitches = None
        if mistake == "host":
            host_size = max(0, nbytes - draw(st.integers(1, nbytes)))
            host_kind = draw(host_kinds)
        if mistake == "pitches":
            pitches = draw(st.sampled_from([(), (region[0] * 4,), (0, 0), (1,), (region[0] * 4, 1), (1.0,), [0], 5]))
        kwargs = {
            "origin": spelled_origin,
            "region": spelled_region,
            "pitches": pitches,
            "is_blocking": draw(st.booleans()),
            "wait_for": wait_for_value(draw(wait_fors) if mistake == "wait" else "none", ctx),
        }
        seed = draw(st.integers(0, 2**32 - 1))
        results = []
        for q in (queue, general):
            host = host_array(host_kind, host_size, seed)
            if reading:
                result = outcome(cl.enqueue_copy, q, host, img, **kwargs)
            else:
                result = outcome(cl.enqueue_copy, q, img, host, **kwargs)
            q.finish()
            after = None
            if model is not None:
                after = read_image(queue, img, model)
                reset_image(queue, img, model)
            results.append((result, host, after))
        (fast, fast_host, fast_after), (slow, slow_host, slow_after) = results
        if both_failed(fast, slow):
            return
        np.testing.assert_array_equal(fast_host, slow_host)
        np.testing.assert_array_equal(fast_after, slow_after)
        origin, region = padded(spelled_origin, 0), padded(spelled_region, 1)  # an empty region is no mistake
        nbytes = region[0] * region[1] * region[2] * 4
        if pitches is None:
            box = region_of(model, origin, region)
            if reading:
                np.testing.assert_array_equal(fast_host[:nbytes], box.reshape(-1))
            else:
                expected = model.copy()
                region_of(expected, origin, region)[...] = host_array("plain", host_size, seed)[:nbytes].reshape(
                    box.shape
                )
                np.testing.assert_array_equal(fast_after, expected)

    check()


DEVICE_COPY_MISTAKES = ["origin", "region", "outside", "wait", "image", "buffer", "offset", "format", "same image"]


@pytest.mark.parametrize("direction", ["image to image", "image to buffer", "buffer to image"])
@pytest.mark.parametrize("mistake", [None] + DEVICE_COPY_MISTAKES)
def test_device_image_copy_paths_agree(images, setup, direction, mistake):
    ctx, queue, general, made = images
    buffers = setup[3]
    other_format = cl.ImageFormat(cl.channel_order.R, cl.channel_type.UNSIGNED_INT32)  # 4 bytes too
    targets = {}
    for kind, (shape, is_array) in IMAGE_SHAPES.items():
        targets[kind] = cl.create_image(ctx, mf.READ_WRITE, FMT, shape, is_array=is_array)
        if other_format in cl.get_supported_image_formats(ctx, mf.READ_WRITE, targets[kind].type):
            targets[kind, "format"] = cl.create_image(ctx, mf.READ_WRITE, other_format, shape, is_array=is_array)
    buf = buffers["plain"]

    @given(st.data())
    def check(data):
        draw = data.draw
        kind = draw(image_kinds)
        img, model, origin, region, spelled_origin, spelled_region = box_args(draw, kind, mistake, made)
        if mistake == "image":  # a device-side copy needs no host access
            img, model = made[draw(st.sampled_from(["released", "other context"]))]
        target = targets[kind]
        if mistake == "format" and (kind, "format") in targets:
            target = targets[kind, "format"]
        if mistake == "same image":
            target = img
        nbytes = region[0] * region[1] * region[2] * 4
        offset = draw(st.integers(0, BUF_SIZE - nbytes))
        kwargs = {"region": spelled_region}
        if mistake == "wait":
            kwargs["wait_for"] = wait_for_value(draw(wait_fors), ctx)
        dest_origin = origin
        if direction == "image to image":
            dest_origin = draw(image_box(kind))[0] if mistake == "same image" else origin
            kwargs["src_origin"] = spelled_origin
            kwargs[draw(st.sampled_from(["dest_origin", "dst_origin"]))] = dest_origin
            args = (target, img)
        else:
            kwargs["origin"] = spelled_origin
            kwargs["offset"] = (
                draw(st.sampled_from(JUNK + [BUF_SIZE, np.int64(offset)])) if mistake == "offset" else offset
            )
            other = buffers[draw(st.sampled_from(["released", "other context"]))] if mistake == "buffer" else buf
            args = (other, img) if direction == "image to buffer" else (img, other)
        # The image the call writes or reads, and what it holds before.
        watched = target if direction == "image to image" else img
        zeros = np.zeros(padded(IMAGE_SHAPES[kind][0], 1)[::-1] + (4,), np.uint8)
        start = zeros if watched is target and target is not img else model
        results = []
        for q in (queue, general):
            cl.enqueue_copy(queue, buf, setup[4])
            if model is not None:
                reset_image(queue, img, model)
            if start is zeros:
                reset_image(queue, target, zeros)
            result = outcome(cl.enqueue_copy, q, *args, **kwargs)
            q.finish()
            if result[0] == "returned":
                result = ("returned", type(result[1]))
            after = read_image(queue, watched, start) if start is not None else None
            results.append((result, read_back(queue, buf), after))
        (fast, fast_buf, fast_img), (slow, slow_buf, slow_img) = results
        if both_failed(fast, slow):
            return
        assert fast == slow
        np.testing.assert_array_equal(fast_buf, slow_buf)
        np.testing.assert_array_equal(fast_img, slow_img)
        origin, region = padded(spelled_origin, 0), padded(spelled_region, 1)  # an empty region is no mistake
        nbytes = region[0] * region[1] * region[2] * 4
        if direction == "image to buffer":
            expected = setup[4].copy()
            expected[offset : offset + nbytes] = region_of(model, origin, region).reshape(-1)
            np.testing.assert_array_equal(fast_buf, expected)
        elif direction == "buffer to image":
            expected = model.copy()
            region_of(expected, origin, region)[...] = setup[4][offset : offset + nbytes].reshape(
                region_of(model, origin, region).shape
            )
            np.testing.assert_array_equal(fast_img, expected)
        elif target is not img:
            expected = np.zeros_like(model)
            region_of(expected, padded(dest_origin, 0), region)[...] = region_of(model, origin, region)
            np.testing.assert_array_equal(fast_img, expected)

    check()


COLORS = [np.array([1, 2, 3, 4], np.uint32), np.array([5, 6, 7, 8], np.int32)]
COLOR_MISTAKES = [
    np.array([1, 0, 0, 1], np.float32),
    np.array([1, 2, 3], np.uint32),
    np.array([1, 2, 3, 4], np.uint8),
    np.array([1, 2, 3, 4, 5, 6, 7, 8], np.uint32)[::2],
    np.array([(1, 2, 3, 4)], [("r", "u4"), ("g", "u4"), ("b", "u4"), ("a", "u4")]),
    b"0123456789abcdef",
    [1, 2, 3, 4],
]


@pytest.mark.parametrize("mistake", [None] + BOX_MISTAKES + ["color"])
def test_fill_image_paths_agree(images, mistake):
    ctx, queue, general, made = images

    @given(st.data())
    def check(data):
        draw = data.draw
        kind = draw(image_kinds)
        img, model, origin, region, spelled_origin, spelled_region = box_args(draw, kind, mistake, made)
        color = draw(st.sampled_from(COLOR_MISTAKES if mistake == "color" else COLORS))
        waits = wait_for_value(draw(wait_fors) if mistake == "wait" else "none", ctx)
        results = []
        for q in (queue, general):
            result = outcome(cl.enqueue_fill_image, q, img, color, spelled_origin, spelled_region, waits)
            q.finish()
            after = None
            if model is not None:
                after = read_image(queue, img, model)
                reset_image(queue, img, model)
            results.append((result, after))
        (fast, fast_after), (slow, slow_after) = results
        if both_failed(fast, slow):
            return
        np.testing.assert_array_equal(fast_after, slow_after)
        origin, region = padded(spelled_origin, 0), padded(spelled_region, 1)  # an empty region is no mistake
        if model is not None and isinstance(color, np.ndarray) and color.dtype.fields is None:
            expected = model.copy()
            region_of(expected, origin, region)[...] = color.astype(np.uint8)
            np.testing.assert_array_equal(fast_after, expected)

    check()


@pytest.mark.parametrize("mistake", [None] + BOX_MISTAKES + ["flags", "shape", "negative shape", "dtype", "order"])
def test_map_image_paths_agree(images, mistake):
    ctx, queue, general, made = images

    @given(st.data())
    def check(data):
        draw = data.draw
        kind = draw(image_kinds)
        img, model, origin, region, spelled_origin, spelled_region = box_args(draw, kind, mistake, made)
        w, h, d = region
        shape, dtype = draw(
            st.sampled_from(
                [((d, h, w, 4), np.uint8), ((d * h, w), np.uint32), (d * h * w * 4, "u1"), ((h * d, w * 4), np.uint8)]
            )
        )
        flags = draw(st.sampled_from(FLAG_MISTAKES)) if mistake == "flags" else draw(st.sampled_from(FLAGS))
        if mistake == "shape":
            shape = draw(st.one_of(broken(shape), st.just((w * 4, h * d)), st.just(0)))
        if mistake == "negative shape":  # a product in range from entries that are not
            count = int(np.prod(shape))
            shape = draw(st.sampled_from([(-1, -count), (-(d * h), -w, 4), (-(d * h), -w * 4)]))
        if mistake == "dtype":
            dtype = draw(st.sampled_from(["no such dtype", None, np.float64, [("a", "u1")]]))
        order = draw(st.sampled_from(["F", "K", None])) if mistake == "order" else "C"
        strides = draw(st.sampled_from([None, (1,), (8, 1), (10**6, 1, 1, 1)])) if mistake == "order" else None
        waits = wait_for_value(draw(wait_fors) if mistake == "wait" else "none", ctx)
        results = []
        for q in (queue, general):
            result = outcome(
                cl.enqueue_map_image, q, img, flags, spelled_origin, spelled_region, shape, dtype, order, strides, waits
            )
            if result[0] == "returned":
                array, event, _row, _slice = result[1]
                event.wait()
                result = ("returned", array.shape, array.dtype, array.copy())
                array.base.release().wait()
            results.append(result)
        fast, slow = results
        if both_failed(fast, slow):
            return
        assert fast[1:3] == slow[1:3]
        np.testing.assert_array_equal(fast[3], slow[3])
        if model is not None and strides is None:
            origin, region = padded(spelled_origin, 0), padded(spelled_region, 1)
            expected = region_of(model, origin, region).reshape(-1)
            np.testing.assert_array_equal(fast[3].ravel(order=order).view(np.uint8), expected)

    check()


# }}}


# {{{ the common calls take the one-pass paths


# {{{ copies between two buffers, and between a buffer and the host with keywords


def read_back(queue, buf):
    out = np.empty(buf.size, np.uint8)
    cl.enqueue_copy(queue, out, buf)
    return out


COPY_MISTAKES = ["src_offset", "dst_offset", "byte_count", "buffer", "wait", "dest_offset", "same root"]


@pytest.mark.parametrize("mistake", [None] + COPY_MISTAKES)
def test_buffer_copy_paths_agree(setup, mistake):
    ctx, queue, general, buffers, model = setup
    src = buffers["plain"]
    dest = cl.Buffer(ctx, mf.READ_WRITE, BUF_SIZE - 64)

    @given(st.data())
    def check(data):
        draw = data.draw
        dest_model = np.random.default_rng(draw(st.integers(0, 99))).integers(0, 256, dest.size, dtype=np.uint8)
        cl.enqueue_copy(queue, dest, dest_model)
        target, target_model = dest, dest_model
        if mistake == "same root":  # overlapping or not, within one buffer or with a sub-buffer of it
            target = draw(st.sampled_from([src, src.get_sub_region(0, 256)]))
            target_model = model[: target.size]
        so = draw(st.integers(0, BUF_SIZE - 1))
        do = draw(st.integers(0, target.size - 1))
        room = min(BUF_SIZE - so, target.size - do)
        count = draw(st.sampled_from([None, draw(st.integers(1, room))]))
        kwargs = {}
        if count is not None or mistake == "byte_count":
            kwargs["byte_count"] = count
        if so or draw(st.booleans()):
            kwargs["src_offset"] = so
        if do or draw(st.booleans()):
            kwargs["dst_offset"] = do
        if mistake == "src_offset":
            kwargs["src_offset"] = draw(st.sampled_from(JUNK + [BUF_SIZE + 1, np.int64(so)]))
        if mistake == "dst_offset":
            kwargs["dst_offset"] = draw(st.sampled_from(JUNK + [target.size + 1, np.int64(do)]))
        if mistake == "byte_count":
            kwargs["byte_count"] = draw(st.sampled_from(JUNK + [0, room + 1, np.int64(room)]))
        if mistake == "dest_offset":
            kwargs["dest_offset"] = do
        if mistake == "wait":
            kwargs["wait_for"] = wait_for_value(draw(wait_fors), ctx)
        a, b = src, target
        if mistake == "buffer":  # (a device-side copy needs no host access)
            bad = buffers[draw(st.sampled_from(["other context", "released"]))]
            a, b = draw(st.sampled_from([(bad, target), (src, bad)]))
        if not kwargs and draw(st.booleans()):
            kwargs = None  # no keywords at all: enqueue_copy's own shortcut
        results = []
        for q in (queue, general):
            result = outcome(cl.enqueue_copy, q, b, a, **(kwargs or {}))
            if result[0] == "returned":
                result[1].wait()
                result = ("returned", type(result[1]))
            results.append(result)
        fast, slow = results
        if both_failed(fast, slow):
            return
        assert fast == slow
        # Both calls copied the same bytes (copies between disjoint ranges
        # repeat alike): the target holds them once.
        expected = target_model.copy()
        kw = kwargs or {}
        s0 = kw.get("src_offset", 0)
        d0 = kw.get("dest_offset", kw.get("dst_offset", 0)) or 0
        n = kw.get("byte_count")
        if n is None:
            n = min(BUF_SIZE - s0, target.size - d0)
        expected[d0 : d0 + n] = model[s0 : s0 + n]
        np.testing.assert_array_equal(read_back(queue, target), expected)
        if target is not dest:
            cl.enqueue_copy(queue, src, model)  # as the other draws expect it

    check()


PATTERNS = [np.float32(1.5), np.uint8(7), np.array([1, 2, 3, 4], np.uint32), np.int16(-2), b"abcdefgh"]
PATTERN_MISTAKES = [
    b"abc",
    np.zeros(256, np.uint8),
    np.array([object()] * 4),
    np.arange(8, dtype=np.uint32)[::2],
    [1, 2, 3, 4],
    None,
]
FILL_MISTAKES = ["pattern", "offset", "size", "not a multiple", "past the end", "buffer", "wait"]


@pytest.mark.parametrize("mistake", [None] + FILL_MISTAKES)
def test_fill_buffer_paths_agree(setup, mistake):
    ctx, queue, general, buffers, model = setup

    @given(st.data())
    def check(data):
        draw = data.draw
        pattern = draw(st.sampled_from(PATTERN_MISTAKES if mistake == "pattern" else PATTERNS))
        p = np.asarray(pattern).nbytes if pattern is not None and not isinstance(pattern, list) else 1
        offset = draw(st.integers(0, BUF_SIZE // p - 1)) * p
        size = draw(st.integers(1, (BUF_SIZE - offset) // p)) * p
        if mistake == "offset":
            offset = draw(st.sampled_from(JUNK + [np.int64(offset)]))
        if mistake == "size":
            size = draw(st.sampled_from(JUNK + [0, np.int64(size)]))
        if mistake == "not a multiple" and p > 1:
            offset, size = draw(st.sampled_from([(offset + 1, size - p), (offset, size - 1)]))
        if mistake == "past the end":
            size = BUF_SIZE - offset + p
        buf = buffers[draw(st.sampled_from(["released", "other context"]))] if mistake == "buffer" else buffers["plain"]
        waits = wait_for_value(draw(wait_fors) if mistake == "wait" else "none", ctx)
        results = []
        for q in (queue, general):
            cl.enqueue_copy(queue, buffers["plain"], model)
            result = outcome(cl.enqueue_fill_buffer, q, buf, pattern, offset, size, waits)
            q.finish()
            if result[0] == "returned":
                result = ("returned", type(result[1]))
            results.append((result, read_back(queue, buffers["plain"])))
        (fast, fast_bytes), (slow, slow_bytes) = results
        if both_failed(fast, slow):
            return
        assert fast == slow
        np.testing.assert_array_equal(fast_bytes, slow_bytes)
        expected = model.copy()
        if size:
            expected[offset : offset + size] = np.tile(np.frombuffer(bytes(memoryview(pattern)), np.uint8), size // p)
        np.testing.assert_array_equal(fast_bytes, expected)

    check()


HOST_KEYWORD_MISTAKES = ["offset", "host", "buffer", "wait", "too long", "other keyword"]


@pytest.mark.parametrize("reading", [False, True], ids=["write", "read"])
@pytest.mark.parametrize("mistake", [None] + HOST_KEYWORD_MISTAKES)
def test_host_copy_keyword_paths_agree(setup, reading, mistake):
    ctx, queue, general, buffers, model = setup
    offset_name = "src_offset" if reading else "dst_offset"

    @given(st.data())
    def check(data):
        draw = data.draw
        cl.enqueue_copy(queue, buffers["plain"], model)
        offset = draw(st.integers(0, BUF_SIZE - 1))
        size = draw(st.integers(1, BUF_SIZE - offset))
        if mistake == "too long":
            size = BUF_SIZE - offset + draw(st.integers(1, 9))
        kwargs = {}
        if offset or draw(st.booleans()):
            kwargs[offset_name] = offset
        if draw(st.booleans()):
            kwargs["is_blocking"] = draw(st.sampled_from([False, True, 0, 1]))
        if mistake == "offset":
            kwargs[offset_name] = draw(st.sampled_from(JUNK + [BUF_SIZE, np.int64(offset)]))
        if mistake == "wait":
            kwargs["wait_for"] = wait_for_value(draw(wait_fors), ctx)
        if mistake == "other keyword":
            kwargs[draw(st.sampled_from(["src_offset" if not reading else "dst_offset", "device_offset", "x"]))] = 0
        buf = buffers[draw(bad_buffer_kinds) if mistake == "buffer" else "plain"]
        kind = draw(host_kinds) if mistake == "host" else "plain"
        seed = draw(st.integers(0, 99))
        results, hosts = [], []
        for q in (queue, general):
            host = host_array(kind, size, seed)
            hosts.append(host)
            args = (q, host, buf) if reading else (q, buf, host)
            result = outcome(cl.enqueue_copy, *args, **kwargs)
            if result[0] == "returned":
                result[1].wait()
                result = ("returned", type(result[1]), result[1].get_ward() is host)
            results.append(result)
        fast, slow = results
        if both_failed(fast, slow):
            return
        assert fast == slow
        start = kwargs.get(offset_name, 0)
        if reading:
            for host in hosts:
                np.testing.assert_array_equal(np.asarray(host), model[start : start + size])
        else:
            expected = model.copy()
            expected[start : start + size] = np.asarray(hosts[0], np.uint8)
            np.testing.assert_array_equal(read_back(queue, buf), expected)

    check()


# }}}


def test_common_calls_take_one_pass(images, monkeypatch):
    ctx, queue, _general, made = images
    buf = cl.Buffer(ctx, mf.READ_WRITE, BUF_SIZE)
    img, _model = made["2d"]
    block = np.zeros((4, 8), np.uint8)
    region = np.zeros((2, 3, 4), np.uint8)
    color = np.array([1, 2, 3, 4], np.uint32)

    def calls():
        rect = dict(buffer_origin=(8, 2), host_origin=(0, 0), region=(8, 4), buffer_pitches=(32,))
        cl.enqueue_copy(queue, block, buf, **rect)
        cl.enqueue_copy(queue, buf, block, **rect)
        cl.enqueue_copy(queue, region, img, origin=(1, 2), region=(3, 2))
        cl.enqueue_copy(queue, img, region, origin=(1, 2), region=(3, 2))
        cl.enqueue_fill_image(queue, img, color, (0, 0), (2, 2)).wait()
        array, _ = cl.enqueue_map_buffer(queue, buf, MAP.READ | MAP.WRITE, 16, (4, 8), np.float32)
        array.base.release()
        array = cl.enqueue_map_image(queue, img, MAP.READ, (1, 1), (3, 2), (2, 3, 4), np.uint8)[0]
        array.base.release().wait()
        other = cl.Buffer(ctx, mf.READ_WRITE, BUF_SIZE)
        cl.enqueue_copy(queue, other, buf)
        cl.enqueue_copy(queue, other, buf, byte_count=64, src_offset=8, dst_offset=128)
        cl.enqueue_copy(queue, buf, block, dst_offset=32, is_blocking=False).wait()
        cl.enqueue_copy(queue, block, buf, src_offset=16, wait_for=[cl.enqueue_marker(queue)])
        cl.enqueue_fill_buffer(queue, other, np.float32(2), 16, 64)
        copy = cl.create_image(ctx, mf.READ_WRITE, FMT, img.shape)
        cl.enqueue_copy(queue, copy, img, src_origin=(0, 0), dest_origin=(1, 1), region=(2, 2))
        cl.enqueue_copy(queue, buf, img, offset=4, origin=(1, 0), region=(3, 2))
        cl.enqueue_copy(queue, img, buf, offset=8, origin=(0, 1), region=(2, 3))

    calls()  # what the one-pass paths remember (flags, colors) is learned here

    def general_path(*args, **kwargs):
        raise AssertionError("the general path ran")

    for module, name in (
        (pycl._rect, "_host_rect"),
        (pycl._image_copy, "_image_host"),
        (pycl._image_fill_map, "_fill_checked"),
        (pycl._image_fill_map, "_checked_map"),
        (pycl.mapping, "_checked_map"),
        (pycl._buffer_copy, "queue_handle"),  # the general paths of buffer copies and host copies
        (pycl._image_copy, "queue_handle"),  # ... and of copies between images and buffers
        (pycl.transfer, "queue_handle"),  # ... and of fills
    ):
        monkeypatch.setattr(module, name, general_path)
    calls()


# }}}
