"""pycl quickstart: a context on the embedded default device (the pip PoCL,
or the device PYOPENCL_CTX names), data moved through buffers and back."""

import os
import time

import numpy as np

import pycl as cl


def default_context():
    if os.environ.get("PYOPENCL_CTX"):
        return cl.create_some_context(interactive=False)
    # The embedded default device is PoCL on the CPU; other vendors may come first.
    for platform in cl.get_platforms():
        if "Portable Computing Language" in platform.name and platform.get_devices():
            return cl.Context(platform.get_devices()[:1])
    return cl.create_some_context(interactive=False)


def step(text, started):
    print("  %-52s %8.3f ms" % (text, (time.perf_counter() - started) * 1e3))


def main():
    ctx = default_context()
    queue = cl.CommandQueue(ctx)
    device = queue.device
    print("device:   %s" % device.name)
    print("platform: %s (%s)" % (device.platform.name, device.version))

    host = np.arange(4 << 20, dtype=np.float32)  # 16 MiB
    mf = cl.mem_flags
    t = time.perf_counter()
    a = cl.Buffer(ctx, mf.READ_WRITE, size=host.nbytes)
    b = cl.Buffer(ctx, mf.READ_WRITE, size=host.nbytes)
    step("two buffers of %d MiB" % (host.nbytes >> 20), t)

    t = time.perf_counter()
    cl.enqueue_copy(queue, a, host)
    step("host -> buffer a", t)
    t = time.perf_counter()
    cl.enqueue_copy(queue, b, a).wait()
    step("buffer a -> buffer b", t)
    t = time.perf_counter()
    cl.enqueue_fill_buffer(queue, b, np.float32(-1), 0, 1024 * 4).wait()
    step("fill the first 1024 floats of b with -1", t)
    t = time.perf_counter()
    middle = b[4096 * 4 : 8192 * 4]  # a sub-buffer: bytes [16384, 32768)
    cl.enqueue_copy(queue, middle, np.zeros(4096, np.float32))
    step("zero b[4096:8192] through a sub-buffer", t)

    t = time.perf_counter()
    back = np.empty_like(host)
    cl.enqueue_copy(queue, back, b)
    step("buffer b -> host", t)

    expected = host.copy()
    expected[:1024] = -1
    expected[4096:8192] = 0
    assert np.array_equal(back, expected), "the round trip changed the data"
    print("round trip verified: %d floats, %.1f MiB moved" % (back.size, 4 * host.nbytes / 2**20))


if __name__ == "__main__":
    main()
