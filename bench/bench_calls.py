"""The other small calls: device-side copies and fills, markers, waits, info
queries, kernel arguments and objects, pycl against PyOpenCL on one device.

    python bench/run.py --only calls [--pypy PATH] [--device SPEC]
    python bench/bench_calls.py [same options]

The calls the other modules leave out, each as programs write it, on objects
made once (a 4 KiB buffer pair, two 64x64 RGBA8 images, a complete event, a
two-argument kernel); a batch ends with ``queue.finish()``:

- device-side copies: buffer to buffer (whole, and 256 bytes at offsets),
  image to image, image to buffer and buffer to image (16x16 regions), and
  ``enqueue_fill_buffer`` of 4 KiB with a float32 pattern;
- a non-blocking 4 KiB write, a blocking read of 2 KiB at an offset;
- ``enqueue_marker`` and ``enqueue_barrier``, a marker after an event;
  ``event.wait()``, ``wait_for_events``, ``queue.finish()`` and
  ``queue.flush()`` with nothing queued;
- info reads: ``device.name``, ``device.max_work_group_size``,
  ``event.command_execution_status`` (each a driver query in both libraries);
- ``kernel.set_arg`` of a buffer and ``set_args`` of a buffer and a scalar;
- objects: ``Buffer`` of 4 KiB with ``COPY_HOST_PTR`` and with
  ``USE_HOST_PTR``, a ``CommandQueue``, a ``Sampler`` (dropped: PyOpenCL's has no ``release``),
  ``get_supported_image_formats`` (a list of ``ImageFormat``).

Calls that reach the driver have kind "driver" (the 1.1x target on CPython),
objects "object".
"""

import harness
import numpy as np

TITLE = "Other small calls"


def operations(s):
    cl, ctx, queue, device = s.cl, s.ctx, s.queue, s.device
    mf = cl.mem_flags
    a = cl.Buffer(ctx, mf.READ_WRITE, 4096)
    b = cl.Buffer(ctx, mf.READ_WRITE, 4096)
    host = np.zeros(1024, np.float32)
    half = np.zeros(512, np.float32)
    pattern = np.float32(1.5)
    done = cl.enqueue_marker(queue)
    done.wait()
    waits = [done]
    ops = [
        harness.Op("copy buffer to buffer 4 KiB", lambda: cl.enqueue_copy(queue, b, a)),
        harness.Op(
            "copy 256 B between buffers at offsets",
            lambda: cl.enqueue_copy(queue, b, a, byte_count=256, src_offset=512, dst_offset=1024),
        ),
        harness.Op("enqueue_fill_buffer 4 KiB", lambda: cl.enqueue_fill_buffer(queue, a, pattern, 0, 4096)),
        harness.Op("write 4 KiB non-blocking", lambda: cl.enqueue_copy(queue, a, host, is_blocking=False)),
        harness.Op("read 2 KiB at an offset (blocking)", lambda: cl.enqueue_copy(queue, half, a, src_offset=1024)),
        harness.Op("enqueue_marker", lambda: cl.enqueue_marker(queue)),
        harness.Op("enqueue_barrier", lambda: cl.enqueue_barrier(queue)),
        harness.Op("enqueue_marker after an event", lambda: cl.enqueue_marker(queue, wait_for=waits)),
        harness.Op("event.wait() (complete)", done.wait),
        harness.Op("wait_for_events([event]) (complete)", lambda: cl.wait_for_events(waits)),
        harness.Op("queue.finish() (nothing queued)", queue.finish),
        harness.Op("queue.flush() (nothing queued)", queue.flush),
        harness.Op("device.name", lambda: device.name),
        harness.Op("device.max_work_group_size", lambda: device.max_work_group_size),
        harness.Op("event.command_execution_status", lambda: done.command_execution_status),
    ]

    image_skip = s.image_skip()
    if image_skip is None:
        fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNSIGNED_INT8)
        img = cl.create_image(ctx, mf.READ_WRITE, fmt, (64, 64))
        img2 = cl.create_image(ctx, mf.READ_WRITE, fmt, (64, 64))
        image_ops = [
            lambda: cl.enqueue_copy(queue, img2, img, src_origin=(0, 0), dest_origin=(16, 16), region=(16, 16)),
            lambda: cl.enqueue_copy(queue, a, img, offset=0, origin=(8, 8), region=(16, 16)),
            lambda: cl.enqueue_copy(queue, img, a, offset=0, origin=(8, 8), region=(16, 16)),
            lambda: cl.get_supported_image_formats(ctx, mf.READ_WRITE, cl.mem_object_type.IMAGE2D),
        ]
    else:
        image_ops = [None] * 4
    image_names = [
        "copy image to image 16x16",
        "copy image to buffer 16x16",
        "copy buffer to image 16x16",
        "get_supported_image_formats",
    ]
    for name, fn in zip(image_names, image_ops):
        kind = "object" if name.startswith("get_") else "driver"
        ops.append(harness.Op(name, fn, kind=kind, skip=image_skip))

    try:
        program = cl.Program(ctx, "__kernel void k(__global float *a, float s) { a[get_global_id(0)] = s; }").build()
        knl = cl.Kernel(program, "k")
        knl_skip = None
    except Exception as error:  # noqa: BLE001 - any build failure: the rows say why
        knl, knl_skip = None, "the device cannot build the kernel: %s" % str(error).splitlines()[0][:200]
    scalar = np.float32(2)
    ops.append(harness.Op("kernel.set_arg(0, buffer)", knl and (lambda: knl.set_arg(0, a)), skip=knl_skip))
    ops.append(harness.Op("kernel.set_args(buffer, float32)", knl and (lambda: knl.set_args(a, scalar)), skip=knl_skip))

    ops += [
        harness.Op(
            "Buffer 4 KiB COPY_HOST_PTR + release",
            lambda: cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=host).release(),
            kind="object",
        ),
        harness.Op(
            "Buffer 4 KiB USE_HOST_PTR + release",
            lambda: cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=host).release(),
            kind="object",
        ),
        harness.Op("CommandQueue(ctx)", lambda: cl.CommandQueue(ctx), kind="object"),
        harness.Op(
            "Sampler (dropped)",
            lambda: cl.Sampler(ctx, False, cl.addressing_mode.CLAMP, cl.filter_mode.NEAREST),
            kind="object",
            skip=image_skip,
        ),
    ]
    queue.finish()
    return ops


if __name__ == "__main__":
    harness.main(default_only=["calls"])
