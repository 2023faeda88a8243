"""How ``pycl.mpi`` moves data: the chunk size and slot count of its
pipeline, which devices go through pinned slots, and how long an operation
may wait without progress before it raises ``CommTimeoutError``."""

from __future__ import annotations

from typing import Any, Optional

from pycl import constants as _constants
from pycl._args import SIZE_LIMIT, bounded_value
from pycl.errors import logic_error

__all__ = ["configure", "settings", "staged"]

_dt = _constants.device_type
# chunk_bytes and slots: a chunk must be large enough that MPI's and the
# driver's per-message costs vanish, and there must be enough slots in flight
# that the device and MPI both stay busy (docs/mpi.md has the sweep).
_settings: dict[str, Any] = {
    "chunk_bytes": 8 << 20,
    "slots": 4,
    "device_types": _dt.GPU | _dt.ACCELERATOR,
    "timeout": 120.0,
}


def settings() -> dict[str, Any]:
    """The current settings (a copy): ``chunk_bytes``, ``slots``,
    ``device_types`` and ``timeout``."""
    return dict(_settings)


def configure(
    chunk_bytes: Optional[int] = None,
    slots: Optional[int] = None,
    device_types: Optional[int] = None,
    timeout: Optional[float] = None,
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
    _settings.update(values)


def staged(device_type: int) -> bool:
    """True if memory of a device of ``device_type`` moves through pinned
    slots rather than by mapping."""
    wanted = _settings["device_types"]
    return bool(device_type & wanted) and not (device_type & _dt.CPU and not wanted & _dt.CPU)
