"""pycl.strategies' image and SVM strategies against independent models
(the buffer, rect, fill and map strategies are tested in
tests/test_transfer_fuzz.py).

A valid draw must succeed and match the model: an image's model is a uint8
array ``(slices or layers, rows or layers, width, pixel bytes)`` changed with
numpy slicing, a host side's pixels are found with index arithmetic from the
pitches, an SVM allocation's model is a uint8 array. An invalid draw must
raise the error it names and leave the device memory and the host arrays as
they were. Runs on every device; images need image support and SVM
coarse-grain SVM (skipped with the reason where the device lacks them).
"""

import numpy as np
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

import pycl as cl
from pycl import strategies as S

mf = cl.mem_flags
# Formats every image device supports: 4 and 16 bytes a pixel.
FORMATS = [
    cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8),
    cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT32),
]
formats = st.sampled_from(FORMATS)
_queues = {}  # device handle -> a queue on a context of that device alone


def queue_for(device):
    queue = _queues.get(device.int_ptr)
    if queue is None:
        queue = _queues[device.int_ptr] = cl.CommandQueue(cl.Context([device]))
    return queue


def expect(error, names, call):
    """``call()`` raises ``error`` and its message names one of ``names``."""
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    assert any(name in message for name in names), (message, names)
    if error is cl.LogicError:
        assert info.value.code < 0


def random_bytes(data, n, label):
    seed = data.draw(st.integers(0, 2**32 - 1), label=label)
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8)


# {{{ images


def image_queue(device):
    if not device.image_support:
        pytest.skip("%s has no image support" % device.name)
    return queue_for(device)


def padded(values, pad):
    return (tuple(values) + (pad,) * 3)[:3]


def model_shape(shape, fmt):
    """The model's axes: the image's, slowest first, then the pixel's bytes."""
    return tuple(reversed(padded(shape, 1))) + (fmt.itemsize,)


def new_image(queue, data, fmt=None, shape_and_array=None):
    """A drawn image filled with random bytes, and its model."""
    fmt = fmt or data.draw(formats, label="format")
    shape, is_array = shape_and_array or data.draw(S.image_shapes(max_extent=6), label="shape, is_array")
    img = cl.create_image(queue.context, mf.READ_WRITE, fmt, shape, is_array=is_array)
    model = random_bytes(data, int(np.prod(model_shape(shape, fmt))), "image bytes").reshape(model_shape(shape, fmt))
    cl.enqueue_copy(queue, img, model, origin=(0,), region=shape)
    return img, model, shape, is_array


def read_image(queue, img, model):
    whole = np.empty_like(model)
    cl.enqueue_copy(queue, whole, img, origin=(0,), region=img.shape)
    return whole


def box(model, origin, region):
    """The model's pixels of ``origin``/``region`` (padded, image axes)."""
    (x, y, z), (w, h, d) = padded(origin, 0), padded(region, 1)
    return model[z : z + d, y : y + h, x : x + w]


def host_index(region, element, y_stride, z_stride):
    """Host byte indices of the region's pixels, shaped like ``box``."""
    w, h, d = padded(region, 1)
    return (
        np.arange(d)[:, None, None, None] * z_stride
        + np.arange(h)[None, :, None, None] * y_stride
        + np.arange(w)[None, None, :, None] * element
        + np.arange(element)
    )


