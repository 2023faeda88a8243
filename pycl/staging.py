"""Staged host<->buffer copies for GPUs: large transfers from or to ordinary
(pageable) host memory go through pinned slots that host threads fill and
drain while the device moves other slots (cl_shim/include/pycl/staging.h).

A GPU driver copies pageable memory through its own small pinned buffer with
one thread: NVIDIA's OpenCL (CUDA 13, H200) moves 256 MiB from a numpy array
at ~8.4 GB/s but from pinned memory at ~55 GB/s (QUIRKS.md). ``enqueue_copy``
stages a buffer write or read when

- it is blocking (the default) and moves at least ``min_bytes`` (default
  8 MiB),
- the queue's device type is in ``device_types`` (default: GPU and
  accelerator; staging a CPU device's copy only adds a copy, and a device
  that also reports CPU, as Oclgrind reports every type, is staged only if
  ``device_types`` names CPU),
- the queue is in-order, and
- the host memory is not already pinned (``pycl.pinned`` arrays).

Only blocking copies are staged: the host threads of a staged copy wait for
the device to drain slots, that is for the queue to progress, which a
non-blocking call must never do (a command gated by a user event the caller
completes later would wait forever). Non-blocking copies take the driver's
path.
"""

import os

from pycl._lib import ffi, lib
from pycl import budget as _budget
from pycl import constants as _constants
from pycl.errors import check, logic_error

__all__ = ["configure", "settings"]

_dt = _constants.device_type
# Defaults from a sweep on the H200 machine (16 cores, 256 MiB, 2026-11-22):
# 2 MiB chunks with 8 threads staged 46.8 GB/s host to device and 43.2 GB/s
# back (12 threads: 46.4 / 46.6), against the driver's 9.3 / 16.1 GB/s from
# the same numpy arrays and 55.2 / 55.1 GB/s from pinned arrays; 16 MiB
# chunks reached only ~30 GB/s.
_settings = {
    "min_bytes": 8 << 20,
    "chunk_bytes": 2 << 20,
    "threads": max(1, min(12, (os.cpu_count() or 2) * 3 // 4)),
    "device_types": _dt.GPU | _dt.ACCELERATOR,
}
# The smallest transfer enqueue_copy considers staging (read on every copy).
threshold = _settings["min_bytes"]


def settings():
    """The current staging settings (a copy)."""
    return dict(_settings)


def configure(min_bytes=None, chunk_bytes=None, threads=None, device_types=None):
    """Change when and how copies are staged. ``min_bytes=None`` keeps the
    current value; to turn staging off, pass ``device_types=0``. New settings
    apply to contexts that have not staged a copy yet."""
    global threshold
    for name, value in (("min_bytes", min_bytes), ("chunk_bytes", chunk_bytes), ("threads", threads)):
        if value is not None and (not isinstance(value, int) or value < 1):
            raise logic_error("staging.configure", "%s must be a positive int, got %r" % (name, value))
    if threads is not None and threads > 64:
        raise logic_error("staging.configure", "threads = %d exceeds the limit of 64" % threads)
    for name, value in (
        ("min_bytes", min_bytes),
        ("chunk_bytes", chunk_bytes),
        ("threads", threads),
        ("device_types", device_types),
    ):
        if value is not None:
            _settings[name] = value
    threshold = _settings["min_bytes"]


def stager(queue, host):
    """The context's stager if a copy between ``host`` and ``queue``'s device
    should be staged, else None."""
    device_type = queue._device.type
    wanted = _settings["device_types"]
    # A device that is also a CPU is staged only if CPUs are asked for:
    # Oclgrind claims every type, and crashes when several threads enqueue.
    if not device_type & wanted or device_type & _dt.CPU and not wanted & _dt.CPU:
        return None
    if not queue.is_in_order or _is_pinned(host):
        return None
    context = queue._context
    found = context._stager
    if found is None:
        chunk = _settings["chunk_bytes"]
        threads = _threads_for(queue._device, _settings["threads"])
        if _budget.enabled:
            _budget.charge(context, 2 * threads * chunk)  # the pinned slots, freed with the context
        out = ffi.new("struct pycl_stager **")
        status = lib.pycl_stager_create(context._live(), queue._live(), chunk, 2 * threads, threads, out)
        check(status, "pycl_stager_create", "%d slots of %d bytes" % (2 * threads, chunk))
        found = context._stager = ffi.gc(out[0], lib.pycl_stager_free)
    return found


def _threads_for(device, threads):
    """One host thread on drivers that crash when several threads enqueue on
    one queue at once (docs/quirks.md): Oclgrind 21.10 (any two threads) and
    the pip PoCL 3.0-rc2 (three threads: 8 crashes in 8 runs; Debian's PoCL
    3.1 and NVIDIA's OpenCL run 3 to 12 threads cleanly)."""
    platform = device.platform
    if platform.name == "Oclgrind" or "PoCL 3.0-rc2" in platform.version:
        return 1
    return threads


def _is_pinned(host):
    """True for arrays over pinned memory (a mapped ALLOC_HOST_PTR buffer)."""
    from pycl.mapping import MemoryMap

    obj = host
    for _ in range(8):  # views of views ... of a pinned array
        if isinstance(obj, MemoryMap):
            return bool(obj._mem._flags & _constants.mem_flags.ALLOC_HOST_PTR)
        obj = getattr(obj, "base", None)
        if obj is None:
            return False
    return False
