# Type aliases that pycl's annotations share. A stub only: modules import it
# under `if TYPE_CHECKING:` (their annotations are strings, from
# `from __future__ import annotations`), so nothing here runs.
from collections.abc import Sequence
from typing import Any

import numpy as np
from _typeshed import ReadableBuffer, WriteableBuffer

from pycl.event import Event

# `wait_for=`: events to wait for, or None.
WaitList = Sequence[Event] | None
# Host memory a transfer reads (bytes, bytearray, memoryview, numpy arrays
# and scalars, anything with the buffer protocol) or writes (a writable one).
# numpy's stubs give arrays and scalars `__buffer__` only for Python 3.12 and
# later, so they are named as well.
HostSource = ReadableBuffer | np.ndarray[Any, Any] | np.generic
HostDestination = WriteableBuffer | np.ndarray[Any, Any]
# An origin, region or shape: up to three ints (numpy integers accepted).
Extent = Sequence[int | np.integer[Any]]
# A size or offset: an int or a numpy integer.
Size = int | np.integer[Any]