def check_image_host_copy(queue, data, copy=lambda call: call()):
    """A drawn host copy into or out of a drawn image, checked against the
    numpy model (the bytes between the pixels too); ``copy(call)`` makes the
    ``enqueue_copy`` (tests/test_staging.py stages it)."""
    img, model, shape, is_array = new_image(queue, data)
    element = img.format.itemsize
    host_size = data.draw(st.integers(element, 2 * model.nbytes), label="host bytes")
    region = data.draw(S.image_regions(shape, element, host_size, is_array), label="region")
    is_1d_array = is_array and len(shape) == 2
    origin, padded, y_stride, z_stride = region.resolved(element, is_1d_array)
    index = host_index(padded, element, y_stride, z_stride)
    assert region.host_nbytes(element, is_1d_array) == index.max() + 1 <= host_size
    host = random_bytes(data, host_size, "host bytes")
    if data.draw(st.booleans(), label="write"):
        copy(lambda: cl.enqueue_copy(queue, img, host, **region.kwargs()))
        box(model, origin, padded)[...] = host[index]
    else:
        expected = host.copy()
        expected[index] = box(model, origin, padded)
        copy(lambda: cl.enqueue_copy(queue, host, img, **region.kwargs()))
        np.testing.assert_array_equal(host, expected)
    np.testing.assert_array_equal(read_image(queue, img, model), model)


@given(data=st.data())
def test_image_host_copies(device, data):
    check_image_host_copy(image_queue(device), data)


@given(data=st.data())
def test_image_host_kwargs_are_image_regions(data):
    """The keyword form spans what the ImageRegion it comes from spans (no device)."""
    shape, is_array = data.draw(S.image_shapes())
    element = data.draw(st.sampled_from([1, 4, 16]))
    host_size = data.draw(st.integers(element, 4000))
    kwargs = data.draw(S.image_host_kwargs(shape, element, host_size, is_array))
    assert set(kwargs) <= {"origin", "region", "pitches"}
    region = S.ImageRegion(kwargs["origin"], kwargs["region"], kwargs.get("pitches"))
    (x, y, z), (w, h, d), _, _ = region.resolved(element, is_array and len(shape) == 2)
    assert all(o + r <= n for o, r, n in zip((x, y, z), (w, h, d), padded(shape, 1)))
    assert region.host_nbytes(element, is_array and len(shape) == 2) <= host_size


@given(data=st.data())
def test_image_buffer_copies(device, data):
    queue = image_queue(device)
    img, model, shape, _ = new_image(queue, data)
    element = img.format.itemsize
    buffer_model = random_bytes(data, data.draw(st.integers(element, 2 * model.nbytes)), "buffer bytes")
    buf = cl.Buffer(queue.context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=buffer_model)
    kwargs = data.draw(S.image_buffer_kwargs(shape, element, buf.size), label="kwargs")
    pixels = box(model, kwargs["origin"], kwargs["region"])
    span = slice(kwargs["offset"], kwargs["offset"] + pixels.size)
    if data.draw(st.booleans(), label="buffer to image"):
        cl.enqueue_copy(queue, img, buf, **kwargs)
        pixels[...] = buffer_model[span].reshape(pixels.shape)
    else:
        cl.enqueue_copy(queue, buf, img, **kwargs)
        buffer_model[span] = pixels.reshape(-1)
    np.testing.assert_array_equal(read_image(queue, img, model), model)
    back = np.empty_like(buffer_model)
    cl.enqueue_copy(queue, back, buf)
    np.testing.assert_array_equal(back, buffer_model)


@given(data=st.data())
def test_image_copies(device, data):
    queue = image_queue(device)
    src, src_model, src_shape, _ = new_image(queue, data)
    if data.draw(st.booleans(), label="within one image"):
        dst, dst_model, dst_shape = src, src_model, src_shape
    else:
        dst, dst_model, dst_shape, _ = new_image(queue, data, src.format)
    kwargs = data.draw(S.image_copy_kwargs(src_shape, dst_shape), label="kwargs")
    so, do, r = (padded(kwargs[k], p) for k, p in (("src_origin", 0), ("dest_origin", 0), ("region", 1)))
    if dst is src and all(abs(a - b) < n for a, b, n in zip(so, do, r)):
        expect(cl.LogicError, ("overlap",), lambda: cl.enqueue_copy(queue, dst, src, **kwargs))
    else:
        cl.enqueue_copy(queue, dst, src, **kwargs)
        box(dst_model, do, r)[...] = box(src_model, so, r).copy()
    np.testing.assert_array_equal(read_image(queue, src, src_model), src_model)
    np.testing.assert_array_equal(read_image(queue, dst, dst_model), dst_model)


