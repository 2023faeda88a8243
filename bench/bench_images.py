"""Images and samplers: pycl against PyOpenCL on the same device.

    python bench/run.py --only images [--pypy PATH] [--device SPEC]
    python bench/bench_images.py [same options]

Operations (skipped on devices without image support):

- ``image_from_array`` of a 512x512 RGBA uint8 array (1 MiB: create, copy
  in, release);
- a full blocking read back of that image into a numpy array;
- ``create_image`` of a 512x512 RGBA8 image without host memory + release;
- a 16x16 sub-region write and read (small transfers: Python overhead);
- ``enqueue_fill_image`` of the whole image (+ wait);
- ``enqueue_map_image`` of the whole image + release of the map (+ wait);
- ``Sampler`` create + release (PyOpenCL's Sampler has no ``release``: it
  goes when collected, at once on CPython).
"""

import harness
import numpy as np

TITLE = "Images and samplers"

NAMES = [
    ("image_from_array 512x512 RGBA8 + release", "object"),
    ("read back 512x512 RGBA8", "driver"),
    ("create_image 512x512 + release", "object"),
    ("write 16x16 region", "driver"),
    ("read 16x16 region", "driver"),
    ("fill 512x512 (+ wait)", "driver"),
    ("map+unmap 512x512 (+ wait)", "driver"),
    ("Sampler create+release", "object"),
]


def operations(s):
    why = s.image_skip()
    if why:
        return [harness.Op(name, kind=kind, skip=why) for name, kind in NAMES]
    cl, ctx, queue = s.cl, s.ctx, s.queue
    mf = cl.mem_flags
    rgba = np.random.default_rng(0).integers(0, 256, (512, 512, 4), dtype=np.uint8)
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
    img = cl.image_from_array(ctx, rgba, 4)
    out = np.empty_like(rgba)
    small = rgba[:16, :16].copy()
    rw = cl.create_image(ctx, mf.READ_WRITE, fmt, (512, 512))
    color = np.array([1, 2, 3, 4], np.uint32)

    def from_array():
        cl.image_from_array(ctx, rgba, 4).release()

    def read_back():
        cl.enqueue_copy(queue, out, img, origin=(0, 0), region=(512, 512))

    def create_release():
        cl.create_image(ctx, mf.READ_WRITE, fmt, (512, 512)).release()

    def small_write():
        cl.enqueue_copy(queue, rw, small, origin=(100, 200), region=(16, 16))

    def small_read():
        cl.enqueue_copy(queue, small, rw, origin=(100, 200), region=(16, 16))

    def fill():
        cl.enqueue_fill_image(queue, rw, color, (0, 0), (512, 512)).wait()

    def map_unmap():
        # PyOpenCL returns (array, event, row_pitch, slice_pitch); pycl (array, event)
        ary = cl.enqueue_map_image(queue, rw, cl.map_flags.READ, (0, 0), (512, 512), (512, 512, 4), np.uint8)[0]
        ary.base.release().wait()

    def sampler():
        sampler = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP, cl.filter_mode.NEAREST)
        if hasattr(sampler, "release"):
            sampler.release()

    read_back()
    assert np.array_equal(out, rgba)
    functions = [from_array, read_back, create_release, small_write, small_read, fill, map_unmap, sampler]
    nbytes = [None, rgba.nbytes, None, None, None, rgba.nbytes, None, None]
    return [harness.Op(name, fn, kind=kind, nbytes=n) for (name, kind), fn, n in zip(NAMES, functions, nbytes)]


if __name__ == "__main__":
    harness.main(default_only=["images"])
