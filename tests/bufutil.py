"""Helpers shared by the buffer tests: filled buffers with their numpy
models, whole-buffer reads, and the context's sub-buffer alignment."""

import numpy as np

import pycl as cl


def filled(ctx, size, seed=0):
    """A buffer of ``size`` random bytes and the numpy model of its contents."""
    model = np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8)
    return cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=model), model


def read_all(queue, buf):
    """Every byte of ``buf``, read back into a new array."""
    host = np.empty(buf.size, np.uint8)
    cl.enqueue_copy(queue, host, buf)
    return host


def align_of(ctx):
    """The sub-buffer alignment in bytes that every device of ``ctx`` accepts."""
    return max(d.mem_base_addr_align // 8 for d in ctx.devices)