def fill_color(data, fmt):
    """A fill color for ``fmt`` (uint32 channels) and the bytes of the pixel it makes."""
    color = np.array(data.draw(st.lists(st.integers(0, 255), min_size=4, max_size=4), label="color"), np.uint32)
    if fmt.channel_data_type == cl.channel_type.UNSIGNED_INT8:
        return color, color.astype(np.uint8)
    return color, color.view(np.uint8)


@given(data=st.data())
def test_image_fills_and_maps(device, data):
    queue = image_queue(device)
    img, model, shape, _ = new_image(queue, data)
    if data.draw(st.booleans(), label="fill"):
        origin, region = data.draw(S.image_boxes(shape, min_region=0), label="origin, region")
        color, pixel = fill_color(data, img.format)
        cl.enqueue_fill_image(queue, img, color, origin=origin, region=region)
        box(model, origin, region)[...] = pixel
    else:
        origin, region = data.draw(S.image_boxes(shape), label="origin, region")
        pixels = box(model, origin, region)
        view, _, _, _ = cl.enqueue_map_image(
            queue, img, cl.map_flags.READ | cl.map_flags.WRITE, origin, region, pixels.shape, np.uint8
        )
        with view.base:
            np.testing.assert_array_equal(view, pixels)
            view[...] = pixels[...] = random_bytes(data, pixels.size, "new pixels").reshape(pixels.shape)
    np.testing.assert_array_equal(read_image(queue, img, model), model)


@given(data=st.data())
def test_invalid_image_host_copies(device, data):
    queue = image_queue(device)
    img, model, shape, is_array = new_image(queue, data)
    element = img.format.itemsize
    host = random_bytes(data, data.draw(st.integers(element, 2 * model.nbytes)), "host bytes")
    invalid = data.draw(S.invalid_image_host_kwargs(shape, element, host.size, is_array), label="invalid")
    before = host.copy()
    if data.draw(st.booleans(), label="write"):
        expect(invalid.error, invalid.names, lambda: cl.enqueue_copy(queue, img, host, **invalid.kwargs))
    else:
        expect(invalid.error, invalid.names, lambda: cl.enqueue_copy(queue, host, img, **invalid.kwargs))
    np.testing.assert_array_equal(host, before)
    np.testing.assert_array_equal(read_image(queue, img, model), model)


@given(data=st.data())
def test_invalid_image_buffer_copies(device, data):
    queue = image_queue(device)
    img, model, shape, _ = new_image(queue, data)
    element = img.format.itemsize
    buffer_model = random_bytes(data, data.draw(st.integers(element, 2 * model.nbytes)), "buffer bytes")
    buf = cl.Buffer(queue.context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=buffer_model)
    invalid = data.draw(S.invalid_image_buffer_kwargs(shape, element, buf.size), label="invalid")
    dest, src = (img, buf) if data.draw(st.booleans(), label="buffer to image") else (buf, img)
    expect(invalid.error, invalid.names, lambda: cl.enqueue_copy(queue, dest, src, **invalid.kwargs))
    np.testing.assert_array_equal(read_image(queue, img, model), model)
    back = np.empty_like(buffer_model)
    cl.enqueue_copy(queue, back, buf)
    np.testing.assert_array_equal(back, buffer_model)


@given(data=st.data())
def test_invalid_image_copies(device, data):
    queue = image_queue(device)
    src, src_model, src_shape, _ = new_image(queue, data)
    if data.draw(st.booleans(), label="within one image"):
        dst, dst_model, dst_shape = src, src_model, src_shape
    else:
        dst, dst_model, dst_shape, _ = new_image(queue, data, src.format)
    invalid = data.draw(S.invalid_image_copy_kwargs(src_shape, dst_shape), label="invalid")
    expect(invalid.error, invalid.names, lambda: cl.enqueue_copy(queue, dst, src, **invalid.kwargs))
    np.testing.assert_array_equal(read_image(queue, src, src_model), src_model)
    np.testing.assert_array_equal(read_image(queue, dst, dst_model), dst_model)


