"""How ``pycl.mpi`` moves data: the chunk size and slot count of its
pipeline, which devices go through pinned slots, whether ranks of one node
use a shared window and its slots, and how long an operation may wait
without progress before it raises ``CommTimeoutError``."""

from __future__ import annotations

from typing import Any, Optional

from pycl import constants as _constants
from pycl._args import SIZE_LIMIT, bounded_value
from pycl.errors import logic_error

__all__ = ["configure", "settings", "staged", "shared_chunk"]

_dt = _constants.device_type
# chunk_bytes and slots: a chunk must be large enough that MPI's and the
# driver's per-message costs vanish, and there must be enough slots in flight
# that the device and MPI both stay busy (docs/mpi.md has the sweep).
_settings: dict[str, Any] = {
    "chunk_bytes": 8 << 20,
    "slots": 4,
    "device_types": _dt.GPU | _dt.ACCELERATOR,
    "timeout": 120.0,
    "shared": True,
    "shared_slots": 4,
    "shared_chunk_bytes": 0,
}
# The shared window's slot size where shared_chunk_bytes is 0 (by device):
# a GPU's staged copy into shared memory only reaches the link's speed with
# large copies, while on CPU devices the copy is a memcpy best kept within
# the caches' reach, and the window is slots x chunk of every rank's memory.
_SHARED_CHUNK_STAGED = 64 << 20
_SHARED_CHUNK_MAPPED = 4 << 20


def settings() -> dict[str, Any]:
    """The current settings (a copy): ``chunk_bytes``, ``slots``,
    ``device_types``, ``timeout``, ``shared``, ``shared_slots`` and
    ``shared_chunk_bytes``."""
    return dict(_settings)


def configure(
    chunk_bytes: Optional[int] = None,
    slots: Optional[int] = None,
    device_types: Optional[int] = None,
    timeout: Optional[float] = None,
    shared: Optional[bool] = None,
    shared_slots: Optional[int] = None,
    shared_chunk_bytes: Optional[int] = None,
) -> None:
    """Change the settings; ``None`` keeps a value.

    - ``chunk_bytes`` (default 8 MiB): the size of the messages a transfer is
      cut into. Every rank of a communicator must use the same: an operation
      between ranks that differ raises ``LogicError`` on each.
    - ``slots`` (default 4, at least 2): pinned slots per transfer direction,
      the chunks in flight at once.
    - ``device_types`` (default GPU | ACCELERATOR): the devices whose memory
      goes through pinned slots; others (CPU devices) are mapped and handed
      to MPI directly. A device that also reports CPU (Oclgrind reports every
      type) is staged only if CPU is named.
    - ``timeout`` (default 120 seconds): an operation that makes no progress
      (no chunk, header or device copy completes) for this long raises
      ``CommTimeoutError``; ``float('inf')`` waits for ever.
    - ``shared`` (default True): ranks of one node (``COMM_TYPE_SHARED``)
      move data through a window of shared memory that each ``Comm`` makes
      when it is made, rather than through MPI messages. Read when a
      ``Comm`` is made; an operation between ranks whose Comms differ
      raises ``LogicError`` on each.
    - ``shared_slots`` (default 4, at least 2) and ``shared_chunk_bytes``
      (default 0: 64 MiB on devices that go through pinned slots, 4 MiB on
      others; else at least 64): the slots of this rank's part of the window, each the size of
      a chunk; read when a ``Comm`` is made.
    """
    routine = "pycl.mpi.configure"
    values: dict[str, Any] = {}
    if chunk_bytes is not None:
        values["chunk_bytes"] = bounded_value(chunk_bytes, "chunk_bytes", routine, SIZE_LIMIT)
        if values["chunk_bytes"] == 0:
            raise logic_error(routine, "chunk_bytes = 0 is not positive")
    if slots is not None:
        values["slots"] = bounded_value(slots, "slots", routine, 1024)
        if values["slots"] < 2:
            raise logic_error(routine, "slots must be at least 2 (device copies run beside MPI), got %d" % slots)
    if device_types is not None:
        values["device_types"] = bounded_value(device_types, "device_types", routine, SIZE_LIMIT)
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise TypeError("%s: timeout must be a number of seconds, not %s" % (routine, type(timeout).__name__))
        if not timeout > 0:
            raise logic_error(routine, "timeout = %r is not positive" % (timeout,))
        values["timeout"] = float(timeout)
    if shared is not None:
        if not isinstance(shared, bool):
            raise TypeError("%s: shared must be a bool, not %s" % (routine, type(shared).__name__))
        values["shared"] = shared
    if shared_slots is not None:
        values["shared_slots"] = bounded_value(shared_slots, "shared_slots", routine, 1024)
        if values["shared_slots"] < 2:
            raise logic_error(
                routine, "shared_slots must be at least 2 (a slot fills while another drains), got %d" % shared_slots
            )
    if shared_chunk_bytes is not None:
        values["shared_chunk_bytes"] = bounded_value(shared_chunk_bytes, "shared_chunk_bytes", routine, SIZE_LIMIT)
        if 0 < values["shared_chunk_bytes"] < 64:
            # A collective's chunk is whole elements of every rank's slot.
            raise logic_error(
                routine, "shared_chunk_bytes = %d is below 64 (0: by device), room for any element" % shared_chunk_bytes
            )
    _settings.update(values)


def staged(device_type: int) -> bool:
    """True if memory of a device of ``device_type`` moves through pinned
    slots rather than by mapping."""
    wanted = _settings["device_types"]
    return bool(device_type & wanted) and not (device_type & _dt.CPU and not wanted & _dt.CPU)


def shared_chunk(device_type: int) -> int:
    """The slot size of the shared window for a device of ``device_type``."""
    chunk = _settings["shared_chunk_bytes"]
    if chunk:
        return int(chunk)
    return _SHARED_CHUNK_STAGED if staged(device_type) else _SHARED_CHUNK_MAPPED