@given(data=st.data())
def test_invalid_image_fills_and_maps(device, data):
    queue = image_queue(device)
    img, model, shape, _ = new_image(queue, data)
    if data.draw(st.booleans(), label="fill"):
        invalid = data.draw(S.invalid_image_boxes(shape), label="invalid")
        color, _ = fill_color(data, img.format)
        expect(invalid.error, invalid.names, lambda: cl.enqueue_fill_image(queue, img, color, **invalid.kwargs))
    else:
        invalid = data.draw(S.invalid_image_boxes(shape, refuse_empty=True), label="invalid")
        kw = invalid.kwargs
        expect(
            invalid.error,
            invalid.names,
            lambda: cl.enqueue_map_image(queue, img, cl.map_flags.WRITE, kw["origin"], kw["region"], (1,), np.uint8),
        )
        assert img.map_count == 0
    np.testing.assert_array_equal(read_image(queue, img, model), model)


# }}}


# {{{ SVM

SVM_SIZE = 384
_svm_setups = {}  # device handle -> (queue, arrays, models)


def svm_setup(device):
    """Two coarse-grain SVM arrays of SVM_SIZE bytes (aligned to 128, as the
    strategies assume) and their models, per device."""
    if device.cl_version < (2, 0) or not device.svm_capabilities & cl.device_svm_capabilities.COARSE_GRAIN_BUFFER:
        pytest.skip("%s has no coarse-grain SVM (OpenCL %d.%d)" % ((device.name,) + device.cl_version))
    setup = _svm_setups.get(device.int_ptr)
    if setup is None:
        queue = queue_for(device)
        arrays = [cl.csvm_empty(queue.context, SVM_SIZE, np.uint8, alignment=128, queue=queue) for _ in range(2)]
        models = [np.random.default_rng(i).integers(0, 256, SVM_SIZE, dtype=np.uint8) for i in range(2)]
        for ary, model in zip(arrays, models):
            cl.enqueue_copy(queue, cl.SVM(ary), model)
        setup = _svm_setups[device.int_ptr] = (queue, arrays, models)
    return setup


def check_svm(queue, arrays, models):
    for ary, model in zip(arrays, models):
        back = np.empty(SVM_SIZE, np.uint8)
        cl.enqueue_copy(queue, back, cl.SVM(ary))
        np.testing.assert_array_equal(back, model)


def svm_sides(data, arrays, models, host):
    """(dest array, dest model, src array, src model, kind): host or SVM
    arrays of SVM_SIZE bytes."""
    kind = data.draw(st.sampled_from(["svm->svm", "host->svm", "svm->host"]), label="kind")
    d, s = data.draw(st.integers(0, 1), label="dest array"), data.draw(st.integers(0, 1), label="src array")
    dest = (host, host) if kind == "svm->host" else (arrays[d], models[d])
    src = (host, host) if kind == "host->svm" else (arrays[s], models[s])
    return dest + src + (kind,)


def tag(ary, span, kind_is_svm):
    return cl.SVM(ary[span]) if kind_is_svm else ary[span]


@given(data=st.data())
def test_svm_copies(device, data):
    queue, arrays, models = svm_setup(device)
    host = random_bytes(data, SVM_SIZE, "host bytes")
    dest, dest_model, src, src_model, kind = svm_sides(data, arrays, models, host)
    copy = data.draw(S.svm_copy_args(SVM_SIZE, SVM_SIZE), label="copy")
    n = copy.kwargs.get("byte_count", copy.src.stop - copy.src.start)
    d, s = tag(dest, copy.dst, kind != "svm->host"), tag(src, copy.src, kind != "host->svm")
    if dest is src and n and abs(copy.src.start - copy.dst.start) < n:
        expect(cl.LogicError, ("overlap",), lambda: cl.enqueue_copy(queue, d, s, **copy.kwargs))
    else:
        cl.enqueue_copy(queue, d, s, **copy.kwargs)
        dest_model[copy.dst.start : copy.dst.start + n] = src_model[copy.src.start : copy.src.start + n].copy()
    check_svm(queue, arrays, models)


@given(data=st.data())
def test_svm_fills(device, data):
    queue, arrays, models = svm_setup(device)
    index = data.draw(st.integers(0, 1), label="array")
    fill = data.draw(S.svm_fill_args(SVM_SIZE), label="fill")
    pattern = random_bytes(data, fill.pattern_size, "pattern")
    dest = cl.SVM(arrays[index][fill.dest])
    if data.draw(st.booleans(), label="enqueue_fill"):
        cl.enqueue_fill(queue, dest, pattern, fill.kwargs.get("byte_count"))
    else:
        cl.enqueue_svm_memfill(queue, dest, pattern, **fill.kwargs)
    n = fill.kwargs.get("byte_count", fill.dest.stop - fill.dest.start)
    models[index][fill.dest.start : fill.dest.start + n] = np.tile(pattern, n // fill.pattern_size)
    check_svm(queue, arrays, models)


@given(data=st.data())
def test_svm_maps(device, data):
    queue, arrays, models = svm_setup(device)
    index = data.draw(st.integers(0, 1), label="array")
    offset, nbytes = data.draw(S.svm_map_args(SVM_SIZE), label="offset, nbytes")
    flags = cl.map_flags.READ | cl.map_flags.WRITE
    if offset == 0 and data.draw(st.booleans(), label="SVMAllocation.map"):
        mapped = arrays[index].base.map(queue, flags=flags, size=nbytes)
    else:
        mapped = cl.SVM(arrays[index][offset : offset + nbytes]).map(queue, flags)
    model = models[index][offset : offset + nbytes]
    with mapped as view:
        np.testing.assert_array_equal(view, model)
        view[...] = model[...] = random_bytes(data, nbytes, "new bytes")
    check_svm(queue, arrays, models)


@given(data=st.data())
def test_invalid_svm_copies(device, data):
    queue, arrays, models = svm_setup(device)
    host = random_bytes(data, SVM_SIZE, "host bytes")
    before = host.copy()
    dest, _, src, _, kind = svm_sides(data, arrays, models, host)
    copy, error, names = data.draw(S.invalid_svm_copy_args(SVM_SIZE, SVM_SIZE), label="invalid")
    d, s = tag(dest, copy.dst, kind != "svm->host"), tag(src, copy.src, kind != "host->svm")
    expect(error, names, lambda: cl.enqueue_copy(queue, d, s, **copy.kwargs))
    np.testing.assert_array_equal(host, before)
    check_svm(queue, arrays, models)


@given(data=st.data())
def test_invalid_svm_fills(device, data):
    queue, arrays, models = svm_setup(device)
    index = data.draw(st.integers(0, 1), label="array")
    fill, error, names = data.draw(S.invalid_svm_fill_args(SVM_SIZE), label="invalid")
    pattern = random_bytes(data, fill.pattern_size, "pattern")
    dest = cl.SVM(arrays[index][fill.dest])
    note("dest at 0x%x" % dest.svm_ptr)
    expect(error, names, lambda: cl.enqueue_svm_memfill(queue, dest, pattern, **fill.kwargs))
    check_svm(queue, arrays, models)


@given(data=st.data())
def test_invalid_svm_maps(device, data):
    queue, arrays, models = svm_setup(device)
    alloc = arrays[data.draw(st.integers(0, 1), label="array")].base
    invalid = data.draw(S.invalid_svm_map_args(SVM_SIZE), label="invalid")
    expect(invalid.error, invalid.names, lambda: alloc.map(queue, flags=cl.map_flags.WRITE, **invalid.kwargs))
    check_svm(queue, arrays, models)


# }}}
